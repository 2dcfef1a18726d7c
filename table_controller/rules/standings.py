"""The table's standings over its games (r11): placement points, then total score, then
won Chicagos, then the särspel.  Plain functions of the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from table_controller.rules.state import GameState, TableState


class Totals(TypedDict):
    placement_points: float
    score_total: int
    won_chicagos: int


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the table's standings."""

    player: str
    rank: int  # players equal on every count share a rank
    placement_points: float  # a whole number is an int (shared places give halves)
    score_total: int
    won_chicagos: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rank": self.rank,
            "placement_points": self.placement_points,
            "score_total": self.score_total,
            "won_chicagos": self.won_chicagos,
        }


def table_totals(s: TableState) -> dict[str, Totals]:
    """Each player's totals over the table's regular games (a särspel does not count, r11)."""
    totals: dict[str, Totals] = {p: {"placement_points": 0, "score_total": 0, "won_chicagos": 0} for p in s.players}
    for g in s.games:
        if g.playoff:
            continue
        for p, pg in g.players.items():
            totals[p]["score_total"] += pg.score
            totals[p]["won_chicagos"] += pg.won_chicagos
            if g.finished:
                totals[p]["placement_points"] += g.placement_points.get(p, 0)
    for t in totals.values():
        v = t["placement_points"]
        t["placement_points"] = int(v) if float(v).is_integer() else v
    return totals


def standing_key(totals: dict[str, Totals], p: str) -> tuple[float, int, int]:
    t = totals[p]
    return (-t["placement_points"], -t["score_total"], -t["won_chicagos"])


def table_ranking(s: TableState) -> list[str]:
    """r11: placement points, then total score, then won Chicagos, then the särspel: its
    players in the order of its own places (its winner first), where they stood tied."""
    totals = table_totals(s)
    ranking = sorted(s.players, key=lambda p: standing_key(totals, p))
    playoff = _finished_playoff(s)
    if playoff is not None:
        at = iter(sorted(playoff.places, key=playoff.places.__getitem__))  # its winner is 1st
        ranking = [next(at) if p in playoff.places else p for p in ranking]
    return ranking


def _finished_playoff(s: TableState) -> GameState | None:
    return next((g for g in s.games if g.playoff and g.finished), None)


def advancing_count(s: TableState) -> int:
    """How many of the table go on (r7): the top 2 from heat 1, the winner from heat 2 on."""
    if s.rules is None:
        return 0
    return s.rules.advance_first_heat if s.rules.heat <= 1 else s.rules.advance_later_heats


def tie_to_settle(s: TableState, ranking: list[str]) -> list[str]:
    """The players a särspel must part (§9, r11): those equal on every count at the top (who
    wins the table), or else those equal across the line of who goes on (three equal for
    second in heat 1, one of them going on).  Empty: nothing to settle."""
    totals = table_totals(s)
    same = [p for p in ranking if standing_key(totals, p) == standing_key(totals, ranking[0])]
    if len(same) > 1:
        return same
    n = advancing_count(s)
    if 0 < n < len(ranking) and standing_key(totals, ranking[n - 1]) == standing_key(totals, ranking[n]):
        return [p for p in ranking if standing_key(totals, p) == standing_key(totals, ranking[n])]
    return []


def playoff_settled(s: TableState, scores: list[int]) -> bool:
    """Whether a särspel's scores (its players', highest first) part them where the table
    needs it: its top (when they were tied for the table's win) and the line of who goes
    on, where it runs between them.  D10: otherwise one more deal at a time."""
    totals = table_totals(s)
    group = s.playoff_players
    if not group:
        return True
    key = standing_key(totals, group[0])
    start = sum(1 for p in s.players if standing_key(totals, p) < key)  # players ahead of them
    cuts = {1} if start == 0 else set()
    inside = advancing_count(s) - start
    if 0 < inside < len(group):
        cuts.add(inside)
    return all(scores[c - 1] > scores[c] for c in cuts if c < len(scores))


def standings(s: TableState) -> list[Standing]:
    """The table's standings: the final ranking once the table is over (the särspel decides
    a tie, r11), else the order now, equal players sharing a rank."""
    if s.rules is None:
        return []
    totals = table_totals(s)
    ranking = s.ranking or table_ranking(s)
    playoff = _finished_playoff(s)
    # the särspel's players' order is decided (by its places); anyone else equal on every
    # count shares a rank, finished table or not (their order is only the table line's)
    places = playoff.places if playoff is not None else {}
    out = []
    prev_key = prev = None
    rank = 0
    for i, p in enumerate(ranking):
        t = totals[p]
        key = standing_key(totals, p)
        if key != prev_key or (p in places and prev in places and places[p] != places[prev]):
            rank = i + 1
        prev_key, prev = key, p
        out.append(Standing(p, rank, t["placement_points"], t["score_total"], t["won_chicagos"]))
    return out
