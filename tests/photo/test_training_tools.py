"""The trainer's helpers that need no PyTorch: calibration fit, disturbances,
rendered index corners."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings, strategies as st

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
    assert xs == sorted(xs) and all(b >= a for a, b in zip(ys, ys[1:]))
    assert 0.0 <= ys[0] and ys[-1] <= 1.0
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
    sq = warp_jitter(img[:min(w, h), :min(w, h)].copy(), rng)
    assert sq.shape == (min(w, h), min(w, h), 3)


def test_rendered_index_corners_are_crops_with_ink():
    rng = random.Random(1)
    for code in ALL_CODES[::5]:
        crop = index_crop(code, rng)
        assert crop.shape == (spec.CLS_SIZE, spec.CLS_SIZE, 3) and crop.dtype == np.uint8
        assert crop.min() < crop.max() - 60  # rank and suit stand out of the paper
