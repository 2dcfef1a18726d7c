"""How index reads become cards: one card per code, unsure reads never named."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.faces import INDEX_BOX
from vision.photo import spec
from vision.photo.recognise import UNKNOWN, IndexRead, card_outline, card_score, merge


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


@given(
    st.floats(-180, 180),
    st.floats(0.5, 6.0),
    st.floats(-200, 900),
    st.floats(-200, 900),
    st.booleans(),
)
def test_a_cards_two_index_corners_give_the_card_as_it_lies(turn, scale, cx, cy, flip):
    # the project's card (faces: 63 x 88 mm, index box INDEX_BOX) turned by `turn`,
    # `scale` px a mm, its middle at (cx, cy); its indices seen as upright boxes
    t = np.radians(turn)
    rot = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    x0, y0, x1, y1 = INDEX_BOX
    mids = np.array([((x0 + x1) / 2, (y0 + y1) / 2), (63 - (x0 + x1) / 2, 88 - (y0 + y1) / 2)])
    corners = np.array([(0, 0), (63, 0), (63, 88), (0, 88)], np.float64)

    def place(p):
        return (p - (31.5, 44)) * scale @ rot + (cx, cy)

    side = max(x1 - x0, y1 - y0) * scale / 2
    boxes = [(x - side, y - side, x + side, y + side) for x, y in place(mids)]
    got = np.array(card_outline(boxes[::-1] if flip else boxes))
    want = place(corners)
    # the same four corners (the card's top-left may be either end: a card is alike turned half round)
    assert min(np.abs(got - np.roll(want, k, axis=0)).max() for k in (0, 2)) < 0.2
    # a third read of one of the corners, a little off, changes little
    near = np.array(card_outline(boxes + [tuple(v + 0.05 * side for v in boxes[0])]))
    assert min(np.abs(near - np.roll(want, k, axis=0)).max() for k in (0, 2)) < 0.2 * side + 0.2


def test_a_far_read_of_another_card_is_passed_over_for_the_cards_own_corner():
    # the surest corner first; a read of the same code on another card far away (14 of
    # its sides, as in a webcam frame where a QC's corner was read as TC) is not its pair
    own = [(100, 100, 110, 120), (145, 155, 155, 175)]
    far = (100, 400, 110, 420)
    assert card_outline(own + [far]) == card_outline(own)
    assert card_outline([own[0], far]) is None


def test_reads_too_near_or_too_far_apart_make_no_card():
    assert card_outline([(0, 0, 10, 20)]) is None
    assert card_outline([(0, 0, 10, 20), (10, 10, 20, 30)]) is None  # one corner found twice
    assert card_outline([(0, 0, 10, 20), (500, 500, 510, 520)]) is None  # two cards' corners
    assert card_outline([(0, 0, 10, 20), (45, 55, 55, 75)]) is not None
