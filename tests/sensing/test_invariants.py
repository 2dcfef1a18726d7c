"""Invariants over arbitrary reads: however the readers flicker, sensing never proposes
a wrong deal, and proposes the right one once every card has been seen."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK

from .bench import SEATS, Bench

reads = st.lists(st.tuples(st.integers(0, 3), st.sets(st.integers(0, 4), max_size=5)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(deal=st.permutations(list(FULL_DECK)), reads=reads)
def test_partial_reads_never_make_a_wrong_deal(deal, reads):
    b = Bench()
    hands = {p: deal[5 * i : 5 * i + 5] for i, p in enumerate(SEATS)}
    seen = {p: set() for p in SEATS}
    for seat, idx in reads:  # a reader reports some of the pad's cards (2-card stacks, flicker)
        p = SEATS[seat]
        cards = [hands[p][i] for i in sorted(idx)]
        b.pad(f"seat{seat + 1}", " ".join(c.code for c in cards))
        seen[p] |= set(cards)
        for a in b.run():
            assert a == act.Deal({q: tuple(sorted(hands[q])) for q in SEATS})
            return
        assert any(len(seen[q]) < 5 for q in SEATS)
    for i, p in enumerate(SEATS):  # everything finally read: the deal is proposed
        b.pad(f"seat{i + 1}", " ".join(c.code for c in hands[p]))
    assert b.run() == [act.Deal({q: tuple(sorted(hands[q])) for q in SEATS})]
