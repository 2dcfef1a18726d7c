"""A small builder for action scripts in tests: the tests read like the rule book."""

from __future__ import annotations

import json
from typing import Any

from table_controller.rules.replay import replay_lines

PLAYERS = ("Anna", "Bo", "Cilla", "Dan")


def cards(text: str) -> list[str]:
    return text.split()


class Script:
    def __init__(
        self,
        ruleset: str = "sm2025",
        players=PLAYERS,
        dealer: str | None = None,
        options: dict | None = None,
        game: bool = True,
        button: str | None = None,
    ):
        self.players = list(players)
        self.lines: list[dict[str, Any]] = []
        t: dict[str, Any] = {"do": "table", "ruleset": ruleset, "players": self.players}
        if dealer:
            t["dealer"] = dealer
        if options:
            t["options"] = options
        self.lines.append(t)
        if game:
            self.game(button=button or self.players[-1])

    def add(self, **line: Any) -> Script:
        self.lines.append(line)
        return self

    def game(self, seats=None, button=None) -> Script:
        seats = list(seats or self.players)
        return self.add(do="game", seats=seats, button=button or seats[-1])

    def deal(self, **hands: str) -> Script:
        return self.add(do="deal", hands={p: cards(h) for p, h in hands.items()})

    def discard(self, player: str, text: str = "") -> Script:
        return self.add(do="discard", player=player, cards=cards(text))

    def stand(self, *players: str) -> Script:
        """Every named player (default: all) places nothing."""
        for p in players or self.players:
            self.discard(p)
        return self

    def receive(self, player: str, text: str) -> Script:
        return self.add(do="receive", player=player, cards=cards(text))

    def open(self, player: str, card: str, take: bool) -> Script:
        return self.add(do="open", player=player, card=card, take=take)

    def play(self, *pairs: str) -> Script:
        """play("Anna AS", "Bo 2C", ...)"""
        for pair in pairs:
            p, c = pair.split()
            self.add(do="play", player=p, card=c)
        return self

    def chicago(self, player: str, say: bool) -> Script:
        return self.add(do="chicago", player=player, say=say)

    def adjust(self, player: str, points: int, reason: str = "test") -> Script:
        return self.add(do="adjust", player=player, points=points, reason=reason)

    def text(self) -> list[str]:
        return [json.dumps(x) for x in self.lines]

    def run(self, strict: bool = False):
        return replay_lines(self.text(), strict=strict)

    def doc(self) -> dict:
        return self.run()[1]


def awards(doc: dict, game: int = 1, deal: int | None = None) -> list[tuple[str, int, str]]:
    g = doc["games"][game - 1]
    deals = g["deals"] if deal is None else [g["deals"][deal - 1]]
    return [(a["player"], a["points"], a["reason"]) for d in deals for a in d["awards"]]


# Hands with no pair, no straight, no flush: nothing scores.
JUNK = {
    "Anna": "AS KS QS JS 9H",
    "Bo": "2C 3C 4D 6D 8H",
    "Cilla": "2D 5C 7C 9C TC",
    "Dan": "3D 5D 7D 2H 4H",
}

# Anna leads four spades nobody can follow, then 9H: Anna wins every trick.
ANNA_SWEEPS = (
    "Anna AS",
    "Bo 2C",
    "Cilla 2D",
    "Dan 3D",
    "Anna KS",
    "Bo 3C",
    "Cilla 5C",
    "Dan 5D",
    "Anna QS",
    "Bo 4D",
    "Cilla 7C",
    "Dan 7D",
    "Anna JS",
    "Bo 6D",
    "Cilla 9C",
    "Dan 2H",
    "Anna 9H",
    "Bo 8H",
    "Cilla TC",
    "Dan 4H",
)
