"""Rendered close-up photos of cards with known truth, for training and tests.

Cards from :mod:`vision.faces` are laid on a random background at random sizes,
angles and perspective, stretched as a phone app would stretch a photo to a
square, then lit unevenly, blurred and noised.  Every index corner still visible
(not covered by a later card) is returned with its box, so a rendered photo is
labelled exactly as the development photos are.

    >>> photo = render_photo(seed=3)
    >>> photo.image.shape, [c.code for c in photo.cards]
    ((640, 640, 3), ['KD'])
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from ..cardcodes import ALL_CODES
from ..faces import INDEX_BOX, PX_PER_MM, card_back, card_face, card_mask
from ..faces import H as FACE_H
from ..faces import W as FACE_W
from .backs import random_back

SIZE = 640
BACK_SEEN = 0.6  # a face-down card is one to find when this much of it is in view, uncovered
# The index (rank over suit) on our faces, in face pixels: x0, y0, x1, y1.
_M = PX_PER_MM
INDEX_TL = tuple(v * _M for v in INDEX_BOX)
INDEX_BR = (FACE_W - INDEX_TL[2], FACE_H - INDEX_TL[3], FACE_W - INDEX_TL[0], FACE_H - INDEX_TL[1])


@dataclass(frozen=True, slots=True)
class RenderedCard:
    code: str | None  # None: face down
    outline: tuple[tuple[float, float], ...]  # image px, TL TR BR BL of the face
    index_boxes: tuple[tuple[float, float, float, float], ...]  # visible index corners
    seen: float = 1.0  # share of the card in the frame and not covered by a later card

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The upright box (x0, y0, x1, y1) round the card, clipped to the photo."""
        pts = np.clip(np.array(self.outline, dtype=np.float32), 0, SIZE - 1)
        return (*pts.min(0).tolist(), *pts.max(0).tolist())


@dataclass(frozen=True, slots=True)
class RenderedPhoto:
    image: np.ndarray
    cards: tuple[RenderedCard, ...]

    @property
    def visible(self) -> frozenset[str]:
        """Codes with at least one index corner in view."""
        return frozenset(c.code for c in self.cards if c.code and c.index_boxes)

    def back_boxes(self, min_seen: float = BACK_SEEN) -> list[tuple[float, float, float, float]]:
        """The face-down cards worth finding (at least ``min_seen`` of each in view
        and uncovered), as boxes (x0, y0, x1, y1) clipped to the photo."""
        return self._boxes(False, min_seen)

    def face_boxes(self, min_seen: float = BACK_SEEN) -> list[tuple[float, float, float, float]]:
        """The same for face-up cards."""
        return self._boxes(True, min_seen)

    def _boxes(self, face_up: bool, min_seen: float) -> list[tuple[float, float, float, float]]:
        return [c.box for c in self.cards if (c.code is not None) == face_up and c.seen >= min_seen]


def _background(rng: random.Random, nrng: np.random.Generator) -> np.ndarray:
    kind = rng.choice(("wood", "plain", "dark", "cloth"))
    base = np.array([rng.randint(60, 200) for _ in range(3)], np.float32)
    if kind == "dark":
        base *= 0.35
    img: np.ndarray = np.ones((SIZE, SIZE, 3), np.float32) * base
    if kind == "wood":
        stripes: np.ndarray = nrng.normal(0, 1, (SIZE, 1)).astype(np.float32)
        stripes = cv2.GaussianBlur(np.repeat(stripes, 8, 1), (1, 31), 8)[:, :1]
        img += np.repeat(stripes * 25, SIZE, 1)[..., None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.transpose(img, (1, 0, 2)))
    noise_sigma = {"wood": 6, "plain": 3, "dark": 10, "cloth": 18}[kind]
    img += nrng.normal(0, noise_sigma, img.shape).astype(np.float32)
    return np.clip(img, 0, 255)


def _card_homography(rng: random.Random) -> np.ndarray:
    """Face pixels -> image pixels: size, angle, tilt and the square stretch."""
    height = rng.uniform(230, 620)
    scale = height / FACE_H
    angle = np.radians(rng.choice((0, 0, 90, 180, 270)) + rng.uniform(-35, 35))
    src = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], dtype=np.float32)
    c = src - [FACE_W / 2, FACE_H / 2]
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    pts = (c * scale) @ rot.T
    tilt = rng.uniform(0.0, 0.12) * height
    pts += np.array([[rng.uniform(-tilt, tilt), rng.uniform(-tilt, tilt)] for _ in range(4)])
    pts *= [rng.uniform(0.8, 1.25), 1.0]  # the source's stretch to a square
    centre = [rng.uniform(0.15, 0.85) * SIZE, rng.uniform(0.15, 0.85) * SIZE]
    return cv2.getPerspectiveTransform(src, (pts + centre).astype(np.float32))


def _box_of(h: np.ndarray, rect) -> np.ndarray:
    x0, y0, x1, y1 = rect
    quad = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], dtype=np.float32)
    return cv2.perspectiveTransform(quad, h)[:, 0]


def render_photo(seed: int, codes: list[str | None] | None = None, severity: float = 0.5) -> RenderedPhoto:
    """A 640x640 photo of ``codes`` (default: one to four random cards)."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    if codes is None:
        codes = rng.sample(ALL_CODES, rng.choice((1, 1, 1, 2, 2, 3, 4)))
        if rng.random() < 0.15:
            codes.append(None)
    img = _background(rng, nrng)
    owner = np.full((SIZE, SIZE), -1, np.int16)  # which card is on top at each pixel
    placed = []
    mask = card_mask()
    back = card_back(rng.choice(("blue", "red")))
    brng = random.Random(seed * 1_000_003 + 17)  # apart from rng: the layout of a seed stays as it was
    if brng.random() < 0.75:  # most backs are not ours: every design a deck may have
        back = random_back(brng)
    for i, code in enumerate(codes):
        h = _card_homography(rng)
        face = (card_face(code) if code else back).astype(np.float32)
        warped = cv2.warpPerspective(face, h, (SIZE, SIZE), flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(mask, h, (SIZE, SIZE)).astype(np.float32)[..., None] / 255.0
        img = img * (1 - alpha) + warped * alpha
        owner[alpha[..., 0] > 0.5] = i
        placed.append((code, h))
    cards = []
    for i, (code, h) in enumerate(placed):
        outline = _box_of(h, (0, 0, FACE_W, FACE_H))
        seen = float((owner == i).sum()) / max(1.0, cv2.contourArea(outline))
        boxes = []
        for rect in (INDEX_TL, INDEX_BR) if code else ():
            quad = _box_of(h, rect)
            poly = np.zeros((SIZE, SIZE), np.uint8)
            cv2.fillConvexPoly(poly, np.round(quad).astype(np.int32), 1)
            area = int(poly.sum())
            # Count an index as seen only if most of it is in the frame and uncovered.
            full = cv2.contourArea(quad)
            if area > 0.85 * full and (owner[poly > 0] == i).mean() > 0.9:
                x0, y0 = quad.min(0)
                x1, y1 = quad.max(0)
                boxes.append((float(x0), float(y0), float(x1), float(y1)))
        cards.append(RenderedCard(code, tuple(map(tuple, outline.tolist())), tuple(boxes), round(min(1.0, seen), 3)))
    img = _disturb(img, rng, nrng, severity)
    return RenderedPhoto(img, tuple(cards))


def _disturb(img: np.ndarray, rng: random.Random, nrng: np.random.Generator, sev: float) -> np.ndarray:
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) / SIZE
    a, b = rng.uniform(-1, 1), rng.uniform(-1, 1)
    light = 1.0 + sev * 0.5 * (a * (xx - 0.5) + b * (yy - 0.5))
    img = img * light[..., None] * rng.uniform(1 - 0.3 * sev, 1 + 0.2 * sev)
    if rng.random() < sev:  # a soft glare spot
        cx, cy, r = rng.uniform(0, SIZE), rng.uniform(0, SIZE), rng.uniform(40, 160)
        d = ((xx * SIZE - cx) ** 2 + (yy * SIZE - cy) ** 2) / r**2
        img = img + 120 * sev * np.exp(-d)[..., None]
    if rng.random() < 0.5 * sev:  # a shadow edge
        m = (a * (xx - rng.random()) + b * (yy - rng.random())) > 0
        img = img * np.where(m, 1 - 0.4 * sev, 1.0)[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    k = rng.choice((1, 1, 3, 3, 5)) if sev > 0 else 1
    if k > 1:
        img = cv2.GaussianBlur(img, (k, k), 0)
    img = np.clip(img + nrng.normal(0, 2 + 6 * sev, img.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 95)])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if not ok or out is None:
        raise RuntimeError("OpenCV cannot encode or decode JPEG")
    return out


def cover_with_hand(image: np.ndarray, boxes, rng: random.Random) -> np.ndarray:
    """``image`` with a skin-coloured blob over each of ``boxes`` (a finger or a thumb
    on a card's index corner), as a player's hand hides a card's corners on a table."""
    out = image.copy()
    for x0, y0, x1, y1 in boxes:
        centre = (int((x0 + x1) / 2 + rng.uniform(-0.2, 0.2) * (x1 - x0)), int((y0 + y1) / 2))
        axes = (int((x1 - x0) * rng.uniform(0.9, 1.4)) + 4, int((y1 - y0) * rng.uniform(0.8, 1.2)) + 4)
        skin = (rng.randint(70, 140), rng.randint(110, 175), rng.randint(150, 235))  # BGR
        cv2.ellipse(out, centre, axes, rng.uniform(0, 180), 0, 360, skin, -1)
    return cv2.GaussianBlur(out, (3, 3), 0)
