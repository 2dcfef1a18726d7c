"""Scripts of physical moves for the virtual table, one move per line:

put AS seat2          a card lands on a pad (deal, place, play)
deal seat1 AS KS 2C   several cards onto one pad
remove AS [stub|hand:seat2]
pickup seat2          the pad's cards go into the player's hand (tray: to the dealer)
tray AS               a card goes onto the discard tray
press next            a console button
button seat3          the dealer button puck moves to a seat
unplug / replug / reboot / hang / resume
fail seat3 / heal seat3   a reader breaks / recovers
wait 0.2              seconds
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import VirtualTableError

_ARITY = {
    "put": (2, 2),
    "deal": (2, 99),
    "remove": (1, 2),
    "pickup": (1, 1),
    "tray": (1, 1),
    "press": (1, 1),
    "button": (1, 1),
    "unplug": (0, 0),
    "replug": (0, 0),
    "reboot": (0, 0),
    "hang": (0, 0),
    "resume": (0, 0),
    "fail": (1, 1),
    "heal": (1, 1),
    "wait": (1, 1),
}


@dataclass(frozen=True, slots=True)
class Move:
    kind: str
    args: tuple[str, ...] = ()

    @classmethod
    def parse(cls, line: str) -> Move:
        words = line.split()
        if not words or words[0] not in _ARITY:
            raise VirtualTableError(f"unknown move {line!r}; moves: {', '.join(_ARITY)}")
        lo, hi = _ARITY[words[0]]
        if not lo <= len(words) - 1 <= hi:
            raise VirtualTableError(f"move {line!r}: '{words[0]}' takes {lo}..{hi} words after it")
        if words[0] == "wait":
            try:
                if not 0 <= float(words[1]) <= 60:
                    raise ValueError
            except ValueError:
                raise VirtualTableError(f"move {line!r}: wait takes seconds, 0..60") from None
        return cls(words[0], tuple(words[1:]))

    def __str__(self) -> str:
        return " ".join((self.kind,) + self.args)

    def apply(self, table) -> None:
        k, a = self.kind, self.args
        if k == "put":
            table.put(a[0], a[1])
        elif k == "deal":
            table.deal(a[0], a[1:])
        elif k == "remove":
            table.remove(*a)
        elif k == "pickup":
            table.pick_up(a[0])
        elif k == "tray":
            table.to_tray(a[0])
        elif k == "press":
            table.press(a[0])
        elif k == "button":
            table.move_button(a[0])
        elif k in ("unplug", "replug", "reboot", "hang", "resume"):
            getattr(table, k)()
        elif k in ("fail", "heal"):
            table.fail_reader(a[0], k == "fail")
        elif k == "wait":
            time.sleep(float(a[0]))


def parse_moves(moves) -> list[Move]:
    """Moves from a list of ``Move``/text lines or one text block; ``#`` starts a comment.
    Every line is checked before any move is made."""
    if isinstance(moves, str):
        moves = moves.splitlines()
    out = []
    for item in moves:
        if isinstance(item, Move):
            out.append(item)
            continue
        line = str(item).split("#", 1)[0].strip()
        if line:
            out.append(Move.parse(line))
    return out
