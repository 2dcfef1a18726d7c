"""The annotated picture of `camera read --annotate`: labels readable, none over another."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.photo.annotate import FACE, _label, draw, place_labels
from vision.photo.recognise import UNKNOWN, CardReading, outline


def _overlap(a, b) -> bool:
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def test_labels_of_cards_whose_outlines_start_at_one_place_are_stacked_not_drawn_over_each_other():
    sizes = [(90, 24)] * 5
    spots = place_labels(sizes, [(100, 60)] * 5, 640, 480)
    rects = [(x, y, w, h) for (x, y), (w, h) in zip(spots, sizes)]
    assert len(set(spots)) == 5
    assert not any(_overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :])
    assert spots[0] == (100, 36)  # the first just above its outline


@given(
    st.lists(
        st.tuples(st.integers(-50, 700), st.integers(-50, 500), st.integers(10, 120), st.integers(8, 30)),
        min_size=1,
        max_size=12,
    )
)
def test_every_label_lies_inside_the_picture(cards):
    sizes = [(w, h) for *_, w, h in cards]
    spots = place_labels(sizes, [(x, y) for x, y, *_ in cards], 640, 480)
    for (x, y), (w, h) in zip(spots, sizes):
        assert 0 <= x <= 640 - w and 0 <= y <= 480 - h


def test_a_drawn_picture_keeps_its_size_and_leaves_the_original_alone():
    picture = np.full((300, 400, 3), 90, np.uint8)
    cards = [
        CardReading("QH", 0.99, outline([(50, 50, 90, 100)]), 1),
        CardReading("QS", 0.98, outline([(52, 50, 92, 100)]), 1),
    ]
    out = draw(picture, cards)
    assert out.shape == picture.shape and (picture == 90).all() and not (out == 90).all()


def test_a_face_up_card_not_named_is_drawn_purple_and_labelled_face():
    picture = np.full((300, 400, 3), 90, np.uint8)
    face = CardReading(UNKNOWN, 0.8, outline([(100, 60, 220, 230)]), 0)
    corner = CardReading(UNKNOWN, 0.5, outline([(20, 20, 50, 60)]), 1)
    assert face.unnamed_face and not corner.unnamed_face
    out = draw(picture, [face, corner])
    purple = (out == FACE).all(axis=2)
    assert purple[60:231, 100:221].any() and not purple[:, :60].any()
    assert _label(face) == "face 0.80" and _label(corner) == "? 0.50"
