"""Five-card hand evaluation (RULES.md §2).

A hand's value is one int: higher is better, equal means exactly equal (suits never
break a tie here; the straight-flush suit rule is applied by :func:`best_hands`).

    >>> from table_controller.rules.cards import parse_cards
    >>> evaluate(parse_cards(["AS", "AH", "KD", "KC", "2S"])).category
    <Category.TWO_PAIR: 2>

The tables are built once at import: every rank multiset of five cards is keyed by the
product of one prime per rank (Cactus Kev's idea), so an evaluation is two multiplies'
worth of work and one dict lookup.  ``evaluate_ints`` is the hot path for benchmarks and
bots; ``evaluate`` takes :class:`~table_controller.rules.cards.Card` values.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from table_controller.rules.cards import FULL_DECK, SUITS, Card


class Category(enum.IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def reason(self) -> str:
        """The award reason of REPLAY.md (``one_pair``, ``royal_flush``, ...)."""
        return self.name.lower()


_PRIMES = {r: p for r, p in zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41))}
_SHIFT = 20  # category above five 4-bit rank slots


def _value(category: Category, ranks: Sequence[int]) -> int:
    v = int(category) << _SHIFT
    for i, r in enumerate(ranks):
        v |= r << (4 * (4 - i))
    return v


def _straight_high(distinct_desc: list[int]) -> int | None:
    if len(distinct_desc) != 5:
        return None
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if distinct_desc == [14, 5, 4, 3, 2]:  # D1: the wheel, ace low
        return 5
    return None


def _classify(ranks: tuple[int, ...], flush: bool) -> int:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # order ranks by (count, rank) descending: the cards that make the hand, then kickers
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [c for _, c in groups]
    ordered = [r for r, _ in groups]
    straight = _straight_high(sorted(counts, reverse=True))
    if straight and flush:
        cat = Category.ROYAL_FLUSH if straight == 14 else Category.STRAIGHT_FLUSH
        return _value(cat, [straight])
    if shape == [4, 1]:
        return _value(Category.FOUR_OF_A_KIND, ordered)
    if shape == [3, 2]:
        return _value(Category.FULL_HOUSE, ordered)
    if flush:
        return _value(Category.FLUSH, ordered)
    if straight:
        return _value(Category.STRAIGHT, [straight])
    if shape == [3, 1, 1]:
        return _value(Category.THREE_OF_A_KIND, ordered)
    if shape == [2, 2, 1]:
        return _value(Category.TWO_PAIR, ordered)
    if shape == [2, 1, 1, 1]:
        return _value(Category.ONE_PAIR, ordered)
    return _value(Category.HIGH_CARD, ordered)


def _build_tables() -> tuple[dict[int, int], dict[int, int]]:
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(14, 1, -1), 5):
        if len(set(ranks)) == 1:
            continue  # five of a kind does not exist in one deck
        key = 1
        for r in ranks:
            key *= _PRIMES[r]
        plain[key] = _classify(ranks, flush=False)
        if len(set(ranks)) == 5:
            flush[key] = _classify(ranks, flush=True)
    return plain, flush


_PLAIN, _FLUSH = _build_tables()

# Card as int for the hot path: prime of the rank in the low byte, one suit bit above.
_SUIT_BITS = {s: 1 << (8 + i) for i, s in enumerate(SUITS)}
CARD_INT: dict[Card, int] = {c: _PRIMES[c.rank] | _SUIT_BITS[c.suit] for c in FULL_DECK}


def evaluate_ints(a: int, b: int, c: int, d: int, e: int) -> int:
    """The value of five cards given as ``CARD_INT`` ints (the hot path)."""
    key = (a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)
    if a & b & c & d & e & 0xF00:
        return _FLUSH[key]
    return _PLAIN[key]


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The evaluated value of a five-card hand; compares like the hands do."""

    value: int

    @property
    def category(self) -> Category:
        return Category(self.value >> _SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that decide ties, most significant first (zeros trimmed)."""
        out = [(self.value >> (4 * (4 - i))) & 0xF for i in range(5)]
        while out and out[-1] == 0:
            out.pop()
        return tuple(out)

    def describe(self) -> str:
        names = {
            14: "aces",
            13: "kings",
            12: "queens",
            11: "jacks",
            10: "tens",
            9: "nines",
            8: "eights",
            7: "sevens",
            6: "sixes",
            5: "fives",
            4: "fours",
            3: "threes",
            2: "twos",
        }
        r = self.ranks
        cat = self.category
        if cat is Category.ONE_PAIR:
            return f"pair of {names[r[0]]}"
        if cat is Category.TWO_PAIR:
            return f"two pair, {names[r[0]]} and {names[r[1]]}"
        if cat is Category.THREE_OF_A_KIND:
            return f"three {names[r[0]]}"
        if cat is Category.FULL_HOUSE:
            return f"full house, {names[r[0]]} over {names[r[1]]}"
        if cat is Category.FOUR_OF_A_KIND:
            return f"four {names[r[0]]}"
        return cat.name.replace("_", " ").lower()


def evaluate(cards: Iterable[Card]) -> HandValue:
    """Evaluate exactly five distinct cards."""
    cs = tuple(cards)
    if len(cs) != 5 or len(set(cs)) != 5:
        raise ValueError(f"a hand is five distinct cards, got {[str(c) for c in cs]}")
    return HandValue(evaluate_ints(*(CARD_INT[c] for c in cs)))


def scoring_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards that make the hand's category (for r17, breaking a hand that scored):
    the paired ranks for pairs/trips/quads/full house, all five for straights and flushes."""
    value = evaluate(cards)
    cat = value.category
    if cat in (Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        return tuple(cards)
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    return tuple(c for c in cards if counts[c.rank] >= 2)


def high_suit(cards: Sequence[Card]) -> str:
    """The suit of a straight or royal flush (all five share it)."""
    return cards[0].suit


def best_hands(hands: Mapping[str, Sequence[Card]], suit_order: str | None) -> tuple[list[str], HandValue | None]:
    """Who holds the single best hand.  Returns ``([name], value)``; several names when the
    best hands are exactly equal (D2: then nobody scores); ``([], None)`` with no hands.

    ``suit_order`` (highest first, e.g. ``"SHDC"``) breaks ties between equal straight and
    royal flushes only (RULES.md §2)."""
    if not hands:
        return [], None
    values = {name: evaluate(cards) for name, cards in hands.items()}
    top = max(values.values())
    leaders = [n for n, v in values.items() if v == top]
    if len(leaders) > 1 and suit_order and top.category >= Category.STRAIGHT_FLUSH:
        leaders = [min(leaders, key=lambda n: suit_order.index(high_suit(hands[n])))]
    return leaders, top


def all_hands() -> Iterable[tuple[Card, ...]]:
    """Every one of the 2,598,960 five-card hands (for the oracle test and benchmarks)."""
    return combinations(FULL_DECK, 5)
