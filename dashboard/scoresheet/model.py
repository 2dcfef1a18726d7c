"""The protocol of one game as the Revisor keeps it (RULES.md §12), as plain rows.

    >>> from table_controller.rules.replay import replay_lines
    >>> lines = [
    ...     '{"do": "table", "players": ["Anna", "Bo", "Cilla"]}',
    ...     '{"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Cilla"}',
    ...     '{"do": "adjust", "player": "Bo", "points": 3, "reason": "a miscount"}',
    ... ]
    >>> engine, doc = replay_lines(lines)
    >>> [(row.name, row.score) for row in game_sheet(doc["games"][0]).rows]
    [('Anna', 0), ('Bo', 3), ('Cilla', 0)]

The PDF and the SVG draw the same rows; this module decides what is on the form, the
renderers only how it looks.  Input is one entry of the REPLAY.md document's ``games``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import DashboardError


@dataclass(frozen=True, slots=True)
class SheetRow:
    name: str
    said_chicago: bool  # r10: the name is circled
    stars: int  # r10, r24: one asterisk per won Chicago
    awards: tuple[int, ...]  # every award in order, signed (r19, r31: even past 52)
    score: int
    place: int | None
    placement_points: float | int | None

    @property
    def marks(self) -> int:
        """Tally marks: every point awarded, in fences of five (r9)."""
        return sum(p for p in self.awards if p > 0)

    @property
    def minus(self) -> int:
        """Points taken away (Chicago lost or broken, penalties, zeroing), drawn apart."""
        return -sum(p for p in self.awards if p < 0)


@dataclass(frozen=True, slots=True)
class GameSheet:
    number: int
    finished: bool
    winner: str | None
    rows: tuple[SheetRow, ...]
    deals: tuple[tuple[int, str, tuple[tuple[str, int, str], ...]], ...]  # (deal, button, awards)
    out_without_chicago: tuple[str, ...]


def fences(marks: int) -> list[int]:
    """Marks grouped in fences of five: 12 -> [5, 5, 2]."""
    if marks <= 0:
        return []
    full, rest = divmod(marks, 5)
    return [5] * full + ([rest] if rest else [])


def fmt_points(v: Any) -> str:
    if v is None:
        return ""
    return f"{v:g}" if isinstance(v, float) else str(v)


def game_sheet(game: Mapping[str, Any]) -> GameSheet:
    """One game of the REPLAY.md document as the Revisor's protocol."""
    try:
        names = list(game["scores"])
        said = set(game["said_chicago"])
        won = dict(game["won_chicagos"])
        awards: dict[str, list[int]] = {n: [] for n in names}
        deals = []
        for d in game["deals"]:
            row = []
            for a in d["awards"]:
                awards.setdefault(a["player"], []).append(int(a["points"]))
                row.append((a["player"], int(a["points"]), str(a["reason"])))
            deals.append((int(d["number"]), str(d.get("button") or ""), tuple(row)))
        rows = tuple(
            SheetRow(
                name=n,
                said_chicago=n in said,
                stars=int(won.get(n, 0)),
                awards=tuple(awards.get(n, [])),
                score=int(game["scores"][n]),
                place=game["places"].get(n),
                placement_points=game["placement_points"].get(n),
            )
            for n in names
        )
        return GameSheet(
            int(game["number"]),
            bool(game["finished"]),
            game.get("winner"),
            rows,
            tuple(deals),
            tuple(game.get("out_without_chicago", ())),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DashboardError(f"not a game of the replay document (REPLAY.md): {exc!r}") from exc


def document_sheets(doc: Mapping[str, Any]) -> list[GameSheet]:
    games = doc.get("games") if isinstance(doc, Mapping) else None
    if not isinstance(games, list):
        raise DashboardError("the document has no 'games' list (REPLAY.md output)")
    return [game_sheet(g) for g in games]
