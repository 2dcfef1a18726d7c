"""The view model: the whole state of a table as the views show it, built once from the
engine's state, the open alerts and the shot clocks (privileged: hidden cards included).

    >>> view = build_view(Engine())
    >>> view.phase, view.players, view.paused
    ('game_start', (), False)

Nothing here decides who sees what: ``roles.for_role`` does, and nothing else.  The
games and table documents are REPLAY.md's, public by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from table_controller.clocks import ShotClocks
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine
from table_controller.rules.events import OpenCardShown
from table_controller.rules.hands import evaluate
from table_controller.rules.phases import DealPhase, Phase
from table_controller.rules.queries import closed_trick, last_card, step7_open, trick_complete
from table_controller.rules.replay import (
    current_document,
    game_document,
    table_document,
)
from table_controller.rules.state import trick_winner
from table_controller.sensing.alerts import Alert

Document = dict[str, Any]  # a REPLAY.md document (a game, the table): public by construction


@dataclass(frozen=True, slots=True)
class PlayerView:
    name: str
    seat: int | None
    score: int
    said_chicago: bool
    won_chicagos: int
    draw_stop: bool
    out: bool
    dead_hand: bool
    hand: tuple[str, ...] | None  # hidden: the cards held
    hand_name: str | None  # hidden: what the five cards make
    placed: tuple[str, ...] | None  # hidden: face-down discards
    hand_count: int
    placed_count: int
    played: tuple[str, ...]
    violations: int
    warnings: int

    @property
    def holds_hidden(self) -> bool:
        return self.hand is not None or self.hand_name is not None or self.placed is not None

    def without_hidden(self) -> PlayerView:
        if not self.holds_hidden:
            return self
        return PlayerView(
            self.name,
            self.seat,
            self.score,
            self.said_chicago,
            self.won_chicagos,
            self.draw_stop,
            self.out,
            self.dead_hand,
            None,
            None,
            None,
            self.hand_count,
            self.placed_count,
            self.played,
            self.violations,
            self.warnings,
        )  # not replace(): 10x faster, per message

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "score": self.score,
            "said_chicago": self.said_chicago,
            "won_chicagos": self.won_chicagos,
            "draw_stop": self.draw_stop,
            "out": self.out,
            "dead_hand": self.dead_hand,
            "hand": _list(self.hand),
            "hand_name": self.hand_name,
            "placed": _list(self.placed),
            "hand_count": self.hand_count,
            "placed_count": self.placed_count,
            "played": list(self.played),
            "violations": self.violations,
            "warnings": self.warnings,
        }


@dataclass(frozen=True, slots=True)
class OpenCard:
    """The open card of the current exchange: face up to everyone (r12)."""

    player: str
    card: str
    taken: bool

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "taken": self.taken}


@dataclass(frozen=True, slots=True)
class Trick:
    number: int
    leader: str | None
    cards: tuple[tuple[str, str], ...]  # (player, card), face up
    # before the lead: the last card of the trick just closed (face up), which a take-back
    # may still bring back (r26); shown after every trick, so it says nothing of a revoke
    closed_last: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "leader": self.leader,
            "cards": [{"player": p, "card": c} for p, c in self.cards],
        }
        if self.closed_last is not None:
            out["closed_last"] = {"player": self.closed_last[0], "card": self.closed_last[1]}
        return out


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The trick closed last, face up, while no card has been played since: between two
    tricks, and after the deal's last until the next deal is dealt (its ``deal``)."""

    deal: int
    number: int
    winner: str
    cards: tuple[tuple[str, str], ...]  # (player, card), face up

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "number": self.number,
            "winner": self.winner,
            "cards": [{"player": p, "card": c} for p, c in self.cards],
        }


@dataclass(frozen=True, slots=True)
class Award:
    player: str
    points: int
    reason: str
    moment: str

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "points": self.points, "reason": self.reason, "moment": self.moment}


@dataclass(frozen=True, slots=True)
class RunningClock:
    clock: str
    remaining: float  # overtime as a negative remainder
    limit: float
    expired: bool

    def to_dict(self) -> dict[str, Any]:
        return {"clock": self.clock, "remaining": self.remaining, "limit": self.limit, "expired": self.expired}


@dataclass(frozen=True, slots=True)
class TimeCallClock:
    remaining: float
    countdown: bool

    def to_dict(self) -> dict[str, Any]:
        return {"remaining": self.remaining, "countdown": self.countdown}


@dataclass(frozen=True, slots=True)
class ClocksView:
    """The shot clocks: who, which clock, time left; no cards.  ``paused`` is the table's
    one pause (the TL's, the console's, or the restart's until the dealer resumes)."""

    paused: bool
    limits: Mapping[str, float]
    running: Mapping[str, RunningClock]
    time_calls: Mapping[str, TimeCallClock]

    @classmethod
    def of(cls, clocks: ShotClocks) -> ClocksView:
        v = clocks.view()
        return cls(
            v["paused"],
            dict(v["limits"]),
            {p: RunningClock(**r) for p, r in v["running"].items()},
            {p: TimeCallClock(**c) for p, c in v["time_calls"].items()},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "paused": self.paused,
            "limits": dict(self.limits),
            "running": {p: r.to_dict() for p, r in self.running.items()},
            "time_calls": {p: c.to_dict() for p, c in self.time_calls.items()},
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """One table at one moment, everything included; filtered by ``roles.for_role``."""

    ruleset: str | None
    seq: int
    game: int
    deal: int
    phase: Phase
    button: str | None
    to_act: tuple[str, ...]
    players: tuple[PlayerView, ...]
    open_card: OpenCard | None
    trick: Trick | None
    chicago_player: str | None
    chicago_asking: str | None
    last_award: Award | None
    games: tuple[Document, ...]
    table: Document
    clocks: ClocksView | None = None  # None: a table without a live loop (no clocks)
    alerts: tuple[Alert, ...] = ()  # open alerts: sensing's, then the table's
    signed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # game -> roles that signed
    confirmed: tuple[str, ...] = ()  # scoring moments the Revisor confirmed, "game.deal.moment"
    # a stuck table: who it waits for and on what (live.stuck; names a player and a step, no
    # card), shown by every role instead of "live"; None while the table moves
    waiting: Mapping[str, Any] | None = None
    # step 7 (r28): a four of a kind that zeroes may be announced now (every deal has this
    # moment, so it tells nothing of the hands; nobody is asked)
    quads_announce: bool = False
    last_trick: LastTrick | None = None

    @property
    def paused(self) -> bool:
        """Kept in one place, the shot clocks (the TL, the console and a restart pause them)."""
        return self.clocks.paused if self.clocks is not None else False

    def hidden_deal(self) -> str | None:
        """The deal ("game.deal") whose hidden cards this view holds, None if it holds none.

        The broadcast shows a frame's hidden cards only once this deal is no longer the live
        table's ``hidden_deal`` (it has ended): until then delayed hands minus the cards played
        live since would be the live hands (ARCHITECTURE.md §3)."""
        if any(p.holds_hidden for p in self.players):
            return f"{self.game}.{self.deal}"
        return None

    def seen(self, players: tuple[PlayerView, ...]) -> TableView:
        """This view with ``players`` instead, without alerts and signatures (they go beside
        the state in a message): ``roles.for_role``'s."""
        return TableView(
            self.ruleset,
            self.seq,
            self.game,
            self.deal,
            self.phase,
            self.button,
            self.to_act,
            players,
            self.open_card,
            self.trick,
            self.chicago_player,
            self.chicago_asking,
            self.last_award,
            self.games,
            self.table,
            self.clocks,
            waiting=self.waiting,
            quads_announce=self.quads_announce,
            last_trick=self.last_trick,
        )

    def to_dict(self) -> dict[str, Any]:
        """The "state" document of a view message (alerts and signatures go beside it)."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "seq": self.seq,
            "game": self.game,
            "deal": self.deal,
            "phase": self.phase,
            "button": self.button,
            "to_act": list(self.to_act),
            "players": [p.to_dict() for p in self.players],
            "open_card": self.open_card.to_dict() if self.open_card else None,
            "trick": self.trick.to_dict() if self.trick else None,
            "chicago": {"player": self.chicago_player, "asking": self.chicago_asking},
            "last_award": self.last_award.to_dict() if self.last_award else None,
            "games": list(self.games),
            "table": self.table,
        }
        if self.clocks is not None:
            out["clocks"] = self.clocks.to_dict()
        out["waiting"] = dict(self.waiting) if self.waiting is not None else None
        if self.quads_announce:
            out["quads_announce"] = True
        out["last_trick"] = self.last_trick.to_dict() if self.last_trick else None
        return out


def build_view(
    engine: Engine,
    alerts: Iterable[Alert] = (),
    clocks: ShotClocks | None = None,
    waiting: Mapping[str, Any] | None = None,
) -> TableView:
    """The view model of ``engine``'s table with its open ``alerts``, shot ``clocks`` and,
    for a stuck table, what it is ``waiting`` for."""
    s = engine.state
    g = s.game
    d = g.deal if g else None
    cur = current_document(engine)
    players = []
    for name in s.players:
        pg = g.players.get(name) if g else None
        hand = placed = hand_name = None
        hand_count = placed_count = 0
        played: tuple[str, ...] = ()
        if d and name in d.hands:
            cards = d.hands[name]
            hand = tuple(c.code for c in cards)
            hand_count = len(cards)
            if len(cards) == 5:
                hand_name = evaluate(cards).describe()
            on_pad = d.placed.get(name, ())
            placed = tuple(c.code for c in on_pad)
            placed_count = len(on_pad)
            played = tuple(c.code for c in d.played.get(name, []))
        players.append(
            PlayerView(
                name=name,
                seat=(g.seats.index(name) + 1) if g and name in g.seats else None,
                score=pg.score if pg else 0,
                said_chicago=bool(pg and pg.said_chicago),
                won_chicagos=pg.won_chicagos if pg else 0,
                draw_stop=bool(pg and d and name in d.order and engine.at_draw_stop(name)),
                out=bool(pg and pg.out),
                dead_hand=bool(d and (name in d.dead or name in d.folded)),
                hand=hand,
                hand_name=hand_name,
                placed=placed,
                hand_count=hand_count,
                placed_count=placed_count,
                played=played,
                violations=len(pg.violations) if pg else 0,
                warnings=pg.warnings if pg else 0,
            )
        )
    trick = None
    if d is not None and d.phase is DealPhase.TRICKS:
        if trick_complete(d) and d.pending_revoke:
            # a trick held open by a log of stop 63 (TrickHeld): shown closed, as a legal last
            # card closes it, since whether a player could follow suit is hidden
            p, c = d.trick[-1]
            trick = Trick(d.trick_number + 1, trick_winner(d)[0], (), (p, c.code))
        else:
            closed = None if d.trick else last_card(d)
            trick = Trick(
                d.trick_number,
                d.leader,
                tuple((p, c.code) for p, c in d.trick),
                (closed[0], closed[1].code) if closed else None,
            )
    last_trick = None
    taken: tuple[int, str, tuple[tuple[str, Card], ...]] | None = None
    number = 0
    if d is not None and d.phase is DealPhase.TRICKS:
        taken, number = closed_trick(d), d.number
    elif d is None and g is not None and g.deals and g.deals[-1].last_trick is not None:
        taken, number = g.deals[-1].last_trick, g.deals[-1].number
    if taken is not None:
        last_trick = LastTrick(number, taken[0], taken[1], tuple((p, c.code) for p, c in taken[2]))
    awards = [a for rec in (g.deals if g else []) for a in rec.awards] + (g.between_deals if g else [])
    last = awards[-1] if awards else None
    return TableView(
        ruleset=s.rules.name if s.rules else None,
        seq=s.seq,
        game=cur["game"],
        deal=cur["deal"],
        phase=Phase(cur["phase"]),
        button=d.button if d else None,
        to_act=tuple(cur["to_act"]),
        players=tuple(players),
        open_card=_last_open_card(engine),
        trick=trick,
        chicago_player=d.chicago if d else None,
        chicago_asking=d.asking[0] if d and d.phase is DealPhase.CHICAGO and d.asking else None,
        last_award=Award(last.player, last.points, last.reason, last.moment) if last else None,
        games=tuple(game_document(engine, x) for x in s.games if not x.playoff),
        table=table_document(engine) if s.rules else {"finished": False, "standings": []},
        clocks=ClocksView.of(clocks) if clocks is not None else None,
        alerts=tuple(alerts),
        waiting=waiting,
        quads_announce=d is not None and step7_open(s, d),
        last_trick=last_trick,
    )


def snapshot(engine: Engine) -> dict[str, Any]:
    """The whole state of the table as a document, hidden cards included (privileged)."""
    return build_view(engine).to_dict()


def hidden_deal(state: Mapping[str, Any]) -> str | None:
    """``TableView.hidden_deal`` of a "state" document as sent (a delayed frame's)."""
    if any(p.get(k) is not None for p in state.get("players", ()) for k in ("hand", "hand_name", "placed")):
        return f"{state['game']}.{state['deal']}"
    return None


def _last_open_card(engine: Engine) -> OpenCard | None:
    """The open card of the current exchange (shown face up to everyone, r12)."""
    d = engine.state.deal
    if d is None or d.phase is not DealPhase.EXCHANGE:
        return None
    for e in reversed(engine.events):
        if isinstance(e, OpenCardShown):
            return OpenCard(e.player, e.card.code, e.taken)
        if e.type in ("exchange_ended", "deal_started"):
            return None
    return None


def _list(cards: tuple[str, ...] | None) -> list[str] | None:
    return None if cards is None else list(cards)
