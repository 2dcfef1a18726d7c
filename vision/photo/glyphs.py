"""Rendered index corners in many type faces, for training the classifier.

Real decks print their indices in many styles; the development photos show one
deck.  So the classifier also learns from index corners drawn here with every
Hershey font OpenCV has (plain, bold, serif, italic), stroke weights, rank and
suit sizes and spacings, with a card edge and a bit of the face around them, so
that it reads the shape of a rank and a suit, not one deck's print.  A trainer
tool (never used at run time).
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from ..faces import suit_mask
from . import spec

FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
SIZE = 96  # drawn at twice the classifier's size, then shrunk: smooth edges


def _rank_text(rank: str, rng: random.Random) -> str:
    return "10" if rank == "T" and rng.random() < 0.9 else ("1O" if rank == "T" else rank)


def _text(text: str, w: int, h: int, rng: random.Random) -> np.ndarray:
    font = rng.choice(FONTS) | (cv2.FONT_ITALIC if rng.random() < 0.15 else 0)
    th = rng.randint(3, 10)
    (tw, tht), base = cv2.getTextSize(text, font, 3.0, th)
    canvas = np.zeros((tht + base + 2 * th, tw + 2 * th), np.uint8)
    cv2.putText(canvas, text, (th, tht + th), font, 3.0, 255, th, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 40)
    return cv2.resize(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], (w, h), interpolation=cv2.INTER_AREA)


def index_crop(code: str, rng: random.Random) -> np.ndarray:
    """A CLS_SIZE BGR crop of ``code``'s index corner (rank over suit), upright."""
    paper = np.array([rng.uniform(200, 255)] * 3, dtype=np.float32) * np.array(
        [rng.uniform(0.92, 1.0) for _ in range(3)], dtype=np.float32
    )
    img = np.ones((SIZE, SIZE, 3), np.float32) * paper
    colour = np.array((40, 30, 200) if code[1] in "HD" else (30, 30, 30), dtype=np.float32)
    colour = colour * rng.uniform(0.6, 1.2) + rng.uniform(-15, 15)
    # The index fills the crop as the detector's box (grown by CROP_GROW) would.
    ih = SIZE / spec.CROP_GROW * rng.uniform(0.85, 1.05)
    rank_h = int(ih * rng.uniform(0.42, 0.58))
    text = _rank_text(code[0], rng)
    rank_w = int(rank_h * rng.uniform(0.55, 0.85) * (1.5 if len(text) == 2 else 1.0))
    suit_s = int(rank_h * rng.uniform(0.6, 0.95))
    gap = int(ih * rng.uniform(0.0, 0.08))
    top = int((SIZE - (rank_h + gap + suit_s)) / 2 + rng.uniform(-3, 3))
    cx = SIZE / 2 + rng.uniform(-4, 4)
    layers = [
        (_text(text, rank_w, rank_h, rng), int(cx - rank_w / 2), top),
        (suit_mask(code[1], suit_s), int(cx - suit_s / 2), top + rank_h + gap),
    ]
    for mask, x, y in layers:
        h, w = mask.shape
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(SIZE, x + w), min(SIZE, y + h)
        if x1 <= x0 or y1 <= y0:
            continue
        a = mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32)[..., None] / 255
        img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + colour * a
    if rng.random() < 0.6:  # the card's edge beyond the index, the table behind it
        table = np.array([rng.uniform(20, 200) for _ in range(3)], dtype=np.float32)
        e = int(SIZE / 2 - ih / 2 - rng.uniform(2, 14))
        if e > 0:
            img[:, :e] = table
            if rng.random() < 0.7:
                img[:e, :] = table
    small = cv2.resize(img, (spec.CLS_SIZE, spec.CLS_SIZE), interpolation=cv2.INTER_AREA)
    return np.clip(small, 0, 255).astype(np.uint8)
