"""Card backs in many designs, for training the reader to see a face-down card.

Real decks have every kind of back: a lattice, stripes, checks, dots, a picture,
plain colour, with a white border or printed to the edge, a medallion in the
middle or not.  A network that learnt one back would call only that one a back,
so the trainer draws them at random here (a trainer tool, never used at run time).
What they share, and what the reader is to learn, is what a back is not: no index
corner, no white field with pips or a court.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from ..faces import PX_PER_MM, H, W

_MM = PX_PER_MM


def _colour(rng: random.Random) -> tuple[int, int, int]:
    hue = rng.choice((0, 5, 110, 120, 60, 150, 20, 170)) + rng.randint(-8, 8)  # reds and blues mostly
    sat = rng.randint(90, 255)
    val = rng.randint(40, 200)
    hsv = np.array([[[hue % 180, sat, val]]], dtype=np.uint8)
    b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    return b, g, r


def _lighter(c: tuple[int, int, int], rng: random.Random) -> tuple[int, int, int]:
    k = rng.uniform(0.3, 0.8)
    b, g, r = (int(v + (255 - v) * k) for v in c)
    return b, g, r


def random_back(rng: random.Random) -> np.ndarray:
    """An H x W BGR card back of a random design."""
    base, line = _colour(rng), None
    line = _lighter(base, rng) if rng.random() < 0.7 else _colour(rng)
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = (rng.randint(225, 250),) * 3
    border = int(rng.choice((0, rng.uniform(2, 7))) * _MM)
    inner = img[border : H - border, border : W - border]
    inner[:] = base
    ih, iw = inner.shape[:2]
    kind = rng.choice(("lattice", "stripes", "checks", "dots", "waves", "plain", "noise"))
    step = int(rng.uniform(1.5, 6) * _MM)
    thick = rng.randint(1, max(1, step // 3))
    if kind == "lattice":
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), line, thick, cv2.LINE_AA)
            cv2.line(inner, (k, 0), (k - ih, ih), line, thick, cv2.LINE_AA)
    elif kind == "stripes":
        slope = rng.choice((0, ih, -ih))
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + slope, ih), line, thick, cv2.LINE_AA)
    elif kind == "checks":
        yy, xx = np.mgrid[0:ih, 0:iw]
        m = ((yy // step + xx // step) % 2).astype(bool)
        inner[m] = line
    elif kind == "dots":
        r = max(1, step // rng.randint(3, 5))
        for y in range(step // 2, ih, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, iw, step):
                cv2.circle(inner, (x, y), r, line, -1, cv2.LINE_AA)
    elif kind == "waves":
        xs = np.arange(iw)
        for y0 in range(0, ih + step, step):
            ys = y0 + (step / 2) * np.sin(xs / step * rng.uniform(0.5, 1.5))
            cv2.polylines(inner, [np.stack([xs, ys], 1).astype(np.int32)], False, line, thick, cv2.LINE_AA)
    elif kind == "noise":
        nrng = np.random.default_rng(rng.getrandbits(32))
        blot = cv2.GaussianBlur(nrng.random((ih, iw)).astype(np.float32), (0, 0), rng.uniform(2, 12))
        blot = (blot - blot.min()) / (np.ptp(blot) + 1e-6)
        inner[:] = (
            np.array(base, dtype=np.float32) * (1 - blot[..., None])
            + np.array(line, dtype=np.float32) * blot[..., None]
        ).astype(np.uint8)
    if rng.random() < 0.5:  # a medallion or frame in the middle
        c = (iw // 2, ih // 2)
        colour = _lighter(base, rng) if rng.random() < 0.5 else (rng.randint(200, 250),) * 3
        if rng.random() < 0.5:
            cv2.ellipse(
                inner,
                c,
                (int(iw * rng.uniform(0.15, 0.35)), int(ih * rng.uniform(0.12, 0.3))),
                0,
                0,
                360,
                colour,
                rng.choice((-1, int(_MM * 1.2))),
                cv2.LINE_AA,
            )
        else:
            m = int(rng.uniform(2, 6) * _MM)
            cv2.rectangle(inner, (m, m), (iw - m, ih - m), colour, int(_MM * rng.uniform(0.5, 1.5)))
    return img
