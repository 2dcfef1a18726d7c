"""Action scripts (REPLAY.md): read them, run them through the engine, and describe the
result as the replay document.

    >>> engine, doc = replay_lines(['{"do": "table", "players": ["A", "B", "C"]}'])
    >>> doc["current"]["phase"]
    'game_start'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from table_controller.rules.actions import Action, load_line, parse_action
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine
from table_controller.rules.errors import ActionError, CardError
from table_controller.rules.judge import judge
from table_controller.rules.standings import advancing_count
from table_controller.rules.state import GameState


@dataclass(frozen=True, slots=True)
class Rejection:
    line: int
    action: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "action": self.action, "reason": self.reason}


class NotUTF8(str):
    """A script's line whose bytes are not UTF-8 (``app.commands.textinput``): rejected
    with its number, as a line that is not JSON is; the rest of the script is read."""


# RULES.md §2: "Notation everywhere (files, API, logs): rank 23456789TJQKA then suit S H D
# C".  A script is such a file, and REPLAY.md says its cards use that notation: "10S", "as"
# or " QS " are rejected here, though the engine's own reader (``Card.parse``) forgives them
# to the people typing at the dashboard.
_CODE = re.compile(r"[2-9TJQKA][SHDC]")
_LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # a \uD800-\uDFFF escape in the raw line


def _card_texts(obj: dict[str, Any]) -> list[object]:
    """The values of ``obj`` (a decoded line) that its action reads as cards."""
    out: list[object] = []
    hands = obj.get("hands") if obj.get("do") == "deal" else None
    for cards in hands.values() if isinstance(hands, dict) else ():
        out += cards if isinstance(cards, list) else []
    if obj.get("do") in ("discard", "receive", "timeout") and isinstance(obj.get("cards"), list):
        out += obj["cards"]
    if obj.get("do") in ("open", "play"):
        out.append(obj.get("card"))
    return out


def notation_problem(obj: Any) -> str | None:
    """Why a decoded line's cards are not in RULES.md §2's notation, or None (values that
    are no text at all are the action's own reader's to refuse).

    >>> notation_problem({"do": "play", "player": "A", "card": "10S"})
    "'10S' is not a card in the notation of RULES.md §2: a rank of 23456789TJQKA, then a suit of SHDC (AS, TD, 2C)"
    >>> notation_problem({"do": "play", "player": "A", "card": "TS"}) is None
    True
    """
    if not isinstance(obj, dict):
        return None
    for text in _card_texts(obj):
        if isinstance(text, str) and not _CODE.fullmatch(text):
            try:
                Card.parse(text)
            except CardError:
                continue  # no card in any notation: the action's reader says so ("unknown card")
            return (
                f"{text[:8]!r} is not a card in the notation of RULES.md §2: "
                "a rank of 23456789TJQKA, then a suit of SHDC (AS, TD, 2C)"
            )
    return None


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds half a UTF-16 pair (a lone \\uD800-\\uDFFF escape):
    no text can hold it, and the document printed with it could not be written."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if any("\ud800" <= ch <= "\udfff" for ch in v):
                return True
        elif isinstance(v, dict):
            stack += list(v.keys()) + list(v.values())
        elif isinstance(v, list):
            stack += v
    return False


def read_script(lines: Iterable[str]) -> Iterable[tuple[int, Action | Rejection]]:
    """Yield (line number, action) or (line number, rejection) for each non-blank,
    non-comment line."""
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if isinstance(raw, NotUTF8):
            yield n, Rejection(n, "?", "not valid JSON: the line is not UTF-8 text")
            continue
        try:
            obj = load_line(text)
        except ActionError as exc:
            yield n, Rejection(n, "?", str(exc))
            continue
        if _LONE_SURROGATE.search(text) and _has_lone_surrogate(obj):
            yield n, Rejection(n, "?", "not valid JSON: a \\u escape names half a character (a lone surrogate)")
            continue
        do = obj.get("do", "?") if isinstance(obj, dict) else "?"
        if problem := notation_problem(obj):
            yield n, Rejection(n, do if isinstance(do, str) and len(do) <= 20 else "?", problem)
            continue
        try:
            yield n, parse_action(obj)
        except ActionError as exc:
            yield n, Rejection(n, do if isinstance(do, str) and len(do) <= 20 else "?", str(exc))


def replay_lines(lines: Iterable[str], strict: bool = False) -> tuple[Engine, dict[str, Any]]:
    """Run a whole script; with ``strict`` stop at the first rejection."""
    engine = Engine()
    rejected: list[Rejection] = []
    for n, item in read_script(lines):
        if isinstance(item, Rejection):
            rejected.append(item)
        else:
            verdict = judge(engine, item)
            if verdict.reason is not None:
                rejected.append(Rejection(n, item.do, verdict.reason))
        if strict and rejected:
            break
    return engine, replay_document(engine, rejected)


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v


def game_document(engine: Engine, g: GameState) -> dict[str, Any]:
    order = engine.state.players
    players = [p for p in order if p in g.players]
    deals = []
    for rec in g.deals:
        scores = rec.scores_after if rec.scores_after is not None else g.scores()
        deals.append(
            {
                "number": rec.number,
                "button": rec.button,
                "scores_after": {p: scores[p] for p in players},
                "awards": [
                    {"player": a.player, "points": a.points, "reason": a.reason, "moment": a.moment} for a in rec.awards
                ],
            }
        )
    return {
        "number": g.number,
        "finished": g.finished,
        "winner": g.winner,
        "scores": {p: g.players[p].score for p in players},
        "said_chicago": [p for p in players if g.players[p].said_chicago],
        "won_chicagos": {p: g.players[p].won_chicagos for p in players if g.players[p].won_chicagos},
        "out_without_chicago": list(g.out_order),
        "places": dict(sorted(g.places.items(), key=lambda kv: kv[1])),
        "placement_points": {p: _num(v) for p, v in sorted(g.placement_points.items(), key=lambda kv: g.places[kv[0]])},
        "seats": list(g.seats),
        "deals": deals,
    }


def table_document(engine: Engine) -> dict[str, Any]:
    s = engine.state
    standings = [row.to_dict() for row in engine.standings()]
    out: dict[str, Any] = {"finished": s.finished, "standings": standings}
    if s.finished and s.rules:
        out["advancing"] = list(s.ranking[: advancing_count(s)])  # r7: who goes on from this table
    playoff = next((g for g in s.games if g.playoff), None)
    if s.playoff_players:
        out["playoff"] = {
            "players": list(s.playoff_players),
            "deals": s.playoff_deals,
            "game": game_document(engine, playoff) if playoff else None,
        }
    return out


def current_document(engine: Engine) -> dict[str, Any]:
    s = engine.state
    g = s.game
    if g is None:
        return {"game": 0, "deal": 0, "phase": "game_start", "to_act": [], "scores": {}}
    number = g.deal.number if g.deal else len(g.deals) + (0 if g.finished else 1)
    return {
        "game": g.number,
        "deal": number,
        "phase": engine.phase,
        "to_act": engine.to_act(),
        "scores": {p: g.players[p].score for p in s.players if p in g.players},
    }


def replay_document(engine: Engine, rejected: Iterable[Rejection] = ()) -> dict[str, Any]:
    s = engine.state
    return {
        "ruleset": s.rules.name if s.rules else None,
        "games": [game_document(engine, g) for g in s.games if not g.playoff],
        "table": table_document(engine),
        "current": current_document(engine),
        "rejected": [r.to_dict() for r in rejected],
    }
