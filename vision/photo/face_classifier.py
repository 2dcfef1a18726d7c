"""Teach the face classifier: a whole face-up card read from its face (issue 17).

The scene reader names a card from its index corners.  In a crowded frame a card's
index is 10-13 px tall and, as a webcam gives it, soft: the classifiers read it unsurely,
and a second look at the same corner (another size, another network taught on the same
corners) errs as the first did (NOTEBOOK.md, stops 55-56).  The whole card is larger:
its pips, their layout and its picture are another witness, read from other pixels by
another network.  Read at the labelled whole-card boxes of `edje`'s validation photos put
four to a 1280x720 frame as a webcam gives them (cards about 120 px long), this network
names the rank of 0.95 of them, and of the 111 it reads at 0.97 or more none wrongly
(NOTEBOOK.md, "The face classifier", stop 58).

It is the index classifier's network (``train.build_nets``) seeing a card at
``spec.FACE_CLS_SIZE`` (64 x 64), taught from nothing on:

- the training part of the single-card photos (``cards_real_dev``): each card whose two
  index corners are labelled, its box the box round both (they lie at opposite corners);
- the training part of ``edje`` (``cards_real_multi``): its whole-card boxes, labelled by
  rank only; a card's suit is the suit the shipped scene reader names it with, when it
  names it surely (0.97), from a corner inside the box, with the labelled rank (389 of
  427 cards); else only its rank is learnt;
- rendered cards (``synth.render_photo``, one card wholly in view), all 52 of them.

Each sample is the square round the card (``spec.face_square``: 1.02-1.22 of its longer
side, shifted by up to 0.05 of it, turned by any angle), the card 45-150 px long, three
in four of them then blurred, noised and JPEG-compressed as a webcam's
(``distill.soften``: sigma 0.3-1.3, noise 1-8, quality 40-92), a half lighter or darker.
Never a validation photo, never a held-out one.  The reader asks it only as a witness
(``scene_reader.FACE_WITNESS``).  A development tool like :mod:`vision.photo.dark` (it
needs PyTorch's CPU build); the README has the commands that made the shipped file:

    .venv/bin/python -m vision.photo.face_classifier --out build/face
    cp build/face/face_classifier.onnx vision/models/
"""

from __future__ import annotations

import math
import random
import sys
from collections import defaultdict

import cv2
import numpy as np

from . import scenes_data, spec
from .dataset import load_photos
from .distill import soften
from .images import load_image
from .scene_reader import FACE_CLASSIFIER_FILE, MODELS, SceneReader

STEPS = 4000
BATCH = (40, 24)  # a step's cards: photographed, rendered
LR = 2e-3  # peak learning rate (AdamW, one cycle)
RENDERS = 3000  # rendered photos drawn; those whose card lies wholly in view are kept
SEEN = (45.0, 150.0)  # how long a card is in the frame, px
GROW = (1.02, 1.22)
SOFT_SHARE = 0.75
LONG = 1024  # photos are shrunk to this longer side first (their cards stay over SEEN)

# A card: its box in the (shrunk) photo, its rank's and its suit's class (-100: not known)
Card = tuple[tuple[float, float, float, float], int, int]


def _shrunk(image: np.ndarray, boxes: list) -> tuple[np.ndarray, list]:
    h, w = image.shape[:2]
    f = min(1.0, LONG / max(h, w))
    if f < 1:
        image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return image, [tuple(v * f for v in b) for b in boxes]


def single_cards() -> list[tuple[np.ndarray, list[Card]]]:
    """The single-card photos' training part: each card labelled on two corners, its
    box the box round the two corners farthest apart."""
    out = []
    for p in load_photos():
        if p.heldout or p.validation:
            continue
        corners: dict[str, list] = defaultdict(list)
        for b in p.boxes:
            if b.code != spec.JOKER:
                corners[b.code].append(b.box)
        cards = []
        for code, boxes in corners.items():
            if len(boxes) < 2:
                continue
            mid = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]
            pairs = [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes))]
            i, j = max(pairs, key=lambda ij: math.dist(mid[ij[0]], mid[ij[1]]))
            a, c = boxes[i], boxes[j]
            cards.append(
                ((min(a[0], c[0]), min(a[1], c[1]), max(a[2], c[2]), max(a[3], c[3])), *spec.code_labels(code))
            )
        if cards:
            image, boxes = _shrunk(load_image(p.path), [c[0] for c in cards])
            out.append((image, [(b, r, s) for b, (_, r, s) in zip(boxes, cards)]))
    return out


def suit_named(box, rank: int, named, reads, least: float) -> int:
    """The suit class a reader's names give the card labelled ``rank`` (a class of
    ``spec.RANK_OUT``) at ``box``: the suit of the one card ``named`` at ``least`` or
    more with that rank from a corner whose middle lies in ``box`` (``reads``: the
    index reads it was named from); -100 (not known) when none or more than one is.

        >>> from vision.photo.recognise import CardReading, IndexRead
        >>> seven = [CardReading("7H", 0.99, ((0, 0),), 1)]
        >>> at = [IndexRead((10, 10, 20, 30), 0.9, "7H", 0.99)]
        >>> suit_named((0, 0, 100, 150), spec.RANK_OUT.index("7"), seven, at, 0.97)
        1
        >>> suit_named((200, 0, 300, 150), spec.RANK_OUT.index("7"), seven, at, 0.97)
        -100
    """

    def inside(r) -> bool:
        x, y = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]

    fits = {
        c.card
        for c in named
        if c.card in spec.ALL_CODES
        and c.confidence >= least
        and spec.RANK_OUT.index(c.card[0]) == rank
        and any(inside(r) for r in reads if r.code == c.card)
    }
    return spec.SUITS.index(next(iter(fits))[1]) if len(fits) == 1 else -100


def edje_cards(reader: SceneReader, log=print) -> list[tuple[np.ndarray, list[Card]]]:
    """``edje``'s training part by whole card; a card's suit the one ``reader`` names
    it with surely, from a corner inside its box, with its labelled rank."""
    boxes: dict[str, list] = defaultdict(list)
    for row in scenes_data.label_rows():
        rank = row["rank"].upper()
        if row["box_type"] != "whole_card" or rank == "BACK":
            continue
        if scenes_data.is_heldout(row["file"]) or scenes_data.is_validation(row["file"]):
            continue
        box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        boxes[row["file"]].append((box, spec.RANK_OUT.index("T" if rank == "10" else rank)))
    root = scenes_data.data_dir()
    out, given, total = [], 0, 0
    for file, labelled in sorted(boxes.items()):
        image = load_image(root / "images" / file)
        named, reads = reader.read_with_indices(image)
        cards = []
        for box, rank in labelled:
            suit = suit_named(box, rank, named, reads, reader.min_confidence)
            given, total = given + (suit >= 0), total + 1
            cards.append((box, rank, suit))
        image, shrunk = _shrunk(image, [c[0] for c in cards])
        out.append((image, [(b, r, s) for b, (_, r, s) in zip(shrunk, cards)]))
    log(f"edje: {total} cards in {len(out)} photos, {given} of them given a suit by the reader's sure names")
    return out


def rendered_cards(n: int, seed: int) -> list[tuple[np.ndarray, list[Card]]]:
    """Rendered photos of one card each (``n`` drawn), those whose card lies wholly in view
    and at least 60 px long."""
    from ..cardcodes import ALL_CODES
    from .synth import render_photo

    rng = random.Random(seed)
    out = []
    for k in range(n):
        code = rng.choice(ALL_CODES)
        photo = render_photo(seed=900_000 + k, codes=[code], severity=rng.uniform(0.2, 0.7))
        h, w = photo.image.shape[:2]
        for card in photo.cards:
            if not card.code:
                continue
            xs, ys = [v[0] for v in card.outline], [v[1] for v in card.outline]
            bw, bh = max(xs) - min(xs), max(ys) - min(ys)
            seen = (min(max(xs), w) - max(min(xs), 0)) * (min(max(ys), h) - max(min(ys), 0))
            if seen < 0.97 * bw * bh or max(bw, bh) < 60:
                continue
            out.append((photo.image, [((min(xs), min(ys), max(xs), max(ys)), *spec.code_labels(card.code))]))
    return out


def sample(image: np.ndarray, box, rng: random.Random) -> np.ndarray:
    """A teaching square of the card at ``box``: grown, shifted, turned, at a frame's
    size, most of them as a webcam gives them, a half lighter or darker."""
    square = spec.face_square(
        image,
        box,
        grow=rng.uniform(*GROW),
        angle=rng.uniform(-180, 180),
        seen=rng.uniform(*SEEN),
        shift=(rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)),
    )
    if rng.random() < SOFT_SHARE:
        square = soften(square, rng.uniform(0.3, 1.3), rng.uniform(1, 8), rng.randint(40, 92), rng.randrange(1 << 30))
    square = cv2.resize(square, (spec.FACE_CLS_SIZE, spec.FACE_CLS_SIZE), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        a, b = rng.uniform(0.7, 1.3), rng.uniform(-30, 30)
        square = np.clip(square.astype(np.float32) * a + b, 0, 255).astype(np.uint8)
    return square


def teach(torch, net, photos, renders, steps: int, rng: random.Random, log, lr: float = LR) -> None:
    """``steps`` of AdamW (one cycle up to ``lr``), each on BATCH cards: rank and suit
    cross-entropy, a suit not known not learnt."""
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    items = [[(i, j) for i, (_, cards) in enumerate(src) for j in range(len(cards))] for src in (photos, renders)]
    nr = len(spec.RANK_OUT)
    net.train()
    for step in range(1, steps + 1):
        squares, ranks, suits = [], [], []
        for src, its, n in zip((photos, renders), items, BATCH):
            for _ in range(n):
                i, j = rng.choice(its)
                box, rank, suit = src[i][1][j]
                squares.append(sample(src[i][0], box, rng))
                ranks.append(rank)
                suits.append(suit)
        # channels last in memory, as the shipped network was taught (spec.face_blob's
        # contiguous copy has PyTorch step otherwise: the 15-step test's loss came out higher)
        x = torch.from_numpy(np.stack(squares).astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        out = net(x)
        f = torch.nn.functional
        loss = f.cross_entropy(out[:, :nr], torch.tensor(ranks)) + f.cross_entropy(
            out[:, nr:], torch.tensor(suits), ignore_index=-100
        )
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == steps:
            log(f"step {step}/{steps}: loss {loss.item():.3f}")


def main(argv: list[str] | None = None) -> int:
    from .train import build_nets, teaching_parser, teaching_torch, write_taught

    ap = teaching_parser(
        __doc__,
        MODELS,
        "the shipped networks, whose reader gives edje's suits",
        "build/face",
        STEPS,
        draws="the samples and the steps",
    )
    ap.add_argument("--renders", type=int, default=RENDERS, help=f"rendered photos drawn (default {RENDERS})")
    args = ap.parse_args(argv)
    if args.steps < 1:
        ap.error("--steps wants 1 or more")

    torch, log = teaching_torch(args.seed, args.threads)
    rng = random.Random(args.seed)
    # the reader that gives edje's suits: the shipped one, never this network
    reader = SceneReader.load(args.models, face_classifier=None)
    try:
        photos = single_cards()
        log(f"single-card photos: {sum(len(c) for _, c in photos)} cards in {len(photos)} photos")
        photos += edje_cards(reader, log)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    renders = rendered_cards(args.renders, args.seed)
    log(f"rendered: {len(renders)} cards wholly in view of {args.renders} drawn")
    net = build_nets(torch)[1]
    teach(torch, net, photos, renders, args.steps, rng, log)
    shape = (1, 3, spec.FACE_CLS_SIZE, spec.FACE_CLS_SIZE)
    write_taught(torch, net, shape, args.out, FACE_CLASSIFIER_FILE, args.models, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
