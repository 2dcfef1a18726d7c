"""Int8 copies of the scene reader's networks (ONNX Runtime static quantization).

The index detectors and the two classifiers are nearly all of a frame's CPU time
(``NOTEBOOK.md``, "Speed: int8 classifiers", "Speed: the closer looks' detector in int8").
Their int8 copies (``scene_reader.INT8``) take about 0.6 of it.  This tool makes them
from the float files in ``--models``: the classifiers' and the closer looks' detector's
by default, the whole picture's detector too with ``--detector`` (measured and not
shipped: 20 ms less a 1280x720 frame, but on the validation folds 3 % fewer cards named
at the default threshold):

1. it reads photos of the training part (never held out, never a validation fold:
   the calibration maps are fitted there afterwards) with the float networks and
   keeps what each network is given (the detector's first 70 pictures, every batch
   of crops of the classifiers; in a second reading, with the closer looks, of the
   same photos, a third of them as a webcam sees them, the closer looks' detector's
   first 160 parts, and it reads no more photos once it has them: ``gather_closer``);
2. it quantizes each network with half of those as its calibration data: weights
   int8 per output channel, activations uint8 from their min-max range, as QDQ
   nodes, with 7-bit weights (``reduce_range``: x86 CPUs without VNNI multiply u8 by
   s8 with a saturating instruction; an ARM CPU loses nothing by it).  A
   detector's first convolution stays float: quantized, it was both slower (its
   input, the whole picture, quantized first) and the heat map's worst error three
   times as large (0.10 against 0.04); the closer looks' detector keeps its last
   (the 1x1 head giving heat and box sizes) float too (the box sizes' worst error,
   median of the parts, 0.039 against 0.050 in log units; 1.95 against 2.04 times as
   fast).  8-bit weights would saturate on x86 CPUs without VNNI, so that a reading
   would depend on the CPU; unsigned weights (no saturation anywhere) ran slower than
   the float network;
3. it prints, on the other half, how near the int8 copy is to the float network
   (the classifiers: how often they name the same; the detector: its heat map) and
   the CPU time of both;
4. it cuts one member out of the classifier's int8 ensemble
   (``scene_reader.FIRST_CLASSIFIER_FILE``, ``FIRST_MEMBER``): the scene reader's
   first classifier, in half the ensemble's time (``--first-only`` does this step
   alone, from the int8 copy there is).

``--dark-only`` makes the dark classifier's int8 copy alone (after ``vision.photo.dark``),
calibrated on half of the crops the scene reader reads inverted in the dark deck's
training photos (``gather_dark``); it is a witness and a veto judged at the threshold,
not an input of the map, so no map is fitted again after it.

Then fit the scene reader's map again (``python -m vision.photo.scene_calibrate``):
its confidences are for the networks that read.  A development tool: it needs the
``onnx`` package (``.venv/bin/pip install onnx``), which the controller does not.

    .venv/bin/python -m vision.photo.quantize            # writes vision/models/*.int8.onnx
    .venv/bin/python -m vision.photo.quantize --first-only
    .venv/bin/python -m vision.photo.quantize --closer-only   # after distill --detector
    .venv/bin/python -m vision.photo.quantize --dark-only     # after vision.photo.dark
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from . import scenes_data, spec
from .dataset import load_photos
from .images import load_image
from .recognise import CLASSIFIER_FILE, DETECTOR_FILE, MODELS, softmax
from .scene_reader import (
    AFTER_THE_NETWORKS,
    CLOSER_DETECTOR_FILE,
    DARK_CLASSIFIER_FILE,
    FACE_DETECTOR_FILE,
    FIRST_CLASSIFIER_FILE,
    FIRST_MEMBER,
    INT8,
    SCENE_CLASSIFIER_FILE,
    SceneReader,
    dark_to_light,
)

DETECTOR_KEPT = 70  # pictures of up to 796 x 448: 4 MB each as floats
CLOSER_KEPT = 160  # the closer looks' parts (about 320 x 370): 1.4 MB each as floats
WEBCAM_SHARE = 0.3  # of the closer looks' photos seen as a webcam would (distill.webcam_look)
DETECTORS = (DETECTOR_FILE, CLOSER_DETECTOR_FILE)  # the networks that give heat maps, not readings


def gather(models: Path, n_photos: int, seed: int) -> dict[str, list[np.ndarray]]:
    """What each float network is given while the scene reader reads ``n_photos``
    training-part photos (half of them scaled to a 1280x720 frame): every batch of
    crops of the classifiers, the detector's first ``DETECTOR_KEPT`` pictures."""
    # without what came after the shipped copies were made (AFTER_THE_NETWORKS names each),
    # which touches a small share of the crops and parts: the recipe makes them again
    reader = SceneReader.load(models, calibrated=False, backs=False, faces=False, int8=False, **AFTER_THE_NETWORKS)
    nets = {
        DETECTOR_FILE: reader.detector_net,
        CLASSIFIER_FILE: reader.classifier_net,
        SCENE_CLASSIFIER_FILE: reader.scene_net,
    }
    kept: dict[str, list[np.ndarray]] = {name: [] for name in nets}
    for name, net in nets.items():
        if net is None:
            raise FileNotFoundError(f"{models / name} is missing")
        _keep_inputs(net, kept[name], DETECTOR_KEPT if name == DETECTOR_FILE else None)
    _read_training_photos(reader, n_photos, seed, lambda: "")
    return kept


def gather_closer(models: Path, n_photos: int, seed: int) -> list[np.ndarray]:
    """What the closer looks' detector is given (``CLOSER_KEPT`` parts at most) while
    the scene reader reads ``n_photos`` training-part photos: two thirds multi-card
    photos, half of all scaled to a 1280x720 frame, ``WEBCAM_SHARE`` of them seen as a
    webcam would see them (the looks enlarge soft frames' small cards)."""
    for name in (CLOSER_DETECTOR_FILE, FACE_DETECTOR_FILE):  # without the faces, no look is taken
        if not (models / name).is_file():
            raise FileNotFoundError(f"{models / name} is missing")
    reader = SceneReader.load(models, calibrated=False, backs=False, int8=False, **AFTER_THE_NETWORKS)  # as gather's
    kept: list[np.ndarray] = []
    _keep_inputs(reader.closer_net, kept, CLOSER_KEPT)
    _read_training_photos(
        reader, n_photos, seed, lambda: f", {len(kept)} looks' parts", WEBCAM_SHARE, lambda: len(kept) >= CLOSER_KEPT
    )
    return kept


def gather_dark(models: Path, n_photos: int) -> list[np.ndarray]:
    """What the dark classifier is given: the crops the scene reader reads inverted in
    the dark deck's first ``n_photos`` training photos (``dark.deck_photos``: never
    held out, never a validation photo), inverted, a batch a photo, cut by the reader
    that cut what the dark classifier learnt from (``dark.cutting_reader``)."""
    from .dark import cuts, cutting_reader, deck_photos

    if not (models / DARK_CLASSIFIER_FILE).is_file():
        raise FileNotFoundError(f"{models / DARK_CLASSIFIER_FILE} is missing (python -m vision.photo.dark)")
    photos = deck_photos()[:n_photos]
    if not photos:
        raise FileNotFoundError(f"no training photos of the dark deck found (set {scenes_data.ENV_VAR})")
    reader = cutting_reader(models)
    kept = []
    for i, photo in enumerate(photos):
        picture = reader.balanced(load_image(photo.path))
        crops = [dark_to_light(crop) for crop, _, inverted in cuts(reader, picture) if inverted]
        if crops:
            kept.append(spec.cls_blob(crops))
        if (i + 1) % 10 == 0 or i + 1 == len(photos):
            print(
                f"  read {i + 1}/{len(photos)} photos, {sum(len(b) for b in kept)} crops", file=sys.stderr, flush=True
            )
    return kept


def _keep_inputs(net, kept: list[np.ndarray], most: int | None = None) -> None:
    """From now on ``net`` keeps a copy of each input it is given in ``kept`` (the
    first ``most``; every one without it)."""
    run = net.run

    def keep(x: np.ndarray) -> np.ndarray:
        if most is None or len(kept) < most:
            kept.append(np.array(x, dtype=np.float32))
        return run(x)

    net.run = keep


def _read_training_photos(
    reader: SceneReader,
    n_photos: int,
    seed: int,
    kept: Callable[[], str],
    webcam: float = 0.0,
    enough: Callable[[], bool] = lambda: False,
) -> None:
    """``reader`` reads ``n_photos`` training-part photos (never held out, never a
    validation fold), two thirds of them multi-card photos, half of all scaled to a
    1280x720 frame and, with ``webcam``, that share of them seen as a webcam would
    (``distill.webcam_look``); the same photos, frames and looks for the same ``seed``.
    Progress every ten photos, with what ``kept`` says has been kept; it stops once
    ``enough`` says so (what is kept then is what reading them all would keep)."""
    from .distill import webcam_look

    rng = random.Random(seed)
    scenes = [p.path for p in scenes_data.load_scenes() if not p.heldout and not p.validation]
    singles = [p.path for p in load_photos() if not p.heldout and not p.validation]
    photos = rng.sample(scenes, min(len(scenes), n_photos * 2 // 3))
    photos += rng.sample(singles, min(len(singles), n_photos - len(photos)))
    for i, path in enumerate(photos):
        image = load_image(path)
        if rng.random() < 0.5:
            image = cv2.resize(image, (1280, 720), interpolation=cv2.INTER_LINEAR)
        if webcam and rng.random() < webcam:  # no draw without it: gather's photos as they always were
            image = webcam_look(image, rng)
        reader.read(image)
        if enough():
            print(f"  read {i + 1}/{len(photos)} photos{kept()}: enough", file=sys.stderr, flush=True)
            return
        if (i + 1) % 10 == 0 or i + 1 == len(photos):
            print(f"  read {i + 1}/{len(photos)} photos{kept()}", file=sys.stderr, flush=True)


class _Batches:
    """The calibration data, one kept batch at a time (``CalibrationDataReader``)."""

    def __init__(self, name: str, batches: list[np.ndarray]) -> None:
        self.it = iter({name: b} for b in batches)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.it, None)


def quantize(
    src: Path, dst: Path, batches: list[np.ndarray], float_first: bool = False, float_last: bool = False
) -> None:
    """``src`` quantized to ``dst`` on ``batches``; ``float_first``: its first
    convolution stays float; ``float_last``: its last too (a detector's 1x1 head)."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    graph = onnx.load(str(src)).graph
    name = graph.input[0].name
    convs = [n for n in graph.node if n.op_type == "Conv"]
    first = [n.name for n in convs if name in n.input]
    float_nodes = (first if float_first else []) + ([convs[-1].name] if float_last and convs else [])
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / src.name
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(
            str(pre),
            str(dst),
            _Batches(name, batches),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            reduce_range=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=float_nodes,
        )


def compare(src: Path, dst: Path, batches: list[np.ndarray]) -> str:
    """How near the int8 copy is to the float network on inputs it was not
    calibrated on, and the CPU time of both."""
    from .nets import load

    a, b = load(src), load(dst)
    same = total = 0
    worst: list[float] = []
    ta = tb = 0.0
    nr = len(spec.RANK_OUT)
    for x in batches:
        t = time.process_time()
        ya = a.run(x)
        ta += time.process_time() - t
        t = time.process_time()
        yb = b.run(x)
        tb += time.process_time() - t
        if src.name in DETECTORS:  # the heat map's probabilities
            worst.append(float(np.abs(1 / (1 + np.exp(-ya[0, 0])) - 1 / (1 + np.exp(-yb[0, 0]))).max()))
            continue
        p, q = ya.reshape(len(x), spec.N_OUT), yb.reshape(len(x), spec.N_OUT)
        ca = [spec.decode(r, s)[0] for r, s in zip(softmax(p[:, :nr]), softmax(p[:, nr:]))]
        cb = [spec.decode(r, s)[0] for r, s in zip(softmax(q[:, :nr]), softmax(q[:, nr:]))]
        same += sum(u == v for u, v in zip(ca, cb))
        total += len(ca)
    speed = f"{ta / max(tb, 1e-9):.2f} times as fast"
    if worst:
        return (
            f"{len(worst)} pictures: the heat map differs by {float(np.median(worst)):.3f} at most "
            f"(median of the pictures; the worst {max(worst):.3f}); CPU {speed}"
        )
    return (
        f"{same}/{total} crops read as the float network reads them; CPU {ta * 1000 / max(total, 1):.2f} -> "
        f"{tb * 1000 / max(total, 1):.2f} ms a crop ({speed})"
    )


def cut_member(src: Path, dst: Path, k: int) -> None:
    """The ``k``-th member of an ensemble ONNX file (``train.ensemble_of``: its
    members' outputs averaged) as a network of its own, named as the ensemble's
    input and output, its weights (and an int8 file's quantization) as they are
    in the ensemble."""
    import onnx
    from onnx import shape_inference, utils

    model = shape_inference.infer_shapes(onnx.load(str(src)))
    graph = model.graph
    inside = f"/members.{k}/"
    made = {o for n in graph.node for o in n.output}
    # the member's output: what a node outside the member takes from inside it
    outs = {
        i
        for n in graph.node
        if not any(o.startswith(inside) for o in n.output)
        for i in n.input
        if i.startswith(inside) and i in made
    }
    if len(outs) != 1:
        raise ValueError(f"{src}: no single output of member {k} ({sorted(outs) or 'no such member'})")
    (out,) = outs
    name_in, name_out = graph.input[0].name, graph.output[0].name
    part = utils.Extractor(model).extract_model([name_in], [out])
    for node in part.graph.node:
        node.output[:] = [name_out if o == out else o for o in node.output]
    part.graph.output[0].name = name_out
    onnx.checker.check_model(part)
    onnx.save(part, str(dst))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS, help=f"the networks' folder (default {MODELS})")
    ap.add_argument("--photos", type=int, default=90, help="training-part photos to gather crops from (%(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="which photos (%(default)s)")
    only = ap.add_mutually_exclusive_group()
    ap.add_argument(
        "--detector",
        action="store_true",
        help="the whole picture's index detector too (not shipped: 3 %% fewer cards named on the validation folds)",
    )
    only.add_argument(
        "--first-only",
        action="store_true",
        help=f"only cut the scene reader's first classifier ({FIRST_CLASSIFIER_FILE}) out of the int8 ensemble there is",
    )
    only.add_argument(
        "--closer-only",
        action="store_true",
        help=f"only the closer looks' detector's int8 copy ({INT8[CLOSER_DETECTOR_FILE]}; after distill --detector)",
    )
    only.add_argument(
        "--scene-only",
        action="store_true",
        help=f"only the scene classifier's int8 copy ({INT8[SCENE_CLASSIFIER_FILE]}; after vision.photo.distill): "
        "the single-card classifier's copies and the first classifier stay as they are",
    )
    only.add_argument(
        "--dark-only",
        action="store_true",
        help=f"only the dark classifier's int8 copy ({INT8[DARK_CLASSIFIER_FILE]}; after vision.photo.dark), "
        "calibrated on the crops read inverted in the dark deck's training photos (--photos of them)",
    )
    args = ap.parse_args(argv)
    try:
        import onnx  # noqa: F401  (onnxruntime's quantizer needs it)
    except ImportError:
        print("error: the quantizer needs the onnx package: .venv/bin/pip install onnx", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    if args.first_only:
        return first_classifier(args.models)
    try:
        if args.dark_only:
            kept = {DARK_CLASSIFIER_FILE: gather_dark(args.models, args.photos)}
        else:
            kept = {} if args.closer_only else gather(args.models, args.photos, args.seed)
            if not args.scene_only:
                kept[CLOSER_DETECTOR_FILE] = gather_closer(args.models, args.photos, args.seed)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, batches in kept.items():
        if (name == DETECTOR_FILE and not args.detector) or (args.scene_only and name != SCENE_CLASSIFIER_FILE):
            continue
        calib, check = batches[::2], batches[1::2]
        dst = args.models / INT8[name]
        quantize(args.models / name, dst, calib, float_first=name in DETECTORS, float_last=name == CLOSER_DETECTOR_FILE)
        n = sum(len(b) for b in calib)
        what = "pictures" if name in DETECTORS else f"crops in {len(calib)} batches"
        print(f"{dst}: from {n} {what}; {compare(args.models / name, dst, check)}", flush=True)
    if args.dark_only:  # a witness and a veto judged at the threshold, not an input of the map
        return 0
    if not (args.scene_only or args.closer_only):
        first_classifier(args.models)
    print("now fit the scene reader's map again: python -m vision.photo.scene_calibrate")
    return 0


def first_classifier(models: Path) -> int:
    """Cut the scene reader's first classifier out of the classifier's int8 ensemble."""
    src, dst = models / INT8[CLASSIFIER_FILE], models / FIRST_CLASSIFIER_FILE
    if not src.is_file():
        print(f"error: {src} is missing: make the int8 copies first (without --first-only)", file=sys.stderr)
        return 2
    cut_member(src, dst, FIRST_MEMBER)
    print(f"{dst}: member {FIRST_MEMBER} of {src.name}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
