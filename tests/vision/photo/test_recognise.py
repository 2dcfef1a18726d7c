"""The recogniser on real development photos, rendered photos and pictures with
no card at all."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.photo.images import load_image
from vision.photo.recognise import UNKNOWN
from vision.photo.spec import BACK
from vision.photo.synth import render_photo


def _named(cards):
    return {c.card for c in cards if c.card not in (UNKNOWN, BACK)}


def _backs(cards):
    return [c for c in cards if c.card == BACK]


@pytest.fixture(scope="module")
def read_photo(reader):
    """``reader.read`` of a development photo, each photo read once in this module: three
    tests look at the same held-out photos (the first ten, all 79, the first twenty), and
    a reading depends on nothing but the picture and the networks (issue 15)."""
    seen: dict[str, list] = {}

    def read(photo):
        if photo.path not in seen:
            seen[photo.path] = reader.read(load_image(photo.path))
        return seen[photo.path]

    return read


def _handful(dev_photos, n=10):
    """The first ``n`` single-card held-out photos in file order (never trained on)."""
    return [p for p in dev_photos if p.heldout and len(p.chicago_cards) == 1][:n]


# Training-part photos the shipped networks read: a guard that the whole chain
# (decode, detect, classify, calibrate, merge) still works on real photos.  They
# were trained on, so they say nothing about accuracy; the held-out tests and the
# benchmark do.
KNOWN_GOOD = {
    "IMG_20220921_193929.jpg": "KD",
    "IMG_20220921_194010.jpg": "8S",
    "IMG_20220921_194014.jpg": "7D",
    "IMG_20220921_194017.jpg": "KS",
}


def test_training_photos_still_give_their_card(dev_photos, reader):
    for p in dev_photos:
        name = p.file.rsplit("/", 1)[-1]
        if name in KNOWN_GOOD:
            assert not p.heldout and set(p.chicago_cards) == {KNOWN_GOOD[name]}
            assert _named(reader.read(load_image(p.path))) == {KNOWN_GOOD[name]}, name


def test_held_out_photos_give_the_labelled_card(dev_photos, read_photo):
    photos = _handful(dev_photos)
    results = {p.file: _named(read_photo(p)) for p in photos}
    missed = [p.file for p in photos if results[p.file] != set(p.in_view)]
    assert not missed, f"not read right: {missed}"


def test_held_out_photos_never_give_a_wrong_card(dev_photos, read_photo):
    photos = [p for p in dev_photos if p.heldout and len(p.chicago_cards) == 1]
    # in_view: the labels and the cards they leave out (dataset.UNLABELLED, checked by eye).
    wrong = {p.file: r for p in photos if (r := _named(read_photo(p)) - set(p.in_view))}
    assert not wrong, f"cards reported that are not there: {wrong}"


def test_a_multi_card_photo_reports_only_labelled_cards(dev_photos, reader):
    photo = next(p for p in dev_photos if p.heldout and len(p.chicago_cards) >= 3)
    assert _named(reader.read(load_image(photo.path))) <= set(photo.in_view)


def test_a_rendered_card_is_read(reader):
    assert _named(reader.read(render_photo(8, severity=0.4).image)) == {"QH"}
    assert _named(reader.read(render_photo(11, codes=["QH"], severity=0.3).image)) == {"QH"}


def _rendered_photo_gives_its_cards(reader, seed):
    photo = render_photo(seed, severity=0.4)
    got = _named(reader.read(photo.image))
    assert got <= {c.code for c in photo.cards if c.code}, "a card that is not in the picture"
    # Every card with an index in full view is read; one whose index is partly out of
    # the frame or covered may be read too (seed 7: a jack of spades at the edge).
    assert photo.visible <= got


@pytest.mark.parametrize("seed", [1, 3, 4, 5, 6, 7, 8])
def test_rendered_photo_gives_its_cards(reader, seed):
    _rendered_photo_gives_its_cards(reader, seed)


@pytest.mark.xfail(
    reason="a known miss, never a wrong card: in rendered seed 2 the reader names the QS but "
    "reads the QH at 0.926, just under the default --min-confidence 0.93, so it leaves "
    "the QH out (strict: this test fails the day the reader is sure of it)",
    strict=True,
)
@pytest.mark.parametrize("seed", [2])
def test_rendered_photo_gives_its_cards_not_yet(reader, seed):
    _rendered_photo_gives_its_cards(reader, seed)


def test_a_rendered_single_card_in_every_quarter_turn(reader):
    photo = render_photo(11, codes=["QH"], severity=0.3)
    for turn in (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE):
        img = photo.image if turn is None else cv2.rotate(photo.image, turn)
        assert _named(reader.read(img)) == {"QH"}


def test_no_card_no_reading(reader, dev_photos):
    empty = render_photo(5, codes=[], severity=0.5).image
    assert _named(reader.read(empty)) == set()
    # A real table top: the wood beside the card in a development photo, stretched.
    p = next(p for p in dev_photos if p.file.endswith("IMG_20220921_193915.jpg"))
    wood = cv2.resize(load_image(p.path)[560:640, 0:640], (640, 640))
    assert reader.read(wood) == []


def test_a_face_down_card_is_not_read_as_a_face(reader):
    photo = render_photo(8, codes=[None], severity=0.3)
    assert _named(reader.read(photo.image)) == set()


@pytest.mark.parametrize("seed", [8, 11, 12])
def test_a_face_down_card_is_reported_as_a_back(reader, seed):
    photo = render_photo(seed, codes=[None], severity=0.3)
    cards = reader.read(photo.image)
    assert _named(cards) == set()
    (back,) = _backs(cards)
    assert 0.0 < back.confidence <= 1.0 and back.indices == 0
    # Where it is: the reported box and the card's own box overlap well.
    (truth,) = photo.back_boxes()
    from vision.photo.recognise import iou

    assert iou(back.box, truth) > 0.5


def test_face_up_and_face_down_cards_together(reader):
    photo = render_photo(64, codes=[None, "7D"], severity=0.3)
    cards = reader.read(photo.image)
    assert _named(cards) == {"7D"} and len(_backs(cards)) == 1


def test_a_face_up_card_is_no_back(reader, read_photo, dev_photos):
    for seed, code in ((11, "QH"), (12, "KS"), (13, "JD")):
        assert _backs(reader.read(render_photo(seed, codes=[code], severity=0.3).image)) == []
    for p in _handful(dev_photos, 20):  # real faces, court cards among them
        assert _backs(read_photo(p)) == [], p.file


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(32, 900), st.integers(32, 900), st.integers(0, 2**32 - 1))
def test_any_picture_gives_well_formed_readings(reader, w, h, seed):
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3), np.uint8)
    for c in reader.read(img):
        assert c.card in ALL_CODES or c.card in (UNKNOWN, BACK)
        assert 0.0 <= c.confidence <= 1.0
        assert len(c.corners) == 4
