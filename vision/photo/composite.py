"""Composite training scenes from real card crops (issue 17 item 2).

A real table frame holds many cards, overlapping, fanned, small and turned, on
cloth; the development photos mostly hold one card, large and near upright.  A
composite scene is made of pieces of those photos: each *piece* is a square cut
around one labelled index corner of a training photo (never a held-out one, never
the validation fold: the caller passes the training sources), with every labelled
corner that lies inside it.  Pieces are scaled (indices 10-45 px in a 640 px
scene), turned by any angle, laid in fans and heaps that cover each other, with a
drop shadow, on a cloth-like background (a base colour, a weave, fibre noise and
uneven light).  An index corner covered by a later piece beyond
``COVERED`` of its box is no longer labelled as its card: its code becomes
``None`` (neither a card to learn nor a place that holds none).  Blur, noise,
light and JPEG loss come later, from the trainer's own disturbances
(``augment.disturb``, on every crop it cuts).

Used by the trainer only (``train --composite N``), never at run time.

    >>> import random
    >>> import numpy as np
    >>> photo = np.full((640, 640, 3), 255, np.uint8)
    >>> scene, boxes = composite_scene(pieces_of([(photo, [("AS", (100.0, 100.0, 140.0, 150.0))])]), random.Random(0))
    >>> scene.shape, all(code in ("AS", None) for code, _ in boxes)
    ((640, 640, 3), True)
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

SIZE = 640  # a scene is SIZE x SIZE, as the training photos are
PIECE_GROW = (2.2, 3.4)  # a piece's side / its index box's side
INDEX_PX = (10.0, 45.0)  # an index's side in the scene
COVERED = 0.3  # a box covered more than this is unlabelled (None)

Box = tuple[float, float, float, float]
Piece = tuple[np.ndarray, list[tuple[str | None, Box]], float]  # picture, its boxes, its own index's side


def pieces_of(sources: list[tuple[np.ndarray, list[tuple[str, Box]]]], rng: random.Random | None = None) -> list[Piece]:
    """One piece per labelled index corner of ``sources`` ((photo, [(code, box)]),
    training photos only): the square around it, ``PIECE_GROW`` times its side,
    with every labelled box that lies inside, in the piece's pixels (one cut by
    the piece's edge as ``None``: partly there, so neither a card nor nothing)."""
    rng = rng or random.Random(0)
    out: list[Piece] = []
    for img, boxes in sources:
        h, w = img.shape[:2]
        for _, (x0, y0, x1, y1) in boxes:
            side = max(x1 - x0, y1 - y0)
            half = side * rng.uniform(*PIECE_GROW) / 2
            # The index sits near a corner of a card, so the piece is shifted a little at random.
            cx = (x0 + x1) / 2 + rng.uniform(-0.3, 0.3) * half
            cy = (y0 + y1) / 2 + rng.uniform(-0.3, 0.3) * half
            a0, b0 = int(max(0, cx - half)), int(max(0, cy - half))
            a1, b1 = int(min(w, cx + half)), int(min(h, cy + half))
            if a1 - a0 < side or b1 - b0 < side:
                continue
            inside: list[tuple[str | None, Box]] = []
            for c, (bx0, by0, bx1, by1) in boxes:
                whole = bx0 >= a0 and by0 >= b0 and bx1 <= a1 and by1 <= b1
                if whole or (bx0 < a1 and bx1 > a0 and by0 < b1 and by1 > b0):  # a corner cut by the edge: None
                    clipped = (max(bx0, a0) - a0, max(by0, b0) - b0, min(bx1, a1) - a0, min(by1, b1) - b0)
                    inside.append((c if whole else None, clipped))
            if any(c is not None for c, _ in inside):
                out.append((img[b0:b1, a0:a1].copy(), inside, float(side)))
    return out


def cloth(rng: random.Random, size: int = SIZE) -> np.ndarray:
    """A cloth-like background: felt or woven cloth of some colour, with fibre
    noise, a weave and uneven light."""
    base = np.array(
        rng.choice(
            [
                (40, 110, 30),  # green felt (BGR)
                (110, 60, 20),  # blue
                (30, 30, 120),  # red
                (40, 60, 90),  # brown wood-ish
                (90, 90, 90),  # grey
                (20, 20, 20),  # black
                (170, 170, 165),  # light grey
                (60, 100, 140),  # tan
            ]
        ),
        np.float32,
    ) * rng.uniform(0.6, 1.3)
    nrng = np.random.default_rng(rng.getrandbits(32))
    img = np.empty((size, size, 3), np.float32)
    img[:] = base
    fine = nrng.normal(0, rng.uniform(3, 14), (size, size, 1)).astype(np.float32)
    img += cv2.GaussianBlur(fine, (0, 0), rng.uniform(0.5, 1.5))[..., None]
    if rng.random() < 0.6:  # a weave: two crossing ripples
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        period, ang = rng.uniform(3, 10), rng.uniform(0, math.pi)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        img += (rng.uniform(3, 12) * (np.sin(u * 2 * math.pi / period) * np.sin(v * 2 * math.pi / period)))[..., None]
    light = cv2.resize(nrng.uniform(0.7, 1.2, (3, 3)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    img *= light[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def composite_scene(
    pieces: list[Piece], rng: random.Random, size: int = SIZE
) -> tuple[np.ndarray, list[tuple[str | None, Box]]]:
    """One scene of 2-14 pieces on cloth, in fans and heaps: (picture, [(code or
    None, box)]), the boxes axis-aligned around each turned index."""
    scene = cloth(rng, size).astype(np.float32)
    cover = np.zeros((size, size), np.int32)  # which piece (1..) lies on top at each pixel
    placed: list[tuple[int, str | None, np.ndarray, Box]] = []  # piece number, code, box polygon, box
    n = rng.randint(2, 14)
    fans = rng.randint(1, 3)
    centres = [(rng.uniform(0.2, 0.8) * size, rng.uniform(0.2, 0.8) * size, rng.uniform(0, 360)) for _ in range(fans)]
    for k in range(1, n + 1):
        pic, boxes, side = rng.choice(pieces)
        scale = rng.uniform(*INDEX_PX) / side
        fx, fy, fang = rng.choice(centres)
        angle = fang + rng.uniform(-50, 50) if rng.random() < 0.7 else rng.uniform(0, 360)
        spread = rng.uniform(0.05, 0.3) * size
        cx = min(max(fx + rng.gauss(0, spread), 0), size)
        cy = min(max(fy + rng.gauss(0, spread), 0), size)
        h, w = pic.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
        m[0, 2] += cx - w / 2
        m[1, 2] += cy - h / 2
        flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        warped = cv2.warpAffine(pic, m, (size, size), flags=flags, borderMode=cv2.BORDER_CONSTANT)
        mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (size, size), flags=cv2.INTER_LINEAR)
        if not mask.any():
            continue
        shadow = cv2.GaussianBlur(mask, (0, 0), max(1.0, rng.uniform(1, 6))).astype(np.float32) / 255
        off = rng.randint(1, 6)
        shadow = np.roll(shadow, (off, off), axis=(0, 1))
        scene *= (1 - rng.uniform(0.2, 0.5) * shadow)[..., None]
        alpha = (mask.astype(np.float32) / 255)[..., None]
        scene = (scene * (1 - alpha) + warped.astype(np.float32) * alpha).astype(np.float32)
        cover[mask > 127] = k
        for code, (x0, y0, x1, y1) in boxes:
            poly = cv2.transform(np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32), m)[0]
            bx = (float(poly[:, 0].min()), float(poly[:, 1].min()), float(poly[:, 0].max()), float(poly[:, 1].max()))
            whole = bx[0] >= 0 and bx[1] >= 0 and bx[2] <= size and bx[3] <= size
            if bx[0] < size and bx[1] < size and bx[2] > 0 and bx[3] > 0:  # cut by the scene's edge: None
                clipped = (max(bx[0], 0.0), max(bx[1], 0.0), min(bx[2], float(size)), min(bx[3], float(size)))
                placed.append((k, code if whole else None, poly, clipped))
    out: list[tuple[str | None, Box]] = []
    for k, code, poly, bx in placed:
        region = np.zeros((size, size), np.uint8)
        cv2.fillConvexPoly(region, poly.astype(np.int32), 1)
        area = int(region.sum())
        if not area:
            continue
        covered = float((cover[region > 0] != k).sum()) / area
        out.append((code if covered <= COVERED else None, bx))
    return np.clip(scene, 0, 255).astype(np.uint8), out


def composite_sources(
    sources: list[tuple[np.ndarray, list[tuple[str, Box]]]], n: int, seed: int
) -> list[tuple[np.ndarray, list[tuple[str | None, Box]]]]:
    """``n`` composite scenes from the pieces of ``sources`` (training photos only)."""
    rng = random.Random(seed)
    pieces = pieces_of(sources, rng)
    if not pieces:
        raise ValueError("no labelled index corner to cut pieces from")
    return [composite_scene(pieces, rng) for _ in range(n)]


FRAME = (1280, 720)  # a mosaic's size: a wide webcam frame


def mosaic(
    pictures: list[np.ndarray], grid: tuple[int, int], cloth: int = 60
) -> tuple[np.ndarray, list[tuple[int, int, float]]]:
    """A ``FRAME``-sized frame of ``pictures`` side by side, ``grid`` (columns, rows) of
    them, each scaled to fit its cell (INTER_AREA when it shrinks), on a grey cloth of
    lightness ``cloth``; and where each went: its cell's left and top and its scale.
    The benchmark's crowded frames (``vision_real.py --mosaic``) and the frames
    ``vision.photo.distill`` learns from are made alike."""
    cols, rows = grid
    cw, ch = FRAME[0] // cols, FRAME[1] // rows
    frame = np.full((FRAME[1], FRAME[0], 3), cloth, np.uint8)
    places = []
    for i, img in enumerate(pictures[: cols * rows]):
        f = min(cw / img.shape[1], ch / img.shape[0])
        size = (int(img.shape[1] * f), int(img.shape[0] * f))
        img = cv2.resize(img, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
        y, x = (i // cols) * ch, (i % cols) * cw
        frame[y : y + size[1], x : x + size[0]] = img
        places.append((x, y, f))
    return frame, places
