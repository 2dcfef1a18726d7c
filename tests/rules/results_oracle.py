"""Game and table results worked out from RULES.md §8-§9 alone, to check the engine's by value.

Written apart from the engine (it reads only the replay document's per-game facts:
winner, scores, won Chicagos, who went out), so a wrong rule in the engine's placement or
ranking code cannot also be in the answer it is checked against.
"""

from __future__ import annotations

from fractions import Fraction

PLACEMENT_POINTS = {"sm2025": (20, 12, 8, 5), "sm2019": (20, 12, 8, 5), "shootout": (4, 3, 2, 1), "classic": ()}
ADVANCING = {"sm2025": 2, "sm2019": 1, "shootout": 1, "classic": 0}  # r7, heat 1


def _num(x: Fraction):
    return int(x) if x.denominator == 1 else float(x)


def game_result(ruleset: str, game: dict) -> tuple[dict[str, int], dict[str, float]]:
    """Places and placement points of one finished game (r19 end, D9)."""
    table = list(PLACEMENT_POINTS[ruleset]) + [0] * len(game["scores"])
    winner = game["winner"]
    outs = game["out_without_chicago"]
    won = game["won_chicagos"]
    # the winner first; the rest by score, then won Chicagos; those out without Chicago
    # last, the one who went out first the very last (D9)
    rest = [p for p in game["scores"] if p != winner and p not in outs]
    rest.sort(key=lambda p: (-game["scores"][p], -won.get(p, 0)))
    groups: list[list[str]] = [[winner]] if winner else []
    for p in rest:
        key = (game["scores"][p], won.get(p, 0))
        if groups and groups[-1][0] != winner and (game["scores"][groups[-1][0]], won.get(groups[-1][0], 0)) == key:
            groups[-1].append(p)
        else:
            groups.append([p])
    groups += [[p] for p in reversed(outs)]
    places, points = {}, {}
    pos = 0
    for grp in groups:
        share = Fraction(sum(table[pos : pos + len(grp)]), len(grp))
        for p in grp:
            places[p] = pos + 1
            points[p] = 0 if p in outs else _num(share)  # out: no placement points (r21)
        pos += len(grp)
    return places, points


def table_result(ruleset: str, games: list[dict], playoff_winner: str | None = None):
    """Standings (player, rank, placement points, score total, won Chicagos) and who goes
    on (r11, r7).  Equal players share a rank unless a särspel decided between them."""
    players = list(games[0]["scores"])
    tot = {p: [Fraction(0), 0, 0] for p in players}
    for g in games:
        _, pts = game_result(ruleset, g) if g["finished"] else ({}, {})
        for p in players:
            tot[p][0] += Fraction(pts.get(p, 0)).limit_denominator(1000)
            tot[p][1] += g["scores"][p]
            tot[p][2] += g["won_chicagos"].get(p, 0)
    key = {p: (-tot[p][0], -tot[p][1], -tot[p][2]) for p in players}
    ranking = sorted(players, key=lambda p: key[p])  # stable: seat order of the table action
    if playoff_winner:
        ranking.remove(playoff_winner)
        ranking.insert(0, playoff_winner)
    standings = []
    for i, p in enumerate(ranking):
        if playoff_winner and p != playoff_winner and key[p] == key[playoff_winner]:
            rank = i + 1  # placed behind the särspel winner
        else:
            rank = 1 + sum(1 for q in players if key[q] < key[p])
            if playoff_winner and p != playoff_winner and rank == 1:
                rank = 2
        standings.append(
            {
                "player": p,
                "rank": rank,
                "placement_points": _num(tot[p][0]),
                "score_total": tot[p][1],
                "won_chicagos": tot[p][2],
            }
        )
    return standings, ranking[: ADVANCING[ruleset]]
