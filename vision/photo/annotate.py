"""Pictures with their findings drawn, to check a reading by eye."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError
from .recognise import COLOUR, DISPUTED, UNKNOWN, CardReading, iou
from .spec import BACK

COLOURS = {UNKNOWN: (0, 170, 255), BACK: (230, 140, 30)}  # BGR: orange for unread, blue for a back
NAMED = (40, 200, 40)
FACE = (200, 60, 200)  # purple: a whole face-up card found whose index was not read (counted, not named)


def _colour(card: CardReading) -> tuple[int, int, int]:
    return FACE if card.unnamed_face else COLOURS.get(card.card, NAMED)


def _label(card: CardReading) -> str:
    if card.unnamed_face:
        return f"face {card.confidence:.2f}"
    if card.card == UNKNOWN and card.why in (DISPUTED, COLOUR):
        return f"? {card.why}"  # its confidence is the map's, which a witness contradicted
    return f"{'?' if card.card == UNKNOWN else card.card} {card.confidence:.2f}"


def draw(image: np.ndarray, cards: list[CardReading]) -> np.ndarray:
    """A copy of ``image`` with each card's outline and its code and confidence (a
    whole face-up card whose index was not read: "face" and the face detector's
    score, in purple); the labels are drawn after every outline, each where it covers
    no label drawn before (``place_labels``)."""
    out = image.copy()
    scale = max(0.5, min(out.shape[:2]) / 800)
    thick = max(1, int(2 * scale))
    labels, sizes, anchors = [], [], []
    colours = [_colour(c) for c in cards]
    for c, colour in zip(cards, colours):
        pts = np.round(c.corners).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(2, int(2 * scale)), cv2.LINE_AA)
        label = _label(c)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        labels.append((label, base))
        sizes.append((tw + 4, th + base + 2))
        anchors.append((int(pts[:, 0].min()), int(pts[:, 1].min())))
    h, w = out.shape[:2]
    for colour, (label, base), (lw, lh), (x, y) in zip(colours, labels, sizes, place_labels(sizes, anchors, w, h)):
        cv2.rectangle(out, (x, y), (x + lw, y + lh), colour, -1)
        cv2.putText(out, label, (x + 2, y + lh - base), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    return out


def place_labels(
    sizes: list[tuple[int, int]], anchors: list[tuple[int, int]], width: int, height: int
) -> list[tuple[int, int]]:
    """The top-left corner of each label (``sizes``: width, height): just above its
    ``anchor`` (an outline's top-left), inside the picture, and moved down a label's
    height at a time, past the picture's foot back to its top, until it covers no label
    placed before it (when none such place is left, where it was first put).

    >>> place_labels([(50, 10), (50, 10)], [(20, 30), (25, 30)], 200, 100)
    [(20, 20), (25, 30)]
    """
    placed: list[tuple[int, int, int, int]] = []  # boxes (x0, y0, x1, y1)
    out = []
    for (lw, lh), (ax, ay) in zip(sizes, anchors):
        x = min(max(ax, 0), max(width - lw, 0))
        first = y = min(max(ay - lh, 0), max(height - lh, 0))
        for _ in range(max(1, height // max(lh, 1))):
            if all(iou((x, y, x + lw, y + lh), b) == 0 for b in placed):
                break
            y = y + lh if y + 2 * lh <= height else 0
        else:
            y = first
        placed.append((x, y, x + lw, y + lh))
        out.append((x, y))
    return out


def annotate_to(folder: Path, name: str, image: np.ndarray, cards: list[CardReading], written: set[str]) -> Path:
    """Write the drawn picture as ``folder/<stem>.read.png``; a second picture with the
    same stem in this run gets ``-2``, ``-3`` so nothing is overwritten."""
    stem = Path(name).stem
    target, k = f"{stem}.read.png", 1
    while target in written:
        k += 1
        target = f"{stem}-{k}.read.png"
    written.add(target)
    path = folder / target
    if not cv2.imwrite(str(path), draw(image, cards)):
        raise VisionError("could not write {path}", path=path)
    return path
