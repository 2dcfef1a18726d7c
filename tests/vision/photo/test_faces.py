"""Whole face-up cards (issue 17): a card whose index corners a hand covers is at
least counted, as "unknown" with no index corner and the whole card's box, and a
card that is named is never counted a second time."""

from __future__ import annotations

import random

import pytest

from vision.photo import scenes_data
from vision.photo.recognise import UNKNOWN, CardReading, iou, outline
from vision.photo.scene_reader import FACE_BACK_IOU, FACE_DETECTOR_FILE, SceneRead, SceneReader, placed_cards
from vision.photo.spec import BACK
from vision.photo.synth import cover_with_hand, render_photo


@pytest.fixture(scope="module")
def scene() -> SceneReader:
    return SceneReader.load()


def _unnamed(cards):
    return [c for c in cards if c.unnamed_face]


def _named(cards):
    return {c.card for c in cards if c.card not in (UNKNOWN, BACK)}


def covered(seed: int):
    """A rendered photo of three face-up cards whose first wholly seen card has both
    index corners under a hand (``cover_with_hand``; the face detector learnt from
    other seeds): (image, that card, the others)."""
    photo = render_photo(seed, codes=["KS", "7H", "QD"], severity=0.3)
    whole = [c for c in photo.cards if c.seen >= 0.8 and len(c.index_boxes) == 2]
    if not whole:
        return None
    card = whole[0]
    img = cover_with_hand(photo.image, card.index_boxes, random.Random(seed))
    return img, card, [c for c in photo.cards if c is not card]


def test_the_face_detector_ships(scene):
    assert scene.face_net is not None, f"vision/models/{FACE_DETECTOR_FILE} is missing"


def test_a_card_whose_corners_a_hand_covers_is_counted_not_named(scene):
    counted = tried = 0
    for seed in range(40):
        made = covered(seed)
        if made is None:
            continue
        img, card, others = made
        tried += 1
        cards = scene.read(img)
        assert card.code not in _named(cards), f"seed {seed}: {card.code} named through a hand"
        assert _named(cards) <= {c.code for c in others}, f"seed {seed}: a wrong card"
        if any(iou(c.box, card.box) >= 0.5 for c in _unnamed(cards)):
            counted += 1
    assert tried >= 20
    # measured 9 of 24: the face detector at its threshold finds the covered card in 17;
    # in 8 a named card whose own face it did not find is paired with it (the pairing
    # would rather miss a card than count a named one twice)
    assert counted >= tried / 3, (counted, tried)


def test_a_named_card_is_not_counted_again(scene):
    # rendered photos whose every face-up card is named: no unnamed face is left over
    checked = 0
    for seed in range(1, 30):
        photo = render_photo(seed, severity=0.3)
        cards = scene.read(photo.image)
        up = {c.code for c in photo.cards if c.code}
        if _named(cards) != up or any(c.code is None for c in photo.cards):
            continue
        checked += 1
        assert _unnamed(cards) == [], f"seed {seed}: {len(_unnamed(cards))} named cards counted again"
    assert checked >= 10


class FixedFaces(SceneReader):
    """The shipped reader with the face detector's finds given (the rule, not the network, under test)."""

    boxes: tuple = ()

    def detect_faces(self, image, blob=None):
        return [(b, 0.9) for b in self.boxes]


def test_each_named_card_takes_the_face_that_fits_it_best_and_a_back_stays_a_back(scene):
    reader = FixedFaces(scene.photo, scene.calibration, face_detector=object())
    small, large, other, back = (100, 100, 200, 250), (80, 80, 330, 300), (400, 50, 500, 200), (520, 300, 620, 450)
    reader.boxes = (large, small, other, back)
    named = [CardReading("7H", 0.99, outline([(110, 110, 125, 135), (175, 215, 190, 240)]), 2)]
    backs = [CardReading(BACK, 0.9, outline([(515, 305, 615, 445)]), 0)]
    left = reader.unnamed_faces(None, named, backs)
    assert [c.box for c in left] == [large, other]
    assert all(c.card == UNKNOWN and c.indices == 0 and len(c.corners) == 4 for c in left)
    # one corner read: its middle lies at the card's corner, inside the card's box grown a tenth
    named = [CardReading("7H", 0.99, outline([(92, 95, 105, 118)]), 1)]
    assert [c.box for c in reader.unnamed_faces(None, named)] == [large, other, back]


def test_as_many_named_cards_as_can_be_are_paired_with_a_face(scene):
    # rendered seed 5: the TC's one corner lies by the edge of the 5H's box, nearer than
    # by its own; the 5H's corner lies only in its own: each card gets its own face
    reader = FixedFaces(scene.photo, scene.calibration, face_detector=object())
    five, ten = (100, 0, 487, 385), (236, 155, 670, 645)
    reader.boxes = (five, ten)
    named = [
        CardReading("TC", 0.997, outline([(203, 270, 357, 449)]), 1),
        CardReading("5H", 0.991, outline([(127, -8, 205, 110)]), 1),
    ]
    assert reader.unnamed_faces(None, named) == []
    assert [c.box for c in reader.unnamed_faces(None, named[:1])] == [ten]  # the TC alone takes the better fit


def test_a_corner_just_outside_a_neighbour_s_face_takes_its_own_face(scene):
    # edje's 2x2 mosaic of IMG_2658-2684 (stop 56): a QH named on one corner whose middle
    # lies 0.04 of a side outside its left neighbour's face box (within the tenth a face
    # box is grown by) and 0.18 inside its own: it is its own face's card, and the
    # neighbour's face is left to be counted (FACE_EDGE)
    reader = FixedFaces(scene.photo, scene.calibration, face_detector=object())
    neighbour, own = (32, 490, 208, 650), (134, 473, 253, 629)
    reader.boxes = (neighbour, own)
    named = [CardReading("QH", 0.99, outline([(204, 595, 224, 620)]), 1)]
    assert [c.box for c in reader.unnamed_faces(None, named)] == [neighbour]


def test_a_card_read_on_two_cards_corners_is_paired_as_its_surest_corner(scene):
    # a webcam frame (edje, stop 56): a TC named on its own corner and on another card's
    # corner read TC too, far off (no card: CARD_APART).  As the band across both cards it
    # was paired with no face, so its own face was counted again, unnamed; placed at its
    # surest corner it takes its own face, and only the other card's is left
    reader = FixedFaces(scene.photo, scene.calibration, face_detector=object())
    own, other = (100, 100, 200, 250), (390, 290, 490, 440)
    reader.boxes = (own, other)
    sure, far = (110, 110, 125, 135), (470, 405, 485, 430)
    reads = [SceneRead(sure, 0.8, "TC", 0.99), SceneRead(far, 0.6, "TC", 0.7)]
    named = [CardReading("TC", 0.99, outline([sure, far]), 2)]
    assert [c.box for c in reader.unnamed_faces(None, named)] == [own, other]  # the band pairs with neither
    assert [c.box for c in reader.unnamed_faces(None, named, reads=reads)] == [other]
    # a card whose two reads make one card is paired as that card
    near = (180, 220, 195, 245)
    named = [CardReading("TC", 0.99, outline([sure, near]), 2)]
    reads = [SceneRead(sure, 0.8, "TC", 0.99), SceneRead(near, 0.6, "TC", 0.7)]
    assert [c.box for c in reader.unnamed_faces(None, named, reads=reads)] == [other]


def test_a_card_is_outlined_by_its_sure_corners_not_by_a_guess_farther_off(scene):
    # a JH named on its two corners, read 0.99 and 0.95, 4 sides apart; another card's
    # corner, 5.3 sides off, read JH at 0.38, is as far as one card's corners may lie
    # (CARD_APART) and farther than the JH's own: the outline of the sure two is the
    # card (PLACE_SURE), and the JH takes its own face, leaving the other card's counted
    reader = FixedFaces(scene.photo, scene.calibration, face_detector=object())
    own, other = (100, 100, 163, 188), (115, 195, 178, 283)
    reader.boxes = (own, other)
    sure, second, guess = (102, 103, 112, 123), (151, 165, 161, 185), (122, 208, 132, 228)
    reads = [SceneRead(sure, 0.9, "JH", 0.99), SceneRead(second, 0.8, "JH", 0.95), SceneRead(guess, 0.5, "JH", 0.38)]
    named = [CardReading("JH", 0.99, outline([sure, second, guess]), 2)]
    (placed,) = placed_cards(named, reads)
    assert iou(placed.box, own) > 0.6
    assert [c.box for c in reader.unnamed_faces(None, named, reads=reads)] == [other]
    # when the sure reads make no card, every read is tried, as before
    weak = [SceneRead(sure, 0.9, "JH", 0.99), SceneRead(guess, 0.5, "JH", 0.38)]
    assert placed_cards(named, weak)[0].indices == 2


def test_a_crowded_frame_shows_a_card_where_it_lies_not_across_two_cards(scene, scenes):
    # edje's 2x2 mosaic of four validation photos (the benchmark's, sharp): the JH is read
    # on both its corners (1.0 and 0.95) and a JD's corner is read JH (0.38), farther off.
    # Outlined by that guess the JH lay across both cards (IoU with either under 0.2);
    # outlined by its sure corners it is the JH's own card
    from vision.photo import composite
    from vision.photo.images import load_image

    names = ("IMG_2567", "IMG_2570", "IMG_2571", "IMG_2583")
    photos = [next(p for p in scenes if p.file == f"edje/{n}.jpg") for n in names]
    assert all(p.validation and not p.heldout for p in photos)
    frame, places = composite.mosaic([load_image(p.path) for p in photos], (2, 2), 60)
    whole = scenes_data.whole_card_boxes()
    x, y, f = places[0]
    labelled = [(x + a * f, y + b * f, x + c * f, y + d * f) for a, b, c, d in whole[photos[0].file]]
    seen = scene.read(frame)
    (jh,) = [c for c in seen if c.card == "JH"]
    assert jh.indices == 2
    assert max(iou(jh.box, box) for box in labelled) > 0.6


def test_a_webcam_frame_counts_each_card_once(scene, scenes):
    # four validation photos of edje in a 2x2 frame as a webcam gives it (the benchmark's
    # mosaic, its webcam look): the ten's TC is named, and the queen's corner is read TC
    # too, far off; the ten's face is its own, not counted again: without the face witness
    # two faces are left unnamed, the queen's and the nine's (the king is named on one
    # corner); with it (stop 58) the queen is named from her face, and the nine's is left
    from vision.photo import composite, distill
    from vision.photo.images import load_image

    names = ("IMG_2432", "IMG_2439", "IMG_2445", "IMG_2452")  # a ten, a king, a queen, a nine
    photos = [next(p for p in scenes if p.file == f"edje/{n}.jpg") for n in names]
    assert all(p.validation and not p.heldout for p in photos)
    frame, _ = composite.mosaic([load_image(p.path) for p in photos], (2, 2), 60)
    frame = distill.soften(frame, 1.0, 6.0, 60, 4)
    for reader, ranks, unnamed in ((SceneReader.load(face_classifier=None), "TK", 2), (scene, "TKQ", 1)):
        seen, reads = reader.read_with_indices(frame)
        assert {c.card[0] for c in seen if c.card not in (UNKNOWN, BACK)} == set(ranks)
        assert len([r for r in reads if r.code == "TC"]) >= 2
        faces = _unnamed(seen)
        assert len(faces) == unnamed
        assert all(c.middle[1] > 360 for c in faces)  # the bottom row's


def test_without_the_face_detector_no_face_is_counted(tmp_path):
    made = covered(3) or covered(4)
    assert made is not None
    reader = SceneReader.load(faces=False)
    assert reader.face_net is None
    assert _unnamed(reader.read(made[0])) == []


def test_face_and_back_boxes_split_the_rendered_cards():
    photo = render_photo(64, codes=[None, "7D", "KS"], severity=0.3)
    faces, backs = photo.face_boxes(0.0), photo.back_boxes(0.0)
    assert (len(faces), len(backs)) == (2, 1)


def test_a_back_that_a_surer_face_overlaps_is_that_face(scene):
    # a hand over a face looks like a back to the back detector (it never learnt hands)
    for seed in range(40):
        made = covered(seed)
        if made is None:
            continue
        whole = scene.detect_faces(made[0])
        for back in (c for c in scene.read(made[0]) if c.card == BACK):
            assert not any(iou(back.box, f) >= FACE_BACK_IOU and s > back.confidence for f, s in whole), seed


def test_small_covered_cards_of_a_crowded_frame_are_counted_from_the_larger_pass(scene):
    """In a wide frame of four rendered photos (``covered``: a hand over one card's index
    corners in each), the covered cards are 100-360 px across, small for the counting
    pass at 256x192, which misses most of them; the closer looks' larger face pass finds
    them, and since stop 52 its surest faces (``FACE_COUNT_LARGER``) are counted too.
    Measured: 10 of the 32 covered cards counted, 3 without them; the cards named are
    the same either way."""
    from vision.photo.composite import mosaic

    alone = SceneReader.load(count_larger=None)
    made = [m for m in (covered(seed) for seed in range(60)) if m is not None][:32]
    assert len(made) == 32
    counted = {True: 0, False: 0}
    for k in range(0, 32, 4):
        group = made[k : k + 4]
        frame, places = mosaic([img for img, _, _ in group], (2, 2), 60)
        boxes = [
            (x + c.box[0] * f, y + c.box[1] * f, x + c.box[2] * f, y + c.box[3] * f)
            for (_, c, _), (x, y, f) in zip(group, places)
        ]
        read = {True: scene.read(frame), False: alone.read(frame)}
        assert _named(read[True]) == _named(read[False]), f"frame {k // 4}: counting changed a card named"
        for larger, cards in read.items():
            faces = [c.box for c in _unnamed(cards)]
            counted[larger] += sum(any(iou(f, b) >= 0.5 for f in faces) for b in boxes)
    assert counted[True] >= 8 and counted[True] >= 2 * counted[False] + 2, counted
