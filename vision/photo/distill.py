"""Teach the scene classifier to read an index as a webcam shows it (issue 17).

A webcam's frame of a crowded table is soft, noisy and compressed; a small card's
index in it, enlarged by the scene reader's closer look, is a blur the networks
never learnt.  Given the same index sharp, the shipped scene classifier reads it.
So the classifier is taught by itself: the *teacher* (the shipped network, frozen)
reads each crop as the reader cuts it from a sharp frame; the *student* (a copy of
it) reads the crop cut at the same box from the same frame as a webcam gives it
(``webcam_look``: blur, sensor noise and JPEG of random strength) and learns to
say what the teacher said.  The student also reads the sharp crop and learns the
same there (``anchor``), so what it read well it keeps reading.  No label is
needed, and the boxes are the shipped detector's own, so the rest of the reader
sees the crops it always saw.

The frames are mosaics (1, 4 or 9 photos a frame, as ``tests/bench/vision_real.py
--mosaic`` builds its own) of the *training* part of the photos only: never a
held-out photo, never one of the validation folds the map is fitted on and the
choice was made on.  A development tool like :mod:`vision.photo.train` (it needs
PyTorch's CPU build); the README lists the steps that made the shipped network:

    .venv/bin/python -m vision.photo.distill --out build/distil
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from . import nets, scenes_data, spec
from .composite import mosaic
from .dataset import load_photos
from .images import load_image
from .recognise import DETECTOR_FILE, softmax
from .scene_reader import (
    AFTER_THE_NETWORKS,
    CLOSER_DETECTOR_FILE,
    SCENE_CLASSIFIER_FILE,
    SceneReader,
    dark_to_light,
)

MODELS = Path(__file__).resolve().parents[1] / "models"
# A webcam's look, each frame drawn anew: Gaussian blur sigma (px), sensor noise
# sigma (of 255), JPEG quality.  The benchmark's fixed look (vision_real.py
# --webcam: 1.0, 6, 60) lies inside.
BLUR = (0.4, 1.4)
NOISE = (1.0, 9.0)
JPEG = (40, 90)
GRIDS = ((1, 1), (2, 2), (3, 3))  # photos a mosaic frame holds: columns x rows
# The detector is taught on parts of its pictures this many pixels square
# (``distil_detector``), the cells within DET_MARGIN of a part's edge not counted,
# and where the teacher's heat is above DET_FOUND (the reader's DET_THRESHOLD) it
# finds something: its box sides count there.
DET_CROP = 256
DET_MARGIN = 2
DET_FOUND = 0.1
# Peak learning rates (AdamW, falling by a cosine): the scene classifier's, the detector's.
CLASSIFIER_LR = 5e-4
DETECTOR_LR = 3e-4


def webcam_look(frame: np.ndarray, rng: random.Random) -> np.ndarray:
    """``frame`` as a webcam might give it (``soften``), each disturbance of a random
    strength in ``BLUR``, ``NOISE``, ``JPEG``."""
    return soften(frame, rng.uniform(*BLUR), rng.uniform(*NOISE), rng.randint(*JPEG), rng.randrange(1 << 30))


def soften(frame: np.ndarray, blur: float, noise: float, quality: int, seed: int = 0) -> np.ndarray:
    """``frame`` out of focus (Gaussian blur of sigma ``blur`` px), with sensor noise
    (sigma ``noise`` of 255; ``seed`` draws it) and JPEG-compressed at ``quality``."""
    soft = cv2.GaussianBlur(frame, (0, 0), blur) if blur > 0 else frame
    grain = np.random.default_rng(seed).normal(0.0, noise, frame.shape) if noise > 0 else 0.0
    noisy = np.clip(soft + grain, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if out is None:
        raise RuntimeError("OpenCV cannot encode and decode JPEG")
    return out


def training_photos() -> list[Path]:
    """The photos the networks may learn from: the training part of the single-card
    photos and of the multi-card subsets the shipped networks learnt from
    (``scenes_data.TRAINED_ON``); never held out, never in a validation fold."""
    paths = [p.path for p in load_photos() if not p.heldout and not p.validation]
    paths += [
        p.path
        for p in scenes_data.load_scenes()
        if not p.heldout and not p.validation and p.subset in scenes_data.TRAINED_ON
    ]
    return paths


def training_frames(rng: random.Random, limit: int | None = None):
    """The frames to learn from, one at a time: the training photos
    (``training_photos``) shuffled, each in a ``1x1`` frame, and again four and nine to
    a ``2x2`` and ``3x3`` frame (``GRIDS``; ``limit``: at most that many frames of each
    grid), on cloth of a random grey.  FileNotFoundError when there is no photo."""
    photos = training_photos()
    if not photos:
        raise FileNotFoundError("no training photos found (set CHICAGO_CARDS_REAL_DEV and CHICAGO_CARDS_REAL_MULTI)")
    for grid in GRIDS:
        n = grid[0] * grid[1]
        order = photos[:]
        rng.shuffle(order)
        for group in [order[k : k + n] for k in range(0, len(order) - n + 1, n)][:limit]:
            yield mosaic([load_image(p) for p in group], grid, rng.randint(20, 120))[0]


def teaching_reader(models: Path) -> SceneReader:
    """The reader whose crops and pictures are learnt from: the networks in
    ``models``, its closer looks detecting with the shipped index detector as the
    whole picture does (a taught ``closer_detector.onnx`` there is not used), so that
    both commands make again what they made; it makes no closer look at a dark face
    either (``scene_reader.DARK_FACES``, stop 48), nor what else came after them
    (``scene_reader.AFTER_THE_NETWORKS`` names each)."""
    detector = nets.load(models / DETECTOR_FILE)
    return SceneReader.load(models, detector=detector, closer_detector=detector, dark_faces=False, **AFTER_THE_NETWORKS)


def noted(reader: SceneReader, log: str, picture: np.ndarray) -> list:
    """What ``reader`` notes in its ``log`` (``cut_log`` or ``det_log``) reading ``picture``."""
    setattr(reader, log, [])
    try:
        reader.read(picture)
        noted: list = getattr(reader, log)
        return noted
    finally:
        setattr(reader, log, None)


def cut_noted(reader: SceneReader, picture: np.ndarray, noted: tuple, angle: float = 0.0) -> np.ndarray:
    """The crop ``reader`` cut where its ``cut_log`` entry ``noted`` says (the part of the
    picture, the box in it), cut again from ``picture`` (the same picture, or another
    look of it), turned by ``angle`` degrees; not yet inverted."""
    (left, top, right, bottom), box, _ = noted
    x0, y0, x1, y1 = box
    side = spec.box_side(*box) * reader.crop_scale
    return spec.crop_square(picture[top:bottom, left:right], (x0 + x1) / 2, (y0 + y1) / 2, side, angle)


def pairs(
    reader: SceneReader,
    frame: np.ndarray,
    looks: list[np.ndarray],
    turn: float = 0.0,
    rng: random.Random | None = None,
) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Every crop ``reader`` cuts reading ``frame`` (its closer looks' included), and
    the crops cut at the same boxes from the same parts of each of ``looks`` (the
    frame as a webcam gives it), each made as the reader makes it before reading
    (``dark_to_light`` when it reads it inverted first).  With ``turn``, the last
    look's crops are cut turned, each by its own angle of at most ``turn`` degrees
    either way (``rng`` draws them): the index as a card lying turned shows it."""
    cuts = noted(reader, "cut_log", frame)

    def cut(picture: np.ndarray, noted: tuple, angle: float = 0.0) -> np.ndarray:
        crop = cut_noted(reader, picture, noted, angle)
        return dark_to_light(crop) if noted[2] else crop

    def turned(j: int) -> float:
        return rng.uniform(-turn, turn) if turn and rng is not None and j == len(looks) - 1 else 0.0

    sharp = [cut(frame, c) for c in cuts]
    soft = [[cut(look, c, turned(j)) for j, look in enumerate(looks)] for c in cuts]
    return sharp, soft


def gather(
    models: Path, seed: int, looks: int = 2, limit: int | None = None, log=print, turn: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """The crops to learn from: (sharp, N x 48 x 48 x 3; soft, N x ``looks`` x 48 x
    48 x 3), from every training photo in a ``1x1`` frame, and again in ``2x2`` and
    ``3x3`` frames (``limit``: at most that many frames of each grid); with ``turn``,
    the last look's crops turned (``pairs``)."""
    rng = random.Random(seed)
    reader = teaching_reader(models)
    sharp: list[np.ndarray] = []
    soft: list[list[np.ndarray]] = []
    frames = 0
    for frame in training_frames(rng, limit):
        a, b = pairs(reader, frame, [webcam_look(frame, rng) for _ in range(looks)], turn, rng)
        sharp += a
        soft += b
        frames += 1
        if frames % 50 == 0:
            log(f"{frames} frames read, {len(sharp)} crops")
    log(f"{frames} frames read, {len(sharp)} crops")
    return np.stack(sharp), np.array(soft, dtype=np.uint8)


def detector_pairs(reader: SceneReader, frame: np.ndarray, look: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every picture ``reader``'s index detector sees reading ``look`` (``frame`` as a
    webcam gives it: the closer looks where the reader looks on such a frame), each
    with the same picture made of ``frame`` (``SceneReader.det_log``,
    ``detector_pictures``): (sharp, soft) pairs of one size."""
    asked = noted(reader, "det_log", look)
    out = []
    for (left, top, right, bottom), short, invert, scales, negate in asked:
        sharp, _ = reader.detector_pictures(frame[top:bottom, left:right], short, invert, scales, negate)
        soft, _ = reader.detector_pictures(look[top:bottom, left:right], short, invert, scales, negate)
        out += list(zip(sharp, soft))
    return out


def gather_detector(
    models: Path, seed: int, limit: int | None = None, log=print
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """The detector's pictures to learn from (``detector_pairs``), from the frames
    ``gather`` makes (one webcam look each), and the shipped detector's output on
    each sharp one (its heat-map logits and log box sides, float16): the teacher's."""
    rng = random.Random(seed)
    reader = teaching_reader(models)  # the teacher its detector: not one taught before
    sharp: list[np.ndarray] = []
    soft: list[np.ndarray] = []
    frames = 0
    for frame in training_frames(rng, limit):
        for a, b in detector_pairs(reader, frame, webcam_look(frame, rng)):
            sharp.append(a)
            soft.append(b)
        frames += 1
        if frames % 100 == 0:
            log(f"{frames} frames read, {len(sharp)} detector pictures")
    log(f"{frames} frames read, {len(sharp)} detector pictures")
    teacher = [reader.detector_net.run(spec.net_input(a))[0].astype(np.float16) for a in sharp]
    return sharp, soft, teacher


def distil_detector(
    torch,
    student,
    sharp: list[np.ndarray],
    soft: list[np.ndarray],
    teacher: list[np.ndarray],
    epochs: int,
    rng: np.random.Generator,
    log,
    lr: float = DETECTOR_LR,
    anchor: float = 1.0,
    batch: int = 16,
    crop: int = DET_CROP,
) -> None:
    """Teach ``student`` (the shipped detector's copy) to give on each soft picture
    what the teacher gave on the sharp one (``teacher``): the heat map as a
    probability (binary cross-entropy, each cell weighted by 1 + 20 times the
    teacher's probability there: most cells hold nothing) and the log box sides
    where the teacher finds something (``DET_FOUND``), plus ``anchor`` times the same
    on the sharp picture.  Each step sees ``crop`` x ``crop`` parts of the pictures
    (the network is convolutional; a whole 796 x 448 picture costs five times as
    much), half of them round a cell the teacher finds something in; the cells
    within ``DET_MARGIN`` of a part's edge, which see less round them than in the
    whole picture, are not counted."""
    f = torch.nn.functional
    stride = spec.INDEX_GRID.stride
    found = [np.argwhere(1 / (1 + np.exp(-t[0].astype(np.float32))) > DET_FOUND) for t in teacher]

    def part(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gh, gw = sharp[i].shape[0] // stride, sharp[i].shape[1] // stride
        ch, cw = min(crop // stride, gh), min(crop // stride, gw)
        if len(found[i]) and rng.random() < 0.5:
            j, k = found[i][rng.integers(len(found[i]))]
            y0 = int(np.clip(j - ch // 2 + rng.integers(-(ch // 4), ch // 4 + 1), 0, gh - ch))
            x0 = int(np.clip(k - cw // 2 + rng.integers(-(cw // 4), cw // 4 + 1), 0, gw - cw))
        else:
            y0, x0 = int(rng.integers(0, gh - ch + 1)), int(rng.integers(0, gw - cw + 1))
        ys, xs = slice(y0 * stride, (y0 + ch) * stride), slice(x0 * stride, (x0 + cw) * stride)
        return sharp[i][ys, xs], soft[i][ys, xs], teacher[i][:, y0 : y0 + ch, x0 : x0 + cw].astype(np.float32)

    def loss_of(out, t):
        m = DET_MARGIN
        out, t = out[:, :, m:-m, m:-m], t[:, :, m:-m, m:-m]
        p = torch.sigmoid(t[:, :1])
        weight = 1 + 20 * p
        heat = (
            f.binary_cross_entropy_with_logits(out[:, :1], p, reduction="none") * weight
        ).sum() / weight.sum().clamp(min=1)
        where = (p > DET_FOUND).float()
        sides = (torch.abs(out[:, 1:] - t[:, 1:]) * where).sum() / where.sum().clamp(min=1)
        return heat + 0.5 * sides

    opt = torch.optim.AdamW(student.parameters(), lr=lr, weight_decay=0.0)
    steps = len(sharp) // batch
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs * steps))
    student.eval()  # the batch norms as the shipped network folded them
    for epoch in range(epochs):
        order = rng.permutation(len(sharp))
        total = 0.0
        for b in range(steps):
            parts = [part(int(i)) for i in order[b * batch : (b + 1) * batch]]
            parts = [p for p in parts if p[0].shape == parts[0][0].shape]  # a batch is of one size
            t = torch.from_numpy(np.stack([p[2] for p in parts]))
            loss = loss_of(student(torch.from_numpy(np.concatenate([spec.net_input(p[1]) for p in parts]))), t)
            if anchor:
                sharp_in = torch.from_numpy(np.concatenate([spec.net_input(p[0]) for p in parts]))
                loss = loss + anchor * loss_of(student(sharp_in), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        log(f"detector epoch {epoch + 1}/{epochs}: loss {total / max(1, steps):.4f}")


def softmax_codes(logits: np.ndarray) -> list[tuple[str, float]]:
    """The reading (code, probability) of each row of a classifier's logits."""
    nr = len(spec.RANK_OUT)
    return [spec.decode(r, s) for r, s in zip(softmax(logits[:, :nr]), softmax(logits[:, nr:]))]


def reading_kl(torch, out, target):
    """The KL divergence of the readings ``out`` from ``target`` (both classifier logits,
    a batch of them): of the rank and of the suit, summed, each the batch's mean."""
    f = torch.nn.functional
    nr = len(spec.RANK_OUT)
    rank = f.kl_div(
        f.log_softmax(out[:, :nr], 1), f.log_softmax(target[:, :nr], 1), log_target=True, reduction="batchmean"
    )
    return rank + f.kl_div(
        f.log_softmax(out[:, nr:], 1), f.log_softmax(target[:, nr:], 1), log_target=True, reduction="batchmean"
    )


def distil(
    torch,
    student,
    sharp: np.ndarray,
    soft: np.ndarray,
    epochs: int,
    rng: np.random.Generator,
    log,
    lr: float = CLASSIFIER_LR,
    anchor: float = 1.0,
    index_share: float = 0.5,
    batch: int = 64,
) -> np.ndarray:
    """Teach ``student`` (the teacher's copy, run as it reads) to read each soft crop
    as the teacher (``student`` before any step) read the sharp one: the KL divergence
    of rank and of suit, plus ``anchor`` times the same on the sharp crop.  Half the
    crops of a batch (``index_share``) are ones the teacher reads as an index at 0.5 or
    more, the rest any: most crops are no index.  Returns the teacher's logits."""

    def logits(crops) -> np.ndarray:
        student.eval()
        with torch.no_grad():
            return torch.cat(
                [student(torch.from_numpy(spec.cls_blob(list(crops[i : i + 256])))) for i in range(0, len(crops), 256)]
            ).numpy()

    teacher = logits(sharp)
    codes = softmax_codes(teacher)
    index = np.array([i for i, (c, p) in enumerate(codes) if c not in (spec.NONE, spec.JOKER) and p >= 0.5])
    log(f"{len(sharp)} crops, {len(index)} of them an index to the teacher")
    target = torch.from_numpy(teacher)
    opt = torch.optim.AdamW(student.parameters(), lr=lr, weight_decay=0.0)
    steps = len(sharp) // batch
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs * steps))

    for epoch in range(epochs):
        # no dropout and the batch norms as the shipped network folded them: the student
        # starts out reading every crop exactly as the teacher, so the sharp crops' loss
        # starts at 0 and holds it to what it read well
        student.eval()
        k = int(len(sharp) * index_share) if len(index) else 0
        order = rng.permutation(
            np.concatenate([rng.choice(index, k) if k else [], rng.permutation(len(sharp))[: len(sharp) - k]]).astype(
                int
            )
        )
        total = 0.0
        for b in range(steps):
            ids = order[b * batch : (b + 1) * batch]
            look = rng.integers(0, soft.shape[1], len(ids))
            t = target[ids]
            loss = reading_kl(
                torch, student(torch.from_numpy(spec.cls_blob([soft[i, j] for i, j in zip(ids, look)]))), t
            )
            if anchor:
                loss = loss + anchor * reading_kl(
                    torch, student(torch.from_numpy(spec.cls_blob([sharp[i] for i in ids]))), t
                )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        log(f"epoch {epoch + 1}/{epochs}: loss {total / max(1, steps):.4f}")
    return teacher


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS, help="the shipped networks (default %(default)s)")
    ap.add_argument("--out", type=Path, required=True, help=f"folder for the taught {SCENE_CLASSIFIER_FILE}")
    ap.add_argument("--epochs", type=int, default=3, help="(default %(default)s)")
    ap.add_argument("--lr", type=float, default=None, help=f"peak learning rate (default {CLASSIFIER_LR})")
    ap.add_argument("--anchor", type=float, default=1.0, help="weight of the sharp crops' loss (default %(default)s)")
    ap.add_argument("--looks", type=int, default=2, help="webcam looks of each frame (default %(default)s)")
    ap.add_argument(
        "--turn",
        type=float,
        default=0.0,
        help="cut the last webcam look's crops turned by up to this many degrees either way (default: upright)",
    )
    ap.add_argument("--members", type=int, default=2, help="networks in the shipped ensemble (default %(default)s)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many frames of each grid (a quick trial)")
    ap.add_argument("--threads", type=int, default=2, help="(default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="(default %(default)s)")
    ap.add_argument(
        "--detector",
        action="store_true",
        help=f"teach the closer looks' index detector instead: {CLOSER_DETECTOR_FILE} from {DETECTOR_FILE} "
        f"(one webcam look a frame; --lr default {DETECTOR_LR})",
    )
    args = ap.parse_args(argv)
    source = args.models / (DETECTOR_FILE if args.detector else SCENE_CLASSIFIER_FILE)
    if not source.is_file():
        print(f"error: {source} not found", file=sys.stderr)
        return 2
    from .train import build_nets, ensemble_of, load_onnx, teaching_torch, write_taught

    torch, log = teaching_torch(args.seed, args.threads)

    rng = np.random.default_rng(args.seed)
    lr = args.lr if args.lr is not None else (DETECTOR_LR if args.detector else CLASSIFIER_LR)
    try:
        if args.detector:
            pictures = gather_detector(args.models, args.seed, args.limit, log)
            net = build_nets(torch)[0]
            load_onnx(torch, net, source)
            distil_detector(torch, net, *pictures, args.epochs, rng, log, lr, args.anchor)
            shape, out, then = (1, 3, spec.DET_SIZE, spec.DET_SIZE), CLOSER_DETECTOR_FILE, "scene_calibrate"
        else:
            sharp, soft = gather(args.models, args.seed, args.looks, args.limit, log, args.turn)
            net = ensemble_of(torch, [build_nets(torch)[1] for _ in range(args.members)])
            load_onnx(torch, net, source)
            distil(torch, net, sharp, soft, args.epochs, rng, log, lr, args.anchor)
            shape, out, then = (
                (1, 3, spec.CLS_SIZE, spec.CLS_SIZE),
                SCENE_CLASSIFIER_FILE,
                "quantize and scene_calibrate",
            )
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write_taught(torch, net, shape, args.out, out, args.models, log, then)
    return 0


if __name__ == "__main__":
    sys.exit(main())
