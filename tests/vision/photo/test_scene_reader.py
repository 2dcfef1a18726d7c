"""The scene reader (issue 17, ``camera read``): small indices, light glyphs on dark
faces, several cards, and confidence that does not count two corners twice."""

from __future__ import annotations

import copy
import dataclasses
import random

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.photo import recognise, scene_reader, scenes_data
from vision.photo.dataset import load_photos
from vision.photo.images import load_image
from vision.photo.recognise import COLOUR, MODELS, UNKNOWN, UNSURE, IndexRead, ModelMissing, Recogniser
from vision.photo.scene_reader import (
    CASCADE,
    CLOSER,
    CLOSER_LEAST,
    CLOSER_SIZE,
    GREY_SUIT,
    NONE_SURE,
    SCENE_CLASSIFIER_FILE,
    WITNESS,
    SceneRead,
    SceneReader,
    _ious,
    iou,
    is_grey,
    light_glyphs,
    red_ink,
)
from vision.photo.spec import BACK, NONE
from vision.photo.synth import cover_with_hand, render_photo


@pytest.fixture(scope="module")
def scene() -> SceneReader:
    return SceneReader.load()


def _named(cards):
    return {c.card for c in cards if c.card not in (UNKNOWN, BACK)}


def test_a_small_card_in_a_large_frame_is_read(scene):
    # A rendered QH shrunk to a third and put in a 1280x720 frame: its index is about
    # 15 px at the single-card reader's 320 px view, too small for it.
    card = cv2.resize(render_photo(8, severity=0.3).image, (213, 213), interpolation=cv2.INTER_AREA)
    frame = np.full((720, 1280, 3), (40, 90, 40), np.uint8)
    frame[400:613, 900:1113] = card
    assert _named(scene.read(frame)) == {"QH"}


def test_light_glyphs_on_a_dark_face_are_read(scene):
    # The whole picture inverted: a dark face with light glyphs (as the black and gold deck).
    photo = render_photo(11, codes=["QH"], severity=0.3)
    cards = scene.read(255 - photo.image)
    assert _named(cards) == {"QH"}
    assert [c for c in cards if c.card == BACK] == []  # a dark face is no back
    assert _named(SceneReader.load(invert=False).read(255 - photo.image)) == set()


@pytest.mark.parametrize("name", ["IMG_2439.jpg", "IMG_2499.jpg", "IMG_2586.jpg", "IMG_2589.jpg"])
def test_real_clutter_is_no_face_down_card(scene, scenes, name):
    # The validation photos of face-up cards on carpet, wood and cloth in which the back
    # detector that had learnt from rendered photos alone reported a back (0.57, 0.60,
    # 0.69, 0.55); taught the multi-card photos' training part too (train
    # --back-scenes), it finds none.
    p = next(p for p in scenes if p.file == f"edje/{name}")
    assert not p.shows_back
    assert [c for c in scene.read(load_image(p.path)) if c.card == BACK] == []


def test_a_dim_crop_with_dark_glyphs_is_not_taken_for_light_glyphs_on_a_dark_face():
    dim = np.full((48, 48), 70, np.uint8)  # grey paper in a dim photo
    dim[15:33, 20:28] = 15  # dark ink
    gold = np.full((48, 48), 25, np.uint8)  # a black face
    gold[15:33, 20:28] = 200  # light ink
    assert not light_glyphs(dim) and light_glyphs(gold)
    crop = cv2.cvtColor(dim, cv2.COLOR_GRAY2BGR)
    assert SceneReader.load(polarity="median")._light_on_dark(crop)  # every dark crop, as before
    assert not SceneReader.load(polarity="glyphs")._light_on_dark(crop)
    with pytest.raises(ValueError, match="polarity"):
        SceneReader.load(polarity="inverted")


def test_a_dark_crop_is_read_first_the_way_its_ink_suggests_and_then_the_other_way():
    dim = np.full((48, 48), 70, np.uint8)
    dim[15:33, 20:28] = 15
    gold = np.full((48, 48), 25, np.uint8)
    gold[15:33, 20:28] = 200
    light = np.full((48, 48), 230, np.uint8)
    light[15:33, 20:28] = 20
    both = SceneReader.load(polarity="both")
    as_bgr = lambda g: cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)  # noqa: E731
    assert both._polarity_of(as_bgr(dim)) == (False, True)  # as it is first, inverted too
    assert both._polarity_of(as_bgr(gold)) == (True, True)  # inverted first, as it is too
    assert both._polarity_of(as_bgr(light)) == (False, False)  # a light crop: as it is only
    assert SceneReader.load(polarity="median")._polarity_of(as_bgr(dim)) == (True, False)


@pytest.fixture(scope="module")
def dev_by_file():
    try:
        return {p.file: p for p in load_photos()}
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


def test_a_dim_photo_read_both_ways_names_its_card(scene, dev_by_file):
    # A dim single-card photo of the validation fold (never trained on, never held
    # out): its crops are dark, so "median" reads them inverted only, as light
    # glyphs on a dark face, and names nothing; read both ways (POLARITY "both")
    # the dark glyphs are read as they are.  (The closer look at the card, CLOSER,
    # reads its crops as they are too, and since stop 53 the photo is read brightened,
    # WHITE_BALANCE, which makes its crops light: both are left out to see the polarity
    # alone.)
    p = dev_by_file["rf_phone_2022/IMG_20220921_194804.jpg"]
    assert p.validation and p.in_view == {"8H"}
    img = load_image(p.path)
    assert scene.polarity == "both"
    assert _named(scene.read(img)) == {"8H"}
    alone = {"closer": None, "white_balance": None}
    assert _named(SceneReader.load(**alone).read(img)) == {"8H"}
    assert _named(SceneReader.load(polarity="median", **alone).read(img)) == set()
    assert _named(SceneReader.load(polarity="median", closer=None).read(img)) == {"8H"}  # brightened


def test_red_ink_draws_the_ink_red_and_keeps_the_paper():
    grey = np.full((48, 48, 3), 200, np.uint8)
    grey[12:40, 14:36] = 20  # a quarter of the crop is ink
    assert is_grey(grey)
    red = red_ink(grey)
    b, g, r = (int(v) for v in red[20, 24])
    assert r > 150 and b < 60 and g < 60  # ink: red
    assert tuple(int(v) for v in red[2, 2]) == (200, 200, 200)  # paper: as it was
    assert not is_grey(red)


def _not_held_out(dev_by_file, name: str, card: str):
    """The development photo ``name``, which shows ``card`` alone and is not held out."""
    p = dev_by_file[name]
    assert p.in_view == {card} and not p.heldout
    return load_image(p.path)


def test_a_black_suit_on_grey_corners_that_turns_red_with_red_ink_is_unknown(scene, dev_by_file):
    # A grey photo (no colour in the crops) of a JS, not held out: both corners are
    # read as JC, and the confidence map alone names it at 0.99 (a wrong card).
    # Read again with the ink drawn red, the same rank in a red suit is at least
    # GREY_SUIT likely: the colour the photo lacks decided the suit, so it is unknown.
    img = _not_held_out(dev_by_file, "rf_phone_2022/IMG_20220921_201314.jpg", "JS")
    reads = scene.read_indices(img)
    jc = [r for r in reads if r.code == "JC"]
    assert jc and all(r.grey for r in jc)
    named, _ = scene.cards(reads)
    assert "JC" in {c.card for c in named}  # the map alone would name it
    assert scene.suit_colour_doubt(img, jc) >= GREY_SUIT
    cards = scene.read(img)
    assert "JC" not in _named(cards)
    # its unknown line says why, at the map's confidence: no sureness of any card
    assert [c.why for c in cards if c.card == UNKNOWN and c.why != UNSURE] == [COLOUR]


def test_a_grey_black_card_whose_shape_decides_its_suit_is_still_named(scene, dev_by_file):
    # A grey photo of a QC (not held out): with red ink it stays a club.
    img = _not_held_out(dev_by_file, "rf_phone_2022/IMG_20220921_200037.jpg", "QC")
    qc = [r for r in scene.read_indices(img) if r.code == "QC"]
    assert qc and all(r.grey for r in qc)
    assert scene.suit_colour_doubt(img, qc) == 0.0
    assert _named(scene.read(img)) == {"QC"}


def test_colour_and_red_suits_are_not_doubted(scene):
    red = SceneRead((10, 10, 40, 60), 0.8, "6D", 0.99, grey=True)
    coloured = SceneRead((10, 10, 40, 60), 0.8, "6S", 0.99, grey=False)
    img = np.zeros((100, 100, 3), np.uint8)
    assert scene.suit_colour_doubt(img, [red]) == 0.0
    assert scene.suit_colour_doubt(img, [coloured]) == 0.0


@pytest.mark.parametrize(("name", "card"), [("IMG_7734.jpg", "3H"), ("IMG_7745.jpg", "TH"), ("IMG_7808.jpg", "8D")])
def test_small_light_indices_on_dark_faces_are_found_on_the_inverted_picture_enlarged(scene, scenes, name, card):
    # Real photos of the black and gold deck (not held out): these light indices are
    # too small for the inverted picture at scale 1, where no candidate reads the
    # card even at 0.3; the inverted picture enlarged (INVERT_SCALES) finds and names it.
    # (Since stop 48 a closer look at a dark face may read it too, DARK_FACES: left out
    # here, where the whole picture's passes are what is measured.)
    p = next(p for p in scenes if p.file == f"rf_phone_77xx/{name}")
    img = load_image(p.path)
    assert card in _named(scene.read(img))
    small_only = SceneReader.load(invert_scales=(1.0,), dark_faces=False)
    assert card not in {r.code for r in small_only.read_indices(img) if r.prob >= 0.3}


@pytest.mark.parametrize(("name", "ranks"), [("cam_image22.jpg", {"Q"}), ("IMG_2700.jpg", {"A"})])
def test_the_scene_classifier_reads_what_the_single_card_classifier_is_unsure_of(scene, scenes, name, ranks):
    # Real edje photos of the validation fold (never trained on, never held out):
    # these ranks are named only with the second opinion of the classifier
    # fine-tuned on real scenes, asked where the first is unsure (CASCADE), in the
    # whole picture (the closer look, CLOSER, left out too).  (The 9 of IMG_2414, here
    # before, is named by the first alone since dark crops are read both ways,
    # POLARITY; the Q of IMG_2400 since the first is one member of the ensemble,
    # FIRST_CLASSIFIER_FILE; the Q of IMG_2445 since the map was fitted again for the
    # scene classifier taught webcam-soft crops, vision.photo.distill; the 9 of IMG_2702,
    # read alike, is held back at 0.969 since the map was fitted again for the closer
    # looks' taught detector, CLOSER_DETECTOR_FILE.)
    p = next(p for p in scenes if p.file == f"edje/{name}")
    assert p.validation and p.truth == ranks
    img = load_image(p.path)
    assert p.as_truth(_named(scene.read(img))) == ranks
    assert p.as_truth(_named(SceneReader.load(closer=None).read(img))) == ranks
    # (the face classifier, naming a card alone since stop 59, names its A from its face:
    # left out, as this is about the index classifiers)
    alone = SceneReader.load(scene_classifier=None, closer=None, face_names=None)
    assert p.as_truth(_named(alone.read(img))) < ranks


def test_sure_readings_of_the_single_card_classifier_are_kept(scene):
    # The second opinion is asked only where the first is unsure: a single card of
    # the deck the first learnt is read as before.
    alone = SceneReader.load(scene_classifier=None)
    photo = render_photo(3, severity=0.3)
    boxes = [c.box for c in scene.detect(photo.image)]
    both, one = scene.classify(photo.image, boxes), alone.classify(photo.image, boxes)
    sure = [i for i, (_, p, _, _) in enumerate(one) if p >= CASCADE]
    assert sure, "no sure reading to compare"
    # A fairly sure "no index" is not asked again either (NONE_SURE).
    kept = sure + [i for i, (code, p, _, _) in enumerate(one) if code == NONE and NONE_SURE <= p < CASCADE]
    assert [both[i] for i in kept] == [one[i] for i in kept]
    assert not any(second for *_, second in one)  # no second opinion without the scene classifier
    assert all(second == (i not in kept) for i, (*_, second) in enumerate(both))
    assert any(code == "KD" for code, *_ in both)


def test_a_fairly_sure_no_index_gets_no_second_opinion_an_unsure_card_does(scene):
    # Rendered seed 25 at severity 0.8 has both: crops the single-card classifier
    # reads as no index at NONE_SURE..CASCADE (left as they are, not read twice) and
    # an unsure card reading (read again by the scene classifier).
    alone = SceneReader.load(scene_classifier=None)
    image = render_photo(25, severity=0.8).image
    boxes = [c.box for c in scene.detect(image)]
    one, both = alone.classify(image, boxes), scene.classify(image, boxes)
    sure_none = [i for i, (code, p, _, _) in enumerate(one) if code == NONE and NONE_SURE <= p < CASCADE]
    unsure_card = [i for i, (code, p, _, _) in enumerate(one) if code != NONE and p < CASCADE]
    assert sure_none and unsure_card
    assert all(both[i] == one[i] and not both[i][3] for i in sure_none)
    assert all(both[i][3] for i in unsure_card)


def test_each_reading_path_has_its_own_confidence_map(scene):
    # A card whose best corner the single-card classifier read surely and one the
    # scene classifier read (the first was unsure) are judged by different maps.
    cal = {"w": [1.0, 0.0, 0.0, 0.0, 2.0], "w_second": [1.0, 0.0, 0.0, 0.0, -2.0]}
    reader = SceneReader(scene.photo, cal)
    first = SceneRead((10, 10, 40, 60), 0.8, "6D", 0.9)
    second = SceneRead((10, 10, 40, 60), 0.8, "6D", 0.9, second=True)
    logit = np.log(0.9 / 0.1)
    assert reader.confidence([first]) == pytest.approx(1 / (1 + np.exp(-(logit + 2.0))))
    assert reader.confidence([second]) == pytest.approx(1 / (1 + np.exp(-(logit - 2.0))))
    # The best corner decides the path.
    other = SceneRead((300, 300, 330, 350), 0.8, "6D", 0.6, second=True)
    assert reader.confidence([first, other]) == reader.confidence([first])
    # A calibration of one map (made before the paths) serves both.
    assert SceneReader(scene.photo, {"w": cal["w"]}).confidence([second]) == reader.confidence([first])
    # The first path's map learnt sure readings only: an unsure reading of the
    # single-card classifier (a reader without the scene classifier) takes the second's.
    unsure = SceneRead((10, 10, 40, 60), 0.8, "6D", 0.6)
    assert reader.confidence([unsure]) == pytest.approx(1 / (1 + np.exp(-(np.log(0.6 / 0.4) - 2.0))))


def test_the_shipped_calibration_has_a_map_per_path(scene):
    assert scene.calibration is not None
    assert len(scene.calibration["w"]) == len(scene.calibration["w_second"]) == 5
    # A single corner the single-card classifier reads at 0.9 (just sure enough to
    # be no cascade) is named: on the validation folds 146 of 147 cards whose best
    # corner that classifier read surely were right; one map for both paths held
    # such cards below the threshold.
    assert scene.confidence([SceneRead((10, 10, 40, 60), 0.5, "6D", 0.9)]) >= scene.min_confidence


def test_a_damaged_scene_classifier_is_a_clear_error(tmp_path):
    for f in MODELS.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    (tmp_path / SCENE_CLASSIFIER_FILE).write_bytes(b"not a network")
    with pytest.raises(ModelMissing, match=SCENE_CLASSIFIER_FILE):
        SceneReader.load(tmp_path, int8=False)  # its int8 copy: tests/vision/photo/test_int8.py


def test_rendered_photos_give_only_their_cards(scene):
    for seed in (1, 3, 4, 5, 6, 7, 8):
        photo = render_photo(seed, severity=0.4)
        got = _named(scene.read(photo.image))
        assert got <= {c.code for c in photo.cards if c.code}, seed


def test_held_out_multi_card_photos_never_give_a_wrong_card(scene, scenes):
    # The first held-out photos of each subset (never used for a choice): no card
    # named that is not there; and some of those there are named.
    wrong, right, there = {}, 0, 0
    for subset in ("edje", "rf_phone_77xx"):
        for p in [p for p in scenes if p.heldout and p.subset == subset][:8]:
            got = p.as_truth(_named(scene.read(load_image(p.path))))
            if got - p.truth:
                wrong[p.file] = sorted(got - p.truth)
            right += len(got & p.truth)
            there += len(p.truth)
    assert not wrong, f"cards named that are not there: {wrong}"
    assert right >= 0.2 * there, (right, there)  # measured 7 of 28 (the black and gold deck is hard)


def test_two_agreeing_corners_are_not_two_independent_witnesses(scene):
    a = IndexRead((10, 10, 40, 60), 0.8, "6D", 0.9)
    b = IndexRead((300, 300, 330, 350), 0.8, "6D", 0.9)  # the card's other corner
    again = IndexRead((14, 12, 44, 62), 0.7, "6D", 0.9)  # the same corner found at another scale
    one, two = scene.confidence([a]), scene.confidence([a, b])
    assert two >= one
    assert two < 1 - (1 - one) ** 2  # what independent witnesses would give
    assert scene.confidence([a, again]) == one
    named, _ = scene.cards([a, b], 0.0)
    assert [(c.card, c.indices) for c in named] == [("6D", 2)]
    assert named[0].confidence == pytest.approx(two, abs=1e-4)


def test_cards_in_makes_cards_of_the_reads_it_is_given_alone(scene):
    # Two photos side by side in one frame, each with its own 6D: read together they
    # are one card (a deck has each card once); each half's reads alone name it there.
    frame = np.full((200, 400, 3), 200, np.uint8)
    left = [SceneRead((10, 10, 40, 60), 0.9, "6D", 0.99), SceneRead((150, 130, 180, 180), 0.9, "6D", 0.99)]
    right = [SceneRead((210, 10, 240, 60), 0.9, "6D", 0.99)]
    together, _ = scene.cards_in(frame, left + right)
    assert [c.card for c in together] == ["6D"] and together[0].indices == 2
    one, _ = scene.cards_in(frame, left)
    other, _ = scene.cards_in(frame, right)
    assert [c.card for c in one] == [c.card for c in other] == ["6D"]
    assert one[0].corners != other[0].corners
    assert scene.cards_in(frame, []) == ([], [])


def test_read_with_indices_gives_the_cards_of_read_and_the_reads_of_read_indices(scene):
    image = render_photo(3, severity=0.3).image
    cards, reads = scene.read_with_indices(image)
    assert cards == scene.read(image) and _named(cards)
    assert reads == scene.read_indices(image)


def test_unsure_reads_are_unknown_never_a_card(scene):
    named, unknown = scene.cards([IndexRead((10, 10, 40, 60), 0.9, "6D", 0.3)], 0.93)
    assert named == [] and [(c.card, c.why) for c in unknown] == [(UNKNOWN, UNSURE)]


def test_no_card_no_reading(scene):
    assert _named(scene.read(render_photo(5, codes=[], severity=0.5).image)) == set()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(32, 900), st.integers(32, 900), st.integers(0, 2**32 - 1))
def test_any_picture_gives_well_formed_readings(scene, w, h, seed):
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3), np.uint8)
    for c in scene.read(img):
        assert c.card in ALL_CODES or c.card in (UNKNOWN, BACK)
        assert 0.0 <= c.confidence <= 1.0
        assert len(c.corners) == 4


def test_the_single_card_reader_is_unchanged():
    # tests/vision/photo/test_recognise.py holds it to its figures; the scene reader only reuses its networks.
    assert isinstance(SceneReader.load().photo, Recogniser)


def test_an_unsure_card_the_single_card_reader_names_too_is_named(scene, dev_by_file):
    # A single-card photo (a 4S, not held out): the confidence map leaves the scene
    # reader's 4S below the threshold, and the single-card reader, looking at the
    # whole picture its own way, names the 4S at its own threshold (WITNESS[1]):
    # two readers agree, so the card is named, at the threshold's confidence.
    img = _not_held_out(dev_by_file, "rf_phone_2022/IMG_20220921_201339.jpg", "4S")
    reads = scene.read_indices(img)
    fours = [r for r in reads if r.code == "4S"]
    assert WITNESS[0] <= scene.confidence(fours) < scene.min_confidence
    assert scene.witnessed(img, reads) == {"4S"}
    cards = scene.read(img)
    assert _named(cards) == {"4S"}
    assert next(c.confidence for c in cards if c.card == "4S") == scene.min_confidence
    # without this witness the card is not named (nor by the face witness, which names it
    # too since stop 58: this test is about the single-card reader's)
    assert _named(SceneReader.load(witness=None, face_classifier=None).read(img)) == set()
    # A threshold above the default asks for more than the witness was measured to give.
    assert SceneReader.load(min_confidence=0.99).witnessed(img, reads) == set()


def test_an_unsure_card_the_single_card_reader_is_not_sure_of_stays_unknown(scene, dev_by_file):
    # A grey photo of a 3S (not held out) read as 3H, unsurely; the single-card
    # reader names 3H too, but at 0.90, below its own threshold (WITNESS[1], 0.93):
    # with a witness at 0.9 this wrong card would be named.
    img = _not_held_out(dev_by_file, "rf_phone_2022/IMG_20220921_201530.jpg", "3S")
    assert "3H" not in _named(scene.read(img))
    assert "3H" in _named(SceneReader.load(witness=(WITNESS[0], 0.9)).read(img))


def test_a_card_read_as_light_glyphs_on_a_dark_face_is_not_shown_to_the_single_card_reader(scene, dev_by_file):
    # The single-card reader reads crops as they are; a card whose best corner was
    # read inverted is not asked about (the same reads, marked inverted, get no witness).
    p = dev_by_file["rf_phone_2022/IMG_20220921_201339.jpg"]
    img = load_image(p.path)
    reads = scene.read_indices(img)
    assert scene.witnessed(img, reads) == {"4S"}
    turned = [dataclasses.replace(r, inverted=True) if r.code == "4S" else r for r in reads]
    assert scene.witnessed(img, turned) == set()


def test_a_named_card_s_corner_read_otherwise_too_is_no_unknown_line(scene):
    # edje's 2x2 mosaic (stop 57): the JH is named from its corner at (237, 218, 259, 240);
    # a closer look's larger box round the same corner read 7H at 0.07, and was listed
    # as "unknown 0.00" on the named JH.  It is that card's corner; a 7H read elsewhere
    # is still an unknown line
    jh = SceneRead((237, 218, 259, 240), 0.44, "JH", 0.99)
    jh2 = SceneRead((100, 100, 122, 122), 0.8, "JH", 0.99)
    round_it = SceneRead((213, 210, 259, 264), 0.64, "7H", 0.07, second=True)
    named, unknown = scene.cards([jh, jh2, round_it])
    assert [c.card for c in named] == ["JH"] and unknown == []
    elsewhere = dataclasses.replace(round_it, box=(400, 400, 446, 454))
    named, unknown = scene.cards([jh, jh2, elsewhere])
    assert [c.card for c in named] == ["JH"] and [(c.card, c.why) for c in unknown] == [(UNKNOWN, UNSURE)]


def test_a_confirmed_card_is_named_at_the_threshold_and_others_are_not(scene):
    unsure = SceneRead((10, 10, 40, 60), 0.8, "6D", 0.5)
    conf = scene.confidence([unsure])
    assert conf < scene.min_confidence
    named, unknown = scene.cards([unsure])
    assert not named and [c.card for c in unknown] == [UNKNOWN]
    named, unknown = scene.cards([unsure], confirmed={"6D"})
    assert [(c.card, c.confidence) for c in named] == [("6D", scene.min_confidence)] and not unknown
    named, _ = scene.cards([unsure], confirmed={"7D"})
    assert not named


def test_the_whole_card_detectors_see_the_picture_the_index_detector_scaled(scene, scenes, monkeypatch):
    """The face and the back detector get the picture from the index detector's smallest
    scaling of that same picture, not scaled from the whole frame again, once for both;
    the face detector's larger pass (``CLOSER_FACES``) gets the largest scaling; both
    squashed by at most ``FACE_SQUASH`` (a 16:9 frame at 256x192 and 688x512, a 4:3
    photo square); a picture that was not scaled down is scaled from itself; a closer
    look at a part of the picture (``CLOSER``) changes neither."""
    from vision.photo import scene_reader

    seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    face_picture = scene_reader.face_picture

    def spy(picture, short, squash):
        out = face_picture(picture, short, squash)
        seen.append((picture.shape[:2], out.shape[:2]))
        return out

    monkeypatch.setattr(scene_reader, "face_picture", spy)
    frame = np.full((720, 1280, 3), 60, np.uint8)
    frame[100:620, 200:840] = cv2.resize(render_photo(3, severity=0.3).image, (640, 520))
    assert _named(scene.read(frame))
    # the frame's short side at the detector's 320 px, scaled once; its larger scaling (1.4)
    assert seen == [((320, 568), (192, 256)), ((448, 800), (512, 688))]
    seen.clear()
    small = cv2.resize(frame, (320, 180), interpolation=cv2.INTER_AREA)  # enlarged for the detector
    scene.read(small)
    assert seen == [((180, 320), (192, 256)), ((448, 800), (512, 688))]
    seen.clear()
    parts: list[tuple[int, ...]] = []
    candidates = scene._candidates

    def spy_parts(image, *args):
        parts.append(image.shape)
        return candidates(image, *args)

    monkeypatch.setattr(scene, "_candidates", spy_parts)
    photo = load_image(_edje_k(scenes).path)  # 378x504: its smallest scaling 320x424
    scene.read(photo)
    assert len(parts) > 1  # a closer look at its small card's part
    assert seen == [((424, 320), (192, 192)), ((600, 448), (512, 512))]  # a 4:3 photo: square, as before


def _closer(scene: SceneReader, closer: float | None) -> SceneReader:
    reader = copy.copy(scene)
    reader.closer = closer
    return reader


def _edje_k(scenes):
    """An edje photo of the validation fold (never trained on, never held out) of one K."""
    p = next(p for p in scenes if p.path.name == "IMG_2439.jpg")
    assert p.subset == "edje" and p.validation and not p.heldout and p.truth == {"K"}
    return p


def test_a_card_whose_small_index_the_picture_hides_is_read_by_a_closer_look(scene, scenes, monkeypatch):
    # The face detector finds the K of this photo; its indices are too small to be
    # read in the whole picture; in the part round that face, seen at the detector's
    # size, they are: by the closer looks' detector's int8 copy (since 30 November).
    img = load_image(_edje_k(scenes).path)
    assert scene.closer == CLOSER
    assert scene.closer_net.path.name == "closer_detector.int8.onnx"
    looks: list[tuple[int, ...]] = []
    run = scene.closer_net.run
    monkeypatch.setattr(scene.closer_net, "run", lambda x: looks.append(x.shape) or run(x))
    assert {c.card[0] for c in scene.read(img) if c.card not in (UNKNOWN, BACK)} == {"K"}
    assert looks and all(min(shape[2:]) == 320 for shape in looks)  # each part at the detector's 320 px
    # without the closer look, nothing names it (the face classifier, naming a card alone
    # since stop 59, reads its face as the KC: left out, as this is about the closer look)
    assert _named(_closer(SceneReader.load(face_names=None), None).read(img)) == set()


def test_the_closer_looks_crops_are_read_together_as_each_look_would_read_them_alone(scene, scenes):
    """The closer looks' crops are cut from each part and read in one batch
    (``_cut``, ``_read_cut``): each crop gets the reading it gets in its own look's
    batch, in its place, the scene classifier's second opinion and the reading
    inverted included."""
    edje = [p for p in scenes if p.validation and p.subset == "edje"][:4]
    cuts = []
    for part in (load_image(p.path) for p in edje):
        found, _, _ = scene._candidates(part, None, False, (1.0,))
        cuts.append(scene._cut(part, [c.box for c in found], [c.score for c in found]))
    assert all(cuts) and sum(len(c) for c in cuts) > 10
    alone = [reading for cut in cuts for reading in scene._read_cut(cut)]
    together = scene._read_cut([crop for cut in cuts for crop in cut])
    assert [r[0] for r in together] == [r[0] for r in alone]
    assert [r[2:] for r in together] == [r[2:] for r in alone]
    assert np.allclose([r[1] for r in together], [r[1] for r in alone], atol=1e-5)
    assert any(r[3] for r in alone) and any(r[0] not in (NONE, BACK) for r in alone)  # a second opinion, a card


@given(
    st.lists(st.tuples(*[st.floats(0, 500)] * 2, *[st.floats(0.5, 200)] * 2), max_size=6),
    st.lists(st.tuples(*[st.floats(0, 500)] * 2, *[st.floats(0.5, 200)] * 2), min_size=1, max_size=6),
)
def test_overlaps_computed_at_once_are_ious_to_the_bit(boxes, others):
    """``_ious``, the overlap of many boxes with many at once (suppressing a corner
    found twice, merging the closer looks'), gives exactly ``iou``'s values."""
    boxes = [(x, y, x + bw, y + bh) for x, y, bw, bh in boxes]
    others = [(x, y, x + bw, y + bh) for x, y, bw, bh in others]
    at_once = _ious(boxes, others)
    assert at_once.shape == (len(boxes), len(others))
    assert [[float(v) for v in row] for row in at_once] == [[iou(a, b) for b in others] for a in boxes]


def test_the_closer_look_is_taken_only_at_small_faces_not_read_surely(scene, scenes, monkeypatch):
    """A face larger than ``CLOSER_SIZE`` of the picture's short side, or on which a
    card is read at least ``CLOSER`` surely, is not looked at again; a small one whose
    indices are read less surely is, in its part alone, as it is (light glyphs on dark
    faces are not sought there), and a corner found there too is kept once."""
    looked: list[tuple[tuple[int, ...], bool]] = []
    candidates = scene._candidates

    def spy(image, short, invert, *args):
        looked.append((image.shape, invert))
        return candidates(image, short, invert, *args)

    monkeypatch.setattr(scene, "_candidates", spy)
    photo = load_image(_edje_k(scenes).path)
    big = np.ascontiguousarray(photo[203:427, 32:188])  # the K and a fifth of its size round it: 156x224
    faces = scene.detect_faces(big)
    assert faces and all(max(x1 - x0, y1 - y0) > CLOSER_SIZE * 156 for (x0, y0, x1, y1), _ in faces)
    assert max(r.prob for r in scene.read_indices(big) if r.code != NONE) < CLOSER
    assert len(looked) == 1  # the whole picture only
    looked.clear()
    # spots inside the K that the face pass at CLOSER_FACES takes for small cards are
    # smaller than CLOSER_LEAST: not looked at, unless that least is lowered
    from vision.photo import scene_reader

    monkeypatch.setattr(scene_reader, "CLOSER_LEAST", 16)
    scene.read_indices(big)
    assert len(looked) > 1 and all(max(shape[:2]) < CLOSER_LEAST for shape, _ in looked[1:])
    monkeypatch.undo()
    monkeypatch.setattr(scene, "_candidates", spy)
    looked.clear()
    (x0, y0, x1, y1), _ = scene.detect_faces(photo)[0]
    assert max(x1 - x0, y1 - y0) <= CLOSER_SIZE * min(photo.shape[:2])
    reads = scene.read_indices(photo)
    assert len(looked) == 2 and looked[0] == (photo.shape, True)
    (h, w, _), invert = looked[1]
    assert h < photo.shape[0] and w < photo.shape[1] and not invert
    assert all(iou(a.box, b.box) < 0.3 for i, a in enumerate(reads) for b in reads[i + 1 :])
    first = [r for r in _closer(scene, None).read_indices(photo) if r.code != NONE]  # the whole picture's reads
    assert first and max(r.prob for r in first) < CLOSER
    sure = _closer(scene, min(r.prob for r in first))  # now "sure" (a misread QC on the face, 0.44)
    looked.clear()
    sure.read_indices(photo)
    assert len(looked) == 1


def test_small_cards_of_a_wide_frame_are_found_by_a_larger_face_pass_and_read_closer(scene, scenes, monkeypatch):
    """An edje photo of four cards (the validation fold) shrunk to 360 px high in a
    1280x720 frame, as a table camera sees cards: the face detector at 192 x 192 finds
    none of them, at ``CLOSER_FACES`` it finds all four, on the frame squashed no more
    than a 4:3 photo is (``FACE_SQUASH``: squashed to a square its boxes fit the cards
    worse, 0.38-0.56 of each labelled card's box against 0.49-0.73), and the closer
    look reads the 9 and the Q (the Q since the scene classifier was taught webcam-soft
    crops, vision.photo.distill; the 10's and the J's faces are too small to look at,
    ``CLOSER_LEAST``); without that pass none is named.  What that pass finds is only
    a place to look: the faces counted are the 192 pass's (one here, found on the frame's
    smallest scaling and not on the frame scaled by itself)."""
    from vision.photo import scene_reader, spec

    p = next(p for p in scenes if p.path.name == "IMG_2566.jpg")
    assert p.subset == "edje" and p.validation and not p.heldout and p.truth == {"9", "J", "Q", "T"}
    photo = load_image(p.path)
    frame = np.full((720, 1280, 3), 60, np.uint8)
    f = 360 / photo.shape[0]
    small = cv2.resize(photo, (round(photo.shape[1] * f), 360), interpolation=cv2.INTER_AREA)
    frame[200:560, 500 : 500 + small.shape[1]] = small
    cards = [
        (500 + x0 * f, 200 + y0 * f, 500 + x1 * f, 200 + y1 * f)
        for x0, y0, x1, y1 in scenes_data.whole_card_boxes()[p.file]
    ]
    assert scene.detect_faces(frame) == []
    assert scene_reader.CLOSER_FACES == 512

    def larger_pass() -> list[float]:
        _, _, large = scene._candidates(frame, None, True)
        blob = scene_reader.face_blob(large, 512)
        found = scene_reader._grid_peaks(scene.face_net, frame, spec.BACK_GRID, scene.face_threshold, 52, blob)
        return [max(iou(card, box) for box, _ in found) for card in cards]

    assert len(cards) == 4 and min(larger_pass()) >= 0.45
    seen = scene.read(frame)
    assert {c.card[0] for c in seen if c.card not in (UNKNOWN, BACK)} == {"9", "Q"}
    counted = [c.box for c in seen if c.unnamed_face]
    _, _, _, whole, _ = scene._read_cards(frame, backs=True)
    assert len(counted) < 3 and all(any(iou(box, w) > 0.99 for w, _ in whole) for box in counted)
    monkeypatch.setattr(scene_reader, "FACE_SQUASH", 1e9)  # squashed to a square, as before
    assert min(larger_pass()) < 0.45
    monkeypatch.setattr(scene_reader, "CLOSER_FACES", 0)
    assert _named(scene.read(frame)) == set()


def test_a_reader_that_reports_no_faces_still_looks_closer_where_they_are(scene, scenes):
    # camera read --no-faces: the face detector is not asked to count cards, but it
    # still shows the reader where to look closer (the edje K, never trained on)
    img = load_image(_edje_k(scenes).path)
    quiet = SceneReader.load(report_faces=False)
    assert quiet.face_net is not None
    seen = quiet.read(img)
    assert {c.card[0] for c in seen if c.card not in (UNKNOWN, BACK)} == {"K"}
    assert not [c for c in seen if c.card == UNKNOWN and c.indices == 0]
    photo = render_photo(7, codes=["KS", "7H", "QD"], severity=0.3)
    card = next(c for c in photo.cards if c.code == "QD")
    covered = cover_with_hand(photo.image, card.index_boxes, random.Random(7))  # its corners under a hand
    assert [c for c in scene.read(covered) if c.card == UNKNOWN and c.indices == 0]
    assert not [c for c in quiet.read(covered) if c.card == UNKNOWN and c.indices == 0]


def test_what_a_closer_look_reads_on_grey_crops_does_not_count(scene, scenes, monkeypatch):
    """CLOSER_GREY: in a grey picture a suit is its shape's alone, and a second look is a
    second draw, not a witness (two grey photos, a 3S and a JS, were named 3H and JC
    when it counted).  The edje K turned grey: the closer look still reads it, as KC,
    but that reading is dropped, so it is not named; counted, it would be."""
    from vision.photo import scene_reader

    img = load_image(_edje_k(scenes).path)
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert not scene_reader.CLOSER_GREY
    assert _named(scene.read(grey)) == set()
    monkeypatch.setattr(scene_reader, "CLOSER_GREY", True)
    assert _named(scene.read(grey)) == {"KC"}


def _bg(scenes, name: str):
    p = next(p for p in scenes if p.file == f"rf_phone_77xx/{name}")
    assert p.validation and not p.heldout  # never trained on, never held out
    return p


def test_a_dark_faced_card_is_read_by_a_closer_look_at_the_picture_inverted(scene, scenes, monkeypatch):
    """DARK_FACES: a validation photo of the black and gold deck.  The face detector,
    which learnt light cards, finds none of its black faces as they are; in the face
    picture inverted it finds the 7H's and the 9D's, and closer looks there, the
    look's detector seeing the part inverted, name both.  Without those looks
    neither is named.  Read without the dark classifier, whose witness (since stop
    55 its int8 copy) names the 7H without the looks too: the looks are what this
    test is about."""
    from vision.photo import scene_reader

    scene = SceneReader.load(dark_classifier=None)
    p = _bg(scenes, "IMG_7712.jpg")
    img = load_image(p.path)
    assert {"7H", "9D"} <= p.truth
    assert scene.detect_faces(img) == []
    looks: list[tuple[tuple[int, ...], bool]] = []
    candidates = scene._candidates

    def spy(image, short, invert, scales=None, part=None, net=None, negate=False):
        if part is not None:
            looks.append((part, negate))
        return candidates(image, short, invert, scales, part, net, negate)

    monkeypatch.setattr(scene, "_candidates", spy)
    named = _named(scene.read(img))
    assert {"7H", "9D"} <= named and named <= p.truth
    assert looks and all(negate for _, negate in looks)  # every look here is at a dark face
    looks.clear()
    monkeypatch.setattr(scene_reader, "DARK_FACES", False)
    assert not {"7H", "9D"} & _named(scene.read(img))
    assert looks == []
    monkeypatch.setattr(scene_reader, "DARK_FACES", True)
    plain = SceneReader.load(invert=False)  # a reader that seeks no light glyphs on dark faces
    asked: list[bool] = []
    own = plain._candidates

    def spy_plain(image, short, invert, scales=None, part=None, net=None, negate=False):
        asked.append(negate)
        return own(image, short, invert, scales, part, net, negate)

    monkeypatch.setattr(plain, "_candidates", spy_plain)
    plain.read(img)
    assert asked and not any(asked)  # no look at a dark face


def test_a_court_cards_picture_is_no_dark_face(scene, dev_by_file, monkeypatch):
    """DARK_IN_FACE: a KH of the validation fold in a 1280x720 frame.  Inverted, the
    dark picture inside its light face looks like a light card to the face detector,
    and a closer look there read a pattern as TH at 0.99; a dark "face" mostly inside a
    face found as it is, is not looked at."""
    from vision.photo import scene_reader
    from vision.photo.composite import mosaic

    p = dev_by_file["rf_phone_2022/IMG_20220921_194048.jpg"]
    assert p.validation and not p.heldout and p.in_view == {"KH"}
    frame, _ = mosaic([load_image(p.path)], (1, 1), 60)
    assert _named(scene.read(frame)) == {"KH"}
    monkeypatch.setattr(scene_reader, "DARK_IN_FACE", 1.01)  # no face holds another
    assert _named(scene.read(frame)) == {"KH", "TH"}


def test_the_larger_inverted_face_pass_is_made_only_on_a_sign_of_a_dark_face(scene, scenes, monkeypatch):
    """The face detector sees its counting pass's picture inverted always (1.9 ms),
    the larger pass's inverted (12.6 ms) only when the smaller found a dark face or an
    index was read inverted surely: a light edje photo costs one pass more, a photo of
    the black and gold deck two."""
    from vision.photo import scene_reader

    blobs: list[np.ndarray] = []
    peaks = scene_reader._grid_peaks

    def spy(net, image, grid, threshold, most, blob):
        blobs.append(blob)
        return peaks(net, image, grid, threshold, most, blob)

    monkeypatch.setattr(scene_reader, "_grid_peaks", spy)
    light = load_image(next(p for p in scenes if p.path.name == "IMG_2566.jpg").path)
    scene.read(light)
    assert [b.shape[2:] for b in blobs] == [(192, 192), (512, 512), (192, 192)]
    assert np.allclose(blobs[2], 1 - blobs[0], atol=1e-6)  # the counting pass's own picture, inverted
    blobs.clear()
    scene.read(load_image(_bg(scenes, "IMG_7712.jpg").path))
    assert [b.shape[2:] for b in blobs] == [(192, 192), (512, 512), (192, 192), (512, 512)]
    assert np.allclose(blobs[3], 1 - blobs[1], atol=1e-6)
    blobs.clear()
    monkeypatch.setattr(scene_reader, "DARK_FACES", False)
    scene.read(light)
    assert len(blobs) == 2


def test_a_card_read_on_both_corners_is_shown_as_it_lies(scene, scenes, monkeypatch):
    # A validation edje photo: the QC lies turned, read on both index corners. Its
    # outline was the smallest turned rectangle round the two corners, a strip along
    # the card's diagonal; then the upright box of the face the face detector found
    # for it; now the card its two indices make (card_outline), turned as it lies.
    p = next(p for p in scenes if p.file == "edje/IMG_2445.jpg")
    img = load_image(p.path)
    (qc,) = [c for c in scene.read(img) if c.card == "QC"]
    assert qc.indices == 2
    (labelled,) = scenes_data.whole_card_boxes()[p.file]  # the card's box as labelled by hand
    (_, (w, h), turn) = cv2.minAreaRect(np.array(qc.corners, np.float32))
    assert iou(qc.box, labelled) > 0.9 and 20 < abs(turn) < 70  # where the card is, turned
    assert min(w, h) / max(w, h) == pytest.approx(63 / 88, abs=0.01)  # a card's shape
    faces = [box for box, _ in scene._indices(img)[1]]  # the faces read() found: less close
    assert all(iou(face, labelled) < iou(qc.box, labelled) for face in faces)
    # the band it was: both corners' reads, their smallest turned rectangle
    corners = [r.box for r in scene.read_indices(img) if r.code == "QC"]
    (w, h) = cv2.minAreaRect(np.array([(x, y) for b in corners for x in b[::2] for y in b[1::2]], np.float32))[1]
    assert min(w, h) < 0.4 * max(w, h)
    # reads too near each other to be one card's two corners make no card: its face is shown
    monkeypatch.setattr(recognise, "CARD_APART", (50.0, 60.0))
    (qc,) = [c for c in scene.read(img) if c.card == "QC"]
    assert any(np.allclose(qc.box, face, atol=0.1) for face in faces)
    # ... and without faces to report (report_faces=False) its surest corner, not the
    # band across both reads (they might be two cards')
    plain = SceneReader.load(report_faces=False)
    (shown,) = [c for c in plain.read(img) if c.card == "QC"]
    surest = max((r for r in plain.read_indices(img) if r.code == "QC"), key=lambda r: r.prob)
    assert np.allclose(shown.box, surest.box, atol=0.1)


@pytest.mark.parametrize("scale", [3, 8])
def test_a_photo_as_large_as_a_phones_is_read_as_the_photo_is(scene, scenes, scale, monkeypatch):
    # edje's IMG_2702 (validation fold) blown up to 1512 x 1134 and to 4032 x 3024 (a
    # 12-megapixel phone photo): its index is 120-330 px, and a crop warped straight
    # to 48 px is aliased; averaged first (SMOOTH_ABOVE), the 9 is named as in the photo.
    # (the index crops are this test's: the face witness, which since stop 58 names the 9
    # from its face even when the crops are aliased, is left out)
    p = next(p for p in scenes if p.file == "edje/IMG_2702.jpg")
    assert p.validation and p.truth == {"9"}
    img = load_image(p.path)
    indices = SceneReader.load(face_classifier=None)
    assert p.as_truth(_named(indices.read(img))) == {"9"}
    big = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    assert p.as_truth(_named(indices.read(big))) == {"9"}
    monkeypatch.setattr(scene_reader, "SMOOTH_ABOVE", 10**9)  # every crop warped straight
    assert p.as_truth(_named(indices.read(big))) == set()


def test_only_pictures_larger_than_any_measured_have_their_crops_averaged():
    # every photo and frame the networks and the map were measured on is at most 720 px
    # on its short side: they are read as they were, crop for crop
    assert not scene_reader._smooth(np.zeros((720, 1280, 3), np.uint8))
    assert not scene_reader._smooth(np.zeros((640, 640, 3), np.uint8))
    assert not scene_reader._smooth(np.zeros((1500, 1500, 3), np.uint8), short=720)  # a part of a 720p frame
    assert scene_reader._smooth(np.zeros((1080, 1920, 3), np.uint8))
    assert scene_reader._smooth(np.zeros((3024, 4032, 3), np.uint8))


def _turned(img: np.ndarray, degrees: float) -> np.ndarray:
    """``img`` turned counter-clockwise on a canvas that holds it all, grey round it."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, m, (nw, nh), borderValue=(60, 60, 60))


@pytest.mark.parametrize("name", ["IMG_2539", "IMG_2555"])
def test_a_turned_index_read_unsurely_is_read_again_upright(scenes, name):
    """DESKEW (stop 52): each of these validation photos of ``edje`` shows a king; turned
    by 45 degrees, its index lies diagonally in its crop and is read unsurely, so the
    card was not named.  Cut again turned upright (``skew``), it is named, a K; upright,
    the photo names the same cards as surely with and without."""
    photo = next(p for p in scenes if p.file == f"edje/{name}.jpg")
    img = load_image(photo.path)
    # the closer looks see their parts as they are in both (TURN_LOOKS names these too), and
    # neither asks the face classifier (since stop 58 its witness names IMG_2539's king too)
    without = SceneReader.load(deskew=None, turn_looks=None, face_classifier=None)
    deskewing = SceneReader.load(turn_looks=None, face_classifier=None)
    turned = _turned(img, 45)
    assert not _named(without.read(turned))
    named = _named(deskewing.read(turned))
    assert len(named) == 1 and next(iter(named))[0] == "K", named
    upright = {c.card: c.confidence for c in deskewing.read(img) if c.card not in (UNKNOWN, BACK)}
    assert upright == {c.card: c.confidence for c in without.read(img) if c.card not in (UNKNOWN, BACK)}


@pytest.mark.parametrize("code", ["KS", "QD", "TC", "AS"])
def test_skew_measures_how_far_an_index_lies_turned(code):
    """``skew`` on an index corner drawn in one of the trainer's type faces, turned: measured
    twice as ``_read_upright`` measures, within a few degrees of its turn; upright, under
    ``DESKEW``'s least turn.  (A 7, whose stroke slants, measures off: its crop is then
    read as it is, or turned wrongly and read again, the surer reading kept.)"""
    from vision.photo.glyphs import index_crop

    glyph = cv2.resize(index_crop(code, random.Random(1)), (160, 160))
    big = cv2.copyMakeBorder(glyph, 60, 60, 60, 60, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    crop = scene_reader.spec.crop_square
    for degrees in (-35, -20, 0, 25, 40):
        m = cv2.getRotationMatrix2D((140, 140), degrees, 1.0)
        turned = cv2.warpAffine(big, m, (280, 280), borderValue=(255, 255, 255))
        angle = scene_reader.skew(crop(turned, 140, 140, 170))[0]
        angle += scene_reader.skew(crop(turned, 140, 140, 170, angle=angle))[0]
        assert abs(angle + degrees) < 6, (degrees, angle)
    assert abs(scene_reader.skew(crop(big, 140, 140, 170))[0]) < scene_reader.DESKEW[0]


@pytest.mark.parametrize("name", ["cam_image30", "cam_image39"])
def test_a_closer_look_at_a_turned_card_sees_it_upright(scene, scenes, name):
    """TURN_LOOKS (stop 52): these validation photos of ``edje`` turned by 45 degrees leave
    their cards' diagonal indices to the closer looks, whose detector finds none in the
    part as it is; seen turned upright, the cards are named, their ranks the labelled ones."""
    photo = next(p for p in scenes if p.file == f"edje/{name}.jpg")
    turned = _turned(load_image(photo.path), 45)
    assert not _named(SceneReader.load(turn_looks=None).read(turned))
    named = _named(scene.read(turned))
    assert named and {c[0] for c in named} <= photo.truth, named


def test_a_large_turned_card_is_looked_at_upright(scene, dev_photos, monkeypatch):
    """TURN_LARGE (stop 53): this validation photo's 6D, turned by 45 degrees, fills most of
    the picture, too large a face for a closer look (CLOSER_SIZE), and its turned indices
    are not read surely in the whole picture; looked at all the same, seen upright, it is
    named.  The photo upright is read as without: an upright large face is not looked at."""
    photo = next(p for p in dev_photos if p.file.endswith("IMG_20220921_193957.jpg"))
    img = load_image(photo.path)
    turned = _turned(img, 45)
    with_it = (_named(scene.read(turned)), {c.card: c.confidence for c in scene.read(img)})
    monkeypatch.setattr(scene_reader, "TURN_LARGE", False)
    without = (_named(scene.read(turned)), {c.card: c.confidence for c in scene.read(img)})
    assert "6D" in with_it[0] and "6D" not in without[0], (with_it, without)
    assert with_it[0] <= set(photo.in_view)
    assert with_it[1] == without[1]


@pytest.mark.parametrize("name", ["IMG_20220921_200510", "IMG_20220921_201354"])
def test_a_picture_under_a_warm_lamp_is_read_white_balanced(scene, dev_photos, name):
    """WHITE_BALANCE (stop 53): this validation photo's card is lost under a warm cast
    (blue x0.65, green x0.9, red x1.1, as a tungsten lamp gives) and named once the
    picture is balanced to its white point; the photo as it is, whose white is white
    enough, is read as it is, the same cards as surely with and without."""
    photo = next(p for p in dev_photos if p.file.endswith(f"{name}.jpg"))
    img = load_image(photo.path)
    warm = cv2.convertScaleAbs(img.astype(np.float32) * np.float32([0.65, 0.9, 1.1]))
    without = SceneReader.load(white_balance=None)
    assert not _named(without.read(warm))
    assert _named(scene.read(warm)) == set(photo.in_view)
    assert scene.balanced(img) is img
    as_is = {c.card: c.confidence for c in scene.read(img)}
    assert as_is == {c.card: c.confidence for c in without.read(img)}


@pytest.mark.parametrize("bad", [np.zeros((64, 64), np.uint8), np.zeros((64, 64, 4), np.uint8), None])
def test_a_picture_that_is_not_colour_is_refused_clearly(scene, bad):
    # the white balance looks at the picture first: it leaves the refusal to the reader
    from vision.errors import VisionError

    for read in (scene.read, scene.named):
        with pytest.raises(VisionError, match="expected a BGR colour picture"):
            read(bad)


def test_a_balanced_picture_is_the_white_point_made_white():
    # a warm, dim card face on dark cloth: its face comes out white, the cloth scaled alike
    picture = np.full((120, 160, 3), (20, 30, 40), np.uint8)
    picture[20:100, 40:120] = (90, 130, 150)
    out = scene_reader.white_balanced(picture, *scene_reader.WHITE_BALANCE)
    assert out.dtype == np.uint8 and out.shape == picture.shape
    assert out[60, 80].tolist() == [235, 235, 235]
    assert out[5, 5].tolist() == [52, 54, 63]  # 20 x 235/90, 30 x 235/130, 40 x 235/150
    # a face too dark to be a card's white is not scaled past WHITE_GAIN
    dark = np.full((64, 64, 3), 20, np.uint8)
    assert scene_reader.white_balanced(dark, *scene_reader.WHITE_BALANCE)[0, 0].tolist() == [80, 80, 80]


def test_a_turned_looks_part_maps_back_to_the_picture(scene):
    # a light card turned 30 degrees on dark cloth, a dot on it: where the dot lies in the
    # part seen upright, mapped back, is where it lies in the part as it is
    part = np.full((200, 200, 3), 40, np.uint8)
    corners = cv2.boxPoints(((100.0, 100.0), (110.0, 150.0), 30.0)).astype(np.int32)
    cv2.fillConvexPoly(part, corners, (235, 235, 235))
    cv2.circle(part, (80, 70), 3, (0, 0, 255), -1)
    upright, back = scene._upright(part)
    assert back is not None
    angle = scene_reader.skew(upright)[0]
    assert abs(angle) < 5, angle  # seen upright
    y, x = np.unravel_index(np.argmax(upright[:, :, 2].astype(int) - upright[:, :, 1]), upright.shape[:2])
    assert np.allclose(back @ np.array([x, y, 1.0]), (80, 70), atol=2)
    assert scene._upright(upright)[1] is None  # an upright part is seen as it is
