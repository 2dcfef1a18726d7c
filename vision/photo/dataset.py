"""The labelled development photos (``cards_real_dev``) and their fixed split.

The folder sits beside the repository (``../shared/data/cards_real_dev``); the
environment variable ``CHICAGO_CARDS_REAL_DEV`` points elsewhere.  The held-out
part is chosen by a hash of the file name, so it never depends on the order of the
CSV or on a random seed, and a photo added later does not move the others.
"""

from __future__ import annotations

import csv
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENV_VAR = "CHICAGO_CARDS_REAL_DEV"
HELDOUT_PERCENT = 20
# A validation fold of the training part, also by a hash of the name (another
# salt): the networks are not trained on it, and confidences are calibrated on it,
# so that a confidence says how often a read is right on photos never trained on.
VALIDATION_PERCENT = 20
# The data set writes ranks as printed ("10"); we write "T".  JOKER is kept as a
# class so the reader learns it is not a Chicago card (it never reaches the output).
JOKER = "JOKER"


# Cards a photo shows that its labels leave out: a second card at the picture's
# edge, each found when the reader named it and then checked by eye in the photo
# (identity included).  The benchmark counts them as there; it also prints its
# figures against the labels alone.  Cards whose identity could not be told by eye
# (grey photos, where a heart and a spade differ only in shape) are not listed.
UNLABELLED: dict[str, frozenset[str]] = {
    "IMG_20220921_193954.jpg": frozenset({"AC"}),  # top edge, upside down, beside the QS
    "IMG_20220921_194112.jpg": frozenset({"6D"}),  # top edge, upside down, above the JD
    "IMG_20220921_194705.jpg": frozenset({"6C"}),  # top right corner, beside the 3H
    "IMG_20220921_194723.jpg": frozenset({"9H"}),  # top left, above the 8D
    "IMG_20220921_194751.jpg": frozenset({"AS"}),  # top right, above the joker
    # top edge, upside down, above the QH and the 4D: the AC named (stop 53), the 7C seen beside it
    "IMG_20220921_194856.jpg": frozenset({"AC", "7C"}),
    "IMG_20220921_195322.jpg": frozenset({"AS"}),  # bottom right corner, beside the 4C
    "IMG_20220921_195405.jpg": frozenset({"QS"}),  # top left corner, beside the 6S
    "IMG_20220921_195423.jpg": frozenset({"JH"}),  # top edge, above the TD
    "IMG_20220921_195926.jpg": frozenset({"KC"}),  # top right corner, beside the 7H
    "IMG_20220921_200020.jpg": frozenset({"6H"}),  # top edge, upside down, above the 2C (grey, but no stems: hearts)
    # top left, beside the 9S: four club pips, trefoils in a grey photo (stop 53, named by a trial)
    "IMG_20220921_200254.jpg": frozenset({"4C"}),
}


def data_dir() -> Path:
    return Path(os.environ.get(ENV_VAR) or REPO.parent / "shared" / "data" / "cards_real_dev")


def card_code(rank: str, suit: str) -> str:
    if rank.upper() == JOKER:
        return JOKER
    return ("T" if rank == "10" else rank.upper()) + suit.upper()


def is_heldout(file: str) -> bool:
    digest = hashlib.sha256(Path(file).name.encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100 < HELDOUT_PERCENT


def is_validation(file: str) -> bool:
    """In the validation fold (never for a held-out photo)."""
    digest = hashlib.sha256(b"validation:" + Path(file).name.encode()).digest()
    return not is_heldout(file) and int.from_bytes(digest[:4], "big") % 100 < VALIDATION_PERCENT


@dataclass(frozen=True, slots=True)
class IndexBox:
    """A labelled index corner: card code and pixel box (x0, y0, x1, y1)."""

    code: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Photo:
    file: str  # relative to the images folder
    path: Path
    cards: frozenset[str]  # distinct codes, JOKER included
    boxes: tuple[IndexBox, ...]
    heldout: bool

    @property
    def validation(self) -> bool:
        return is_validation(self.file)

    @property
    def chicago_cards(self) -> frozenset[str]:
        """The labelled cards, jokers left out."""
        return frozenset(c for c in self.cards if c != JOKER)

    @property
    def unlabelled(self) -> frozenset[str]:
        """Cards the photo shows that its labels leave out (UNLABELLED)."""
        return UNLABELLED.get(Path(self.file).name, frozenset())

    @property
    def shown(self) -> int:
        """How many cards the photo shows (jokers too): labelled and unlabelled."""
        return len(self.cards | self.unlabelled)

    @property
    def in_view(self) -> frozenset[str]:
        """Every Chicago card the photo shows: the labelled ones and the unlabelled."""
        return self.chicago_cards | self.unlabelled


def load_photos(root: Path | None = None) -> list[Photo]:
    """All labelled photos, in file order; raises FileNotFoundError when absent."""
    root = root or data_dir()
    if not (root / "labels.csv").is_file():
        raise FileNotFoundError(f"no development photos at {root} (set {ENV_VAR})")
    boxes: dict[str, list[IndexBox]] = {}
    with open(root / "labels.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            x0, y0, x1, y1 = (float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            boxes.setdefault(row["file"], []).append(IndexBox(card_code(row["rank"], row["suit"]), (x0, y0, x1, y1)))
    photos = []
    with open(root / "images.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            f = row["file"]
            cards = frozenset(card_code(c[:-1], c[-1]) if c != JOKER else JOKER for c in row["cards"].split())
            photos.append(Photo(f, root / "images" / f, cards, tuple(boxes.get(f, ())), is_heldout(f)))
    return sorted(photos, key=lambda p: p.file)
