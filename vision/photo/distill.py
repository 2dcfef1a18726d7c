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
import time
from pathlib import Path

import cv2
import numpy as np

from . import scenes_data, spec
from .composite import mosaic
from .dataset import load_photos
from .images import load_image
from .recognise import softmax
from .scene_reader import SCENE_CLASSIFIER_FILE, SceneReader, dark_to_light

MODELS = Path(__file__).resolve().parents[1] / "models"
# A webcam's look, each frame drawn anew: Gaussian blur sigma (px), sensor noise
# sigma (of 255), JPEG quality.  The benchmark's fixed look (vision_real.py
# --webcam: 1.0, 6, 60) lies inside.
BLUR = (0.4, 1.4)
NOISE = (1.0, 9.0)
JPEG = (40, 90)
GRIDS = ((1, 1), (2, 2), (3, 3))  # photos a mosaic frame holds: columns x rows


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


def pairs(
    reader: SceneReader, frame: np.ndarray, looks: list[np.ndarray]
) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Every crop ``reader`` cuts reading ``frame`` (its closer looks' included), and
    the crops cut at the same boxes from the same parts of each of ``looks`` (the
    frame as a webcam gives it), each made as the reader makes it before reading
    (``dark_to_light`` when it reads it inverted first)."""
    reader.cut_log = []
    try:
        reader.read(frame)
        cuts = reader.cut_log
    finally:
        reader.cut_log = None

    def cut(picture: np.ndarray, part, box, inverted: bool) -> np.ndarray:
        left, top, right, bottom = part
        x0, y0, x1, y1 = box
        side = spec.box_side(*box) * reader.crop_scale
        crop = spec.crop_square(picture[top:bottom, left:right], (x0 + x1) / 2, (y0 + y1) / 2, side)
        return dark_to_light(crop) if inverted else crop

    sharp = [cut(frame, *c) for c in cuts]
    soft = [[cut(look, *c) for look in looks] for c in cuts]
    return sharp, soft


def gather(
    models: Path, seed: int, looks: int = 2, limit: int | None = None, log=print
) -> tuple[np.ndarray, np.ndarray]:
    """The crops to learn from: (sharp, N x 48 x 48 x 3; soft, N x ``looks`` x 48 x
    48 x 3), from every training photo in a ``1x1`` frame, and again in ``2x2`` and
    ``3x3`` frames (``limit``: at most that many frames of each grid)."""
    rng = random.Random(seed)
    reader = SceneReader.load(models)
    photos = training_photos()
    if not photos:
        raise FileNotFoundError("no training photos found (set CHICAGO_CARDS_REAL_DEV and CHICAGO_CARDS_REAL_MULTI)")
    sharp: list[np.ndarray] = []
    soft: list[list[np.ndarray]] = []
    frames = 0
    for grid in GRIDS:
        n = grid[0] * grid[1]
        order = photos[:]
        rng.shuffle(order)
        groups = [order[k : k + n] for k in range(0, len(order) - n + 1, n)][:limit]
        for group in groups:
            frame, _ = mosaic([load_image(p) for p in group], grid, rng.randint(20, 120))
            a, b = pairs(reader, frame, [webcam_look(frame, rng) for _ in range(looks)])
            sharp += a
            soft += b
            frames += 1
            if frames % 50 == 0:
                log(f"{frames} frames read, {len(sharp)} crops")
    log(f"{frames} frames read, {len(sharp)} crops")
    return np.stack(sharp), np.array(soft, dtype=np.uint8)


def softmax_codes(logits: np.ndarray) -> list[tuple[str, float]]:
    """The reading (code, probability) of each row of a classifier's logits."""
    nr = len(spec.RANK_OUT)
    return [spec.decode(r, s) for r, s in zip(softmax(logits[:, :nr]), softmax(logits[:, nr:]))]


def distil(
    torch,
    student,
    sharp: np.ndarray,
    soft: np.ndarray,
    epochs: int,
    rng: np.random.Generator,
    log,
    lr: float = 5e-4,
    anchor: float = 1.0,
    index_share: float = 0.5,
    batch: int = 64,
) -> np.ndarray:
    """Teach ``student`` (the teacher's copy, run as it reads) to read each soft crop
    as the teacher (``student`` before any step) read the sharp one: the KL divergence
    of rank and of suit, plus ``anchor`` times the same on the sharp crop.  Half the
    crops of a batch (``index_share``) are ones the teacher reads as an index at 0.5 or
    more, the rest any: most crops are no index.  Returns the teacher's logits."""
    f = torch.nn.functional
    nr = len(spec.RANK_OUT)

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

    def kl(out, t):
        loss = f.kl_div(
            f.log_softmax(out[:, :nr], 1), f.log_softmax(t[:, :nr], 1), log_target=True, reduction="batchmean"
        )
        return loss + f.kl_div(
            f.log_softmax(out[:, nr:], 1), f.log_softmax(t[:, nr:], 1), log_target=True, reduction="batchmean"
        )

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
            loss = kl(student(torch.from_numpy(spec.cls_blob([soft[i, j] for i, j in zip(ids, look)]))), t)
            if anchor:
                loss = loss + anchor * kl(student(torch.from_numpy(spec.cls_blob([sharp[i] for i in ids]))), t)
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
    ap.add_argument("--lr", type=float, default=5e-4, help="peak learning rate (default %(default)s)")
    ap.add_argument("--anchor", type=float, default=1.0, help="weight of the sharp crops' loss (default %(default)s)")
    ap.add_argument("--looks", type=int, default=2, help="webcam looks of each frame (default %(default)s)")
    ap.add_argument("--members", type=int, default=2, help="networks in the shipped ensemble (default %(default)s)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many frames of each grid (a quick trial)")
    ap.add_argument("--threads", type=int, default=2, help="(default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="(default %(default)s)")
    args = ap.parse_args(argv)
    source = args.models / SCENE_CLASSIFIER_FILE
    if not source.is_file():
        print(f"error: {source} not found", file=sys.stderr)
        return 2
    from .train import build_nets, ensemble_of, export, import_torch, load_onnx

    torch = import_torch()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t0:6.0f} s] {msg}", flush=True)

    try:
        sharp, soft = gather(args.models, args.seed, args.looks, args.limit, log)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    student = ensemble_of(torch, [build_nets(torch)[1] for _ in range(args.members)])
    load_onnx(torch, student, source)
    distil(torch, student, sharp, soft, args.epochs, np.random.default_rng(args.seed), log, args.lr, args.anchor)
    args.out.mkdir(parents=True, exist_ok=True)
    export(torch, student, (1, 3, spec.CLS_SIZE, spec.CLS_SIZE), args.out / SCENE_CLASSIFIER_FILE)
    log(
        f"written {args.out / SCENE_CLASSIFIER_FILE}; next: copy it to {args.models}, then quantize and scene_calibrate"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
