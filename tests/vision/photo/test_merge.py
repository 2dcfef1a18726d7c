"""How index reads become cards: one card per code, unsure reads never named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.photo import spec
from vision.photo.recognise import UNKNOWN, IndexRead, card_score, merge


def _read(code, prob, box=(10, 10, 60, 80), score=0.9):
    return IndexRead(box, score, code, prob)


def test_both_corners_of_a_card_make_one_card_spanning_them():
    cards = merge([_read("AS", 0.97, (10, 10, 60, 80)), _read("AS", 0.99, (400, 500, 450, 570))], 0.9)
    assert len(cards) == 1
    c = cards[0]
    assert (c.card, c.indices) == ("AS", 2)
    # Two corners read alike are surer than either alone.
    assert c.confidence > 0.99
    xs, ys = [p[0] for p in c.corners], [p[1] for p in c.corners]
    assert min(xs) <= 10 and max(xs) >= 450 and min(ys) <= 10 and max(ys) >= 570


def test_two_unsure_agreeing_corners_can_make_a_sure_card():
    assert [c.card for c in merge([_read("6D", 0.85)], 0.95)] == [UNKNOWN]
    assert [c.card for c in merge([_read("6D", 0.85), _read("6D", 0.8, (300, 300, 340, 360))], 0.95)] == ["6D"]


def test_the_calibration_map_decides():
    cards = merge([_read("6D", 0.99)], 0.9, confidence=lambda raw: raw / 2)
    assert [(c.card, c.confidence) for c in cards] == [(UNKNOWN, 0.495)]


def test_card_score_never_falls_with_another_agreeing_corner():
    assert card_score([0.7]) == 0.7
    assert card_score([0.7, 0.0]) == 0.7
    assert card_score([0.7, 0.5]) > 0.7


def test_an_unsure_read_is_unknown_never_a_card():
    cards = merge([_read("6D", 0.6)], 0.9)
    assert [c.card for c in cards] == [UNKNOWN]


def test_no_index_and_jokers_are_dropped():
    assert merge([_read(spec.NONE, 0.99), _read(spec.JOKER, 0.98)], 0.9) == []


def test_an_unsure_read_on_a_weak_detection_is_not_even_unknown():
    assert merge([_read("6D", 0.6, score=0.2)], 0.9) == []


reads = st.builds(
    _read,
    st.sampled_from(spec.CLASSES),
    st.floats(0.0, 1.0),
    st.tuples(st.floats(0, 500), st.floats(0, 500)).map(lambda p: (p[0], p[1], p[0] + 40, p[1] + 60)),
    st.floats(0.3, 1.0),
)


@given(st.lists(reads, max_size=12), st.floats(0.5, 1.0))
def test_merge_invariants(rs, threshold):
    cards = merge(rs, threshold)
    named = [c.card for c in cards if c.card != UNKNOWN]
    assert len(named) == len(set(named))  # each card at most once
    for c in cards:
        assert c.card in ALL_CODES or c.card == UNKNOWN
        assert 0.0 <= c.confidence <= 1.0
        if c.card == UNKNOWN:
            assert c.confidence <= threshold + 1e-4
        else:
            assert c.confidence >= threshold - 1e-4
        assert len(c.corners) == 4


def test_a_back_inside_a_face_read_on_both_corners_is_that_face():
    from vision.photo.recognise import CardReading, holds

    # An ace read on both corners, lying diagonally: its outline is the band between them.
    ace = CardReading("AS", 1.0, ((0.0, 150.0), (40.0, 60.0), (640.0, 330.0), (600.0, 420.0)), 2)
    assert holds((200.0, 150.0, 500.0, 400.0), ace)  # the ornate pip in the middle
    assert holds((-20.0, 40.0, 660.0, 440.0), ace)  # the whole card
    assert not holds((300.0, 450.0, 600.0, 640.0), ace)  # a back beside it
    one_corner = CardReading("AS", 1.0, ace.corners, 1)
    assert not holds((200.0, 150.0, 500.0, 400.0), one_corner)  # one corner says nothing of the middle
