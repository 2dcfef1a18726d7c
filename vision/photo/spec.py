"""What the trainer and the reader must agree on: input sizes, classes, crops.

Kept apart from both so the run-time reader never imports torch and the trainer
never drifts from what the reader feeds the networks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..cardcodes import ALL_CODES

DET_SIZE = 320  # the detector sees the photo at 320 x 320
DET_STRIDE = 8  # one heat-map cell per 8 x 8 input pixels
DET_CELLS = DET_SIZE // DET_STRIDE
SIZE_UNIT = 32.0  # box sides are regressed as log(side / SIZE_UNIT), in detector pixels


@dataclass(frozen=True, slots=True)
class Grid:
    """How a detector sees a photo: shrunk to ``size`` x ``size``, one heat-map cell
    per ``stride`` pixels, box sides regressed as log(side / ``unit``)."""

    size: int
    stride: int
    unit: float

    @property
    def cells(self) -> int:
        return self.size // self.stride


INDEX_GRID = Grid(DET_SIZE, DET_STRIDE, SIZE_UNIT)
# The back detector looks for whole face-down cards: larger things, a coarser grid.
BACK_GRID = Grid(192, 16, 64.0)
BACK = "back"  # what the reader reports for a face-down card
CLS_SIZE = 48  # the classifier sees one index corner at 48 x 48
CROP_GROW = 1.25  # the crop around a detected box is this much larger
SHRINK_FIRST = 0.5  # crop_square(smooth=True) averages a square shrunk more than this first
JOKER = "JOKER"
NONE = "none"  # not an index corner at all
CLASSES: tuple[str, ...] = ALL_CODES + (JOKER, NONE)  # every outcome of reading one corner
# The classifier reads rank and suit apart (each rank is seen on four suits, so it
# learns from four times the examples): its output is RANK_OUT logits, then SUITS.
RANK_OUT: tuple[str, ...] = tuple("23456789TJQKA") + (JOKER, NONE)
SUITS = "SHDC"
N_OUT = len(RANK_OUT) + len(SUITS)


def code_labels(code: str) -> tuple[int, int]:
    """Training targets (rank index, suit index or -100 for "no suit") of a class."""
    if code in (JOKER, NONE):
        return RANK_OUT.index(code), -100
    return RANK_OUT.index(code[0]), SUITS.index(code[1])


def decode(rank_p: np.ndarray, suit_p: np.ndarray) -> tuple[str, float]:
    """The best reading and its probability from rank and suit probabilities."""
    r = int(np.argmax(rank_p))
    if RANK_OUT[r] in (JOKER, NONE):
        return RANK_OUT[r], float(rank_p[r])
    s = int(np.argmax(suit_p))
    return RANK_OUT[r] + SUITS[s], float(rank_p[r] * suit_p[s])


def det_blob(image: np.ndarray, size: int = DET_SIZE) -> np.ndarray:
    """A BGR photo of any size -> a detector's 1x3xSxS float input."""
    return net_input(cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA))


def net_input(picture: np.ndarray) -> np.ndarray:
    """A BGR uint8 picture (H x W x 3) -> a detector's 1x3xHxW float32 input in [0, 1],
    channels first and contiguous, written a channel at a time: the same values as
    ``(picture.astype(np.float32) / 255.0).transpose(2, 0, 1)[None]``, which took a
    conversion, a division and the network's contiguous copy (a 796 x 448 picture, the
    scene reader's larger scale of a 1280x720 frame: 4.2 -> 0.7 ms; the channels split
    apart first, then each divided: about a third less than the transposed picture
    divided at once, 1.37 -> 0.92 ms at 800 x 448).

        >>> x = net_input(np.full((2, 3, 3), 255, np.uint8))
        >>> x.shape, x.dtype, float(x.max()), x.flags["C_CONTIGUOUS"]
        ((1, 3, 2, 3), dtype('float32'), 1.0, True)
    """
    out = np.empty((1, 3, *picture.shape[:2]), np.float32)
    for k, channel in enumerate(cv2.split(picture)):  # contiguous channels divide faster
        np.divide(channel, np.float32(255.0), out=out[0, k])
    return out


def crop_square(
    image: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0, smooth: bool = False
) -> np.ndarray:
    """The ``side``-pixel square around (cx, cy), turned by ``angle`` degrees, as a
    CLS_SIZE crop; outside the photo is filled by replicating its edge.  With
    ``smooth``, a square more than ``1 / SHRINK_FIRST`` times the crop's side is first
    halved (``cv2.pyrDown``: Gaussian, then every second pixel) until it is not: a warp
    samples 2 x 2 pixels for each of the crop's, so a large index (a phone's
    12-megapixel photo, a 4K frame) would come out aliased.  The networks learnt crops
    made without it (``scene_reader.SMOOTH_ABOVE`` says where the reader asks for it)."""
    s = CLS_SIZE / max(side, 1.0)
    if smooth and s < SHRINK_FIRST:
        # the square's part of the picture (turned: the square round it), halved by
        # Gaussian pyramid steps until the warp shrinks it by SHRINK_FIRST at most
        half = side * (0.5 if angle == 0 else 0.75) + 4
        x0, y0 = math.floor(cx - half), math.floor(cy - half)
        x1, y1 = math.ceil(cx + half), math.ceil(cy + half)
        h, w = image.shape[:2]
        # what lies in the picture (at least its nearest pixel), the rest its edge replicated
        ya, xa = min(max(0, y0), h - 1), min(max(0, x0), w - 1)
        yb, xb = max(min(h, y1), ya + 1), max(min(w, x1), xa + 1)
        x0, y0 = min(x0, xa), min(y0, ya)
        part = image[ya:yb, xa:xb]
        pad = (ya - y0, max(y1, yb) - yb, xa - x0, max(x1, xb) - xb)
        if any(pad):
            part = cv2.copyMakeBorder(part, *pad, cv2.BORDER_REPLICATE)
        px, py, step = cx - x0, cy - y0, 1.0
        while s * step < SHRINK_FIRST and min(part.shape[:2]) >= 4:
            part = cv2.pyrDown(part)
            px, py, step = px / 2, py / 2, step * 2
        return crop_square(part, px, py, side / step, angle)
    m = cv2.getRotationMatrix2D((cx, cy), angle, s)
    m[0, 2] += CLS_SIZE / 2 - cx
    m[1, 2] += CLS_SIZE / 2 - cy
    flags = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (CLS_SIZE, CLS_SIZE), flags=flags, borderMode=cv2.BORDER_REPLICATE)


# The face classifier (scene_reader.FACE_CLASSIFIER_FILE) reads a whole face-up card:
# the square round a face's box, its longer side FACE_GROW times the box's, seen at
# FACE_CLS_SIZE x FACE_CLS_SIZE.  It learnt cards 45-150 px long in a frame
# (vision.photo.face_classifier), so a larger face is first shrunk to FACE_SEEN_MAX.
FACE_CLS_SIZE = 64
FACE_GROW = 1.1
FACE_SEEN_MAX = 144


def face_square(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    grow: float = FACE_GROW,
    angle: float = 0.0,
    seen: float | None = None,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The square round ``box`` (a whole card's) for the face classifier: its side
    ``grow`` times the box's longer side, its centre moved by ``shift`` of that side,
    turned by ``angle`` degrees, the box's longer side ``seen`` pixels long (default:
    as long as the picture shows it, at most FACE_SEEN_MAX); outside the picture its
    edge replicated.  ``face_blob`` brings it to the network's size."""
    x0, y0, x1, y1 = box
    long = max(x1 - x0, y1 - y0, 1.0)
    side = long * grow
    cx, cy = (x0 + x1) / 2 + shift[0] * side, (y0 + y1) / 2 + shift[1] * side
    px = min(long, FACE_SEEN_MAX) if seen is None else seen
    out = max(12, round(px * grow))
    m = cv2.getRotationMatrix2D((cx, cy), angle, out / side)
    m[0, 2] += out / 2 - cx
    m[1, 2] += out / 2 - cy
    flags = cv2.INTER_AREA if out < side else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (out, out), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def face_blob(squares: list[np.ndarray]) -> np.ndarray:
    """``face_square``'s squares -> the face classifier's Nx3xSxS float input in [0, 1]
    (S = FACE_CLS_SIZE, BGR, channels first)."""
    size = (FACE_CLS_SIZE, FACE_CLS_SIZE)
    x = np.stack([cv2.resize(s, size, interpolation=cv2.INTER_LINEAR) for s in squares]).astype(np.float32) / 255.0
    return x.transpose(0, 3, 1, 2).copy()


def percentiles(pixels: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(pixels, qs)`` (its default, linear interpolation) of a uint8
    array, from its histogram: the same values in a tenth of the time for a crop
    (the scene reader asks three or four a crop, about 50 crops a crowded frame).

        >>> a = np.array([[0, 10], [20, 255]], np.uint8)
        >>> percentiles(a, (2, 50, 90)) == [float(v) for v in np.percentile(a, (2, 50, 90))]
        True
    """
    n = pixels.size
    ranked = np.bincount(pixels.ravel(), minlength=256).cumsum()  # ranked[v]: how many are <= v
    out = []
    for q in qs:
        at = q / 100 * (n - 1)
        below = math.floor(at)
        lo, hi = (int(v) for v in np.searchsorted(ranked, (below, min(below + 1, n - 1)), side="right"))
        t = at - below
        # numpy's interpolation, rounding alike (np.lib's _lerp)
        out.append(float(hi - (hi - lo) * (1 - t)) if t >= 0.5 else float(lo + (hi - lo) * t))
    return out


def cls_blob(crops: list[np.ndarray]) -> np.ndarray:
    """CLS_SIZE BGR crops -> the classifier's Nx3xCxC float input (per-crop contrast
    normalised, so glare and shadow change less)."""
    x = np.stack(crops).astype(np.float32) / 255.0
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True) + 0.05
    return ((x - mean) / std).transpose(0, 3, 1, 2).copy()


def box_side(x0: float, y0: float, x1: float, y1: float) -> float:
    return max(x1 - x0, y1 - y0) * CROP_GROW
