"""Pictures with their findings drawn, to check a reading by eye."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError
from .recognise import UNKNOWN, CardReading
from .spec import BACK

COLOURS = {UNKNOWN: (0, 170, 255), BACK: (230, 140, 30)}  # BGR: orange for unread, blue for a back
NAMED = (40, 200, 40)


def draw(image: np.ndarray, cards: list[CardReading]) -> np.ndarray:
    """A copy of ``image`` with each card's outline and its code and confidence."""
    out = image.copy()
    scale = max(0.5, min(out.shape[:2]) / 800)
    for c in cards:
        colour = COLOURS.get(c.card, NAMED)
        pts = np.round(c.corners).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(2, int(2 * scale)), cv2.LINE_AA)
        label = f"{'?' if c.card == UNKNOWN else c.card} {c.confidence:.2f}"
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min())
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(2 * scale)))
        y = max(y, th + base + 2)
        cv2.rectangle(out, (x, y - th - base - 2), (x + tw + 4, y), colour, -1)
        cv2.putText(
            out,
            label,
            (x + 2, y - base),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (0, 0, 0),
            max(1, int(2 * scale)),
            cv2.LINE_AA,
        )
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
        raise VisionError(f"could not write {path}")
    return path
