"""Teach the dark classifier: the scene classifier fine-tuned to read the black and gold deck (issue 17).

The black and gold deck (``cards_real_multi``'s ``rf_phone_77xx``: gold or white
indices on black faces) is the print the networks know least.  Read inverted
(``scene_reader.dark_to_light``), as the reader shows such a crop, the scene classifier
reads 59 of its 75 validation corners right at their labelled boxes, but only 37 at
0.9 or more, and even of the corners it learnt from only half so surely.  The dark
classifier is a copy of it taught on that deck's *training* photos alone:

- each labelled index corner, cut as the reader cuts one (the labelled box grown as a
  detected box is), a little larger or smaller, shifted and turned, now and then shrunk
  and blown up again, and read inverted (from the photo as it is: ``SOFT``);
- every crop the scene reader itself cuts reading those photos, read inverted, named
  by where it lies: the card of the labelled corner it lies on, "no index" far from any
  label (``label_by_place``);

while it is held to what the shipped network reads on the crops the reader cuts from
the other decks' training photos (an *anchor*: the KL divergence to the shipped
network's own reading, as ``distill`` holds its student), so that what it read well
it keeps reading.  The reader asks it only about cards whose best corner was read
inverted: as a second witness for one the map leaves unsure (``scene_reader.SceneReader
.witnessed``), and since stop 55 as a veto over one the map names (``SceneReader
.dark_disputed``).  Never a held-out photo, never a validation one.  A development tool
like :mod:`vision.photo.distill` (it needs PyTorch's CPU build); the README has the
commands that made the shipped files (the reader reads with the int8 copy):

    .venv/bin/python -m vision.photo.dark --out build/dark
    cp build/dark/dark_classifier.onnx vision/models/
    .venv/bin/python -m vision.photo.quantize --dark-only
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cv2
import numpy as np

from . import scenes_data, spec
from .dataset import card_code
from .distill import cut_noted, noted, reading_kl, soften, training_photos
from .images import load_image
from .scene_reader import DARK_CLASSIFIER_FILE, SCENE_CLASSIFIER_FILE, SceneReader, dark_to_light

MODELS = Path(__file__).resolve().parents[1] / "models"
DECK = "rf_phone_77xx"  # the dark deck of the multi-card photos
STEPS = 1500
# A step's crops: labelled corners jittered, the reader's own cuts of the deck's
# photos, the other decks' crops the anchor holds.
BATCH = (24, 16, 32)
LR = 3e-4  # peak learning rate (AdamW, falling by a cosine)
ANCHOR_PHOTOS = 400
# Share of the labelled corners cut from a webcam's look of their photo.  0: taught sure
# on soft crops with hard labels, the network was sure of what blur had left ambiguous
# (at 0.4 a soft crop of a silver 5 of clubs, half its pip, read 5S at 0.986 and was
# named in a webcam frame; NOTEBOOK.md, stop 54).  The looks are drawn whatever the share, so
# that the share alone changes what is taught.
SOFT = 0.0  # other decks' training photos whose crops the anchor holds
# A cut lies on a label when its centre is inside the label's box grown by ON_LABEL of
# its size each way; within NEAR_LABEL it is neither that label nor "no index" (a
# corner's edge, a pip beside it) and is not learnt from.
ON_LABEL = 0.25
NEAR_LABEL = 1.5


def label_by_place(
    centre: tuple[float, float], labels: list[tuple[tuple[float, float, float, float], str]]
) -> str | None:
    """What a crop centred at ``centre`` is to be read as, from the photo's ``labels``
    (box, code: a card, ``spec.JOKER``, or "" for a label that is no index corner, as a
    face-down card's): the code of a label it lies on, ``spec.NONE`` far from every
    label, None near one or on a label that is no index (not learnt from).

        >>> label_by_place((10, 10), [((0, 0, 20, 20), "AS")])
        'AS'
        >>> label_by_place((200, 200), [((0, 0, 20, 20), "AS")])
        'none'
        >>> label_by_place((40, 10), [((0, 0, 20, 20), "AS")]) is None
        True
    """
    x, y = centre

    def inside(box: tuple[float, float, float, float], grow: float) -> bool:
        x0, y0, x1, y1 = box
        gx, gy = (x1 - x0) * grow, (y1 - y0) * grow
        return x0 - gx <= x <= x1 + gx and y0 - gy <= y <= y1 + gy

    on = [code for box, code in labels if inside(box, ON_LABEL)]
    if on:
        return on[0] or None
    if any(inside(box, NEAR_LABEL) for box, _ in labels):
        return None
    return spec.NONE


def _labels(rows: list[dict[str, str]]) -> list[tuple[tuple[float, float, float, float], str]]:
    """A photo's label rows as (box, code) for ``label_by_place``."""
    out = []
    for row in rows:
        rank = row["rank"].upper()
        if row["box_type"] != "corner_index" or rank == "BACK":
            code = ""
        else:
            code = spec.JOKER if rank == "JOKER" else card_code(row["rank"], row["suit"])
        out.append(((float(row["xmin"]), float(row["ymin"]), float(row["xmax"]), float(row["ymax"])), code))
    return out


def cuts(reader: SceneReader, picture: np.ndarray) -> list[tuple[np.ndarray, tuple[float, float], bool]]:
    """Every crop ``reader`` cuts reading ``picture`` (its closer looks' included), as
    cut (not yet inverted), with its centre in the picture and whether the reader
    reads it inverted first."""
    out = []
    for entry in noted(reader, "cut_log", picture):
        (left, top, _, _), (x0, y0, x1, y1), inverted = entry
        out.append((cut_noted(reader, picture, entry), ((x0 + x1) / 2 + left, (y0 + y1) / 2 + top), inverted))
    return out


def cutting_reader(models: Path) -> SceneReader:
    """The reader whose cuts the dark classifier learns from and its int8 copy is
    calibrated on (``quantize --dark-only``): the shipped reader, without a dark
    classifier (one already there is not asked)."""
    return SceneReader.load(models, dark_classifier=None)


def deck_photos() -> list[scenes_data.ScenePhoto]:
    """The dark deck's photos the dark classifier learns from: its training part, never
    held out, never a validation photo (FileNotFoundError without the photos)."""
    return [p for p in scenes_data.load_scenes() if p.subset == DECK and not p.heldout and not p.validation]


class DeckCrops:
    """The dark deck's training photos (``deck_photos``; ``limit``: the first so many):
    each as it is and as two webcam looks (``pictures``), its labelled corners
    (``corners``: photo, box, code) and the reader's own cuts named by place
    (``cut_crops``, read inverted; ``cut_labels``).  ``soft``: the share of the
    labelled corners cut from a webcam look (``SOFT``)."""

    def __init__(
        self, reader: SceneReader, rng: random.Random, log=print, soft: float = SOFT, limit: int | None = None
    ) -> None:
        self.soft = soft
        rows: dict[str, list[dict[str, str]]] = {}
        for row in scenes_data.label_rows():
            rows.setdefault(row["file"], []).append(row)
        photos = deck_photos()[:limit]
        if not photos:
            raise FileNotFoundError(f"no training photos of {DECK} found (set {scenes_data.ENV_VAR})")
        self.pictures: list[list[np.ndarray]] = []
        self.corners: list[tuple[int, tuple[float, float, float, float], str]] = []
        self.cut_crops: list[np.ndarray] = []
        self.cut_labels: list[tuple[int, int]] = []
        for k, photo in enumerate(photos):
            picture = reader.balanced(load_image(photo.path))
            looks = [
                soften(picture, rng.uniform(0.4, 1.4), rng.uniform(1, 9), rng.randint(40, 90), rng.randrange(1 << 30))
                for _ in range(2)
            ]
            self.pictures.append([picture, *looks])
            labels = _labels(rows.get(photo.file, []))
            self.corners += [(k, box, code) for box, code in labels if code]
            for crop, centre, _ in cuts(reader, picture):
                code = label_by_place(centre, labels)
                if code is not None:
                    self.cut_crops.append(dark_to_light(crop))
                    self.cut_labels.append(spec.code_labels(code))
        none = sum(1 for r, _ in self.cut_labels if spec.RANK_OUT[r] == spec.NONE)
        log(
            f"{len(photos)} training photos of {DECK}: {len(self.corners)} labelled corners, "
            f"{len(self.cut_crops)} of the reader's crops ({none} of them no index)"
        )

    def jittered(self, rng: random.Random) -> tuple[np.ndarray, tuple[int, int]]:
        """A labelled corner drawn at random, cut as the reader would cut it with some
        error (0.88-1.15 of its side, shifted by up to 0.07 of it, turned by up to 12
        degrees, a fifth of them upside down), a third of them shrunk and blown up
        again, a third lighter or darker, from the photo (a ``soft`` share from one of
        its webcam looks), and read inverted."""
        k, (x0, y0, x1, y1), code = self.corners[rng.randrange(len(self.corners))]
        picture = self.pictures[k][rng.randint(1, 2) if rng.random() < self.soft else 0]
        side = spec.box_side(x0, y0, x1, y1) * rng.uniform(0.88, 1.15)
        cx = (x0 + x1) / 2 + rng.uniform(-0.07, 0.07) * side
        cy = (y0 + y1) / 2 + rng.uniform(-0.07, 0.07) * side
        angle = rng.uniform(-12, 12) + (180 if rng.random() < 0.2 else 0)
        crop = spec.crop_square(picture, cx, cy, side, angle)
        if rng.random() < 0.3:
            small = max(8, int(spec.CLS_SIZE * rng.uniform(0.4, 0.75)))
            crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), crop.shape[1::-1])
        if rng.random() < 0.3:
            crop = np.clip(crop.astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25), 0, 255)
            crop = crop.astype(np.uint8)
        return dark_to_light(crop), spec.code_labels(code)


def other_crops(reader: SceneReader, rng: random.Random, n_photos: int = ANCHOR_PHOTOS, log=print) -> np.ndarray:
    """The crops ``reader`` cuts reading ``n_photos`` training photos of the other
    decks (``distill.training_photos`` but the dark deck's: the single-card photos'
    training part, ``edje``'s), each as the reader makes it before reading (inverted
    when it reads it inverted first)."""
    paths = [path for path in training_photos() if path.parent.name != DECK]
    rng.shuffle(paths)
    crops = []
    for path in paths[:n_photos]:
        picture = reader.balanced(load_image(path))
        crops += [dark_to_light(crop) if inverted else crop for crop, _, inverted in cuts(reader, picture)]
    if not crops:
        raise FileNotFoundError("no training photos of the other decks found (set CHICAGO_CARDS_REAL_DEV)")
    log(f"{len(crops)} crops of {min(n_photos, len(paths))} photos of the other decks for the anchor")
    return np.stack(crops)


def teach(torch, net, deck: DeckCrops, anchor: np.ndarray, steps: int, rng: random.Random, log, lr: float = LR) -> None:
    """Fine-tune ``net`` (run as it reads: its batch norms folded, as ``distill``'s
    student): each step the cross-entropy of rank and suit on ``BATCH[0]`` jittered
    labelled corners and ``BATCH[1]`` of the reader's crops, plus the KL divergence to
    its own first reading on ``BATCH[2]`` anchor crops."""
    f = torch.nn.functional
    nr = len(spec.RANK_OUT)
    net.eval()
    with torch.no_grad():
        held = torch.cat(
            [net(torch.from_numpy(spec.cls_blob(list(anchor[i : i + 256])))) for i in range(0, len(anchor), 256)]
        )
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, steps))
    pick = np.random.default_rng(rng.randrange(1 << 30))

    total = 0.0
    for step in range(steps):
        crops, labels = [], []
        for _ in range(BATCH[0]):
            crop, label = deck.jittered(rng)
            crops.append(crop)
            labels.append(label)
        for _ in range(BATCH[1]):
            i = rng.randrange(len(deck.cut_crops))
            crops.append(deck.cut_crops[i])
            labels.append(deck.cut_labels[i])
        out = net(torch.from_numpy(spec.cls_blob(crops)))
        ranks = torch.tensor([r for r, _ in labels])
        suits = torch.tensor([s for _, s in labels])
        loss = f.cross_entropy(out[:, :nr], ranks) + f.cross_entropy(out[:, nr:], suits, ignore_index=-100)
        ids = pick.integers(0, len(anchor), BATCH[2])
        loss = loss + reading_kl(torch, net(torch.from_numpy(spec.cls_blob(list(anchor[ids])))), held[ids])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += float(loss.detach())
        if (step + 1) % 250 == 0 or step + 1 == steps:
            log(f"step {step + 1}/{steps}: loss {total / ((step % 250) + 1):.4f}")
            total = 0.0


def main(argv: list[str] | None = None) -> int:
    from .train import build_nets, ensemble_of, load_onnx, teaching_parser, teaching_torch, write_taught

    ap = teaching_parser(__doc__, MODELS, f"the shipped networks, {SCENE_CLASSIFIER_FILE} taught", "build/dark", STEPS)
    ap.add_argument(
        "--soft", type=float, default=SOFT, help=f"share of labelled corners cut from a webcam's look (default {SOFT})"
    )
    args = ap.parse_args(argv)
    source = args.models / SCENE_CLASSIFIER_FILE
    if not source.is_file():
        print(f"error: {source} not found", file=sys.stderr)
        return 2
    if args.steps < 1:
        ap.error("--steps wants 1 or more")

    torch, log = teaching_torch(args.seed, args.threads)

    rng = random.Random(args.seed)
    reader = cutting_reader(args.models)
    try:
        deck = DeckCrops(reader, rng, log, args.soft)
        anchor = other_crops(reader, rng, log=log)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    net = ensemble_of(torch, [build_nets(torch)[1] for _ in range(2)])
    load_onnx(torch, net, source)
    teach(torch, net, deck, anchor, args.steps, rng, log)
    write_taught(torch, net, (1, 3, spec.CLS_SIZE, spec.CLS_SIZE), args.out, DARK_CLASSIFIER_FILE, args.models, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
