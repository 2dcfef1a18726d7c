"""Rendered table frames whose face-up cards carry another deck's print.

The templates of ``vision.rowread`` know our own decks; a club's own deck prints its
indices in another type face.  Here each chosen card's index corners (the top-left one
and, where no other card covers it, the bottom-right one turned) are printed again with
the photo trainer's glyphs (``vision.photo.glyphs``: Hershey type faces, their own
weights and sizes), clipped to the part of the card that shows.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.layout import CARD_H_MM, CARD_W_MM
from vision.photo import spec
from vision.photo.glyphs import index_crop
from vision.scene import Placement, Scene, random_scene, render

SEAT1 = (250.0, 320.0)  # table mm of seat1's top-left (it lies square in rendered scenes)
INDEX_MIDDLE = (6.4, 13.0)  # mm from a card's top-left to its index corner's middle
GAP = 26.0  # mm between the cards of a row: each shows its index and a strip of face


def other_print_row(codes: list[str], seed: int, start: float = 40.0, face_down: int = 1) -> tuple[Scene, np.ndarray]:
    """A scene of ``codes`` face up in a row on seat1 (``GAP`` apart) then ``face_down``
    face-down cards, and its frame with the face-up cards printed in another type face
    (glyph seed ``seed * 10 + i``)."""
    row = [Placement("seat1", code, start + GAP * i, 16) for i, code in enumerate(codes)]
    backs_at = start + GAP * len(codes)
    row += [Placement("seat1", None, backs_at + 20 * k, 16) for k in range(face_down)]
    base = random_scene(seed, 0.3, fill=0.0)
    scene = Scene(tuple(row), base.corners, 0.3, seed, "blue")
    frame = render(scene)
    for i, code in enumerate(codes):
        u = start + GAP * i
        shows_to = start + GAP * (i + 1) if i + 1 < len(codes) or face_down else None
        frame = reprint(frame, scene, code, u, 16, random.Random(seed * 10 + i), shows_to)
    return scene, frame


def reprint(frame, scene: Scene, code: str, u: float, v: float, rng: random.Random, shows_to: float | None = None):
    """``frame`` with the card at (u, v) mm on seat1 given another print's index corners;
    ``shows_to``: the pad x (mm) where the next card covers it (None: all of it shows)."""
    glyph = index_crop(code, rng)
    c = spec.CLS_SIZE
    side = 22.4 * spec.CROP_GROW  # mm the glyph crop spans
    x0, y0 = SEAT1[0] + u, SEAT1[1] + v
    x1 = x0 + (CARD_W_MM if shows_to is None else shows_to - u) - 0.8
    visible = np.float64(
        [[[x0 + 0.8, y0 + 0.8]], [[x1, y0 + 0.8]], [[x1, y0 + CARD_H_MM - 0.8]], [[x0 + 0.8, y0 + CARD_H_MM - 0.8]]]
    )
    size = (frame.shape[1], frame.shape[0])
    shows = np.zeros(frame.shape[:2], np.uint8)
    quad = cv2.perspectiveTransform(visible, scene.homography()).reshape(-1, 2)
    cv2.fillConvexPoly(shows, np.round(quad).astype(np.int32), 255)
    out = frame.copy()
    mx, my = INDEX_MIDDLE
    for turned, (cx, cy) in ((False, (x0 + mx, y0 + my)), (True, (x0 + CARD_W_MM - mx, y0 + CARD_H_MM - my))):
        crop = cv2.rotate(glyph, cv2.ROTATE_180) if turned else glyph
        h = scene.homography() @ np.array([[side / c, 0, cx - side / 2], [0, side / c, cy - side / 2], [0, 0, 1]])
        inside = cv2.warpPerspective(np.full((c, c), 255, np.uint8), h, size) > 128
        mask = inside & (shows > 0)
        out[mask] = cv2.warpPerspective(crop, h, size, flags=cv2.INTER_LINEAR)[mask]
    return out
