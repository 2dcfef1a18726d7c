"""Odds during the exchanges (issue 21 item 2): sanity properties, agreement with exact
enumeration where it is small, determinism for a seed, and the Chicago shortcut against
the solver."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table_controller.analysis.odds import OddsError, Policy, exchange_odds, wilson
from table_controller.analysis.solver import Position, sm_chicago_stands, solve
from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK, parse_cards
from table_controller.rules.engine import Engine
from table_controller.rules.hands import best_hands
from table_controller.rules.rulesets import ruleset

P4 = ("Anna", "Bo", "Cilla", "Dan")


def table(hands: dict[str, str], ruleset_name: str = "sm2025", scores: dict[str, int] | None = None) -> Engine:
    e = Engine()
    players = tuple(hands)
    e.apply(act.TableStart(players, ruleset_name))
    e.apply(act.GameStart(players, players[-1]))
    e.apply(act.Deal({p: parse_cards(h.split()) for p, h in hands.items()}))
    for p, pts in (scores or {}).items():
        e.apply(act.Adjust(p, pts, "test"))
    return e


def stand_exchange(e: Engine) -> None:
    k = e.state.deal.exchange
    while e.phase == f"exchange_{k}":
        e.apply(act.Discard(e.to_act()[0], ()))
    if e.phase == "quads_choice":
        e.apply(act.QuadsChoice(e.to_act()[0], "points"))


JUNK = {"Anna": "AS KS QS JS 9H", "Bo": "2C 3C 4D 6D 8H", "Cilla": "2D 5C 7C 9C TC", "Dan": "3D 5D 7D 2H 4H"}


def random_table(seed: int) -> Engine:
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return table({p: " ".join(c.code for c in deck[5 * i : 5 * i + 5]) for i, p in enumerate(P4)}, scores={"Bo": 20})


@pytest.mark.parametrize("seed", range(4))
def test_probabilities_and_intervals_are_sane(seed):
    e = random_table(seed)
    o = exchange_odds(e.state, random.Random(seed), samples=300)
    assert o.samples == 300 and o.exchange == 1 and o.next_moment == "exchange_1"
    for est in [*o.score_next.values(), *o.best_after_last.values(), o.chicago, *o.chicago_by.values()]:
        lo, hi = est.interval
        assert 0 <= lo <= est.p <= hi <= 1 and est.n == 300
    assert sum(x.hits for x in o.score_next.values()) <= o.samples  # one scorer at most (D2)
    # each tied holder counts: the "holds the best hand" chances add up to 1 plus the ties
    assert sum(x.hits for x in o.best_after_last.values()) == o.samples + o.best_ties
    assert sum(x.hits for x in o.chicago_by.values()) == o.chicago.hits
    assert o.chicago_by["Anna"].hits == 0  # 0 points: she may not say Chicago (r20)


def test_a_royal_flush_in_hand_scores_for_sure():
    e = table({**JUNK, "Anna": "AS KS QS JS TS"})
    o = exchange_odds(e.state, random.Random(1), samples=500)
    assert o.score_next["Anna"].p == 1.0 and o.best_after_last["Anna"].p == 1.0
    assert o.chicago.hits == 0  # a royal ends the game (sm2025): no trick play


def test_the_interval_narrows_with_samples():
    e = random_table(7)
    few = exchange_odds(e.state, random.Random(1), samples=200, horizon="next").score_next["Bo"]
    many = exchange_odds(e.state, random.Random(1), samples=3200, horizon="next").score_next["Bo"]
    assert many.interval[1] - many.interval[0] < (few.interval[1] - few.interval[0]) / 2
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_same_seed_gives_the_same_odds():
    e = random_table(3)
    a = exchange_odds(e.state, random.Random(42), samples=200)
    b = exchange_odds(e.state, random.Random(42), samples=200)
    assert a == b and a.to_dict() == b.to_dict()


def exact_one_card(e: Engine, player: str) -> Fraction:
    """Exact chance that `player` scores at the exchange's end when he alone still gets one
    face-down card: every stub card is equally likely."""
    d = e.state.deal
    wins = 0
    for c in sorted(d.stub):
        hands = {p: list(d.hands[p]) + ([c] if p == player else []) for p in d.in_play()}
        leaders, v = best_hands(hands, "SHDC")
        wins += len(leaders) == 1 and leaders[0] == player and v.category > 0
    return Fraction(wins, len(d.stub))


def test_sampled_odds_agree_with_exact_enumeration():
    e = table({"Anna": "AS KH 7D 4C 3S", "Bo": "QS QH 5D 6C 2S", "Cilla": "JS 9H 8D 2C 4H", "Dan": "TS TH 3D 9C 6H"})
    e.apply(act.Discard("Anna", parse_cards(["4C", "3S"])))
    for p in ("Bo", "Cilla", "Dan"):
        e.apply(act.Discard(p, ()))
    e.apply(act.Receive("Anna", parse_cards(["8C"])))  # one of her two cards is still owed
    exact = exact_one_card(e, "Anna")
    o = exchange_odds(e.state, random.Random(5), samples=4000, horizon="next")
    lo, hi = o.score_next["Anna"].interval
    assert lo <= exact <= hi, (float(exact), lo, hi)
    assert 0 < exact < 1


def test_open_card_odds_agree_with_exact_enumeration_r12():
    # Anna places one card: the first card is shown; she takes it if it helps, else the
    # next comes face down.  Exact: every ordered pair of stub cards is equally likely.
    e = table({"Anna": "AS AH 7D 4C 3S", "Bo": "QS QH 5D 6C 2S", "Cilla": "JS 9H 8D 2C 4H", "Dan": "KS KH 3D 9C 6H"})
    e.apply(act.Discard("Anna", parse_cards(["3S"])))
    for p in ("Bo", "Cilla", "Dan"):
        e.apply(act.Discard(p, ()))
    d = e.state.deal
    stub = sorted(d.stub)
    pol = Policy()
    wins = total = 0
    for a in stub:
        for b in stub:
            if a == b:
                continue
            got = a if pol.take_open(d.hands["Anna"], a) else b
            hands = {p: list(d.hands[p]) + ([got] if p == "Anna" else []) for p in d.in_play()}
            leaders, v = best_hands(hands, "SHDC")
            wins += leaders == ["Anna"]
            total += 1
    exact = wins / total
    o = exchange_odds(e.state, random.Random(9), samples=4000, horizon="next")
    lo, hi = o.score_next["Anna"].interval
    assert lo <= exact <= hi, (exact, lo, hi)


def test_placed_cards_are_out_of_the_stub_r13_r18():
    # Anna broke her pair of aces (r17): placed cards count as exchanged and come back only
    # in a reshuffle (r16), so Dan's kings are best unless she draws a pair above them
    e = table({"Anna": "AS AH 7D 4C 3S", "Bo": "QS QH 5D 6C 2S", "Cilla": "JS 9H 8D 2C 4H", "Dan": "KS KH 3D 9C 6H"})
    e.apply(act.Discard("Anna", parse_cards(["AS", "AH", "7D", "4C"])))
    for p in ("Bo", "Cilla", "Dan"):
        e.apply(act.Discard(p, ()))
    o = exchange_odds(e.state, random.Random(2), samples=2000, horizon="next")
    # only Bo's queens or Dan's kings can score unless Anna draws a pair: kings are best
    assert o.score_next["Dan"].p > 0.8


def test_a_chicago_with_unbeatable_cards_stands():
    e = table({**JUNK, "Anna": "AS AH AD AC KS"}, scores={"Anna": 20})
    stand_exchange(e)
    stand_exchange(e)  # now in exchange 3: she keeps her four aces
    o = exchange_odds(e.state, random.Random(3), samples=300)
    assert o.next_moment == "final" and o.chicago.p == 1.0 and o.chicago_by["Anna"].p == 1.0


def test_no_odds_outside_the_exchanges():
    e = table(JUNK)
    for _ in range(3):
        stand_exchange(e)
    with pytest.raises(OddsError):
        exchange_odds(e.state, random.Random(1))
    with pytest.raises(OddsError):
        exchange_odds(table(JUNK).state, random.Random(1), samples=0)


@settings(max_examples=300, deadline=None)
@given(st.permutations(FULL_DECK), st.integers(2, 4), st.integers(1, 5))
def test_the_chicago_shortcut_agrees_with_the_solver_r24(deck, n, left):
    players = P4[:n]
    hands = {p: tuple(deck[left * i : left * i + left]) for i, p in enumerate(players)}
    masks = [sum(1 << FULL_DECK.index(c) for c in hands[p]) for p in players]
    v = solve(Position(ruleset("sm2025"), players, hands, "Anna", trick_number=6 - left, chicago="Anna"))
    assert sm_chicago_stands(masks[0], tuple(masks[1:])) == v.chicago_stands
