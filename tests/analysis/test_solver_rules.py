"""Hand-made positions that name the rules the solver plays by (RULES.md §6-7)."""

from __future__ import annotations

import doctest

import pytest

from table_controller.analysis import solver
from table_controller.analysis.solver import AnalysisError, Position, solve
from table_controller.rules.cards import Card, parse_cards
from table_controller.rules.rulesets import ruleset

SM = ruleset("sm2025")
P4 = ("Anna", "Bo", "Cilla", "Dan")


def hands(**h: str) -> dict[str, tuple[Card, ...]]:
    return {p: parse_cards(t.split()) for p, t in h.items()}


def trick(*pairs: str) -> tuple[tuple[str, Card], ...]:
    return tuple((p, Card.parse(c)) for p, c in (x.split() for x in pairs))


# The example script chicago_broken.jsonl: Anna's four spades nobody can follow, then 9H.
BROKEN = hands(Anna="AS KS QS JS 9H", Bo="2C 3C 4D 6D 8H", Cilla="2D 5C 7C 9C TH", Dan="3D 5D 7D 2H 4H")


def test_chicago_stands_when_the_chicago_player_wins_every_trick_r23():
    h = dict(BROKEN, Cilla=parse_cards("2D 5C 7C 9C TC".split()))  # no heart above the 9 is out
    v = solve(Position(SM, P4, h, "Anna", chicago="Anna"))
    assert v.chicago_stands is True and v.breaker is None
    assert v.values == {"Anna": 15, "Bo": 0, "Cilla": 0, "Dan": 0}
    assert v.last_trick[0] == "Anna"  # she takes the last trick too, worth nothing (r27)
    assert all(m.value == 15 for m in v.moves)  # any order of her cards wins all five


def test_chicago_is_broken_by_the_first_to_beat_it_r24():
    v = solve(Position(SM, P4, BROKEN, "Anna", chicago="Anna"))
    assert v.chicago_stands is False and v.breaker == "Cilla"
    assert v.values == {"Anna": -15, "Bo": 0, "Cilla": 10, "Dan": 0}
    assert v.last_trick is None  # D8: no last trick is played


def test_the_breaker_need_not_win_the_trick_r24():
    # Anna leads 9H: Bo's only heart is the ten, Cilla holds the ace: Bo beats Anna's card
    # first and breaks, though Cilla's ace would take the trick.
    h = hands(Anna="9H", Bo="TH", Cilla="AH", Dan="2C")
    v = solve(Position(SM, P4, h, "Anna", trick_number=5, chicago="Anna"))
    assert v.breaker == "Bo" and v.values["Bo"] == 10 and v.values["Cilla"] == 0


def test_a_follower_who_can_break_does_so_r24():
    h = hands(Anna="KS", Bo="TH 3H", Cilla="AH 2C", Dan="2D 3D")
    pos = Position(SM, P4, h, "Anna", trick=trick("Anna 9H"), trick_number=4, chicago="Anna")
    v = solve(pos)
    assert v.to_act == "Bo"
    assert v.card_values() == {Card.parse("TH"): 10, Card.parse("3H"): 0}
    assert v.line == trick("Bo TH")  # D8: the trick play ends at the breaking card


def test_trick_play_ends_at_the_breaking_card_d8():
    v = solve(Position(SM, P4, BROKEN, "Anna", chicago="Anna"))
    assert v.line[-1] == ("Cilla", Card.parse("TH"))
    # a position after the break is not a position of the trick play any more
    h = hands(Anna="8H", Bo="7H", Cilla="2C 3C", Dan="3D 4D")
    with pytest.raises(AnalysisError, match="D8"):
        solve(Position(SM, P4, h, "Anna", trick=trick("Anna 9H", "Bo TH"), trick_number=4, chicago="Anna"))


def test_last_trick_scores_five_to_its_winner_r27():
    h = hands(Anna="AS", Bo="KS", Cilla="2S", Dan="3S")
    v = solve(Position(SM, P4, h, "Dan", trick_number=5))
    assert v.last_trick == ("Anna", Card.parse("AS"))
    assert v.values == {"Anna": 5, "Bo": 0, "Cilla": 0, "Dan": 0}


def test_last_trick_won_with_a_two_counts_ten_r27():
    h = hands(Anna="2C", Bo="KS", Cilla="AH", Dan="QD")
    v = solve(Position(SM, P4, h, "Anna", trick_number=5))
    assert v.last_trick == ("Anna", Card.parse("2C")) and v.values["Anna"] == 10


def test_keeping_the_two_for_the_last_trick_r27():
    # Anna leads twice and nobody holds clubs: she keeps the 2 for the last trick (10, not 5)
    h = hands(Anna="2C AS", Bo="KS 3H", Cilla="QS 4H", Dan="JS 5H")
    v = solve(Position(SM, P4, h, "Anna", trick_number=4))
    assert v.card_values() == {Card.parse("AS"): 10, Card.parse("2C"): 5}
    assert v.line[0] == ("Anna", Card.parse("AS"))
    assert v.last_trick == ("Anna", Card.parse("2C"))


def test_no_last_trick_points_with_chicago_r23_r27():
    h = hands(Anna="2C", Bo="KS", Cilla="AH", Dan="QD")
    v = solve(Position(SM, P4, h, "Anna", trick_number=5, chicago="Anna"))
    assert v.values == {"Anna": 15, "Bo": 0, "Cilla": 0, "Dan": 0}  # +15, not +10 more


def test_follow_suit_if_you_can_r25():
    h = hands(Anna="AS 2D", Bo="3S KD", Cilla="4S 5D", Dan="6S 7D")
    v = solve(Position(SM, P4, h, "Anna", trick=(), trick_number=4))
    assert {m.card for m in v.moves} == set(h["Anna"])  # the leader plays anything
    pos = Position(SM, P4, {**h, "Anna": parse_cards(["2D"])}, "Anna", trick=trick("Anna AS"), trick_number=4)
    assert {m.card for m in solve(pos).moves} == {Card.parse("3S")}  # Bo must follow


def test_a_dead_hand_plays_no_more_and_cannot_win_r26():
    # Dan revoked in trick 4 and is dead: his AS in the trick cannot win it; he plays no more
    h = hands(Anna="QS", Bo="3H")
    pos = Position(
        SM,
        P4,
        {**h, "Cilla": (), "Dan": ()},
        "Cilla",
        trick=trick("Cilla 5S", "Dan AS"),
        trick_number=5,
        out=frozenset({"Dan"}),
        dead=frozenset({"Dan"}),
    )
    v = solve(pos)
    assert v.to_act == "Anna"
    assert v.last_trick == ("Anna", Card.parse("QS")) and v.values["Dan"] == 0


def test_a_sm2019_revoker_cannot_win_the_last_trick():
    r = ruleset("sm2019")
    h = hands(Anna="AS", Bo="KS", Cilla="2H", Dan="3H")
    v = solve(Position(r, P4, h, "Anna", trick_number=5, no_last_trick=frozenset({"Anna"})))
    assert v.last_trick == ("Bo", Card.parse("KS"))


def test_classic_broken_chicago_has_no_breaker_bonus_and_no_hand_scoring():
    r = ruleset("classic")
    h = hands(Anna="9H", Bo="TH", Cilla="2C")
    v = solve(Position(r, ("Anna", "Bo", "Cilla"), h, "Anna", trick_number=5, chicago="Anna", hand_award=("Cilla", 6)))
    assert v.values == {"Anna": -15, "Bo": 0, "Cilla": 0}
    h = hands(Anna="AH", Bo="TH", Cilla="2C")
    v = solve(Position(r, ("Anna", "Bo", "Cilla"), h, "Anna", trick_number=5, chicago="Anna", hand_award=("Cilla", 6)))
    assert v.values == {"Anna": 15, "Bo": 0, "Cilla": 6}  # stands: the hands still score


def test_ties_prefer_the_line_that_gives_the_others_least():
    # Anna cannot win the last trick.  Leading 2H gives it to Dan (AC, 5 points); leading
    # 4D lets Cilla win trick 4 and lead her 2D nobody can follow (10): she leads the heart.
    h = hands(Anna="2H 4D", Bo="5S 8H", Cilla="5D 2D", Dan="AC JH")
    v = solve(Position(SM, P4, h, "Anna", trick_number=4))
    assert v.card_values() == {Card.parse("2H"): 0, Card.parse("4D"): 0}
    assert {m.card.code: m.values for m in v.moves}["4D"]["Cilla"] == 10
    assert v.line[0] == ("Anna", Card.parse("2H")) and v.last_trick == ("Dan", Card.parse("AC"))


def test_two_players_classic():
    r = ruleset("classic")
    h = hands(Anna="AS 2C", Bo="KS 3C")
    v = solve(Position(r, ("Anna", "Bo"), h, "Bo", trick_number=4))
    assert v.to_act == "Bo" and v.values == {"Anna": 0, "Bo": 5}
    assert v.card_values() == {Card.parse("KS"): 5, Card.parse("3C"): 0}


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(hands=hands(Anna="AS", Bo="KS KS".split()[0], Cilla="AS", Dan="2C")), "twice"),
        (dict(hands=hands(Anna="AS QS", Bo="KS", Cilla="2H", Dan="2C")), "holds 2 cards"),
        (dict(leader="Eve"), "not in the deal"),
        (dict(leader="Bo", chicago="Anna"), "r23"),
        (dict(trick_number=6), "tricks 1-5"),
    ],
)
def test_bad_positions_get_a_clear_error(bad, match):
    args = dict(
        rules=SM, order=P4, hands=hands(Anna="AS", Bo="KS", Cilla="2H", Dan="2C"), leader="Anna", trick_number=5
    )
    args.update(bad)
    with pytest.raises(AnalysisError, match=match):
        solve(Position(**args))


def test_a_revoke_in_the_trick_is_not_solved_r26():
    h = hands(Anna="QS", Bo="3S", Cilla="4H 6H", Dan="5H 7H")
    with pytest.raises(AnalysisError, match="r26"):
        solve(
            Position(SM, P4, {**h, "Bo": parse_cards(["3S"])}, "Anna", trick=trick("Anna 9S", "Bo 2H"), trick_number=4)
        )


def test_docstring_examples():
    assert doctest.testmod(solver).failed == 0


def test_chicago_position_needs_the_question_or_later():
    from table_controller.analysis.solver import chicago_position
    from table_controller.rules import actions as act
    from table_controller.rules.engine import Engine

    e = Engine()
    e.apply(act.TableStart(P4))
    e.apply(act.GameStart(P4, "Dan"))
    e.apply(act.Deal({p: BROKEN[p] for p in P4}))
    with pytest.raises(AnalysisError, match="after the last exchange"):
        chicago_position(e.state.deal, e.rules, "Anna")
    for _ in range(3):
        for p in P4:
            e.apply(act.Discard(p, ()))
    pos = chicago_position(e.state.deal, e.rules, "Bo")  # nobody has 15: tricks have begun
    assert pos.leader == pos.chicago == "Bo" and solve(pos).chicago_stands is False
    with pytest.raises(AnalysisError, match="not in play"):
        chicago_position(e.state.deal, e.rules, "Eve")


def test_a_dead_hands_higher_card_does_not_break_the_chicago_r26_r24():
    # Dan's hand is dead after a revoke (r26): his JC over Cilla's TC wins nothing, so the
    # Chicago stands and the position is solved (hypothesis found the solver refusing it).
    h = hands(Anna="7S", Bo="AC 8C", Cilla="KC")
    pos = Position(
        SM,
        P4,
        h,
        "Cilla",
        trick=trick("Cilla TC", "Dan JC", "Anna 9C"),
        trick_number=4,
        chicago="Cilla",
        out=frozenset({"Dan"}),
        dead=frozenset({"Dan"}),
    )
    v = solve(pos)
    assert {m.card for m in v.moves} == {Card.parse("AC"), Card.parse("8C")}  # Bo follows suit (r25)
    # Bo's AC breaks it (r24); his 8C leaves Cilla's TC the best live card of the trick
    assert v.breaker == "Bo"
