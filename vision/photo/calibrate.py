"""Turn the classifier's raw score into a calibrated confidence.

The raw score (rank probability times suit probability) is not the chance that a
read is right.  This tool reads the *training* part of the development photos,
marks each index read right or wrong against the labels, and fits a monotone map
score -> share right (pool-adjacent-violators); the reader then reports that share
as the confidence.  The photos were trained on, so the map is optimistic; the
held-out measure in ``tests/bench/vision_real.py`` is the honest check.

    .venv/bin/python -m vision.photo.calibrate      # writes vision/models/calibration.json
"""

from __future__ import annotations

import json
import sys

import cv2
import numpy as np

from . import spec
from .dataset import load_photos
from .recognise import CALIBRATION_FILE, MODELS, Recogniser


def isotonic(scores: np.ndarray, right: np.ndarray) -> tuple[list[float], list[float]]:
    """Breakpoints (score, share right), non-decreasing, by pool-adjacent-violators."""
    order = np.argsort(scores)
    blocks: list[list[float]] = []  # [sum right, count, lowest score]
    for s, r in zip(scores[order], right[order]):
        blocks.append([float(r), 1.0, float(s)])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            r2, n2, _ = blocks.pop()
            blocks[-1][0] += r2
            blocks[-1][1] += n2
    xs = [b[2] for b in blocks]
    # A little prior towards "wrong" so that a block of few reads never claims 1.0.
    ys = [b[0] / (b[1] + 2.0) for b in blocks]
    return xs, list(np.maximum.accumulate(ys))


def main() -> int:
    cv2.setNumThreads(2)
    reader = Recogniser.load(calibrated=False)
    scores, right = [], []
    for p in load_photos():
        if p.heldout:
            continue
        for r in reader.read_indices(cv2.imread(str(p.path))):
            if r.code == spec.NONE:
                continue
            scores.append(r.prob)
            right.append(r.code in p.cards)
    xs, ys = isotonic(np.array(scores), np.array(right, float))
    (MODELS / CALIBRATION_FILE).write_text(json.dumps({"score": xs, "confidence": ys}) + "\n")
    print(f"{len(scores)} reads, {int(sum(right))} right; map written to {MODELS / CALIBRATION_FILE}")
    for s in (0.3, 0.5, 0.7, 0.8, 0.85, 0.9):
        print(f"  raw {s:.2f} -> confidence {np.interp(s, xs, ys):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
