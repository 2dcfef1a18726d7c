"""The trainer's helpers that need no PyTorch: calibration fit, disturbances,
rendered index corners."""

from __future__ import annotations

import random
from itertools import pairwise

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.photo import spec
from vision.photo.augment import disturb, warp_jitter
from vision.photo.calibrate import platt
from vision.photo.glyphs import index_crop


def test_platt_map_is_monotone_and_follows_the_evidence():
    rng = np.random.default_rng(0)
    scores = rng.uniform(0, 1, 400)
    right = (rng.uniform(0, 1, 400) < scores).astype(float)  # a score is its chance of being right
    xs, ys = platt(scores, right)
    assert xs == sorted(xs) and all(b >= a for a, b in pairwise(ys))
    assert ys[0] >= 0.0 and ys[-1] <= 1.0
    assert abs(np.interp(0.5, xs, ys) - 0.5) < 0.1
    assert np.interp(0.95, xs, ys) > 0.85


def test_platt_map_of_always_wrong_reads_stays_low():
    xs, ys = platt(np.linspace(0.5, 0.99, 50), np.zeros(50))
    assert np.interp(0.99, xs, ys) < 0.2


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(8, 200), st.integers(8, 200))
def test_disturb_keeps_size_and_type(seed, w, h):
    rng = random.Random(seed)
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3), np.uint8)
    out = disturb(img, rng)
    assert out.shape == img.shape and out.dtype == np.uint8
    sq = warp_jitter(img[: min(w, h), : min(w, h)].copy(), rng)
    assert sq.shape == (min(w, h), min(w, h), 3)


def test_rendered_index_corners_are_crops_with_ink():
    rng = random.Random(1)
    for code in ALL_CODES[::5]:
        crop = index_crop(code, rng)
        assert crop.shape == (spec.CLS_SIZE, spec.CLS_SIZE, 3) and crop.dtype == np.uint8
        assert crop.min() < crop.max() - 60  # rank and suit stand out of the paper


def test_random_backs_are_card_sized_and_varied():
    from vision.faces import H, W
    from vision.photo.backs import random_back

    backs = [random_back(random.Random(seed)) for seed in range(40)]
    assert all(b.shape == (H, W, 3) and b.dtype == np.uint8 for b in backs)
    # Many designs, not one: the mean colours of the middles differ widely.
    means = np.array([b[H // 3 : 2 * H // 3, W // 3 : 2 * W // 3].reshape(-1, 3).mean(0) for b in backs])
    assert means.std(axis=0).max() > 25
    # No back is a white face: the middle of every back is far from paper white somewhere.
    assert all((b[H // 4 : 3 * H // 4, W // 4 : 3 * W // 4] < 200).any() for b in backs)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_low_resolution_keeps_size_and_loses_detail(seed):
    from vision.photo.augment import low_resolution

    rng = random.Random(seed)
    crop = np.random.default_rng(seed).integers(0, 256, (spec.CLS_SIZE, spec.CLS_SIZE, 3), np.uint8)
    out = low_resolution(crop, rng)
    assert out.shape == crop.shape and out.dtype == np.uint8
    # Shrinking averages pixels: noise loses contrast, never gains it.
    assert out.astype(float).std() <= crop.astype(float).std() + 1e-6


def test_rendered_cards_say_how_much_of_them_is_seen():
    from vision.photo.synth import render_photo

    # The same seed lays the first card in the same place whatever comes after it,
    # so a card laid on top can only hide some of it.
    covered = 0
    for seed in range(20):
        alone = render_photo(seed, codes=[None], severity=0.2).cards[0]
        under, top = render_photo(seed, codes=[None, "AS"], severity=0.2).cards
        assert 0.0 < alone.seen <= 1.0 and 0.0 < top.seen <= 1.0
        assert under.outline == alone.outline and under.seen <= alone.seen
        covered += under.seen < alone.seen - 0.05
    assert covered >= 3, "cards laid on top never covered the one below"


def test_fine_tuning_starts_from_the_shipped_networks_exactly():
    # train --from-onnx: the shipped ONNX files (batch norms folded) loaded into the
    # trainer's networks give the same outputs as the reader's OpenCV DNN.
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.photo import train
    from vision.photo.recognise import MODELS

    det = train.build_nets(torch)[0]
    train.load_onnx(torch, det, MODELS / "index_detector.onnx")
    det.eval()
    x = np.random.default_rng(0).random((1, 3, 64, 96), dtype=np.float32)
    net = cv2.dnn.readNetFromONNX(str(MODELS / "index_detector.onnx"))
    net.setInput(x)
    assert np.abs(net.forward() - det(torch.from_numpy(x)).detach().numpy()).max() < 1e-4


def test_composite_scenes_label_each_uncovered_index_where_its_ink_lies():
    from vision.photo.composite import SIZE, composite_sources

    photo = np.full((640, 640, 3), 235, np.uint8)  # paper
    boxes = [("AS", (100.0, 120.0, 140.0, 175.0)), ("7H", (400.0, 380.0, 445.0, 440.0))]
    for _, (x0, y0, x1, y1) in boxes:
        photo[int(y0) + 2 : int(y1) - 2, int(x0) + 2 : int(x1) - 2] = (255, 0, 255)  # magenta ink, no cloth's colour
    scenes = composite_sources([(photo, boxes)], 12, seed=3)
    labelled = [(img, b) for img, bs in scenes for code, b in bs if code is not None]
    assert len(labelled) >= 12 and any(code is None for _, bs in scenes for code, _ in bs)
    for img, (x0, y0, x1, y1) in labelled:
        assert 0 <= x0 < x1 <= SIZE and 0 <= y0 < y1 <= SIZE
        patch = img[int(y0) : int(np.ceil(y1)), int(x0) : int(np.ceil(x1))].astype(int)
        ink = (patch[..., 0] > 150) & (patch[..., 2] > 150) & (patch[..., 1] < 100)
        assert ink.mean() > 0.2  # the box follows its piece: scaled, turned and placed alike
    for img, bs in scenes:  # ink only where a labelled or covered corner is
        ink = (img[..., 0] > 150) & (img[..., 2] > 150) & (img[..., 1] < 100)
        inside = np.zeros(ink.shape, bool)
        for _, (x0, y0, x1, y1) in bs:
            inside[max(0, int(y0) - 1) : int(np.ceil(y1)) + 1, max(0, int(x0) - 1) : int(np.ceil(x1)) + 1] = True
        assert not (ink & ~inside).any()


def test_composite_scenes_need_a_labelled_corner():
    from vision.photo.composite import composite_sources

    with pytest.raises(ValueError, match="no labelled index corner"):
        composite_sources([(np.zeros((640, 640, 3), np.uint8), [])], 3, seed=0)


def test_the_detectors_zoom_sets_how_large_its_indices_are():
    # train --det-zoom: a lower zoom shows the same photo's index corners smaller (the
    # heat map's labelled sides are log(side / unit), where the box is found)
    from vision.photo.train import det_sample

    photo = np.full((640, 640, 3), 230, np.uint8)
    boxes = [("AS", (300.0, 300.0, 340.0, 360.0))]

    def sides(zoom):
        _, heat, side, where = det_sample(photo, boxes, random.Random(1), zoom=(zoom, zoom))
        assert heat.max() == 1.0  # the corner is in view
        at = where[0] > 0  # the box's long side, whichever way a quarter turn put it
        return float(np.maximum(np.exp(side[0][at]), np.exp(side[1][at])).mean()) * spec.INDEX_GRID.unit

    small, large = sides(0.25), sides(1.2)
    # 60 px of a 640 px photo at zoom z: 60 * z * 320 / 640 px (turned by at most 15 degrees)
    assert 6.5 <= small <= 10 and 32 <= large <= 48
    with pytest.raises(SystemExit, match="LO,HI"):
        from vision.photo.train import main

        main(["--only", "detector", "--det-zoom", "0.3"])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_soft_crops_are_the_same_crops_blurred(seed):
    # train --cls-soft: a share of classifier crops blurred as a webcam's enlarged small
    # index after every other disturbance; the crop itself is the one it would have been
    from vision.photo import train

    crop = np.zeros((spec.CLS_SIZE, spec.CLS_SIZE, 3), np.uint8)
    crop[::4] = 255  # sharp stripes
    old = train.SOFT_SHARE
    try:
        train.SOFT_SHARE = 0.0
        plain = train._finish(crop, random.Random(seed))
        train.SOFT_SHARE = 1.0
        soft = train._finish(crop, random.Random(seed))
    finally:
        train.SOFT_SHARE = old
    assert soft.shape == plain.shape and soft.dtype == np.uint8
    sharpness = [cv2.Laplacian(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var() for c in (plain, soft)]
    assert sharpness[1] < sharpness[0] or sharpness[0] < 1.0  # a crop already flat has nothing to lose


def test_soft_detector_inputs_are_the_same_inputs_blurred(monkeypatch):
    # train --det-soft: a share of detector inputs shrunk, blurred and blown up again (a
    # webcam's small card as the closer look enlarges it); same place, same targets
    from vision.photo import train

    monkeypatch.setattr(train, "disturb", lambda x, rng: x)  # the soft step alone
    photo = np.full((640, 640, 3), 235, np.uint8)
    photo[::6] = 20  # sharp lines
    boxes = [("AS", (200.0, 200.0, 260.0, 280.0))]
    out = {}
    for share in (0.0, 1.0):
        monkeypatch.setattr(train, "DET_SOFT_SHARE", share)
        out[share] = train.det_sample(photo, boxes, random.Random(3))
    (plain, heat0, *_), (soft, heat1, *_) = out[0.0], out[1.0]
    assert soft.shape == plain.shape
    assert np.array_equal(heat0, heat1)
    gray = [np.asarray(x).transpose(1, 2, 0).mean(axis=2).astype(np.float32) for x in (plain, soft)]
    sharpness = [cv2.Laplacian(g, cv2.CV_32F).var() for g in gray]
    assert sharpness[1] < 0.5 * sharpness[0]


def test_the_back_detector_learns_from_the_multi_card_photos_training_part_alone(scenes):
    # train --back-scenes: real clutter with no back (edje) and the black and gold deck's
    # labelled backs, never a held-out or validation photo, each scaled to 640 px wide
    # with its boxes.
    from vision.photo import scenes_data, train

    plain = train.load_back_sources(0, 0)
    both = train.load_back_sources(0, 0, scenes=True)
    added = both[len(plain) :]
    training = [p for p in scenes if not (p.heldout or p.validation)]
    assert len(added) == len(training) and all(img.shape[1] == 640 for img, _ in added)
    labelled = scenes_data.back_boxes()
    assert sum(len(b) for _, b in added) == sum(len(labelled.get(p.file, [])) for p in training) > 0
    assert {p.subset for p, (_, b) in zip(training, added) if b} == {"rf_phone_77xx"}
    assert all(bool(b) == p.shows_back for p, (_, b) in zip(training, added))
    # one photo's boxes, scaled as its picture was (that deck's photos are 640 px wide already)
    k = next(i for i, p in enumerate(training) if p.file in labelled)
    s = 640 / cv2.imread(str(training[k].path)).shape[1]
    got = [box for _, box in added[k][1]]
    assert np.allclose(got, [[v * s for v in b] for b in labelled[training[k].file]])
    assert all(code == spec.BACK for code, _ in added[k][1])
