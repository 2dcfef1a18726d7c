"""Random draws, reproducible from their seed (r7): who sits at which table in a heat,
and the seats and button of every game.

    >>> players = {"Anna": "Malmö BK", "Bo": "", "Cilla": "Malmö BK", "Dan": ""}   # name -> club
    >>> tables = draw_heat(players, heat=1, seed="8d1f", ruleset="sm2025")
    >>> tables[0]["games"][0]
    {'game': 1, 'seats': ['Bo', 'Dan', 'Anna', 'Cilla'], 'button': 'Dan', 'playoff': False}

The seed is a string; each use derives its own generator from it and a name
(``seed/heat`` and ``seed/h1-t3/game 2``), so one table's draw never depends on how many
numbers another took.  Players of one club are spread over the tables as evenly as the
numbers allow (dealt round-robin, club by club, all in random order).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from table_controller.rules.errors import WordedError  # its home now; still imported from here too
from table_controller.rules.rulesets import RULESETS

SEATS = (3, 4)  # players at an SM table (sm2025 r1)


class DrawError(WordedError, ValueError):
    """A heat that cannot be drawn (``event._draw`` says it as a ``HubError``)."""


def new_seed() -> str:
    return secrets.token_hex(8)


def seeded(seed: str, *names: object) -> random.Random:
    return random.Random("/".join([seed, *map(str, names)]))


def table_id(heat: int, number: int) -> str:
    return f"h{heat}-t{number}"


def table_sizes(n: int) -> list[int]:
    """Tables of 3 and 4 (fours first) for n players: as few tables as possible."""
    if n == 0:
        raise DrawError("no players to seat")
    k = -(-n // 4)
    threes = 4 * k - n
    if threes > k:
        raise DrawError("{n} players cannot sit at tables of {low} or {high} (r1)", n=n, low=SEATS[0], high=SEATS[1])
    return [4] * (k - threes) + [3] * threes


def draw_heat(
    players: Mapping[str, str] | Sequence[str], *, heat: int, seed: str, ruleset: str, games: int | None = None
) -> list[dict[str, Any]]:
    """The heat's tables: players (spread by club), the table action's options, and the
    seat draw of each regular game."""
    if ruleset not in RULESETS:
        raise DrawError(
            "unknown ruleset {ruleset!r}; rulesets: {rulesets}", ruleset=ruleset, rulesets=", ".join(RULESETS)
        )
    clubs = dict(players) if isinstance(players, Mapping) else {p: "" for p in players}
    sizes = table_sizes(len(clubs))
    rng = seeded(seed, "heat", heat)
    by_club: dict[str, list[str]] = {}
    for p in sorted(clubs):
        by_club.setdefault(clubs[p], []).append(p)
    order = sorted(by_club)
    rng.shuffle(order)
    order.sort(key=lambda c: -len(by_club[c]))  # stable: big clubs first, ties in random order
    dealt: list[str] = []
    for c in order:
        members = by_club[c]
        rng.shuffle(members)
        dealt += members
    seated: list[list[str]] = [[] for _ in sizes]
    t = rng.randrange(len(sizes))
    for p in dealt:  # round-robin over tables that still have a seat
        while len(seated[t]) >= sizes[t]:
            t = (t + 1) % len(sizes)
        seated[t].append(p)
        t = (t + 1) % len(sizes)
    rng.shuffle(seated)
    n_games = games or RULESETS[ruleset].games_per_table
    out = []
    for number, group in enumerate(seated, start=1):
        tid = table_id(heat, number)
        out.append(
            {
                "table": tid,
                "number": number,
                "heat": heat,
                "players": sorted(group),
                "ruleset": ruleset,
                "options": {"heat": heat},
                "games": [draw_seats(group, seed=seed, table=tid, game=g) for g in range(1, n_games + 1)],
            }
        )
    return out


def draw_seats(players: Sequence[str], *, seed: str, table: str, game: int, playoff: bool = False) -> dict[str, Any]:
    """One game's seats and button (r7), a särspel's too (r11)."""
    rng = seeded(seed, table, "game", game)
    seats = sorted(players)
    rng.shuffle(seats)
    return {"game": game, "seats": seats, "button": rng.choice(seats), "playoff": playoff}


def table_script(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The action lines that open the table as drawn: the ``table`` action (REPLAY.md);
    each game's ``game`` action follows when that game starts."""
    return [
        {
            "do": "table",
            "players": list(table["players"]),
            "ruleset": table["ruleset"],
            "options": dict(table["options"]),
        }
    ]
