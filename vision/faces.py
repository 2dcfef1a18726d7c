"""Card faces and backs drawn by our own code (no image set to download).

A poker-size card (63 x 88 mm) with a jumbo index: the rank at the top-left, the
suit under it, the same index turned half round at the bottom-right, pips or a
court panel in the middle.  The index lies left of x = 13 mm and the middle
starts at x = 14 mm, so a card covered by the next one in a trick row still shows
its whole index when the row is spread by 15 mm or more.

    >>> face = card_face("QH"); face.shape
    (704, 504, 3)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .cardcodes import is_red, rank_label
from .layout import CARD_H_MM, CARD_W_MM

PX_PER_MM = 8
W = int(CARD_W_MM * PX_PER_MM)
H = int(CARD_H_MM * PX_PER_MM)
PAPER = (240, 246, 248)  # BGR, a slightly warm white
BLACK = (30, 30, 30)
RED = (40, 30, 200)
CORNER_MM = 3.5
BACK_BORDER_MM = 4.0
# Where the index is printed (mm from the card's top-left): rank box, suit box.
RANK_BOX = (1.5, 2.5, 11.5, 13.5)  # x0, y0, x1, y1
SUIT_BOX = (2.5, 15.5, 10.5, 23.5)
# The whole index (rank over suit, with a little paper round it), as a reader boxes it.
INDEX_BOX = (0.8, 1.8, 12.0, 24.2)


def _mm(v: float) -> int:
    return int(round(v * PX_PER_MM))


def suit_mask(suit: str, size: int) -> np.ndarray:
    """A filled suit symbol on a ``size`` x ``size`` uint8 mask, drawn from shapes."""
    s = size * 4  # draw large, then shrink: smooth edges
    m: np.ndarray = np.zeros((s, s), np.uint8)
    c = s // 2
    if suit == "D":
        pts = np.array([[c, 0], [int(s * 0.86), c], [c, s - 1], [int(s * 0.14), c]], np.int32)
        cv2.fillPoly(m, [pts], 255, cv2.LINE_AA)
    elif suit in "HS":
        r = int(s * 0.25)
        tip = s - 1 if suit == "H" else int(s * 0.78)
        top = int(s * 0.32)
        cv2.circle(m, (c - r + 1, top), r, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (c + r - 1, top), r, 255, -1, cv2.LINE_AA)
        pts = np.array([[c - 2 * r + 1, top + r // 3], [c + 2 * r - 1, top + r // 3], [c, tip]], np.int32)
        cv2.fillPoly(m, [pts], 255, cv2.LINE_AA)
        if suit == "S":  # a spade is a heart upside down with a stem
            m = cv2.flip(m, 0)
            m = np.roll(m, -int(s * 0.2), axis=0)
            m[int(s * 0.78) :, :] = 0
            stem = np.array([[c, int(s * 0.55)], [c + int(s * 0.16), s - 1], [c - int(s * 0.16), s - 1]], np.int32)
            cv2.fillPoly(m, [stem], 255, cv2.LINE_AA)
    elif suit == "C":
        r = int(s * 0.2)
        cv2.circle(m, (c, int(s * 0.24)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (c - int(s * 0.23), int(s * 0.56)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(m, (c + int(s * 0.23), int(s * 0.56)), r, 255, -1, cv2.LINE_AA)
        cv2.rectangle(m, (c - int(s * 0.08), int(s * 0.3)), (c + int(s * 0.08), int(s * 0.6)), 255, -1)
        stem = np.array([[c, int(s * 0.45)], [c + int(s * 0.16), s - 1], [c - int(s * 0.16), s - 1]], np.int32)
        cv2.fillPoly(m, [stem], 255, cv2.LINE_AA)
    else:
        raise ValueError(f"no suit {suit!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def text_mask(text: str, w: int, h: int, thickness: int = 0) -> np.ndarray:
    """``text`` in a bold Hershey font, stretched to fill a ``w`` x ``h`` box."""
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = 4.0
    th = thickness or 9
    (tw, tht), base = cv2.getTextSize(text, font, scale, th)
    canvas = np.zeros((tht + base + 2 * th, tw + 2 * th), np.uint8)
    cv2.putText(canvas, text, (th, tht + th), font, scale, 255, th, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 40)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)


def _stamp(img: np.ndarray, mask: np.ndarray, x: int, y: int, color) -> None:
    h, w = mask.shape
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi = img[y : y + h, x : x + w].astype(np.float32)
    img[y : y + h, x : x + w] = (roi * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)


def _index(img: np.ndarray, code: str, color) -> None:
    rank = rank_label(code[0])
    x0, y0, x1, y1 = RANK_BOX
    rw = _mm(x1 - x0) if len(rank) == 2 else _mm((x1 - x0) * 0.72)
    rx = _mm(x0) + (_mm(x1 - x0) - rw) // 2
    _stamp(img, text_mask(rank, rw, _mm(y1 - y0)), rx, _mm(y0), color)
    sx0, sy0, sx1, _ = SUIT_BOX
    _stamp(img, suit_mask(code[1], _mm(sx1 - sx0)), _mm(sx0), _mm(sy0), color)


# Pip centres (mm) for the number cards, in the middle area x 14..49, y 18..70.
_COLS = (22.0, 31.5, 41.0)
_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(31.5, 44)],
    2: [(31.5, 24), (31.5, 64)],
    3: [(31.5, 24), (31.5, 44), (31.5, 64)],
    4: [(22, 24), (41, 24), (22, 64), (41, 64)],
    5: [(22, 24), (41, 24), (31.5, 44), (22, 64), (41, 64)],
    6: [(22, 24), (41, 24), (22, 44), (41, 44), (22, 64), (41, 64)],
    7: [(22, 24), (41, 24), (31.5, 34), (22, 44), (41, 44), (22, 64), (41, 64)],
    8: [(22, 24), (41, 24), (31.5, 34), (22, 44), (41, 44), (31.5, 54), (22, 64), (41, 64)],
    9: [(22, 24), (41, 24), (22, 37.3), (41, 37.3), (31.5, 44), (22, 50.7), (41, 50.7), (22, 64), (41, 64)],
    10: [
        (22, 24),
        (41, 24),
        (31.5, 30.7),
        (22, 37.3),
        (41, 37.3),
        (22, 50.7),
        (41, 50.7),
        (31.5, 57.3),
        (22, 64),
        (41, 64),
    ],
}


def _rounded(mask_h: int, mask_w: int) -> np.ndarray:
    m = np.zeros((mask_h, mask_w), np.uint8)
    r = _mm(CORNER_MM)
    cv2.rectangle(m, (r, 0), (mask_w - 1 - r, mask_h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (mask_w - 1, mask_h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (mask_w - 1 - r, r), (r, mask_h - 1 - r), (mask_w - 1 - r, mask_h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


@lru_cache(maxsize=1)
def card_mask() -> np.ndarray:
    """The card's outline (rounded corners) as a uint8 alpha mask."""
    return _rounded(H, W)


@lru_cache(maxsize=64)
def card_face(code: str) -> np.ndarray:
    """The face of card ``code`` ("AS", "TD") as a BGR image, 8 px per mm."""
    color = RED if is_red(code) else BLACK
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = PAPER
    _index(img, code, color)
    rank = code[0]
    if rank in "JQK":
        _court(img, code, color)
    else:
        n = 1 if rank == "A" else (10 if rank == "T" else int(rank))
        size = 17.0 if rank == "A" else 8.5
        pip = suit_mask(code[1], _mm(size))
        for px, py in _PIPS[n]:
            m = pip if py <= 44 or n == 1 else cv2.flip(pip, -1)
            _stamp(img, m, _mm(px - size / 2), _mm(py - size / 2), color)
    # The bottom-right index is the top-left one turned half round.
    corner = img[: _mm(25), : _mm(13)].copy()
    img[H - _mm(25) :, W - _mm(13) :] = cv2.flip(corner, -1)
    return img


def _court(img: np.ndarray, code: str, color) -> None:
    """A court panel: frame, pale fill, the rank letter large, coloured bands."""
    x0, y0, x1, y1 = _mm(14.5), _mm(15), _mm(48.5), _mm(73)
    cv2.rectangle(img, (x0, y0), (x1, y1), (215, 235, 245), -1)
    for i, band in enumerate(((200, 140, 60), (60, 190, 230), color)):
        y = y0 + _mm(6 + 4 * i)
        cv2.rectangle(img, (x0 + _mm(3), y), (x1 - _mm(3), y + _mm(1.2)), band, -1)
        y = y1 - _mm(6 + 4 * i)
        cv2.rectangle(img, (x0 + _mm(3), y - _mm(1.2)), (x1 - _mm(3), y), band, -1)
    letter = text_mask(code[0], _mm(14), _mm(20), thickness=7)
    _stamp(img, letter, (x0 + x1) // 2 - _mm(7), (y0 + y1) // 2 - _mm(13), color)
    _stamp(img, suit_mask(code[1], _mm(8)), (x0 + x1) // 2 - _mm(4), (y0 + y1) // 2 + _mm(9), color)
    cv2.rectangle(img, (x0, y0), (x1, y1), color, max(2, _mm(0.5)))


@lru_cache(maxsize=4)
def card_back(color: str = "blue") -> np.ndarray:
    """A card back: white border, then a dense lattice in ``blue`` or ``red``."""
    base = {"blue": (120, 40, 20), "red": (35, 30, 150)}[color]
    line = {"blue": (170, 90, 60), "red": (80, 80, 200)}[color]
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = PAPER
    b = _mm(BACK_BORDER_MM)
    inner = img[b : H - b, b : W - b]
    inner[:] = base
    step = _mm(3)
    ih, iw = inner.shape[:2]
    for k in range(-ih, iw + ih, step):
        cv2.line(inner, (k, 0), (k + ih, ih), line, 2, cv2.LINE_AA)
        cv2.line(inner, (k, 0), (k - ih, ih), line, 2, cv2.LINE_AA)
    cv2.ellipse(inner, (iw // 2, ih // 2), (iw // 4, ih // 5), 0, 0, 360, line, _mm(1.2), cv2.LINE_AA)
    return img
