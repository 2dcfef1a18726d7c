"""Teaching the scene classifier webcam-soft indices (vision/photo/distill.py): what it
learns from must be the crops the reader cuts, the same boxes sharp and soft, and
only from photos it may learn from."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision.cardcodes import ALL_CODES
from vision.photo import distill, scene_reader, scenes_data, spec
from vision.photo.composite import mosaic
from vision.photo.dataset import is_heldout, is_validation
from vision.photo.glyphs import index_crop
from vision.photo.images import load_image
from vision.photo.recognise import DETECTOR_FILE, MODELS
from vision.photo.scene_reader import CLOSER_DETECTOR_FILE, INT8, SCENE_CLASSIFIER_FILE, SceneReader
from vision.photo.synth import render_photo


@pytest.fixture(scope="module")
def scene() -> SceneReader:
    return SceneReader.load()


@pytest.fixture(scope="module")
def training(dev_photos, scenes):
    return distill.training_photos()


def _edges(picture: np.ndarray) -> float:
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.abs(cv2.Laplacian(gray, cv2.CV_32F)).mean())


def _glyphs() -> np.ndarray:
    frame = np.full((72, 128, 3), 230, np.uint8)
    cv2.putText(frame, "10", (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 0), 3)
    return frame


def test_a_softened_frame_is_blurred_noisy_and_compressed_as_asked():
    frame = _glyphs()
    assert np.abs(distill.soften(frame, 0, 0, 100).astype(int) - frame).mean() < 1  # JPEG at 100 alone
    blurred = distill.soften(frame, 1.2, 0, 100)
    assert _edges(blurred) < 0.6 * _edges(frame)
    noisy = distill.soften(frame, 0, 6, 100, seed=1)
    assert 3 < float(np.std(noisy.astype(float) - frame)) < 9
    assert not np.array_equal(noisy, distill.soften(frame, 0, 6, 100, seed=2))
    assert distill.soften(frame, 0, 0, 40).shape == frame.shape


def test_a_webcams_look_is_drawn_anew_each_time_within_its_ranges(monkeypatch):
    frame = _glyphs()
    a = distill.webcam_look(frame, random.Random(1))
    assert a.shape == frame.shape and a.dtype == np.uint8
    assert np.array_equal(a, distill.webcam_look(frame, random.Random(1)))  # a seed gives one look
    assert not np.array_equal(a, distill.webcam_look(frame, random.Random(2)))
    asked = []
    monkeypatch.setattr(distill, "soften", lambda f, *args: asked.append(args) or f)
    for seed in range(50):
        distill.webcam_look(frame, random.Random(seed))
    for lo_hi, k in ((distill.BLUR, 0), (distill.NOISE, 1), (distill.JPEG, 2)):
        drawn = [args[k] for args in asked]
        assert lo_hi[0] <= min(drawn) < max(drawn) <= lo_hi[1]


def test_only_training_photos_are_learnt_from(training):
    """Never a held-out photo, never one of the validation folds (the map is fitted
    and the choice made on them), never a subset the networks did not learn."""
    assert len(training) > 400
    assert not [p for p in training if is_heldout(p.name) or is_validation(p.name)]
    known = {p.path: p.subset for p in scenes_data.load_scenes()}
    assert {known[p] for p in training if p in known} <= set(scenes_data.TRAINED_ON)


def test_a_mosaic_puts_each_photo_in_its_cell(training):
    pictures = [load_image(p) for p in training[:4]]
    frame, _ = mosaic(pictures, (2, 2), 60)
    assert frame.shape == (720, 1280, 3)
    for i, picture in enumerate(pictures):
        cell = frame[(i // 2) * 360 : (i // 2 + 1) * 360, (i % 2) * 640 : (i % 2 + 1) * 640]
        f = min(640 / picture.shape[1], 360 / picture.shape[0])
        small = cv2.resize(
            picture, (int(picture.shape[1] * f), int(picture.shape[0] * f)), interpolation=cv2.INTER_AREA
        )
        assert np.array_equal(cell[: small.shape[0], : small.shape[1]], small)


def test_the_soft_crops_are_cut_where_the_reader_cut_the_sharp_ones(scene, training):
    """``pairs`` records each crop the reader cuts, its closer looks' crops included
    (cut from a part of the frame), and cuts the soft crop at the same box of the
    same part: given the frame itself as the "soft" look, every pair is the same
    crop, and each sharp crop is one the reader read."""
    rng = random.Random(0)
    frame, _ = mosaic([load_image(p) for p in rng.sample(training, 4)], (2, 2), 60)
    cut: list[np.ndarray] = []
    original = scene._cut

    def spy(image, boxes, *args, **kw):
        out = original(image, boxes, *args, **kw)
        cut.extend(c[0] for c in out)
        return out

    scene._cut = spy
    try:
        sharp, soft = distill.pairs(scene, frame, [frame, distill.webcam_look(frame, rng)])
    finally:
        del scene._cut
    assert scene.cut_log is None  # the reader no longer notes what it cuts
    assert len(sharp) == len(soft) == len(cut) > 20
    assert all(a.shape == (spec.CLS_SIZE, spec.CLS_SIZE, 3) for a in sharp)
    assert all(np.array_equal(a, b[0]) for a, b in zip(sharp, soft))
    assert sum(np.array_equal(a, c) for a, c in zip(sharp, cut)) >= 0.9 * len(cut)  # dark crops are made light
    assert not any(np.array_equal(a, b[1]) for a, b in zip(sharp, soft))


def test_the_last_looks_crops_may_be_cut_turned(scene, training):
    """``--turn`` (stop 53's trial): the last look's crops are cut turned, each by its own
    angle within the bound, at the sharp crop's box; the other looks' are cut upright, and
    with no turn no angle is drawn, so the recipe's crops stay as they were."""
    rng = random.Random(0)
    frame, _ = mosaic([load_image(p) for p in rng.sample(training, 4)], (2, 2), 60)
    draws = random.Random(5)
    sharp, soft = distill.pairs(scene, frame, [frame, frame], 30.0, draws)
    assert len(sharp) > 20
    assert all(np.array_equal(a, b[0]) for a, b in zip(sharp, soft))
    turned = [i for i, (a, b) in enumerate(zip(sharp, soft)) if not np.array_equal(a, b[1])]
    assert len(turned) == len(sharp)  # an angle of exactly 0 is never drawn
    again = random.Random(5)
    angles = [again.uniform(-30, 30) for _ in sharp]
    assert all(abs(a) <= 30 for a in angles)
    # the crop at the angle drawn for it, turned back, is about the sharp crop: the same place
    i = max(range(len(sharp)), key=lambda k: sharp[k].std())
    m = cv2.getRotationMatrix2D((spec.CLS_SIZE / 2 - 0.5, spec.CLS_SIZE / 2 - 0.5), -angles[i], 1.0)
    back = cv2.warpAffine(soft[i][1], m, (spec.CLS_SIZE, spec.CLS_SIZE))
    middle = slice(14, 34)
    near = np.abs(back[middle, middle].astype(int) - sharp[i][middle, middle]).mean()
    far = np.abs(soft[i][1][middle, middle].astype(int) - sharp[i][middle, middle]).mean()
    assert near < far, (near, far, angles[i])
    state = rng.getstate()
    distill.pairs(scene, frame, [frame], 0.0, rng)
    assert rng.getstate() == state


def test_the_crop_log_says_which_part_a_closer_looks_crop_came_from(scene, training):
    rng = random.Random(3)
    frame, _ = mosaic([load_image(p) for p in rng.sample(training, 4)], (2, 2), 60)
    scene.cut_log = []
    try:
        scene.read(frame)
        parts = {part for part, _, _ in scene.cut_log}
    finally:
        scene.cut_log = None
    assert (0, 0, 1280, 720) in parts and len(parts) > 1  # the frame, and closer looks' parts
    assert all(0 <= left < right <= 1280 and 0 <= top < bottom <= 720 for left, top, right, bottom in parts)


def test_the_detectors_soft_pictures_are_made_as_the_sharp_ones_where_the_reader_looked(scene, training):
    """``detector_pairs`` notes each time the reader asks its index detector reading
    the webcam's look (the frame, and the closer looks' parts), and makes the sharp and
    the soft picture of that part alike: given the frame itself as the look, each pair
    is one picture twice, and each is one the detector saw."""
    rng = random.Random(5)
    frame, _ = mosaic([load_image(p) for p in rng.sample(training, 4)], (2, 2), 60)
    seen: list[np.ndarray] = []
    original = scene_reader._peaks

    def spy(net, small, *args):
        seen.append(small)
        return original(net, small, *args)

    scene_reader._peaks = spy
    try:
        same = distill.detector_pairs(scene, frame, frame)
    finally:
        scene_reader._peaks = original
    assert scene.det_log is None  # the reader no longer notes what its detector sees
    assert len(same) == len(seen) > 3  # the frame's passes and the closer looks'
    assert all(np.array_equal(a, b) and np.array_equal(a, c) for (a, b), c in zip(same, seen))
    assert len({a.shape for a, _ in same}) > 2  # parts of the frame too, not the frame alone
    look = distill.webcam_look(frame, rng)
    pairs = distill.detector_pairs(scene, frame, look)
    assert all(a.shape == b.shape and not np.array_equal(a, b) for a, b in pairs)
    # the soft picture of a part is that part of the look, scaled as the sharp one
    scene.det_log = []
    scene.read(look)
    (left, top, right, bottom), short, invert, scales, negate = next(
        a for a in scene.det_log if a[0] != (0, 0, 1280, 720)
    )
    scene.det_log = None
    soft, _ = scene.detector_pictures(look[top:bottom, left:right], short, invert, scales, negate)
    assert any(np.array_equal(soft[0], b) for _, b in pairs)


def test_the_closer_looks_detect_with_the_taught_detector_when_it_is_shipped(tmp_path):
    for f in MODELS.iterdir():
        if f.suffix in (".onnx", ".json") and f.name not in (CLOSER_DETECTOR_FILE, INT8[CLOSER_DETECTOR_FILE]):
            (tmp_path / f.name).symlink_to(f)
    without = SceneReader.load(tmp_path)
    assert without.closer_net is without.detector_net is without.photo.detector_net  # the single-card reader's
    (tmp_path / CLOSER_DETECTOR_FILE).symlink_to(MODELS / DETECTOR_FILE)
    taught = SceneReader.load(tmp_path)
    assert taught.closer_net is not taught.detector_net  # the closer looks' own
    assert taught.closer_net.path.name == CLOSER_DETECTOR_FILE  # float: no int8 copy of it here
    assert taught.detector_net is taught.photo.detector_net  # the whole picture's, and the witness's, as they were
    (tmp_path / INT8[CLOSER_DETECTOR_FILE]).symlink_to(MODELS / INT8[CLOSER_DETECTOR_FILE])
    assert SceneReader.load(tmp_path).closer_net.path.name == INT8[CLOSER_DETECTOR_FILE]  # its int8 copy, when there


def test_what_is_learnt_from_is_read_as_before_any_detector_was_taught():
    # the shipped closer_detector.onnx is not the teacher's: both commands make again
    # what they made (their crops and pictures read with the shipped index detector)
    assert (MODELS / CLOSER_DETECTOR_FILE).is_file()
    reader = distill.teaching_reader(MODELS)
    assert reader.closer_net is reader.detector_net and reader.detector_net.path.name == DETECTOR_FILE
    # camera read's reader uses it (its int8 copy since 30 November, made from it by quantize)
    assert SceneReader.load().closer_net.path.name == INT8[CLOSER_DETECTOR_FILE]
    # nor does it look closer at dark faces, which came after both (stop 48); camera read does
    assert SceneReader.load().dark_faces and not reader.dark_faces


def test_distilling_the_detector_brings_its_soft_heat_map_towards_the_sharp_one():
    """The shipped detector, taught on rendered photos blurred as a webcam's: where the
    teacher finds an index in the sharp picture (heat above 0.3), the student's heat
    of the blurred one comes nearer to it, and it finds no more elsewhere than the
    teacher did (its heat there small), and on the sharp pictures it stays near."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.photo import train

    torch.set_num_threads(1)
    torch.manual_seed(0)
    sharp = [cv2.resize(render_photo(seed).image, (320, 320), interpolation=cv2.INTER_AREA) for seed in range(16)]
    soft = [cv2.GaussianBlur(cv2.resize(s, (64, 64), interpolation=cv2.INTER_AREA), (0, 0), 1.0) for s in sharp]
    soft = [cv2.resize(s, (320, 320), interpolation=cv2.INTER_LINEAR) for s in soft]
    net = train.build_nets(torch)[0]
    train.load_onnx(torch, net, MODELS / DETECTOR_FILE)
    teacher = [_heat(torch, net, s) for s in sharp]

    def off(pictures, where) -> float:
        return float(np.mean([np.abs(_heat(torch, net, p) - t)[where(t)].mean() for p, t in zip(pictures, teacher)]))

    found = off(soft, lambda t: t > 0.3)
    logits = [_out(torch, net, s).astype(np.float16) for s in sharp]
    rng = np.random.default_rng(0)
    distill.distil_detector(torch, net, sharp, soft, logits, 24, rng, lambda m: None, lr=3e-4, batch=4)
    assert off(soft, lambda t: t > 0.3) < 0.8 * found
    assert off(soft, lambda t: t < 0.1) < 0.03 and off(sharp, lambda t: t >= 0) < 0.02


def _out(torch, net, picture) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        out: np.ndarray = net(torch.from_numpy(spec.net_input(picture))).numpy()[0]
    return out


def _heat(torch, net, picture) -> np.ndarray:
    return 1 / (1 + np.exp(-_out(torch, net, picture)[0]))


def test_distilling_brings_the_soft_reading_towards_the_sharp_one():
    """The shipped scene classifier, taught on rendered index corners blurred as a
    webcam's: afterwards it reads the blurred corners nearer to how it read them sharp
    (the teacher's logits, which ``distil`` returns: the network before any step)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.photo import train

    torch.set_num_threads(1)
    rng = random.Random(0)
    sharp = np.stack([index_crop(rng.choice(ALL_CODES), rng) for _ in range(64)])
    soft = np.stack([cv2.GaussianBlur(s, (0, 0), 2.0) for s in sharp])[:, None]
    torch.manual_seed(0)
    student = train.ensemble_of(torch, [train.build_nets(torch)[1] for _ in range(2)])
    train.load_onnx(torch, student, MODELS / SCENE_CLASSIFIER_FILE)
    first = _logits(torch, student, sharp)
    before = _kl(first, _logits(torch, student, soft[:, 0]))
    teacher = distill.distil(torch, student, sharp, soft, 24, np.random.default_rng(0), lambda m: None, lr=2e-3)
    assert np.allclose(teacher, first, atol=1e-4)
    assert _kl(teacher, _logits(torch, student, soft[:, 0])) < 0.5 * before


def _logits(torch, net, crops) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        out: np.ndarray = net(torch.from_numpy(spec.cls_blob(list(crops)))).numpy()
    return out


def _kl(teacher: np.ndarray, student: np.ndarray) -> float:
    """The mean KL divergence of rank and of suit from the teacher's reading."""
    nr = len(spec.RANK_OUT)
    total = 0.0
    for part in (slice(0, nr), slice(nr, None)):
        t = teacher[:, part] - teacher[:, part].max(1, keepdims=True)
        s = student[:, part] - student[:, part].max(1, keepdims=True)
        pt = np.exp(t) / np.exp(t).sum(1, keepdims=True)
        ls = s - np.log(np.exp(s).sum(1, keepdims=True))
        total += float((pt * (np.log(pt + 1e-12) - ls)).sum(1).mean())
    return total


def test_a_dark_faces_look_is_learnt_from_as_the_reader_saw_it(scene, scenes, monkeypatch):
    """A closer look at a dark face (``scene_reader.DARK_FACES``) shows the detector its
    part inverted: ``det_log`` notes that, and ``detector_pairs`` makes the same
    inverted pictures (a photo of the black and gold deck; the mechanics only, no
    learning from it)."""
    p = next(p for p in scenes if p.file == "rf_phone_77xx/IMG_7712.jpg")
    img = load_image(p.path)
    seen: list[np.ndarray] = []
    original = scene_reader._peaks

    def spy(net, small, *args):
        seen.append(small)
        return original(net, small, *args)

    monkeypatch.setattr(scene_reader, "_peaks", spy)
    pairs = distill.detector_pairs(scene, img, img)
    scene.det_log = []
    try:
        scene.read(img)
        negated = [a for a in scene.det_log if a[4]]
    finally:
        scene.det_log = None
    assert negated and all(a[0] != (0, 0, img.shape[1], img.shape[0]) for a in negated)  # looks at parts only
    assert len(pairs) == len(seen) // 2  # detector_pairs read once, then the reader again
    assert all(np.array_equal(a, b) and np.array_equal(a, c) for (a, b), c in zip(pairs, seen))
    (left, top, right, bottom), short, invert, scales, _ = negated[0]
    plain, _ = scene.detector_pictures(img[top:bottom, left:right], short, invert, scales)
    assert any(np.array_equal(255 - plain[0], a) for a, _ in pairs)
