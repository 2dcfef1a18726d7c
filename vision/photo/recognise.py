"""Find and read every card's index corner in a still picture.

Stage one, a detector, marks each place that looks like an index corner (rank over
suit).  Stage two, a classifier, reads each place as one of the 52 cards, a joker,
or "no index".  Readings of the same card (its two corners) are merged into one
card, and agreeing corners raise its confidence.  A card whose confidence is below
``min_confidence`` is not reported as that card: a confident wrong card is the
worst outcome, an unread one is only a gap the table's other senses or a person
fill.  A third network, when shipped, finds face-down cards ("back"): whole cards
with no index to read.

    >>> from vision.photo.synth import render_photo
    >>> image = render_photo(seed=3).image     # a rendered photo of the king of diamonds
    >>> reader = Recogniser.load()
    >>> [(r.card, round(r.confidence, 2)) for r in reader.read(image)]
    [('KD', 1.0)]
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError
from ..faces import INDEX_BOX
from ..layout import CARD_H_MM, CARD_W_MM
from . import nets, spec

MODELS = Path(__file__).resolve().parents[1] / "models"
DETECTOR_FILE = "index_detector.onnx"
CLASSIFIER_FILE = "index_classifier.onnx"
BACK_FILE = "back_detector.onnx"  # optional: without it no face-down card is reported
CALIBRATION_FILE = "calibration.json"  # raw score -> confidence, by vision/photo/calibrate.py
UNKNOWN = "unknown"
# Why an "unknown" line names no card (CardReading.why)
UNSURE = "unsure"  # its index corners were read, no card surely enough
DISPUTED = "disputed"  # named on a dark face, and the dark classifier reads another card there
COLOUR = "colour"  # a black suit on grey corners: the colour, not the pips' shape, decided it
FACE = "face"  # a whole face-up card found, no index corner read on it
WHY = {
    UNSURE: "not sure enough",
    DISPUTED: "read on a dark face; the dark-face classifier reads another card",
    COLOUR: "grey corners: the suit's colour, not its shape, made it black",
    FACE: "a whole face-up card; its index corners not read",
}
# Chosen on the validation fold of the development photos (never the held-out
# part) with tests/bench/vision_real.py --sweep: precision there is 1.0 from 0.5 to
# 0.99 and recall 1.0 up to 0.90 (0.985 at 0.95); 0.93 sits a little above that
# edge, for margin on decks we have never seen.
DEFAULT_MIN_CONFIDENCE = 0.93
DET_THRESHOLD = 0.1  # a peak of the heat map this high is a candidate index (the classifier weeds out)
MAX_CANDIDATES = 16
# Each crop is also read turned by these (test-time augmentation; adding the
# quarter turns measured no better on the validation fold, at twice the cost).
TTA_TURNS = (cv2.ROTATE_180,)
# A face-down card is reported as "back" when the back detector is this sure.  No
# development photo shows a back, so this is chosen on rendered photos (every kind
# of back design; tests/bench/vision_real.py --backs) and checked to find nothing
# on all 438 development photos, which show faces only.
BACK_THRESHOLD = 0.5
MAX_BACKS = 8
NMS_IOU = 0.3  # two candidates overlapping this much are one index corner (read once, counted once)


class ModelMissing(VisionError):
    """The shipped network files are not where they should be."""


@dataclass(frozen=True, slots=True)
class CardReading:
    """One card seen in a picture.

    ``card`` is our code ("AS", "TD") or ``"unknown"``; ``corners`` the outline of
    what was seen, in picture pixels: the index corner's box, or, when both index
    corners of the card were read, the smallest turned rectangle holding both.
    An "unknown" line says ``why`` it names no card (``WHY``); its ``confidence`` is
    no sureness of any card: the face detector's for a face, else the map's (which a
    disputed or colour-doubted card reached before a witness contradicted it).
    """

    card: str
    confidence: float
    corners: tuple[tuple[float, float], ...]
    indices: int  # index corners read for this card
    why: str = ""  # of an "unknown" line, what left it unnamed: UNSURE, DISPUTED, COLOUR or FACE

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The upright box (x0, y0, x1, y1) round ``corners``."""
        xs, ys = [x for x, _ in self.corners], [y for _, y in self.corners]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def unnamed_face(self) -> bool:
        """Whether it is a whole face-up card found without an index read on it
        (``SceneReader.unnamed_faces``): counted, not named."""
        return self.card == UNKNOWN and self.indices == 0

    @property
    def from_face(self) -> bool:
        """Whether it is a card named from its whole face, no index corner read as it
        (``SceneReader._face_named``: the face classifier named it alone)."""
        return self.card in spec.ALL_CODES and self.indices == 0

    @property
    def middle(self) -> tuple[float, float]:
        """The middle of ``corners``: of an index corner's box, or of the rectangle
        holding both index corners (the card's middle)."""
        return (
            sum(x for x, _ in self.corners) / len(self.corners),
            sum(y for _, y in self.corners) / len(self.corners),
        )


@dataclass(frozen=True, slots=True)
class IndexRead:
    """One index corner: its box (x0, y0, x1, y1), detector score, class scores."""

    box: tuple[float, float, float, float]
    score: float
    code: str  # best class: a card code, JOKER or NONE
    prob: float


class Recogniser:
    def __init__(
        self,
        detector: Path,
        classifier: Path,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        calibration: Path | None = None,
        backs: Path | None = None,
    ):
        for p in (detector, classifier, backs):
            if p is not None and not p.is_file():
                raise ModelMissing(f"model file {p} is missing; retrain with: python -m vision.photo.train")
        try:
            self.detector_net = nets.load(detector)
            self.classifier_net = nets.load(classifier)
            self._backs = nets.load(backs) if backs else None
            cal = json.loads(calibration.read_text()) if calibration else None
        except (VisionError, ValueError, OSError) as exc:
            raise ModelMissing(f"model files in {detector.parent} are damaged ({exc}); retrain them") from None
        self._cal = (np.array(cal["score"]), np.array(cal["confidence"])) if cal else None
        self.min_confidence = min_confidence

    @classmethod
    def load(
        cls,
        models: Path | None = None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        calibrated: bool = True,
        backs: bool = True,
    ) -> Recogniser:
        """The shipped networks (or those in ``models``); ``backs=False`` leaves the
        back detector unloaded, so no time goes on face-down cards nobody wants."""
        models = models or MODELS
        cal, back_file = models / CALIBRATION_FILE, models / BACK_FILE
        return cls(
            models / DETECTOR_FILE,
            models / CLASSIFIER_FILE,
            min_confidence,
            cal if calibrated and cal.is_file() else None,
            back_file if backs and back_file.is_file() else None,
        )

    def confidence(self, raw: float) -> float:
        """The calibrated confidence of a raw score (the raw score if uncalibrated)."""
        return float(np.interp(raw, *self._cal)) if self._cal else raw

    # -- stage one ------------------------------------------------------------------
    def detect(self, image: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        """Candidate index boxes in picture pixels with their detector scores."""
        return _peaks(self.detector_net, image, spec.INDEX_GRID, DET_THRESHOLD, MAX_CANDIDATES)

    @property
    def finds_backs(self) -> bool:
        """Whether it has a back detector (face-down cards)."""
        return self._backs is not None

    def detect_backs(
        self, image: np.ndarray, blob: np.ndarray | None = None
    ) -> list[tuple[tuple[float, float, float, float], float]]:
        """Face-down cards: their boxes in picture pixels and scores (none without the
        back detector).  ``blob``: ``spec.det_blob(image, spec.BACK_GRID.size)``, when
        the caller has it already (the face detector sees the same)."""
        if self._backs is None:
            return []
        return _peaks(self._backs, image, spec.BACK_GRID, BACK_THRESHOLD, MAX_BACKS, blob)

    # -- stage two ------------------------------------------------------------------
    def classify(self, image: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[str, float]]:
        """The best reading and its probability for each box, from rank and suit
        probabilities averaged over the box read in each quarter turn (the
        classifier learnt all four: cards lie upright, across and upside down)."""
        if not boxes:
            return []
        crops = []
        for x0, y0, x1, y1 in boxes:
            side = spec.box_side(x0, y0, x1, y1)
            crop = spec.crop_square(image, (x0 + x1) / 2, (y0 + y1) / 2, side)
            crops += [crop] + [cv2.rotate(crop, t) for t in TTA_TURNS]
        logits = self.classifier_net.run(spec.cls_blob(crops)).reshape(len(crops), spec.N_OUT)
        nr, k = len(spec.RANK_OUT), len(TTA_TURNS) + 1
        rank_p = softmax(logits[:, :nr]).reshape(len(boxes), k, nr).mean(axis=1)
        suit_p = softmax(logits[:, nr:]).reshape(len(boxes), k, -1).mean(axis=1)
        return [spec.decode(r, s) for r, s in zip(rank_p, suit_p)]

    def read_indices(self, image: np.ndarray) -> list[IndexRead]:
        """Every candidate index corner with its raw (uncalibrated) reading."""
        found = self.detect(image)
        reads = self.classify(image, [b for b, _ in found])
        return [IndexRead(box, score, code, prob) for (box, score), (code, prob) in zip(found, reads)]

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card whose index corner is in view, most confident first, then
        face-down cards ("back"), then index corners not read with confidence
        ("unknown")."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise VisionError("expected a BGR colour picture (H x W x 3)")
        cards = merge(self.read_indices(image), self.min_confidence, self.confidence)
        named = [c for c in cards if c.card != UNKNOWN]
        backs = [
            CardReading(spec.BACK, round(score, 4), outline([box]), 0)
            for box, score in self.detect_backs(image)
            if not any(holds(box, c) for c in named)
        ]
        return named + backs + [c for c in cards if c.card == UNKNOWN]


def _peaks(
    net, image: np.ndarray, grid: spec.Grid, threshold: float, most: int, blob: np.ndarray | None = None
) -> list[tuple[tuple[float, float, float, float], float]]:
    """The local maxima of a detector's heat map above ``threshold`` (at most
    ``most``, strongest first) as boxes in picture pixels, each with its score;
    a box overlapping a stronger one by NMS_IOU or more is the same thing seen twice.
    ``blob``: the detector's input for ``image``, when the caller has made it already
    (of ``grid.size`` or of any other shape: the heat map's shape says how it was scaled)."""
    h, w = image.shape[:2]
    out = net.run(spec.det_blob(image, grid.size) if blob is None else blob)[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:most]
    sx, sy = w / (heat.shape[1] * grid.stride), h / (heat.shape[0] * grid.stride)  # the blob may be any shape
    found: list[tuple[tuple[float, float, float, float], float]] = []
    for k in order:
        j, i = ys[k], xs[k]
        cx, cy = (i + 0.5) * grid.stride * sx, (j + 0.5) * grid.stride * sy
        bw = float(np.exp(out[1, j, i])) * grid.unit * sx
        bh = float(np.exp(out[2, j, i])) * grid.unit * sy
        box = (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)
        # One corner seen twice must not count as two agreeing corners in merge().
        if all(iou(box, b) < NMS_IOU for b, _ in found):
            found.append((box, float(heat[j, i])))
    return found


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter + 1e-9)


def holds(box: tuple[float, float, float, float], card: CardReading) -> bool:
    """Whether a face-down card's box is really the face of a card read on both
    index corners: the box holds both corners, or its middle lies between them
    (a court or an ornate ace's picture is no back)."""
    if card.indices < 2:
        return False
    x0, y0, x1, y1 = box
    gx, gy = 0.1 * (x1 - x0), 0.1 * (y1 - y0)
    if all(x0 - gx <= x <= x1 + gx and y0 - gy <= y <= y1 + gy for x, y in card.corners):
        return True
    band = np.array(card.corners, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(band, ((x0 + x1) / 2, (y0 + y1) / 2), False) >= 0


def card_score(probs: list[float]) -> float:
    """The raw score of a card read the same on several index corners: the chance
    that not all of them are wrong, were they wrong independently (they are not
    quite; the calibration map, fitted on card scores, corrects for it)."""
    return 1.0 - float(np.prod([1.0 - p for p in probs]))


def outline(boxes: list[tuple[float, float, float, float]]) -> tuple[tuple[float, float], ...]:
    if len(boxes) == 1:
        x0, y0, x1, y1 = boxes[0]
        pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    else:
        allpts = np.array([(x, y) for x0, y0, x1, y1 in boxes for x in (x0, x1) for y in (y0, y1)], dtype=np.float32)
        pts = cv2.boxPoints(cv2.minAreaRect(allpts)).tolist()
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in pts)


# From one index's middle to the other's, on a card (mm; faces.INDEX_BOX, at the
# top-left and turned half round at the bottom-right, as a deck prints them).
_INDEX_SPAN = (CARD_W_MM - (INDEX_BOX[0] + INDEX_BOX[2]), CARD_H_MM - (INDEX_BOX[1] + INDEX_BOX[3]))
_SPAN_MM, _SPAN_TURN = float(np.hypot(*_INDEX_SPAN)), float(np.arctan2(_INDEX_SPAN[1], _INDEX_SPAN[0]))
# How far apart two index corners of one card lie, in their boxes' longer side: the
# project's card 3.6; on the validation photos' cards read on both corners (162, the
# farthest two reads of each) median 3.8, 5 % below 2.9, 5 % above 5.2, a few 8-11 (a
# corner of another card read as this one).  Nearer, it is one corner found twice.
CARD_APART = (2.0, 6.5)


def card_outline(boxes: list[tuple[float, float, float, float]]) -> tuple[tuple[float, float], ...] | None:
    """The outline of a card (its corners in picture pixels, turned as it lies) of
    which ``boxes`` are index corners read alike, the first the surest: it and the box
    farthest from it of those as far from it as one card's other index is
    (``CARD_APART``) taken as its top-left and bottom-right indices; None when there is
    no such box (a corner read twice, or another card's corner read as this card).  A
    card seen from above is never mirrored, so the line between its indices fixes how
    it is turned, and its length how large it is: the card is the poker card of
    ``faces`` about them (a deck printed with an index at all four corners may show
    the two others, and the card is then drawn turned wrongly).

        >>> card_outline([(0.8, 1.8, 12.0, 24.2), (51.0, 63.8, 62.2, 86.2)])  # the card of faces, upright
        ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
        >>> card_outline([(0.8, 1.8, 12.0, 24.2), (4.0, 8.0, 15.2, 30.4)]) is None  # one corner found twice
        True
    """
    if len(boxes) < 2:
        return None
    mids = np.array([((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes], np.float64)
    apart = np.linalg.norm(mids - mids[0], axis=1)
    sides = np.array([max(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes], np.float64)
    side = np.maximum(sides, sides[0])
    fits = (apart >= CARD_APART[0] * side) & (apart <= CARD_APART[1] * side)
    if not fits.any():
        return None
    other = mids[int(np.argmax(np.where(fits, apart, -1.0)))]
    d = other - mids[0]
    turn = np.arctan2(d[1], d[0]) - _SPAN_TURN
    c, s = np.cos(turn), np.sin(turn)
    half = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * (CARD_W_MM / 2, CARD_H_MM / 2) * (np.hypot(*d) / _SPAN_MM)
    pts = (mids[0] + other) / 2 + half @ np.array([[c, s], [-s, c]])
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in pts)


def merge(
    reads: list[IndexRead], min_confidence: float, confidence: Callable[[float], float] = float
) -> list[CardReading]:
    """Cards from raw index reads: one card per code (a deck has each card once),
    scored from all its corners by :func:`card_score` and mapped by ``confidence``
    (the calibration); cards below ``min_confidence`` become ``unknown``;
    no-index reads and jokers are dropped (a joker is no Chicago card)."""
    by_code: dict[str, list[IndexRead]] = {}
    for r in reads:
        if r.code == spec.NONE:
            continue
        by_code.setdefault(r.code, []).append(r)
    cards, unknown = [], []
    for code, rs in by_code.items():
        conf = min(1.0, max(0.0, confidence(card_score([r.prob for r in rs]))))
        if code == spec.JOKER and conf >= min_confidence:
            continue
        if conf >= min_confidence and code != spec.JOKER:
            cards.append(CardReading(code, round(conf, 4), outline([r.box for r in rs]), len(rs)))
        elif max(r.score for r in rs) >= 0.3:
            # Only a confident detection of an index is worth an "unknown" line.
            best = max(rs, key=lambda r: r.score)
            unknown.append(CardReading(UNKNOWN, min(round(conf, 4), min_confidence), outline([best.box]), 1, UNSURE))
    return sorted(cards, key=lambda c: -c.confidence) + sorted(unknown, key=lambda c: -c.confidence)
