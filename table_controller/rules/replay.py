"""Action scripts (REPLAY.md): read them, run them through the engine, and describe the
result as the replay document.

    >>> engine, doc = replay_lines(['{"do": "table", "players": ["A", "B", "C"]}'])
    >>> doc["current"]["phase"]
    'game_start'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from table_controller.rules.actions import Action, load_line, parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.errors import ActionError
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
        do = obj.get("do", "?") if isinstance(obj, dict) else "?"
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
