import pytest
from hypothesis import given
from hypothesis import strategies as st

from table_controller.rules.cards import FULL_DECK, Card, CardError, parse_cards


def test_full_deck_has_52_distinct_cards():
    assert len(set(FULL_DECK)) == 52


@given(st.sampled_from(FULL_DECK))
def test_text_round_trip(card):
    assert Card.parse(card.code) == card
    assert Card.parse(card.code.lower()) == card


@pytest.mark.parametrize("bad", ["", "A", "1S", "AX", "ASS", "ZZ", None, 14])
def test_unknown_card_is_a_clear_error(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_ten_may_be_written_10():
    assert Card.parse("10H") == Card.parse("TH")


def test_parse_cards_rejects_a_plain_string():
    with pytest.raises(CardError):
        parse_cards("AS")
