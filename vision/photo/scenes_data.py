"""The real multi-card development photos (``cards_real_multi``) and their split.

The folder sits beside the repository (``../shared/data/cards_real_multi``); the
environment variable ``CHICAGO_CARDS_REAL_MULTI`` points elsewhere.  The held-out
part and the validation fold are chosen by the same hashes of the file name as
``dataset.py`` (so a photo added later moves no other): every choice made on these
photos (thresholds, scales, calibration) is made on the part that is not held out,
and the benchmark's figures are those of the held-out part.

Subsets differ in what their labels say: ``edje`` labels the rank only (its truth
is a set of ranks, "9" "T" "J" "Q" "K" "A"), ``rf_phone_77xx`` rank and suit (its
jokers and backs are no Chicago cards and are left out of the truth).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from .dataset import REPO, card_code, is_heldout, is_validation

ENV_VAR = "CHICAGO_CARDS_REAL_MULTI"
RANK_ONLY = frozenset({"edje"})  # subsets whose labels name the rank alone
NOT_CARDS = frozenset({"JOKER", "BACK"})
# Subsets whose training part (not held out, not the validation fold) the shipped
# networks learnt from: only their validation fold may calibrate.  The scene
# classifier (scene_reader.SCENE_CLASSIFIER_FILE, made with ``train --multi
# --rank-only``) learnt from both.
TRAINED_ON: frozenset[str] = frozenset({"rf_phone_77xx", "edje"})
# Labels the photos themselves contradict, corrected wherever the labels are read
# (file: {(rank, suit) as labelled: (rank, suit) as the photo shows}).  Found by
# looking at every card read at 0.97 or more that its photo's labels lack (stop 49):
# IMG_7794 shows seven spade pips and a 7 in both corners; IMG_7768 an A and
# one club pip in the middle; edje's IMG_2396 a 10 of diamonds.  The other such
# cards were the reader's errors (or a card the labels leave out at a photo's edge).
LABEL_FIXES: dict[str, dict[tuple[str, str], tuple[str, str]]] = {
    "rf_phone_77xx/IMG_7794.jpg": {("6", "S"): ("7", "S")},
    "rf_phone_77xx/IMG_7768.jpg": {("Q", "C"): ("A", "C")},
    "edje/IMG_2396.jpg": {("9", ""): ("10", "")},
}


def data_dir() -> Path:
    return Path(os.environ.get(ENV_VAR) or REPO.parent / "shared" / "data" / "cards_real_multi")


@dataclass(frozen=True, slots=True)
class ScenePhoto:
    file: str  # relative to the images folder: SUBSET/NAME.jpg
    path: Path
    subset: str
    truth: frozenset[str]  # distinct Chicago cards ("AS"), or ranks ("A") for a rank-only subset
    shows_back: bool  # a face-down card is labelled too

    @property
    def heldout(self) -> bool:
        return is_heldout(self.file)

    @property
    def validation(self) -> bool:
        return is_validation(self.file)

    @property
    def rank_only(self) -> bool:
        return self.subset in RANK_ONLY

    def as_truth(self, codes) -> frozenset[str]:
        """Read card codes in this photo's terms (ranks alone for a rank-only subset)."""
        return frozenset(c[0] for c in codes) if self.rank_only else frozenset(codes)


def load_scenes(root: Path | None = None) -> list[ScenePhoto]:
    """All photos, in file order; raises FileNotFoundError when absent."""
    root = root or data_dir()
    if not (root / "images.csv").is_file():
        raise FileNotFoundError(f"no multi-card photos at {root} (set {ENV_VAR})")
    photos = []
    with open(root / "images.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            fixes = {r + u: r2 + u2 for (r, u), (r2, u2) in LABEL_FIXES.get(row["file"], {}).items()}
            names = [fixes.get(n, n) for n in row["cards"].split()]
            subset = row["subset"]
            if subset in RANK_ONLY:
                truth = frozenset("T" if n == "10" else n.upper() for n in names)
            else:
                truth = frozenset(card_code(n[:-1], n[-1]) for n in names if n.upper() not in NOT_CARDS)
            photos.append(ScenePhoto(row["file"], root / "images" / row["file"], subset, truth, "BACK" in names))
    return sorted(photos, key=lambda p: p.file)


def whole_card_boxes(root: Path | None = None) -> dict[str, list[tuple[float, float, float, float]]]:
    """The boxes of whole face-up cards (``box_type`` ``whole_card``, the ``edje``
    subset's labels; not the face-down cards other subsets label whole) by file
    (SUBSET/NAME.jpg), in the photo's pixels."""
    return _label_boxes(
        root or data_dir(), lambda row: row["box_type"] == "whole_card" and row["rank"].upper() not in NOT_CARDS
    )


def back_boxes(root: Path | None = None) -> dict[str, list[tuple[float, float, float, float]]]:
    """The boxes of face-down cards (``BACK`` rows, labelled whole: the black and
    gold deck's photos) by file (SUBSET/NAME.jpg), in the photo's pixels."""
    return _label_boxes(root or data_dir(), lambda row: row["rank"].upper() == "BACK")


def _label_boxes(root: Path, keep) -> dict[str, list[tuple[float, float, float, float]]]:
    """The boxes of the label rows ``keep`` accepts, by file, in the photo's pixels."""
    out: dict[str, list[tuple[float, float, float, float]]] = {}
    for row in label_rows(root):
        if keep(row):
            box = (float(row["xmin"]), float(row["ymin"]), float(row["xmax"]), float(row["ymax"]))
            out.setdefault(row["file"], []).append(box)
    return out


def label_rows(root: Path | None = None) -> list[dict[str, str]]:
    """The rows of ``labels.csv``, with the labels the photos contradict corrected
    (``LABEL_FIXES``)."""
    with open((root or data_dir()) / "labels.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        fixed = LABEL_FIXES.get(row["file"], {}).get((row["rank"], row["suit"]))
        if fixed:
            row["rank"], row["suit"] = fixed
    return rows
