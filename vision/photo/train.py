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
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from . import spec
from .augment import disturb, warp_jitter
from .dataset import load_photos
from .glyphs import index_crop
from .synth import render_photo

MODELS = Path(__file__).resolve().parents[1] / "models"
# Torch weights, to go on training from (build/ is not committed; the ONNX files are).
CHECKPOINTS = Path(__file__).resolve().parents[2] / "build" / "photo_train"


def _torch():
    try:
        import torch
    except ModuleNotFoundError:
        sys.exit("training needs PyTorch's CPU build: .venv/bin/pip install torch==2.13.0 onnx")
    return torch


# ---- data ---------------------------------------------------------------------------

def load_sources(n_synth: int, seed: int):
    """(image 640x640 BGR, [(code, box)]) pairs: training photos (not the held-out
    part, not the validation fold), then rendered ones."""
    out = []
    for p in load_photos():
        if p.heldout or p.validation:
            continue
        out.append((cv2.imread(str(p.path)), [(b.code, b.box) for b in p.boxes]))
    n_real = len(out)
    for i in range(n_synth):
        r = render_photo(seed=1_000_000 + seed * 10_000 + i, severity=random.Random(i).uniform(0.2, 1.0))
        out.append((r.image, [(c.code, b) for c in r.cards for b in c.index_boxes]))
    return out, n_real


def det_sample(img: np.ndarray, boxes, rng: random.Random):
    """A randomly zoomed, shifted, slightly turned and quarter-turned detector input
    with its targets."""
    s = rng.uniform(0.45, 1.4) * spec.DET_SIZE / img.shape[1]
    tx = rng.uniform(min(0, spec.DET_SIZE - 640 * s), max(0, spec.DET_SIZE - 640 * s))
    ty = rng.uniform(min(0, spec.DET_SIZE - 640 * s), max(0, spec.DET_SIZE - 640 * s))
    m = np.float32([[s, 0, tx], [0, s, ty]])
    if rng.random() < 0.5:  # a slight turn about the middle; boxes become their turned corners' bounds
        r = cv2.getRotationMatrix2D((spec.DET_SIZE / 2, spec.DET_SIZE / 2), rng.uniform(-15, 15), 1.0)
        m = np.float32(r @ np.vstack([m, [0, 0, 1]]))
    x = cv2.warpAffine(img, m, (spec.DET_SIZE, spec.DET_SIZE), flags=cv2.INTER_AREA,
                       borderMode=rng.choice((cv2.BORDER_REPLICATE, cv2.BORDER_REFLECT)))
    bs = []
    for _, (x0, y0, x1, y1) in boxes:
        pts = np.float32([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]]) @ m.T
        bs.append((*pts.min(0), *pts.max(0)))
    k = rng.randrange(4)
    for _ in range(k):  # turn a quarter clockwise: (x, y) -> (S - y, x)
        x = cv2.rotate(x, cv2.ROTATE_90_CLOCKWISE)
        bs = [(spec.DET_SIZE - y1, x0, spec.DET_SIZE - y0, x1) for x0, y0, x1, y1 in bs]
    x = disturb(x, rng)
    c = spec.DET_CELLS
    heat = np.zeros((1, c, c), np.float32)
    size = np.zeros((2, c, c), np.float32)
    wmask = np.zeros((1, c, c), np.float32)
    yy, xx = np.mgrid[0:c, 0:c]
    for x0, y0, x1, y1 in bs:
        cx, cy = (x0 + x1) / 2 / spec.DET_STRIDE, (y0 + y1) / 2 / spec.DET_STRIDE
        if not (0 <= cx < c and 0 <= cy < c):
            continue
        w, h = x1 - x0, y1 - y0
        sigma = max(0.6, min(w, h) / spec.DET_STRIDE / 5)
        g = np.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * sigma ** 2))
        heat[0] = np.maximum(heat[0], g)
        ix, iy = int(cx), int(cy)
        heat[0, iy, ix] = 1.0
        for j in range(max(0, iy - 1), min(c, iy + 2)):
            for i in range(max(0, ix - 1), min(c, ix + 2)):
                size[:, j, i] = np.log([max(w, 2) / spec.SIZE_UNIT, max(h, 2) / spec.SIZE_UNIT])
                wmask[0, j, i] = 1.0
    return (x.astype(np.float32) / 255).transpose(2, 0, 1), heat, size, wmask


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
        code, (x0, y0, x1, y1) = rng.choice(boxes)
        # As far off as the detector's boxes are (its cells are 16 px of a 640 photo).
        side = spec.box_side(x0, y0, x1, y1) * rng.uniform(0.8, 1.35)
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * side
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * side
        label = spec.code_labels(code)
    # Mostly a quarter turn (cards lie upright or across), sometimes any angle.
    angle = rng.uniform(-180, 180) if rng.random() < 0.2 else rng.choice((0, 90, 180, 270)) + rng.uniform(-20, 20)
    crop = spec.crop_square(img, cx, cy, side, angle)
    return disturb(warp_jitter(crop, rng), rng, 0.5), label


def detector_crops(sources, n_real: int, models: Path) -> list[tuple[int, tuple, str]]:
    """(source index, box, class) for every candidate the shipped detector finds in
    the training photos: the class of the labelled corner its centre falls in, or
    "none".  The classifier then learns the boxes it will really be given (the
    detector's are coarser than the labels) and the detector's false finds."""
    from .recognise import DETECTOR_FILE, Recogniser

    reader = Recogniser.__new__(Recogniser)
    reader._det = cv2.dnn.readNetFromONNX(str(models / DETECTOR_FILE))
    out = []
    for k in range(n_real):
        img, boxes = sources[k]
        for box, _ in reader.detect(img):
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            code = next((c for c, b in boxes if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]), spec.NONE)
            out.append((k, box, code))
    return out


def glyph_sample(rng: random.Random):
    """A rendered index corner in some type face, turned, shifted and disturbed."""
    code = rng.choice(spec.CLASSES[:52])
    g = index_crop(code, rng)
    c = spec.CLS_SIZE / 2
    angle = rng.choice((0, 90, 180, 270)) + rng.uniform(-15, 15)
    side = spec.CLS_SIZE * rng.uniform(0.85, 1.2)
    crop = spec.crop_square(g, c + rng.uniform(-3, 3), c + rng.uniform(-3, 3), side, angle)
    return disturb(warp_jitter(crop, rng), rng, 0.5), spec.code_labels(code)


def det_crop_sample(sources, item, rng: random.Random):
    k, (x0, y0, x1, y1), code = item
    side = spec.box_side(x0, y0, x1, y1) * rng.uniform(0.9, 1.12)
    cx = (x0 + x1) / 2 + rng.uniform(-0.06, 0.06) * side
    cy = (y0 + y1) / 2 + rng.uniform(-0.06, 0.06) * side
    angle = rng.choice((0, 0, 180, 90, 270)) + rng.uniform(-10, 10)
    crop = spec.crop_square(sources[k][0], cx, cy, side, angle)
    return disturb(warp_jitter(crop, rng, 0.05), rng, 0.5), spec.code_labels(code)


# ---- networks -------------------------------------------------------------------------

def build_nets(torch):
    nn = torch.nn

    def conv(i, o, s=1, d=1):
        return [nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    class Detector(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*conv(3, 16, 2), *conv(16, 32, 2), *conv(32, 32), *conv(32, 48, 2),
                                      *conv(48, 48), *conv(48, 64, d=2), *conv(64, 64, d=2), *conv(64, 64, d=4))
            self.head = nn.Conv2d(64, 3, 1)  # heat logit, log w, log h

        def forward(self, x):
            return self.head(self.body(x))

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*conv(3, 32), nn.MaxPool2d(2), *conv(32, 64), nn.MaxPool2d(2),
                                      *conv(64, 96), nn.MaxPool2d(2), *conv(96, 128), nn.AdaptiveAvgPool2d(2),
                                      nn.Flatten(), nn.Dropout(0.2), nn.Linear(128 * 4, spec.N_OUT))
            # Pooled to 2 x 2, not to one value per channel: whether the suit is
            # below the rank or above it is what tells a 6 from a turned 9.

        def forward(self, x):
            return self.body(x)

    return Detector(), Classifier()


def _widen_head(state: dict) -> dict:
    """A classifier checkpoint from before the 2 x 2 pooling, made to compute the
    same at first: each channel's weight spread evenly over its four cells."""
    w = state.get("body.18.weight")
    if w is not None and w.shape[1] == 128:
        state = dict(state, **{"body.18.weight": (w / 4).repeat_interleave(4, dim=1)})
    return state


def _focal(torch, logit, target):
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def train_detector(torch, net, sources, epochs: int, rng: random.Random, log) -> None:
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(sources) // 16)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    net.train()
    step = 0
    for epoch in range(epochs):
        order = list(range(len(sources)))
        rng.shuffle(order)
        total = 0.0
        for b in range(len(order) // 16):
            batch = [det_sample(*sources[i], rng) for i in order[b * 16:(b + 1) * 16]]
            x, heat, size, wm = (torch.from_numpy(np.stack(v)) for v in zip(*batch))
            out = net(x)
            loss = _focal(torch, out[:, :1], heat) + \
                (torch.abs(out[:, 1:] - size) * wm).sum() / wm.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += float(loss.detach())
        log(f"detector epoch {epoch + 1}/{epochs}: loss {total / max(1, len(order) // 16):.3f}")


def train_classifier(torch, net, sources, epochs: int, rng: random.Random, log, per_epoch: int = 4000,
                     batch: int = 64, det_items=(), glyph_share: float = 0.0) -> None:
    f = torch.nn.functional
    nr = len(spec.RANK_OUT)
    steps = per_epoch // batch
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * steps)
    # The detector's finds are mostly not index corners: draw its true and false
    # finds equally often, or the classifier learns to say "none".
    glyphs = glyph_share
    det_pos = [d for d in det_items if d[2] != spec.NONE]
    det_neg = [d for d in det_items if d[2] == spec.NONE]
    net.train()
    for epoch in range(epochs):
        crops, labels = [], []
        while len(crops) < per_epoch:
            if rng.random() < glyphs:
                s = glyph_sample(rng)
            elif det_pos and det_neg and rng.random() < 0.5:
                s = det_crop_sample(sources, rng.choice(det_pos if rng.random() < 0.5 else det_neg), rng)
            else:
                img, boxes = sources[rng.randrange(len(sources))]
                s = cls_sample(img, boxes, rng, negative=rng.random() < 0.25)
            if s:
                crops.append(s[0])
                labels.append(s[1])
        x = torch.from_numpy(spec.cls_blob(crops))
        y = torch.tensor(labels)
        total, right = 0.0, 0
        for b in range(steps):
            xb, yb = x[b * batch:(b + 1) * batch], y[b * batch:(b + 1) * batch]
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
        log(f"classifier epoch {epoch + 1}/{epochs}: loss {total / steps:.3f}, "
            f"train accuracy {right / (steps * batch):.3f}")


def export(torch, net, shape, path: Path) -> None:
    net.eval()
    torch.onnx.export(net, torch.zeros(*shape), str(path), input_names=["input"], output_names=["output"],
                      opset_version=13, dynamo=False, dynamic_axes={"input": {0: "n"}, "output": {0: "n"}})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("detector", "classifier"), help="train one network only")
    ap.add_argument("--det-epochs", type=int, default=12)
    ap.add_argument("--cls-epochs", type=int, default=10)
    ap.add_argument("--cls-samples", type=int, default=12000, help="classifier crops per epoch (default 12000)")
    ap.add_argument("--glyphs", type=float, default=0.2,
                    help="share of the classifier's crops drawn in other type faces (default 0.2)")
    ap.add_argument("--synth", type=int, default=400, help="rendered photos to add (default 400)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--no-detector-crops", action="store_true",
                    help="do not also train the classifier on the shipped detector's own finds")
    ap.add_argument("--resume", action="store_true", help=f"start from the weights last saved in {CHECKPOINTS}")
    args = ap.parse_args(argv)
    torch = _torch()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{time.monotonic() - t0:6.0f} s] {msg}", flush=True)

    sources, n_real = load_sources(args.synth, args.seed)
    log(f"{n_real} training photos + {len(sources) - n_real} rendered photos")
    det, cls = build_nets(torch)
    args.out.mkdir(parents=True, exist_ok=True)
    CHECKPOINTS.mkdir(parents=True, exist_ok=True)
    for name, net in (("detector", det), ("classifier", cls)):
        ckpt = CHECKPOINTS / f"{name}.pt"
        if args.resume and ckpt.is_file() and args.only in (None, name):
            net.load_state_dict(_widen_head(torch.load(ckpt)))
            log(f"{name}: going on from {ckpt}")
    if args.only != "classifier":
        train_detector(torch, det, sources, args.det_epochs, random.Random(args.seed), log)
        torch.save(det.state_dict(), CHECKPOINTS / "detector.pt")
        export(torch, det, (1, 3, spec.DET_SIZE, spec.DET_SIZE), args.out / "index_detector.onnx")
    if args.only != "detector":
        det_items = []
        if not args.no_detector_crops and (args.out / "index_detector.onnx").is_file():
            det_items = detector_crops(sources, n_real, args.out)
            log(f"{len(det_items)} detector finds in the training photos, "
                f"{sum(c != spec.NONE for _, _, c in det_items)} on a labelled corner")
        train_classifier(torch, cls, sources, args.cls_epochs, random.Random(args.seed + 1), log,
                         per_epoch=args.cls_samples, det_items=det_items, glyph_share=args.glyphs)
        torch.save(cls.state_dict(), CHECKPOINTS / "classifier.pt")
        export(torch, cls, (1, 3, spec.CLS_SIZE, spec.CLS_SIZE), args.out / "index_classifier.onnx")
    log(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
