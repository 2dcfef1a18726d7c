"""Our evaluator against phevaluator (a well-kept perfect-hash evaluator) on all
2,598,960 five-card hands: same category and the same relative order (RULES.md §2)."""

from itertools import combinations

from phevaluator import evaluate_cards
from phevaluator.card import Card as PheCard

from table_controller.rules.cards import FULL_DECK
from table_controller.rules.hands import CARD_INT, Category, evaluate_ints

# phevaluator ranks 1 (royal) .. 7462 (7-5-4-3-2); its category boundaries:
_BOUNDS = [
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.ONE_PAIR),
    (7462, Category.HIGH_CARD),
]


def _phe_category(rank: int) -> Category:
    for bound, cat in _BOUNDS:
        if rank <= bound:
            return cat
    raise AssertionError(rank)


def test_all_hands_agree_with_phevaluator__d1():
    ours = [CARD_INT[c] for c in FULL_DECK]
    theirs = [PheCard(c.code[0] + c.suit.lower()).id_ for c in FULL_DECK]
    value_to_rank: dict[int, int] = {}
    count = 0
    for a, b, c, d, e in combinations(range(52), 5):
        v = evaluate_ints(ours[a], ours[b], ours[c], ours[d], ours[e])
        r = evaluate_cards(theirs[a], theirs[b], theirs[c], theirs[d], theirs[e])
        known = value_to_rank.setdefault(v, r)
        assert known == r, f"hands with our value {v:#x} have phevaluator ranks {known} and {r}"
        count += 1
    assert count == 2_598_960
    assert len(value_to_rank) == 7462  # every distinct hand class, none merged, none split
    ordered = sorted(value_to_rank)  # ours ascending = weakest first
    ranks = [value_to_rank[v] for v in ordered]
    assert ranks == sorted(ranks, reverse=True)  # theirs: 1 is best
    for v, r in value_to_rank.items():
        cat = Category(v >> 20)
        if cat == Category.ROYAL_FLUSH:
            assert r == 1
            cat = Category.STRAIGHT_FLUSH
        assert cat == _phe_category(r)
