"""What the protocol needs beyond the replay document: the TL's decisions with their
reasons, warnings, time violations, floored corrections, and the game's own times.

    >>> facts = facts_from_script([
    ...     '{"do": "table", "players": ["Anna", "Bo", "Cilla"]}',
    ...     '{"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Cilla"}',
    ...     '{"do": "penalty", "player": "Bo", "kind": "warning", "reason": "slow play"}',
    ... ])
    >>> facts.notes[0].kind, facts.notes[0].reason
    ('warning', 'slow play')

The replay document keeps awards only (REPLAY.md); a penalty's reason, a warning and an
adjustment's requested points live in the actions and events, so they are read from the
table's log (``facts_from_records``) or by running the script again (``facts_from_script``).
Times come only from the log: a script has none, and the protocol then prints no date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules import events as ev


@dataclass(frozen=True, slots=True)
class Note:
    game: int
    deal: int | None  # the deal in play; None between deals (REPLAY.md: counted in the next)
    next_deal: int  # the deal the change is counted in
    player: str
    kind: str  # penalty, warning, adjust, violation, dead
    detail: str = ""  # penalty kind, clock or fold reason
    points: int | None = None  # applied (after the floor at 0, r19)
    asked: int | None = None  # what the TL or the rule asked for
    reason: str = ""  # the TL's own words, or a rule
    time: float | None = None


@dataclass
class LogFacts:
    notes: list[Note] = field(default_factory=list)
    game_times: dict[int, list[float]] = field(default_factory=dict)  # game -> [start, last event]
    # game -> role ("revisor", "tl") -> when it signed (RULES.md §12: "Revisorn intygar"),
    # from the audit trail's sign records; None when the record has no time
    signed: dict[int, dict[str, float | None]] = field(default_factory=dict)

    def for_game(self, number: int) -> list[Note]:
        return [n for n in self.notes if n.game == number]

    def when(self, number: int) -> tuple[float | None, float | None]:
        t = self.game_times.get(number)
        return (t[0], t[1]) if t else (None, None)

    def read_by(self, words: Callable[[str], str]) -> LogFacts:
        """The same facts with every reason as ``words`` lets one reader read it: the role
        filter's ``Sight.words`` (a reason typed during a deal, "Anna showed AS", must not
        tell a blind role where a hidden card is; the filter decides, not the protocol)."""
        return LogFacts(
            [_with(n, reason=words(n.reason)) for n in self.notes],
            dict(self.game_times),
            {g: dict(s) for g, s in self.signed.items()},
        )


class _Reader:
    """Folds (action, its events, time) in log order into notes."""

    def __init__(self) -> None:
        self.facts = LogFacts()
        self.game = 0
        self.playoff = False
        self.deal: int | None = None
        self.last_deal = 0

    def step(self, action: Mapping[str, Any] | None, events: Iterable[ev.Event], time: float | None) -> None:
        action = action or {}
        for e in events:
            if isinstance(e, ev.GameStarted):
                self.game, self.playoff, self.deal, self.last_deal = e.number, e.playoff, None, 0
            if self.playoff or not self.game:
                continue  # särspel deals are on the summary page, not on a game's form
            if time is not None:
                span = self.facts.game_times.setdefault(self.game, [time, time])
                span[1] = time
            if isinstance(e, ev.DealStarted):
                self.deal = self.last_deal = e.number
            elif isinstance(e, ev.DealEnded):
                self.deal = None
            elif isinstance(e, ev.PenaltyGiven):
                kind = "warning" if e.kind == "warning" else "penalty"
                self._note(kind, e.player, time, detail=e.kind, reason=e.reason)
            elif isinstance(e, ev.Awarded) and e.reason in ("penalty", "adjust"):
                if (
                    e.reason == "penalty"
                    and self.facts.notes
                    and self.facts.notes[-1].kind == "penalty"
                    and self.facts.notes[-1].player == e.player
                ):
                    last = self.facts.notes.pop()
                    self.facts.notes.append(_with(last, points=e.points, asked=e.asked))
                else:
                    self._note(
                        "adjust",
                        e.player,
                        time,
                        points=e.points,
                        asked=e.asked,
                        reason=str(action.get("reason", "")) if action.get("do") == "adjust" else "",
                    )
            elif isinstance(e, ev.RevokeStood) and e.dead:
                self._note("warning", e.player, time, detail="revoke", reason="r26")
            elif isinstance(e, ev.ViolationRecorded):
                self._note("violation", e.player, time, detail=e.clock, reason="r34")
            elif isinstance(e, ev.HandFolded) and e.reason == "time":
                self._note("dead", e.player, time, detail="time", reason="§2.12")

    def _note(self, kind: str, player: str, time: float | None, **kw: Any) -> None:
        nxt = self.deal if self.deal is not None else self.last_deal + 1
        self.facts.notes.append(Note(self.game, self.deal, nxt, player, kind, time=time, **kw))


def _with(n: Note, **kw: Any) -> Note:
    d = {f: getattr(n, f) for f in Note.__slots__}
    d.update(kw)
    return Note(**d)


# Events that change a finished game's result: a TL's points after it ended (a correction,
# a points penalty: r32), its places again (``game_places_revised``: last place, no placement
# points).  A warning changes no result and leaves the signatures.
RESULT_EVENTS = frozenset({ev.Awarded.type, ev.GamePlacesRevised.type})


class Signatures:
    """Who signed which game (RULES.md §12: "Revisorn intygar", then the TL), read from a
    log's records in seq order (``feed``): an audit record ``sign`` signs, and a change of a
    finished game's result after it (a correction, a penalty, its places again) voids that
    game's signatures, which then are asked for again.  Stop 71's walk-through: both
    signatures stood over places that had changed after them.

        >>> from types import SimpleNamespace as R
        >>> s = Signatures()
        >>> for kind, data in [("event", {"type": "game_started", "number": 1}), ("event", {"type": "game_ended"}),
        ...                    ("audit", {"what": "sign", "who": "revisor", "game": 1}),
        ...                    ("event", {"type": "awarded"}), ("audit", {"what": "sign", "who": "revisor", "game": 1})]:
        ...     s.feed(R(kind=kind, data=data, time=None))
        ...     print(s.signed)
        {}
        {}
        {1: {'revisor': None}}
        {}
        {1: {'revisor': None}}
    """

    def __init__(self) -> None:
        self.signed: dict[int, dict[str, float | None]] = {}
        self._game = 0  # the game now, and whether it has ended
        self._over = False

    def feed(self, rec: Any) -> None:
        """One log record (kind audit or event, with ``data`` and ``time``)."""
        data = rec.data if isinstance(rec.data, Mapping) else {}
        if rec.kind == "audit" and data.get("what") == "sign" and data.get("who") in ("revisor", "tl"):
            try:
                game = int(str(data.get("game")))
            except ValueError:
                return
            self.sign(game, str(data["who"]), rec.time)
        elif rec.kind == "event":
            self.event(str(data.get("type")), data.get("number"))

    def sign(self, game: int, who: str, time: float | None) -> None:
        self.signed.setdefault(game, {}).setdefault(who, time)

    def event(self, kind: str, number: Any = None) -> None:
        """An event of the table's, by its type (and a game's number when it starts one)."""
        if kind == ev.GameStarted.type:
            self._game, self._over = int(number or self._game + 1), False
        elif kind == ev.GameEnded.type:
            self._over = True
        elif kind in RESULT_EVENTS and self._over:
            self.signed.pop(self._game, None)


def facts_from_records(records: Iterable[Any]) -> LogFacts:
    """From a table log's records (``kind`` action / event / audit, with ``time``), in seq
    order.  Of the audit trail only the sign-offs are read (who signed which game, when, and
    whether the game's result changed after: ``Signatures``)."""
    r = _Reader()
    signatures = Signatures()
    r.facts.signed = signatures.signed
    action: Mapping[str, Any] | None = None
    for rec in records:
        signatures.feed(rec)
        if rec.kind == "action":
            action = rec.data
        elif rec.kind == "event":
            try:
                e = ev.event_from_dict(rec.data)
            except ev.EventError:
                continue  # the store checks its own events; the protocol only reads
            r.step(action, [e], rec.time)
    return r.facts


def facts_from_script(lines: Iterable[str]) -> LogFacts:
    """Run an action script (REPLAY.md) again and keep its notes; no times."""
    from table_controller.rules.actions import Action
    from table_controller.rules.engine import Engine
    from table_controller.rules.judge import judge
    from table_controller.rules.replay import read_script

    engine, r = Engine(), _Reader()
    for _, item in read_script(lines):
        if not isinstance(item, Action):
            continue
        verdict = judge(engine, item)
        if verdict.accepted:
            r.step(item.to_dict(), verdict.events, None)
    return r.facts
