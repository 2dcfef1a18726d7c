"""Photometric disturbances for training: what real phone photos do to a card.

Used by the trainer only (never at run time).  Each disturbance is applied with
some chance, so a sample may see none or several: light level and contrast,
gamma, a colour cast, grey, blur (focus or motion), sensor noise, salt and
pepper (the source data set added 0.5 %), a glare spot, a shadow edge, JPEG.
"""

from __future__ import annotations

import random

import cv2
import numpy as np


def disturb(img: np.ndarray, rng: random.Random, strength: float = 1.0) -> np.ndarray:
    """A disturbed copy of a BGR uint8 picture of any size."""
    h, w = img.shape[:2]
    x: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.8:  # light level and contrast
        x = (x - 128) * rng.uniform(1 - 0.45 * strength, 1 + 0.3 * strength) + 128 + rng.uniform(-45, 45) * strength
    if rng.random() < 0.3:  # gamma
        x = 255 * (np.clip(x, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:  # colour cast (white balance)
        x = x * np.array([rng.uniform(0.8, 1.2) for _ in range(3)], dtype=np.float32)
    if rng.random() < 0.35 * strength:  # glare: a bright soft spot
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.15, 0.6) * max(w, h)
        yy, xx = np.ogrid[0:h, 0:w]
        d = ((xx - cx) ** 2 + (yy - cy) ** 2) / r**2
        x = x + rng.uniform(60, 200) * np.exp(-d)[..., None]
    if rng.random() < 0.25 * strength:  # a shadow edge across the picture
        a, b = rng.uniform(-1, 1), rng.uniform(-1, 1)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        m = (a * (xx / w - rng.random()) + b * (yy / h - rng.random())) > 0
        x = x * np.where(m, rng.uniform(0.45, 0.85), 1.0)[..., None].astype(np.float32)
    x = np.clip(x, 0, 255)
    if rng.random() < 0.25:
        x = np.repeat(x.mean(axis=2, keepdims=True), 3, axis=2)
    r = rng.random()
    if r < 0.25:
        k = rng.choice((3, 3, 5))
        x = cv2.GaussianBlur(x, (k, k), 0)
    elif r < 0.35:  # motion blur
        k = rng.choice((3, 5))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2] = 1.0 / k
        kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1), (k, k))
        x = cv2.filter2D(x, -1, kern / max(kern.sum(), 1e-6))
    if rng.random() < 0.5:
        x = x + np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(2, 12) * strength, x.shape)
    out: np.ndarray = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:  # salt and pepper
        nrng = np.random.default_rng(rng.getrandbits(32))
        m = nrng.random((h, w)) < rng.uniform(0.002, 0.01)
        out[m] = nrng.choice(np.array([0, 255], dtype=np.uint8), size=(int(m.sum()), 1))
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 90)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        out = out if decoded is None else decoded  # decoding what imencode just wrote cannot fail
    return out


def warp_jitter(crop: np.ndarray, rng: random.Random, amount: float = 0.08) -> np.ndarray:
    """A small random perspective change of a square crop (a card seen at a slant),
    edges replicated."""
    s = crop.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], dtype=np.float32)
    dst = src + np.array([[rng.uniform(-amount, amount) * s for _ in range(2)] for _ in range(4)], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(crop, m, (s, s), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def low_resolution(crop: np.ndarray, rng: random.Random, smallest: int = 12) -> np.ndarray:
    """The crop as a far-off or small card gives it: shrunk to a side of ``smallest``
    pixels or more and blown up again (the reader enlarges a 20-pixel index corner
    to the classifier's size; it must read one as well as a sharp one)."""
    s = crop.shape[0]
    side = rng.randint(smallest, max(smallest, s - 4))
    small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (s, s), interpolation=cv2.INTER_LINEAR)
