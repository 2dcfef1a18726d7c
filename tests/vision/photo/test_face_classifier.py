"""The face classifier (vision/photo/face_classifier.py, issue 17, stop 58): a whole
face-up card read from its face, learnt from the training photos and rendered cards
only; the reader asks it as a witness of a card its index corners leave unsure
(``scene_reader.FACE_WITNESS``)."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision.photo import face_classifier, scene_reader, spec
from vision.photo.dataset import is_heldout, is_validation
from vision.photo.images import load_image
from vision.photo.recognise import CardReading, outline
from vision.photo.scene_reader import FACE_CLASSIFIER_FILE, MODELS, SceneRead, SceneReader


@pytest.fixture(scope="module")
def scene() -> SceneReader:
    return SceneReader.load()


def test_the_face_classifier_is_shipped_and_loaded(scene):
    assert (MODELS / FACE_CLASSIFIER_FILE).is_file()
    assert scene.face_cls_net is not None
    assert SceneReader.load(face_classifier=None).face_cls_net is None


def test_what_teaches_the_other_networks_leaves_the_face_classifier_out():
    # distill's and quantize's readers read as before it was made (AFTER_THE_NETWORKS)
    from vision.photo import distill

    assert distill.teaching_reader(MODELS).face_cls_net is None


def test_the_command_refuses_a_bad_count(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        face_classifier.main(["--steps", "0", "--out", str(tmp_path / "out")])
    assert exc.value.code == 2 and "--steps wants 1 or more" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_single_card_is_learnt_from_the_box_round_its_two_corners(dev_photos):
    cards = face_classifier.single_cards()
    taught = {p.file for p in dev_photos if not p.heldout and not p.validation}
    assert len(cards) <= len(taught)
    for image, boxes in cards[:40]:
        for (x0, y0, x1, y1), rank, suit in boxes:
            assert 0 <= x0 < x1 <= image.shape[1] + 1 and 0 <= y0 < y1 <= image.shape[0] + 1
            assert spec.RANK_OUT[rank] in "23456789TJQKA" and 0 <= suit < 4
    # a card box holds both of its labelled corners: a card is far larger than a corner
    photo = next(p for p in dev_photos if not p.heldout and not p.validation and len(p.boxes) == 2)
    a, b = photo.boxes
    assert a.code == b.code
    side = max(max(a.box[2], b.box[2]) - min(a.box[0], b.box[0]), max(a.box[3], b.box[3]) - min(a.box[1], b.box[1]))
    assert side > 2.5 * max(a.box[2] - a.box[0], a.box[3] - a.box[1])


def test_only_training_photos_are_learnt_from(monkeypatch, dev_photos, scenes):
    """Neither a validation photo nor a held-out one is ever loaded to teach it."""
    loaded = []
    real = face_classifier.load_image
    monkeypatch.setattr(face_classifier, "load_image", lambda path: loaded.append(path) or real(path))

    class Blind:  # reads nothing: this test is about which photos are opened
        min_confidence = 0.97

        def read_with_indices(self, image):
            return [], []

    face_classifier.single_cards()
    face_classifier.edje_cards(Blind(), log=lambda _: None)
    assert loaded
    assert not any(is_heldout(p.name) or is_validation(p.name) for p in loaded)
    # edje by whole card: some of its training photos are among them
    assert any("edje" in str(p) for p in loaded)


def test_a_rendered_card_is_taught_only_when_wholly_in_view():
    cards = face_classifier.rendered_cards(60, seed=3)
    assert cards
    for image, [((x0, y0, x1, y1), rank, suit)] in cards:
        h, w = image.shape[:2]
        seen = (min(x1, w) - max(x0, 0)) * (min(y1, h) - max(y0, 0))
        assert seen >= 0.97 * (x1 - x0) * (y1 - y0)
        assert max(x1 - x0, y1 - y0) >= 60 and spec.RANK_OUT[rank] in "23456789TJQKA" and 0 <= suit < 4


def test_a_teaching_sample_is_the_classifiers_size_and_varies():
    image = np.full((300, 300, 3), 90, np.uint8)
    image[50:250, 100:240] = 240
    rng = random.Random(0)
    samples = [face_classifier.sample(image, (100, 50, 240, 250), rng) for _ in range(8)]
    assert all(s.shape == (spec.FACE_CLS_SIZE, spec.FACE_CLS_SIZE, 3) and s.dtype == np.uint8 for s in samples)
    assert len({s.tobytes() for s in samples}) == 8


def test_teaching_brings_the_faces_towards_their_labels():
    torch = pytest.importorskip("torch")
    from vision.photo.train import build_nets

    torch.manual_seed(0)
    net = build_nets(torch)[1]
    renders = face_classifier.rendered_cards(40, seed=1)
    rng = random.Random(5)
    squares = [
        (face_classifier.sample(img, box, random.Random(k)), r) for k, (img, [(box, r, _)]) in enumerate(renders)
    ]

    def loss() -> float:
        net.eval()
        with torch.no_grad():
            x = torch.from_numpy(spec.face_blob([s for s, _ in squares]))
            out = net(x)[:, : len(spec.RANK_OUT)]
            return float(torch.nn.functional.cross_entropy(out, torch.tensor([r for _, r in squares])))

    before = loss()
    face_classifier.teach(torch, net, renders, renders, 15, rng, lambda _: None, lr=3e-3)
    assert loss() < before


# A validation photo of the single-card set (never learnt from: a KS and a QH) in a
# 1280x720 frame as a webcam gives it (the benchmark's mosaic and webcam look): the QH's
# corners are read, but the map leaves it unsure; its face is read as the QH.
PHOTO = "rf_phone_2022/IMG_20220921_194151.jpg"


class PlacesKept(SceneReader):
    """The scene reader, keeping the places its last read looked at (the faces)."""

    def _indices(self, image, short=None, backs=False):
        out = super()._indices(image, short, backs)
        self.places_seen = out[2]
        return out


@pytest.fixture(scope="module")
def webcam_frame(dev_photos):
    from vision.photo.composite import mosaic
    from vision.photo.distill import soften

    photo = next(p for p in dev_photos if p.file == PHOTO)
    assert photo.validation and not photo.heldout
    frame, _ = mosaic([load_image(photo.path)], (1, 1), 60)
    return soften(frame, 1.0, 6.0, 60, 6), set(photo.in_view)


def test_an_unsure_card_is_named_when_its_face_is_read_as_it(webcam_frame):
    frame, truth = webcam_frame
    assert truth == {"KS", "QH"}
    without = {c.card for c in SceneReader.load(face_classifier=None).read(frame)}
    assert "QH" not in without
    named = {c.card: c.confidence for c in SceneReader.load().read(frame)}
    assert named.get("QH") == 0.97  # named at the threshold: as sure as a named card is asked to be
    assert set(named) - {"unknown", "back"} <= truth
    # the witness is asked at the default threshold only, as the others are
    assert "QH" not in {c.card for c in SceneReader.load(min_confidence=0.99).read(frame)}


def test_the_face_witness_asks_only_the_faces_a_corner_of_the_card_lies_on(webcam_frame):
    frame, _ = webcam_frame
    reader = PlacesKept.load()
    image = reader.balanced(frame)
    _, reads = reader.read_with_indices(frame)
    places = reader.places_seen
    queen = [r for r in reads if r.code == "QH"]
    assert queen and 0.05 <= reader.confidence(queen) < 0.97
    assert reader._face_witnessed(image, queen, places) == {"QH"}
    # the faces none of its corners lies on say nothing about it
    elsewhere = [p for p in places if not any(scene_reader._near(r.box, p[0], scene_reader.FACE_HOLD) for r in queen)]
    assert len(elsewhere) < len(places)
    assert reader._face_witnessed(image, queen, elsewhere) == set()
    # the same reads moved off every face (the frame's right side holds no card): the
    # queen's own face, which reads her surely, lies elsewhere now and says nothing
    off = [SceneRead((r.box[0] + 900, r.box[1], r.box[2] + 900, r.box[3]), r.score, r.code, r.prob) for r in queen]
    assert not any(scene_reader._near(r.box, p[0], scene_reader.FACE_HOLD) for r in off for p in places)
    assert 0.05 <= reader.confidence(off) < 0.97
    assert reader._face_witnessed(image, off, places) == set()
    # the same corners read as another rank, or another suit: the face does not say so
    for other in ("JH", "QD"):
        moved = [SceneRead(r.box, r.score, other, r.prob, second=r.second) for r in queen]
        assert reader._face_witnessed(image, moved, places) == set()
    # a card read inverted is the dark classifier's to witness; one confirmed already is not asked
    dark = [SceneRead(r.box, r.score, r.code, r.prob, inverted=True, second=r.second) for r in queen]
    assert reader._face_witnessed(image, dark, places) == set()
    assert reader._face_witnessed(image, queen, places, confirmed={"QH"}) == set()
    # every corner grey: no colour to tell hearts from spades, so no witness of its suit
    grey = [SceneRead(r.box, r.score, r.code, r.prob, second=r.second, grey=True) for r in queen]
    assert reader._face_witnessed(image, grey, places) == set()
    # without the network, or with the witness off, nothing
    assert PlacesKept.load(face_classifier=None)._face_witnessed(image, queen, places) == set()
    assert PlacesKept.load(face_witness=None)._face_witnessed(image, queen, places) == set()


# A validation photo of edje's (never learnt from): a real overhead camera's frame of one
# card, the KH, its indices washed out by the light: no index read names it; its face is
# read as the KH (the photo is labelled by rank only; its suit is plain to see).
CAMERA_FRAME = "edje/cam_image25.jpg"


@pytest.fixture(scope="module")
def camera_frame(scenes):
    photo = next(p for p in scenes if p.file == CAMERA_FRAME)
    assert photo.validation and not photo.heldout and set(photo.truth) == {"K"}
    return load_image(photo.path)


def test_the_face_classifier_names_a_card_alone_on_a_face_no_index_names(camera_frame):
    assert "KH" not in {c.card for c in SceneReader.load(face_names=None).read(camera_frame)}
    cards = SceneReader.load().read(camera_frame)
    (king,) = [c for c in cards if c.card == "KH"]
    assert king.confidence == 0.97 and king.indices == 0  # at the threshold, from no index corner
    assert {c.card for c in cards} - {"unknown", "back"} == {"KH"}
    assert not any(c.unnamed_face for c in cards)  # its face is the KH now, not counted again unnamed
    # the table camera places it by its face: the middle of the box it is given lies on the card
    ((named, boxes),) = [(c, b) for c, b in SceneReader.load().named(camera_frame) if c.card == "KH"]
    (box,) = boxes
    x0, y0, x1, y1 = king.box
    assert x0 <= (box[0] + box[2]) / 2 <= x1 and y0 <= (box[1] + box[3]) / 2 <= y1
    # asked at the default threshold only, as the witnesses are
    assert "KH" not in {c.card for c in SceneReader.load(min_confidence=0.99).read(camera_frame)}
    assert "KH" not in {c.card for c in SceneReader.load(face_classifier=None).read(camera_frame)}


def test_the_face_classifier_names_no_card_on_a_grey_face(camera_frame, monkeypatch):
    grey = cv2.cvtColor(cv2.cvtColor(camera_frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert not {c.card for c in SceneReader.load().read(grey)} - {"unknown", "back"}
    # in grey it reads the king less surely (its suit at 0.58 turned half a turn); at bars
    # it passes there, the rule keeps it out: in a grey picture a suit is its shape's alone
    # (CLOSER_GREY)
    reader = PlacesKept.load(face_names=(0.5, 0.5))
    _, reads = reader.read_with_indices(grey)
    image, places = reader.balanced(grey), reader.places_seen
    assert reader._face_named(image, reads, places, []) == []
    monkeypatch.setattr(scene_reader, "is_grey", lambda crop: False)
    assert [c.card for c in reader._face_named(image, reads, places, [])] == ["KH"]


def test_the_face_classifier_names_alone_only_a_face_no_named_card_is(camera_frame):
    reader = PlacesKept.load()
    image = reader.balanced(camera_frame)
    _, reads = reader.read_with_indices(camera_frame)
    places = reader.places_seen
    assert [c.card for c in reader._face_named(image, reads, places, [])] == ["KH"]
    (face,) = [p for p in places if reader._face_named(image, reads, [p], [])]
    # a card named already is not named again
    named = [CardReading("KH", 0.99, outline([(0.0, 0.0, 10.0, 10.0)]), 1)]
    assert reader._face_named(image, reads, places, named) == []
    # a face holding a named card's corner, or overlapping a named card as it lies, is that card's
    x0, y0, x1, y1 = face[0]
    corner = (x0 + 2, y0 + 2, x0 + 30, y0 + 40)
    other = [SceneRead(corner, 0.9, "2C", 0.99)]
    two = [CardReading("2C", 0.99, outline([corner]), 1)]
    assert reader._face_named(image, other, [face], two) == []
    side = max(x1 - x0, y1 - y0)
    by = (x1 + 1, y0, x1 + 0.15 * side, y0 + 40)  # outside the face's box, by its edge (FACE_HOLD)
    assert scene_reader._share(by, face[0]) == 0
    assert (
        reader._face_named(image, [SceneRead(by, 0.9, "2C", 0.99)], [face], [CardReading("2C", 0.99, outline([by]), 1)])
        == []
    )
    lying = [CardReading("2C", 0.99, outline([(x0, y0, (x0 + x1) / 2, y1)]), 2)]
    assert reader._face_named(image, [], [face], lying) == []
    # a face lying inside another face is a part of a card (one pip reads as an ace), not asked
    h, w = image.shape[:2]
    frame = ((0.0, 0.0, float(w), float(h)), 0.9)  # holds the face wholly; read, it names nothing
    assert reader._face_named(image, reads, [frame], []) == []
    assert reader._face_named(image, reads, [face, frame], []) == []


def test_an_unsure_corner_on_the_face_of_a_card_named_alone_is_that_cards(camera_frame):
    """No "unknown" line for a corner read unsurely on the face of a card the face
    classifier names: it is that card's corner (as ``cards`` drops one on a named corner)."""
    reader = PlacesKept.load()
    _, reads = reader.read_with_indices(camera_frame)
    image, places = reader.balanced(camera_frame), reader.places_seen
    (face,) = [p for p in places if reader._face_named(image, reads, [p], [])]
    x0, y0, x1, y1 = face[0]
    unsure = [SceneRead((x0 + 4, y0 + 4, x0 + 34, y0 + 44), 0.9, "9C", 0.5)]
    named, unknown = PlacesKept.load(face_names=None)._cards_in(image, unsure, places)
    assert named == [] and [u.why for u in unknown] == ["unsure"]
    named, unknown = reader._cards_in(image, unsure, places)
    assert [c.card for c in named] == ["KH"] and unknown == []
    # an unsure corner elsewhere keeps its line
    away = [SceneRead((x1 + 60, y0, x1 + 90, y0 + 40), 0.9, "9C", 0.5)]
    named, unknown = reader._cards_in(image, away, places)
    assert [c.card for c in named] == ["KH"] and [u.why for u in unknown] == ["unsure"]


def test_the_face_classifier_names_alone_only_a_card_it_reads_the_same_turned(scenes, monkeypatch):
    """FACE_NAMES_TURNS: on a deck it never saw, a face read surely as it is was read as
    another card a third of the time; read turned too, none.  edje's validation photo
    IMG_2589 (a 9, a J and a K): its nine's face reads as the 9S at 0.999 as it is, but
    not as surely turned, so it is not named alone; read as it is only, it would be."""
    photo = next(p for p in scenes if p.file == "edje/IMG_2589.jpg")
    assert photo.validation and not photo.heldout and set(photo.truth) == {"9", "J", "K"}
    image = load_image(photo.path)

    def alone() -> set[str]:
        return {c.card for c in SceneReader.load().read(image) if c.indices == 0 and c.card not in ("unknown", "back")}

    assert scene_reader.FACE_NAMES_TURNS and alone() == set()
    monkeypatch.setattr(scene_reader, "FACE_NAMES_TURNS", ())
    assert alone() == {"9S"}


def test_a_face_read_as_different_cards_turned_names_none(scenes, monkeypatch):
    """edje's validation photo IMG_2619: one face reads as the 9S as it is and turned a
    quarter, as the 10S turned half a turn, each at 0.8 or more.  At bars of 0.8 each
    turn is sure, but they disagree: no card is named from it."""
    photo = next(p for p in scenes if p.file == "edje/IMG_2619.jpg")
    assert photo.validation and not photo.heldout
    reader = PlacesKept.load(face_names=(0.8, 0.8))
    _, reads = reader.read_with_indices(load_image(photo.path))
    image = reader.balanced(load_image(photo.path))
    (face,) = [p for p in reader.places_seen if abs(p[0][0] - 255.9) < 2 and abs(p[0][1] - 58.7) < 2]
    crop = spec.face_square(image, face[0])
    looks = [crop] + [cv2.rotate(crop, turn) for turn in scene_reader.FACE_NAMES_TURNS]
    rank_p, suit_p = reader._probs(reader.face_cls_net, looks, spec.face_blob)
    codes = [spec.RANK_OUT[int(r.argmax())] + spec.SUITS[int(s.argmax())] for r, s in zip(rank_p, suit_p)]
    assert codes == ["9S", "TS", "9S"] and min(rank_p.max(axis=1).min(), suit_p.max(axis=1).min()) >= 0.8
    assert reader._face_named(image, reads, [face], []) == []
    # read as it is only, at the same bars, it is named
    monkeypatch.setattr(scene_reader, "FACE_NAMES_TURNS", ())
    assert [c.card for c in reader._face_named(image, reads, [face], [])] == ["9S"]


def test_only_a_card_named_with_no_index_corner_is_from_its_face():
    box = outline([(0.0, 0.0, 50.0, 70.0)])
    assert CardReading("KH", 0.97, box, 0).from_face
    assert not CardReading("KH", 0.99, box, 1).from_face  # read on an index corner
    assert not CardReading("back", 0.9, box, 0).from_face  # a face-down card
    assert not CardReading("unknown", 0.7, box, 0, "face").from_face  # a face counted, not named


def test_a_face_is_read_once_a_picture(camera_frame, monkeypatch):
    """``_face_read``'s memo: a face both face rules ask about is read by the network once,
    and gives what it gives read alone."""
    reader = PlacesKept.load()
    _, reads = reader.read_with_indices(camera_frame)
    image, boxes = reader.balanced(camera_frame), [box for box, _ in reader.places_seen]
    alone = reader._face_read(image, boxes)
    crops: list[int] = []
    run = SceneReader._probs
    monkeypatch.setattr(
        SceneReader, "_probs", staticmethod(lambda net, c, blob: crops.append(len(c)) or run(net, c, blob))
    )
    memo: dict = {}
    first = reader._face_read(image, boxes + boxes[:1], memo)
    again = reader._face_read(image, boxes[::-1], memo)
    assert crops == [len(boxes)]  # each box once, the second time none
    assert np.array_equal(first[0][: len(boxes)], alone[0]) and np.array_equal(again[1], alone[1][::-1])
