"""Turn the classifier's raw score into a calibrated confidence.

The raw score of a card (from its corners' rank-times-suit probabilities, see
``recognise.card_score``) is not the chance that the card is right.  This tool
reads the *validation fold* of the development photos (part of the training part
that the networks were not trained on, so the map is not flattered by photos the
networks learnt by heart), marks each card read right or wrong against the labels,
and fits a smooth monotone map score -> chance right (a logistic curve in the
score's log-odds, Platt's method: the fold holds about a hundred cards, too few for
a step-wise fit to tell a 0.95 read from a 0.999 one); the reader then reports that
chance as the confidence.  The held-out part stays untouched: the
measure in ``tests/bench/vision_real.py`` is the honest check.

    .venv/bin/python -m vision.photo.calibrate      # writes vision/models/calibration.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from . import spec
from .dataset import load_photos
from .recognise import CALIBRATION_FILE, MODELS, Recogniser, card_score


def platt(scores: np.ndarray, right: np.ndarray, prior: float = 1.0) -> tuple[list[float], list[float]]:
    """Breakpoints (score, chance right) of sigmoid(a * logit(score) + b), a and b
    fitted by Newton's method with a small ridge ``prior`` (few reads must not make
    a steep curve), tabulated finely near 1 where the decisions are made."""
    z = np.log(np.clip(scores, 1e-6, 1 - 1e-6) / (1 - np.clip(scores, 1e-6, 1 - 1e-6)))
    x = np.stack([z, np.ones_like(z)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - right) + prior * w * [1, 0]
        hess = (x * (p * (1 - p))[:, None]).T @ x + prior * np.diag([1, 1e-3])
        w -= np.linalg.solve(hess, grad)
    grid = np.unique(np.concatenate([np.linspace(0, 0.9, 91), 1 - np.logspace(-1, -6, 60), [1.0]]))
    zg = np.log(np.clip(grid, 1e-6, 1 - 1e-6) / (1 - np.clip(grid, 1e-6, 1 - 1e-6)))
    conf = 1 / (1 + np.exp(-(w[0] * zg + w[1])))
    return grid.tolist(), np.maximum.accumulate(conf).round(6).tolist()


def card_scores(reader: Recogniser, photos) -> tuple[list[float], list[bool]]:
    """Raw card scores of every card read in ``photos`` and whether it is there."""
    scores, right = [], []
    for p in photos:
        by_code: dict[str, list[float]] = {}
        image = cv2.imread(str(p.path))
        if image is None:
            raise FileNotFoundError(f"cannot read the photo {p.path}")
        for r in reader.read_indices(image):
            if r.code != spec.NONE:
                by_code.setdefault(r.code, []).append(r.prob)
        for code, probs in by_code.items():
            scores.append(card_score(probs))
            right.append(code in p.cards | p.unlabelled)  # a joker read as a joker is right too
    return scores, right


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS, help=f"the networks' folder (default {MODELS})")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    reader = Recogniser.load(args.models, calibrated=False)
    photos = [p for p in load_photos() if p.validation]
    scores, right = card_scores(reader, photos)
    xs, ys = platt(np.array(scores), np.array(right, float))
    (args.models / CALIBRATION_FILE).write_text(json.dumps({"score": xs, "confidence": ys}) + "\n")
    print(
        f"{len(photos)} validation photos: {len(scores)} cards read, {int(sum(right))} right; "
        f"map written to {args.models / CALIBRATION_FILE}"
    )
    for s in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999):
        print(f"  raw {s:.3f} -> confidence {np.interp(s, xs, ys):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
