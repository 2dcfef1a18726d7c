"""Cards and their notation (RULES.md §2): rank ``23456789TJQKA`` then suit ``SHDC``.

>>> Card.parse("AS").rank, Card.parse("AS").suit
(14, 'S')
>>> str(Card.parse("td"))
'TD'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from table_controller.rules.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 10: "T"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. ``rank`` is 2..14 (ace high), ``suit`` one of ``S H D C``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (2 <= self.rank <= 14) or self.suit not in SUITS:
            raise CardError(f"no such card: rank {self.rank!r} suit {self.suit!r}")

    @classmethod
    def parse(cls, code: object) -> Card:
        """Read ``"AS"``, ``"td"`` or ``"10H"``; raise :class:`CardError` otherwise (any
        other value too: it comes from a JSON line)."""
        if type(code) is str:  # a card as the log and the wire write it: one lookup
            known = _BY_CODE.get(code)
            if known is not None:
                return known
        if isinstance(code, Card):
            return code
        if not isinstance(code, str):  # named by type only: never the repr of a huge value
            what = {
                list: "a list",
                dict: "an object",
                bool: "true or false",
                type(None): "null",
                int: "a number",
                float: "a number",
            }
            raise CardError(f"a card is a text like 'AS', not {what.get(type(code), 'a ' + type(code).__name__)}")
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise CardError(
                f"unknown card {code[:8]!r}: expected rank {RANKS} then suit {SUITS}, e.g. 'AS', 'TD', '2C'"
            )
        return cls(RANKS.index(text[0]) + 2, text[1])

    @property
    def code(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def pretty(self) -> str:
        return RANKS[self.rank - 2].replace("T", "10") + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        """Pickled as its place in the deck, unpickled as that card of :data:`FULL_DECK`
        (cards are immutable; the engine's rollback checkpoint holds many)."""
        return _deck_card, (SUITS.index(self.suit) * 13 + self.rank - 2,)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        """The card itself, as a copy of it: it is immutable.  The broadcast's analysis
        takes a snapshot of the table (``Engine.snapshot``) as often as the table moves, and
        its hands, stub and discards are copied without rebuilding each card (a snapshot
        mid-game 0.85 -> 0.65 ms).

            >>> import copy
            >>> copy.deepcopy([Card.parse("AS")])[0] is Card.parse("AS")
            True
        """
        return self


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(2, 15))
# The 52 cards by their code ("AS", "TD"): parse() reads a card as every action line and every
# replay writes it with one lookup (checking a killed process's file reads a whole table's log
# three ways: 170,000 cards parsed); a Card is immutable, so one is shared, as when unpickled.
_BY_CODE = {c.code: c for c in FULL_DECK}


def _deck_card(index: int) -> Card:
    return FULL_DECK[index]


def parse_cards(codes: Iterable[str]) -> tuple[Card, ...]:
    """Parse a list of card codes; raise :class:`CardError` naming the first bad one."""
    if isinstance(codes, str):
        raise CardError(f"expected a list of cards, got the text {codes!r}")
    return tuple(Card.parse(c) for c in codes)


def codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


# Card codes in free text: a rank (10 or one character), then a suit letter or a suit symbol
# (U+2660-2667, black and white, with or without a space), alone: no letter or digit
# touching either end; any case, as ``Card.parse`` reads one (``views.redact`` says why).
# Before it, a letter of any alphabet ends a word ("bröts", "Höks" name no card); after it
# only an ASCII one does, so that "2Så" is still taken for a card (a mask too many is safe).
CARD_CODE = re.compile(r"(?<![^\W_])(?:10|[2-9TJQKA])(?:[SHDC](?![0-9A-Za-z])|\s?[\u2660-\u2667])", re.IGNORECASE)


def without_cards(text: str, word: str = "(card)") -> str:
    """``text`` with every card code (``CARD_CODE``) made ``word``."""
    return CARD_CODE.sub(word, text)
