"""Train the index-corner detector and classifier; export both to ONNX.

A development tool, not a run-time dependency: it needs PyTorch's CPU build
(``.venv/bin/pip install torch==2.13.0 onnx``).  Training uses only the
*training* part of the development photos (never the held-out part, nor the
validation fold the calibration is fitted on) plus rendered photos from
:mod:`vision.photo.synth` and index corners from :mod:`vision.photo.glyphs`; each
step takes a few minutes on two cores, and ``--resume`` goes on from the last
(the README lists the steps that made the shipped networks):

    .venv/bin/python -m vision.photo.train --only detector --det-epochs 12 --threads 1
    .venv/bin/python -m vision.photo.train --only classifier --cls-epochs 14 --resume
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from ..cardcodes import ALL_CODES
from . import nets, scenes_data, spec
from .augment import disturb, low_resolution, warp_jitter
from .dataset import card_code, is_heldout, is_validation, load_photos
from .glyphs import index_crop
from .synth import cover_with_hand, render_photo

MODELS = Path(__file__).resolve().parents[1] / "models"
# Torch weights, to go on training from (build/ is not committed; the ONNX files are).
CHECKPOINTS = Path(__file__).resolve().parents[2] / "build" / "photo_train"
NETWORKS = ("detector", "classifier", "backs", "faces")
ONNX_FILES = {
    "detector": "index_detector.onnx",
    "classifier": "index_classifier.onnx",
    "backs": "back_detector.onnx",
    "faces": "face_detector.onnx",
}
INPUT = {
    "detector": (spec.DET_SIZE, spec.DET_SIZE),
    "classifier": (spec.CLS_SIZE, spec.CLS_SIZE),
    "backs": (spec.BACK_GRID.size, spec.BACK_GRID.size),
    "faces": (spec.BACK_GRID.size, spec.BACK_GRID.size),
}
# A face-up card is one for the face detector to find when this much of it is in
# view and uncovered (as synth.BACK_SEEN for face-down cards).
FACE_SEEN = 0.5
FACE = "face"  # a face detector's target
WHOLE_LR = 3e-3  # the whole-card detectors' peak learning rate (AdamW, one cycle)
# Share of classifier crops first shrunk and blown up again (small, far-off cards).
LOW_RES_SHARE = 0.25
# Share of labelled-corner crops turned by any angle (the rest by quarter turns, +-20 degrees).
ANY_ANGLE_SHARE = 0.1
# How hard light, blur and noise hit a classifier crop (augment.disturb's strength);
# --cls-disturb lowers it for a last, gentler pass.
CROP_DISTURB = 0.5
# Share of classifier crops made soft as a webcam's small index is when the closer look
# enlarges it (a Gaussian blur of sigma SOFT_SIGMA at the classifier's 48 px, after
# the rest; --cls-soft).  0: the classifiers shipped before stop 44 never saw it.
SOFT_SHARE = 0.0
SOFT_SIGMA = (0.8, 2.2)
# Share of detector inputs inverted (dark glyphs on light become light on dark).
DET_INVERT_SHARE = 0.0
# Share of detector inputs made soft as a closer look's part of a webcam frame is: shrunk
# DET_SOFT_SHRINK times, blurred a little and blown up again (--det-soft; 0 before stop 44).
DET_SOFT_SHARE = 0.0
DET_SOFT_SHRINK = (1.8, 3.5)
# Fine-tuning from shipped ONNX files: their batch norms are folded into the
# convolutions, so they are loaded as identity batch norms and kept frozen.
FREEZE_BN = False


def import_torch():
    """PyTorch, or a clear exit with how to install its CPU build (a development tool only)."""
    try:
        import torch
    except ModuleNotFoundError:
        sys.exit("training needs PyTorch's CPU build: .venv/bin/pip install torch==2.13.0 onnx")
    return torch


def teaching_parser(
    doc: str, models: Path, models_help: str, out: str, steps: int, draws: str = "the crops and the steps"
) -> argparse.ArgumentParser:
    """The command line a teaching command (``dark``, ``face_classifier``) starts
    from: the shipped networks (``models``), the folder it writes to (``out``), its
    steps (default ``steps``), its seed and PyTorch's threads."""
    ap = argparse.ArgumentParser(
        description=doc.splitlines()[0],
        epilog="Then copy the file to vision/models and compare (tests/bench/vision_real.py --models).",
    )
    ap.add_argument("--models", type=Path, default=models, help=f"{models_help} (default {models})")
    ap.add_argument(
        "--out", type=Path, default=Path(out), help=f"the folder to write the taught network to (default {out})"
    )
    ap.add_argument("--steps", type=int, default=steps, help=f"teaching steps (default {steps})")
    ap.add_argument("--seed", type=int, default=0, help=f"draws {draws} (default 0: the shipped file)")
    ap.add_argument("--threads", type=int, default=2, help="PyTorch's threads (default 2)")
    return ap


def write_taught(torch, net, shape, folder: Path, name: str, models: Path, log, then: str = "") -> None:
    """A teaching command's network exported to ``folder / name`` (the folder made when
    missing), and the log saying where it goes next (``models``, ``then``)."""
    folder.mkdir(parents=True, exist_ok=True)
    export(torch, net, shape, folder / name)
    log(f"written {folder / name}; next: copy it to {models}" + (f", then {then}" if then else ""))


def teaching_torch(seed: int, threads: int):
    """PyTorch seeded and given ``threads`` for a teaching command (``distill``, ``dark``;
    OpenCV one thread beside it), and a log that prints each line with the seconds since."""
    torch = import_torch()
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    cv2.setNumThreads(1)
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t0:6.0f} s] {msg}", flush=True)

    return torch, log


# ---- data ---------------------------------------------------------------------------


def _imread(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    if image is None:  # a photo listed but missing or unreadable: say which, before training on it
        raise FileNotFoundError(f"cannot read the photo {path}")
    return image


def load_sources(n_synth: int, seed: int, multi: bool = False, n_composite: int = 0):
    """(image 640x640 BGR, [(code, box)]) pairs: training photos (not the held-out
    part, not the validation fold), then rendered ones.  ``multi`` adds the
    multi-card photos whose labels mark index corners (``rf_phone_77xx``, light
    indices on dark faces), their training part only: ``edje`` labels whole cards.
    ``n_composite`` composite scenes cut from those training photos
    (:mod:`.composite`) follow them and count as real (their pixels are); a corner
    they cover is labelled ``None``."""
    out = []
    for p in load_photos():
        if p.heldout or p.validation:
            continue
        out.append((_imread(p.path), [(b.code, b.box) for b in p.boxes]))
    if multi:
        out += multi_sources()
    if n_composite:
        from .composite import composite_sources

        out += composite_sources(out, n_composite, seed)  # type: ignore[arg-type]
    n_real = len(out)
    for i in range(n_synth):
        r = render_photo(seed=1_000_000 + seed * 10_000 + i, severity=random.Random(i).uniform(0.2, 1.0))
        out.append((r.image, [(c.code, b) for c in r.cards if c.code for b in c.index_boxes]))
    return out, n_real


def multi_sources() -> list[tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]]:
    """The training part (not held out, not the validation fold) of the multi-card
    photos labelled by index corner, as (image, [(code, box)]); backs are left out
    (whole cards, not corners), jokers kept (the classifier learns they are none of ours)."""
    root = scenes_data.data_dir()
    boxes: dict[str, list[tuple[str, tuple[float, float, float, float]]]] = {}
    for row in scenes_data.label_rows(root):
        if row["box_type"] != "corner_index" or is_heldout(row["file"]) or is_validation(row["file"]):
            continue
        box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        boxes.setdefault(row["file"], []).append((card_code(row["rank"], row["suit"]), box))  # type: ignore[arg-type]
    out = []
    for f in sorted(boxes):
        img = _imread(root / "images" / f)
        if img.shape[:2] != (640, 640):  # det_sample's geometry assumes 640 px photos
            continue
        out.append((img, boxes[f]))
    return out


def rank_only_items(models: Path) -> list[tuple[np.ndarray, tuple[float, float, float, float], tuple[int, int]]]:
    """Classifier crops from the training part of the multi-card photos whose labels
    name a whole card's rank only (``edje``): each candidate the scene reader finds
    inside a labelled card and reads as that card's rank is that rank, its suit
    not learnt (unknown); a candidate in no labelled card is no index.  The
    networks then learn these decks' ranks, checked against the labels, never
    the reader's own guess alone."""
    from .scene_reader import SceneReader

    reader = SceneReader.load(models, calibrated=False, backs=False)
    root = scenes_data.data_dir()
    cards: dict[str, list[tuple[str, tuple[float, float, float, float]]]] = {}
    for row in scenes_data.label_rows(root):
        if row["subset"] not in scenes_data.RANK_ONLY or is_heldout(row["file"]) or is_validation(row["file"]):
            continue
        rank = "T" if row["rank"] == "10" else row["rank"].upper()
        box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        cards.setdefault(row["file"], []).append((rank, box))  # type: ignore[arg-type]
    out = []
    for f in sorted(cards):
        img = _imread(root / "images" / f)
        for r in reader.read_indices(img):
            if r.score < 0.3:
                continue
            cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
            ranks = {rank for rank, (x0, y0, x1, y1) in cards[f] if x0 <= cx <= x1 and y0 <= cy <= y1}
            if not ranks:
                out.append((img, r.box, spec.code_labels(spec.NONE)))
            elif r.code[0] in ranks and r.code not in (spec.NONE, spec.JOKER):
                out.append((img, r.box, (spec.RANK_OUT.index(r.code[0]), -100)))
    return out


def _photo_640(path: Path, code: str, boxes) -> tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]:
    """A multi-card photo scaled to 640 px wide, as the rendered ones are, with its
    boxes scaled alike, each labelled ``code``."""
    img = _imread(path)
    s = 640 / img.shape[1]
    img = cv2.resize(img, (640, round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    return img, [(code, (b[0] * s, b[1] * s, b[2] * s, b[3] * s)) for b in boxes]


def load_back_sources(n_synth: int, seed: int, scenes: bool = False):
    """(image, [("back", card box)]) pairs for the back detector: rendered photos,
    most with face-down cards of every design among face-up ones, and the training
    photos (faces only: what a back is not).  ``scenes``: the training part (not held
    out, not the validation fold) of the multi-card photos too, scaled to 640 px wide:
    real clutter, cloth and heaps of face-up cards with no back (``edje``), and the
    black and gold deck's photos with their labelled backs (``scenes_data.back_boxes``)."""
    out: list[tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]] = []
    for p in load_photos():
        if not (p.heldout or p.validation):
            out.append((_imread(p.path), []))
    if scenes:
        backs = scenes_data.back_boxes()
        for photo in scenes_data.load_scenes():
            if photo.heldout or photo.validation:
                continue
            out.append(_photo_640(photo.path, spec.BACK, backs.get(photo.file, [])))
    for i in range(n_synth):
        rng = random.Random(2_000_000 + seed * 10_000 + i)
        codes = [None] * rng.choice((0, 1, 1, 1, 2, 2, 3)) + rng.sample(ALL_CODES, rng.choice((0, 1, 1, 2, 3)))
        rng.shuffle(codes)
        r = render_photo(seed=2_000_000 + seed * 10_000 + i, codes=codes or [None], severity=rng.uniform(0.2, 1.0))
        out.append((r.image, [(spec.BACK, b) for b in r.back_boxes()]))
    return out


def load_face_sources(n_synth: int, seed: int, real_weight: int = 1, hands: float = 0.0):
    """(image, [("face", card box)]) pairs for the face detector, which finds whole
    face-up cards (so that one whose index corners are covered is at least counted):
    rendered photos of face-up and face-down cards (a back is not a face), and the
    training part (not held out, not the validation fold) of the multi-card photos
    labelled by whole card (``edje``), scaled to 640 px wide, each ``real_weight``
    times; a share ``hands`` of the rendered photos has one card's index corners
    under a hand (``synth.cover_with_hand``)."""
    out: list[tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]] = []
    root = scenes_data.data_dir()
    boxes = scenes_data.whole_card_boxes(root)
    for f in sorted(f for f in boxes if not (is_heldout(f) or is_validation(f))):
        out += [_photo_640(root / "images" / f, FACE, boxes[f])] * real_weight
    for i in range(n_synth):
        rng = random.Random(3_000_000 + seed * 10_000 + i)
        codes = [None] * rng.choice((0, 0, 1, 1, 2)) + rng.sample(ALL_CODES, rng.choice((1, 1, 2, 3, 4)))
        rng.shuffle(codes)
        r = render_photo(seed=3_000_000 + seed * 10_000 + i, codes=codes, severity=rng.uniform(0.2, 1.0))
        image = r.image
        if rng.random() < hands:  # a hand on one card's index corners: still a card to count
            shown = [c for c in r.cards if c.code and c.index_boxes]
            if shown:
                image = cover_with_hand(image, rng.choice(shown).index_boxes, rng)
        out.append((image, [(FACE, b) for b in r.face_boxes(FACE_SEEN)]))
    return out


def back_sample(img: np.ndarray, boxes, rng: random.Random):
    return det_sample(img, boxes, rng, spec.BACK_GRID, zoom=(0.7, 1.15))


def det_sample(
    img: np.ndarray,
    boxes,
    rng: random.Random,
    grid: spec.Grid = spec.INDEX_GRID,
    zoom: tuple[float, float] = (0.45, 1.4),
):
    """A randomly zoomed, shifted, slightly turned and quarter-turned detector input
    with its targets (heat map, log box sides, where the sides count)."""
    size = grid.size
    s = rng.uniform(*zoom) * size / img.shape[1]
    tx = rng.uniform(min(0, size - 640 * s), max(0, size - 640 * s))
    ty = rng.uniform(min(0, size - 640 * s), max(0, size - 640 * s))
    m = np.array([[s, 0, tx], [0, s, ty]], dtype=np.float32)
    if rng.random() < 0.5:  # a slight turn about the middle; boxes become their turned corners' bounds
        r = cv2.getRotationMatrix2D((size / 2, size / 2), rng.uniform(-15, 15), 1.0)
        m = (r @ np.vstack([m, [0, 0, 1]])).astype(np.float32)
    x = cv2.warpAffine(
        img, m, (size, size), flags=cv2.INTER_AREA, borderMode=rng.choice((cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT))
    )
    bs = []
    for code, (x0, y0, x1, y1) in boxes:
        if code is None:  # a corner a composite scene's later piece covers: neither a find nor a miss
            continue
        pts = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], dtype=np.float32) @ m.T
        bs.append((*pts.min(0), *pts.max(0)))
    k = rng.randrange(4)
    for _ in range(k):  # turn a quarter clockwise: (x, y) -> (S - y, x)
        x = cv2.rotate(x, cv2.ROTATE_90_CLOCKWISE)
        bs = [(size - y1, x0, size - y0, x1) for x0, y0, x1, y1 in bs]
    if rng.random() < DET_INVERT_SHARE:  # either polarity: light glyphs on dark faces too
        x = 255 - x
    if DET_SOFT_SHARE and rng.random() < DET_SOFT_SHARE:
        side = max(16, int(size / rng.uniform(*DET_SOFT_SHRINK)))
        small = cv2.resize(x, (side, side), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.0))
        x = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    x = disturb(x, rng)
    c = grid.cells
    heat = np.zeros((1, c, c), np.float32)
    sides = np.zeros((2, c, c), np.float32)
    wmask = np.zeros((1, c, c), np.float32)
    yy, xx = np.mgrid[0:c, 0:c]
    for x0, y0, x1, y1 in bs:
        cx, cy = (x0 + x1) / 2 / grid.stride, (y0 + y1) / 2 / grid.stride
        if not (0 <= cx < c and 0 <= cy < c):
            continue
        w, h = x1 - x0, y1 - y0
        sigma = max(0.6, min(w, h) / grid.stride / 5)
        g = np.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * sigma**2))
        heat[0] = np.maximum(heat[0], g)
        ix, iy = int(cx), int(cy)
        heat[0, iy, ix] = 1.0
        for j in range(max(0, iy - 1), min(c, iy + 2)):
            for i in range(max(0, ix - 1), min(c, ix + 2)):
                sides[:, j, i] = np.log([max(w, 2) / grid.unit, max(h, 2) / grid.unit])
                wmask[0, j, i] = 1.0
    return spec.net_input(x)[0], heat, sides, wmask  # as the reader feeds its detectors


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter + 1e-9)


def cls_sample(img: np.ndarray, boxes, rng: random.Random, negative: bool):
    """One classifier crop: a jittered, turned labelled corner, or a place with none."""
    if negative or not boxes:
        side = None
        for _ in range(20):
            w = rng.uniform(35, 150)
            cx, cy = rng.uniform(0, 640), rng.uniform(0, 640)
            cand = (cx - w / 2, cy - w / 2, cx + w / 2, cy + w / 2)
            if all(_iou(cand, b) < 0.08 for _, b in boxes):
                side = w * spec.CROP_GROW
                break
        if side is None:
            return None
        label = spec.code_labels(spec.NONE)
    else:
        shown = [b for b in boxes if b[0] is not None]  # not a corner a composite scene covers
        if not shown:
            return None
        code, (x0, y0, x1, y1) = rng.choice(shown)
        # As far off as the detector's boxes are (its cells are 16 px of a 640 photo).
        side = spec.box_side(x0, y0, x1, y1) * rng.uniform(0.8, 1.35)
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * side
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * side
        label = spec.code_labels(code)
    # Mostly a quarter turn (cards lie upright or across), sometimes any angle.
    angle = (
        rng.uniform(-180, 180)
        if rng.random() < ANY_ANGLE_SHARE
        else rng.choice((0, 90, 180, 270)) + rng.uniform(-20, 20)
    )
    crop = spec.crop_square(img, cx, cy, side, angle)
    return _finish(as_read(crop), rng), label


def detector_crops(sources, n_real: int, models: Path) -> list[tuple[int, tuple, str]]:
    """(source index, box, class) for every candidate the shipped detector finds in
    the training photos: the class of the labelled corner its centre falls in, or
    "none".  The classifier then learns the boxes it will really be given (the
    detector's are coarser than the labels) and the detector's false finds."""
    from .recognise import DETECTOR_FILE, Recogniser

    reader = Recogniser.__new__(Recogniser)
    reader.detector_net = nets.load(models / DETECTOR_FILE)
    out = []
    for k in range(n_real):
        img, boxes = sources[k]
        for box, _ in reader.detect(img):
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            code = next((c for c, b in boxes if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]), spec.NONE)
            out.append((k, box, code))
    return out


def _finish(crop: np.ndarray, rng: random.Random, jitter: float = 0.08) -> np.ndarray:
    """A classifier crop's disturbances: slant, sometimes low resolution, light and noise."""
    crop = warp_jitter(crop, rng, jitter)
    if rng.random() < LOW_RES_SHARE:
        crop = low_resolution(crop, rng)
    crop = disturb(crop, rng, CROP_DISTURB)
    if SOFT_SHARE and rng.random() < SOFT_SHARE:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(*SOFT_SIGMA))
    return crop


def glyph_sample(rng: random.Random):
    """A rendered index corner in some type face, turned, shifted and disturbed."""
    code = rng.choice(spec.CLASSES[:52])
    g = index_crop(code, rng)
    c = spec.CLS_SIZE / 2
    angle = rng.choice((0, 90, 180, 270)) + rng.uniform(-15, 15)
    side = spec.CLS_SIZE * rng.uniform(0.85, 1.2)
    crop = spec.crop_square(g, c + rng.uniform(-3, 3), c + rng.uniform(-3, 3), side, angle)
    return _finish(crop, rng), spec.code_labels(code)


def det_crop_sample(sources, item, rng: random.Random):
    k, (x0, y0, x1, y1), code = item
    side = spec.box_side(x0, y0, x1, y1) * rng.uniform(0.9, 1.12)
    cx = (x0 + x1) / 2 + rng.uniform(-0.06, 0.06) * side
    cy = (y0 + y1) / 2 + rng.uniform(-0.06, 0.06) * side
    angle = rng.choice((0, 0, 180, 90, 270)) + rng.uniform(-10, 10)
    crop = spec.crop_square(sources[k][0], cx, cy, side, angle)
    return _finish(as_read(crop), rng, 0.05), spec.code_labels(code) if code else (-100, -100)


def as_read(crop: np.ndarray) -> np.ndarray:
    """A crop as the scene reader shows it to the classifier: a mostly dark one
    (light glyphs on a dark face) with its lightness inverted."""
    from .scene_reader import DARK_CROP, dark_to_light

    if np.median(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)) < 255 * DARK_CROP:
        return dark_to_light(crop)
    return crop


# ---- networks -------------------------------------------------------------------------


def build_nets(torch):
    nn = torch.nn

    def conv(i, o, s=1, d=1):
        return [nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    class Detector(nn.Module):
        """A heat map of centres with box sides.  The index detector keeps stride 8;
        the back detector goes down once more (stride 16): whole cards are large,
        and its dilated layers then see one whole."""

        def __init__(self, stride: int = 8):
            super().__init__()
            sixth = conv(48, 64, 2) if stride == 16 else conv(48, 64, d=2)
            self.body = nn.Sequential(
                *conv(3, 16, 2),
                *conv(16, 32, 2),
                *conv(32, 32),
                *conv(32, 48, 2),
                *conv(48, 48),
                *sixth,
                *conv(64, 64, d=2),
                *conv(64, 64, d=4),
            )
            self.head = nn.Conv2d(64, 3, 1)  # heat logit, log w, log h

        def forward(self, x):
            return self.head(self.body(x))

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            # Two convolutions a stage (a small VGG): the strokes that tell a 6
            # from a 5 or a 2 from a 7 are a few pixels wide.
            self.body = nn.Sequential(
                *conv(3, 32),
                *conv(32, 32),
                nn.MaxPool2d(2),
                *conv(32, 64),
                *conv(64, 64),
                nn.MaxPool2d(2),
                *conv(64, 128),
                *conv(128, 128),
                nn.MaxPool2d(2),
                *conv(128, 160),
                nn.AdaptiveAvgPool2d(2),
                nn.Flatten(),
                nn.Dropout(0.25),
                nn.Linear(160 * 4, spec.N_OUT),
            )
            # Pooled to 2 x 2, not to one value per channel: whether the suit is
            # below the rank or above it is what tells a 6 from a turned 9.

        def forward(self, x):
            return self.body(x)

    return (
        Detector(spec.INDEX_GRID.stride),
        Classifier(),
        Detector(spec.BACK_GRID.stride),
        Detector(spec.BACK_GRID.stride),
    )


def _focal(torch, logit, target):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - target) ** 4 * neg).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def train_detector(
    torch,
    net,
    sources,
    epochs: int,
    rng: random.Random,
    log,
    name: str = "detector",
    sample=det_sample,
    lr: float = 3e-3,
) -> None:
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (len(sources) // 16)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    train_mode(torch, net)
    step = 0
    for epoch in range(epochs):
        order = list(range(len(sources)))
        rng.shuffle(order)
        total = 0.0
        for b in range(len(order) // 16):
            batch = [sample(*sources[i], rng) for i in order[b * 16 : (b + 1) * 16]]
            x, heat, size, wm = (torch.from_numpy(np.stack(v)) for v in zip(*batch))
            out = net(x)
            loss = _focal(torch, out[:, :1], heat) + (torch.abs(out[:, 1:] - size) * wm).sum() / wm.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += float(loss.detach())
        log(f"{name} epoch {epoch + 1}/{epochs}: loss {total / max(1, len(order) // 16):.3f}")


def train_classifier(
    torch,
    net,
    sources,
    epochs: int,
    rng: random.Random,
    log,
    per_epoch: int = 4000,
    batch: int = 64,
    det_items=(),
    glyph_share: float = 0.0,
    epoch_done=None,
    lr: float = 2e-3,
    n_real: int = 0,
    real_share: float = 0.0,
    pseudo=(),
    pseudo_share: float = 0.0,
) -> None:
    f = torch.nn.functional
    nr = len(spec.RANK_OUT)
    steps = per_epoch // batch
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * steps)
    # The detector's finds are mostly not index corners: draw its true and false
    # finds equally often, or the classifier learns to say "none".
    glyphs = glyph_share
    det_pos = [d for d in det_items if d[2] != spec.NONE]
    det_neg = [d for d in det_items if d[2] == spec.NONE]
    train_mode(torch, net)
    for epoch in range(epochs):
        crops: list[np.ndarray] = []
        labels: list[int] = []
        while len(crops) < per_epoch:
            if pseudo and rng.random() < pseudo_share:
                img, box, lab = rng.choice(pseudo)
                s = det_crop_sample([(img, [])], (0, box, ""), rng)[0], lab
            elif rng.random() < glyphs:
                s = glyph_sample(rng)
            elif det_pos and det_neg and rng.random() < 0.5:
                s = det_crop_sample(sources, rng.choice(det_pos if rng.random() < 0.5 else det_neg), rng)
            else:
                # A labelled corner of a training photo (the first n_real sources) this
                # often, else of a rendered photo; 0: as they come in the list.
                if n_real and real_share and n_real < len(sources):
                    k = rng.randrange(n_real) if rng.random() < real_share else rng.randrange(n_real, len(sources))
                else:
                    k = rng.randrange(len(sources))
                img, boxes = sources[k]
                s = cls_sample(img, boxes, rng, negative=rng.random() < 0.25)
            if s:
                crops.append(s[0])
                labels.append(s[1])
        x = torch.from_numpy(spec.cls_blob(crops))
        y = torch.tensor(labels)
        total, right = 0.0, 0
        for b in range(steps):
            xb, yb = x[b * batch : (b + 1) * batch], y[b * batch : (b + 1) * batch]
            out = net(xb)
            loss = f.cross_entropy(out[:, :nr], yb[:, 0], label_smoothing=0.02)
            if (yb[:, 1] >= 0).any():
                loss = loss + f.cross_entropy(out[:, nr:], yb[:, 1], ignore_index=-100, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
            ok = out[:, :nr].argmax(1) == yb[:, 0]
            ok &= (yb[:, 1] < 0) | (out[:, nr:].argmax(1) == yb[:, 1])
            right += int(ok.sum())
        log(
            f"classifier epoch {epoch + 1}/{epochs}: loss {total / steps:.3f}, "
            f"train accuracy {right / (steps * batch):.3f}"
        )
        if epoch_done:
            epoch_done()
            train_mode(torch, net)


def train_mode(torch, net) -> None:
    net.train()
    if FREEZE_BN:
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()


def load_onnx(torch, net, path: Path) -> None:
    """Load a shipped ONNX file's weights into ``net`` (the same architecture, or
    an ensemble of it): each convolution gets its batch-norm-folded weights and
    its batch norm becomes the identity plus the folded bias."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    # copies: onnx gives read-only arrays, and torch warns of tensors made from them
    init = {i.name: numpy_helper.to_array(i).copy() for i in model.graph.initializer}
    convs = [(init[n.input[1]], init[n.input[2]]) for n in model.graph.node if n.op_type == "Conv"]
    gemms = [(init[n.input[1]], init[n.input[2]]) for n in model.graph.node if n.op_type == "Gemm"]
    mods = list(net.modules())
    t_convs = [m for m in mods if isinstance(m, torch.nn.Conv2d)]
    t_lin = [m for m in mods if isinstance(m, torch.nn.Linear)]
    if len(t_convs) != len(convs) or len(t_lin) != len(gemms):
        raise ValueError(f"{path} does not match the network ({len(convs)} convolutions, {len(t_convs)} expected)")
    with torch.no_grad():
        for k, m in enumerate(mods):
            if not isinstance(m, torch.nn.Conv2d):
                continue
            w, b = convs[t_convs.index(m)]
            m.weight.copy_(torch.from_numpy(w))
            bn = mods[k + 1] if k + 1 < len(mods) and isinstance(mods[k + 1], torch.nn.BatchNorm2d) else None
            if bn is None:
                m.bias.copy_(torch.from_numpy(b))
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for m, (w, b) in zip(t_lin, gemms):
            m.weight.copy_(torch.from_numpy(w))
            m.bias.copy_(torch.from_numpy(b))


def ensemble_of(torch, members):
    """One network averaging the logits of ``members``."""

    class Ensemble(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.members = torch.nn.ModuleList(members)

        def forward(self, x):
            return torch.stack([m(x) for m in self.members]).mean(0)

    return Ensemble()


def export(torch, net, shape, path: Path) -> None:
    net.eval()
    torch.onnx.export(
        net,
        torch.zeros(*shape),
        str(path),
        input_names=["input"],
        output_names=["output"],
        opset_version=13,
        dynamo=False,
        # the detectors are fully convolutional: any picture size (ONNX Runtime holds a
        # model to the sizes it declares; the classifiers' 48 x 48 and 64 x 64 stay fixed)
        dynamic_axes=(
            {"input": {0: "n", 2: "h", 3: "w"}, "output": {0: "n", 2: "gh", 3: "gw"}}
            if len(shape) == 4 and shape[2] not in (spec.CLS_SIZE, spec.FACE_CLS_SIZE)
            else {"input": {0: "n"}, "output": {0: "n"}}
        ),
    )


def export_ensemble(torch, checkpoints: list[Path], path: Path) -> None:
    """One classifier file that averages the logits of several trained classifiers
    (networks trained apart err apart: their mean is surer where they agree and
    less sure where they do not).  The reader needs no change: same input, same output."""
    members = []
    for ckpt in checkpoints:
        net = build_nets(torch)[1]
        net.load_state_dict(torch.load(ckpt))
        members.append(net)
    export(torch, ensemble_of(torch, members), (1, 3, spec.CLS_SIZE, spec.CLS_SIZE), path)


def main(argv: list[str] | None = None) -> int:
    global CROP_DISTURB, LOW_RES_SHARE, ANY_ANGLE_SHARE, DET_INVERT_SHARE, FREEZE_BN, SOFT_SHARE, DET_SOFT_SHARE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=NETWORKS, help="train one network only (default: all four, in turn)")
    ap.add_argument("--det-epochs", type=int, default=12)
    ap.add_argument("--cls-epochs", type=int, default=10)
    ap.add_argument("--cls-samples", type=int, default=12000, help="classifier crops per epoch (default 12000)")
    ap.add_argument(
        "--glyphs",
        type=float,
        default=0.2,
        help="share of the classifier's crops drawn in other type faces (default 0.2)",
    )
    ap.add_argument("--cls-lr", type=float, default=2e-3, help="classifier's peak learning rate (default 2e-3)")
    ap.add_argument(
        "--cls-disturb",
        type=float,
        default=CROP_DISTURB,
        help=f"strength of light, blur and noise on classifier crops (default {CROP_DISTURB})",
    )
    ap.add_argument(
        "--cls-soft",
        type=float,
        default=SOFT_SHARE,
        help=f"share of classifier crops blurred as a webcam's enlarged small index (sigma {SOFT_SIGMA[0]}-{SOFT_SIGMA[1]} px; default {SOFT_SHARE})",
    )
    ap.add_argument(
        "--low-res",
        type=float,
        default=LOW_RES_SHARE,
        help=f"share of classifier crops shrunk and blown up again (default {LOW_RES_SHARE})",
    )
    ap.add_argument(
        "--any-angle",
        type=float,
        default=ANY_ANGLE_SHARE,
        help=f"share of labelled-corner crops turned by any angle (default {ANY_ANGLE_SHARE})",
    )
    ap.add_argument(
        "--real-share",
        type=float,
        default=0.6,
        help="share of labelled-corner crops taken from the training photos rather than "
        "rendered ones (default 0.6; 0: in proportion to their numbers)",
    )
    ap.add_argument("--synth", type=int, default=400, help="rendered photos to add (default 400)")
    ap.add_argument(
        "--composite",
        type=int,
        default=0,
        metavar="N",
        help="composite scenes cut from the training photos to add (vision/photo/composite.py; default 0)",
    )
    ap.add_argument("--back-epochs", type=int, default=30)
    ap.add_argument("--back-synth", type=int, default=900, help="rendered photos for the back detector (default 900)")
    ap.add_argument(
        "--back-scenes",
        action="store_true",
        help="the back detector learns from the multi-card photos' training part too: "
        "real clutter with no back, and the black and gold deck's labelled backs",
    )
    ap.add_argument(
        "--whole-lr",
        type=float,
        default=WHOLE_LR,
        help=f"the back and face detectors' peak learning rate (default {WHOLE_LR:g})",
    )
    ap.add_argument("--face-epochs", type=int, default=80)
    ap.add_argument("--face-synth", type=int, default=900, help="rendered photos for the face detector (default 900)")
    ap.add_argument(
        "--face-real-weight",
        type=int,
        default=2,
        help="times each real photo labelled by whole card is seen in a face detector epoch (default 2)",
    )
    ap.add_argument(
        "--face-hands",
        type=float,
        default=0.3,
        help="share of rendered photos with a hand over one card's index corners (default 0.3)",
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument(
        "--no-detector-crops",
        action="store_true",
        help="do not also train the classifier on the shipped detector's own finds",
    )
    ap.add_argument(
        "--from-onnx",
        type=Path,
        default=None,
        metavar="DIR",
        help="fine-tune the networks shipped as ONNX in DIR (batch norms frozen; the classifier "
        "as the ensemble it is, of --members networks)",
    )
    ap.add_argument("--members", type=int, default=2, help="classifiers in the shipped ensemble (default 2)")
    ap.add_argument(
        "--multi",
        action="store_true",
        help="also learn from the training part of the multi-card photos labelled by index corner",
    )
    ap.add_argument(
        "--rank-only",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of classifier crops from the rank-only multi-card photos (edje), found by the "
        "scene reader and checked against their labels (default 0: none)",
    )
    ap.add_argument(
        "--det-zoom",
        default="0.45,1.4",
        metavar="LO,HI",
        help="the detector's inputs: a 640 px training photo shown at LO..HI times the detector's 320 px "
        "(default %(default)s; a lower LO: smaller indices)",
    )
    ap.add_argument("--det-lr", type=float, default=3e-3, help="detector's peak learning rate (default 3e-3)")
    ap.add_argument("--det-invert", type=float, default=0.0, help="share of detector inputs inverted (default 0)")
    ap.add_argument(
        "--det-soft",
        type=float,
        default=0.0,
        help="share of detector inputs shrunk, blurred and blown up again as a webcam's small card "
        "enlarged by the closer look (default 0)",
    )
    ap.add_argument("--resume", action="store_true", help=f"start from the weights last saved in {CHECKPOINTS}")
    ap.add_argument(
        "--ensemble",
        type=Path,
        nargs="+",
        metavar="CHECKPOINT",
        help="train nothing: write one classifier averaging these classifier checkpoints (.pt)",
    )
    args = ap.parse_args(argv)
    try:
        lo, hi = (float(v) for v in args.det_zoom.split(","))
    except ValueError:
        sys.exit(f"--det-zoom wants LO,HI (two numbers), not {args.det_zoom!r}")
    CROP_DISTURB, LOW_RES_SHARE, ANY_ANGLE_SHARE = args.cls_disturb, args.low_res, args.any_angle
    SOFT_SHARE, DET_SOFT_SHARE = args.cls_soft, args.det_soft
    DET_INVERT_SHARE, FREEZE_BN = args.det_invert, args.from_onnx is not None
    torch = import_torch()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t0:6.0f} s] {msg}", flush=True)

    if args.ensemble:
        missing = [str(p) for p in args.ensemble if not p.is_file()]
        if missing:
            sys.exit(f"no such checkpoint: {', '.join(missing)}")
        args.out.mkdir(parents=True, exist_ok=True)
        export_ensemble(torch, args.ensemble, args.out / ONNX_FILES["classifier"])
        log(f"ensemble of {len(args.ensemble)} classifiers written to {args.out / ONNX_FILES['classifier']}")
        return 0
    todo = [args.only] if args.only else list(NETWORKS)
    nets = dict(zip(NETWORKS, build_nets(torch)))
    args.out.mkdir(parents=True, exist_ok=True)
    CHECKPOINTS.mkdir(parents=True, exist_ok=True)

    def save(name: str) -> None:  # after every epoch of the classifier: a long run can be stopped and resumed
        torch.save(nets[name].state_dict(), CHECKPOINTS / f"{name}.pt")
        export(torch, nets[name], (1, 3, *INPUT[name]), args.out / ONNX_FILES[name])

    if args.from_onnx:
        nets["classifier"] = ensemble_of(torch, [build_nets(torch)[1] for _ in range(args.members)])
        for name in todo:
            load_onnx(torch, nets[name], args.from_onnx / ONNX_FILES[name])
            log(f"{name}: fine-tuning {args.from_onnx / ONNX_FILES[name]}")
    for name in todo:
        ckpt = CHECKPOINTS / f"{name}.pt"
        if args.resume and ckpt.is_file():
            nets[name].load_state_dict(torch.load(ckpt))
            log(f"{name}: going on from {ckpt}")
    if "detector" in todo or "classifier" in todo:
        sources, n_real = load_sources(args.synth, args.seed, args.multi, args.composite)
        log(
            f"{n_real - args.composite} training photos + {args.composite} composite scenes "
            f"+ {len(sources) - n_real} rendered photos"
        )
    if "detector" in todo:
        train_detector(
            torch,
            nets["detector"],
            sources,
            args.det_epochs,
            random.Random(args.seed),
            log,
            lr=args.det_lr,
            sample=functools.partial(det_sample, zoom=(lo, hi)),
        )
        save("detector")
    if "classifier" in todo:
        det_items = []
        if not args.no_detector_crops and (args.out / ONNX_FILES["detector"]).is_file():
            det_items = detector_crops(sources, n_real, args.out)
            log(
                f"{len(det_items)} detector finds in the training photos, "
                f"{sum(c != spec.NONE for _, _, c in det_items)} on a labelled corner"
            )
        pseudo = rank_only_items(args.from_onnx or args.out) if args.rank_only else []
        if pseudo:
            log(
                f"{len(pseudo)} crops from the rank-only photos, "
                f"{sum(lab[1] == -100 and lab[0] != spec.RANK_OUT.index(spec.NONE) for *_, lab in pseudo)} of a rank"
            )
        train_classifier(
            torch,
            nets["classifier"],
            sources,
            args.cls_epochs,
            random.Random(args.seed + 1),
            log,
            per_epoch=args.cls_samples,
            det_items=det_items,
            glyph_share=args.glyphs,
            n_real=n_real,
            real_share=args.real_share,
            epoch_done=lambda: save("classifier"),
            pseudo=pseudo,
            pseudo_share=args.rank_only,
            lr=args.cls_lr,
        )
    # the two whole-card detectors: (what it finds, its photos, epochs, its seed's offset)
    whole = {
        "backs": (
            "face-down",
            lambda: load_back_sources(args.back_synth, args.seed, args.back_scenes),
            args.back_epochs,
            2,
        ),
        "faces": (
            "face-up",
            lambda: load_face_sources(args.face_synth, args.seed, args.face_real_weight, args.face_hands),
            args.face_epochs,
            3,
        ),
    }
    for name, (kind, load, epochs, offset) in whole.items():
        if name not in todo:
            continue
        photos = load()
        title = f"{name[:-1]} detector"
        log(f"{title}: {len(photos)} photos, {sum(len(b) for _, b in photos)} {kind} cards to find")
        train_detector(
            torch,
            nets[name],
            photos,
            epochs,
            random.Random(args.seed + offset),
            log,
            name=title,
            sample=back_sample,
            lr=args.whole_lr,
        )
        save(name)
    log(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
