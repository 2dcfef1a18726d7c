"""Recognition: from one camera frame to what lies on every pad.

Each pad is cut out of the frame in its owner's upright view (a cheap low
resolution look finds the card rows on the felt), then every row is cut again
straight and sharp at ``rowread.S`` px per mm, straight from the frame, and read.

    >>> reader = TableReader(calibration)       # doctest: +SKIP
    >>> readings = reader.read(frame)           # doctest: +SKIP
    >>> readings["seat1"].face_down             # doctest: +SKIP
    3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .calibration import Calibration
from .cardcodes import ALL_CODES
from .errors import VisionError
from .faces import INDEX_BOX, RANK_BOX
from .layout import CARD_H_MM, CARD_W_MM, Pad
from .photo.recognise import Recogniser, card_score
from .rowread import ROW_H, S, SeenCard, felt, read_row

if TYPE_CHECKING:
    from .photo.scene_reader import SceneReader

LOW = 1.0  # px per mm of the pad overview
MARGIN = 12.0  # mm around a pad that is looked at too (rows overhang a little)
END_MM = 3.0  # mm of felt taken at each end of a row
# A face's index corner from the centre line of its rank glyph (where the template
# reader places a face-up card), mm in the row's upright view: what the photo
# reader's classifier is shown of a card the templates could not name.
_RANK_CX = (RANK_BOX[0] + RANK_BOX[2]) / 2
INDEX_FROM_RANK = (INDEX_BOX[0] - _RANK_CX, INDEX_BOX[1], INDEX_BOX[2] - _RANK_CX, INDEX_BOX[3])
INDEX_SLACK = 2.0  # mm the middle of a scene reader's index corner may lie beyond the corner it names
PART_MARGIN = 0.15  # of the frame's short side round the rows the scene reader is shown
PART_LEAST = 0.45  # of the frame's width: the least part it is shown


@dataclass(frozen=True, slots=True)
class _Row:
    """One row of cards as the scene reader's finds are matched to it."""

    pad: str
    first: int  # index in the pad's cards of the row's first card
    cards: tuple[SeenCard, ...]
    to_image: np.ndarray  # 3x3: the straightened row's px -> image px
    width_px: int
    corners: np.ndarray  # the row's four corners in image px (as PadReading.rows)


@dataclass(frozen=True, slots=True)
class PadReading:
    """What one pad shows: the face-down count and the cards in row order."""

    pad: str
    face_down: int
    cards: tuple[SeenCard, ...]
    rows: tuple[tuple[tuple[float, float], ...], ...] = ()  # each row's corners in image px

    @property
    def face_up(self) -> tuple[SeenCard, ...]:
        return tuple(c for c in self.cards if c.face_up)


def pad_to_table(pad: Pad) -> np.ndarray:
    """3x3: pad upright mm (origin at the pad's top-left) -> table mm."""
    a = math.radians(pad.angle)
    c, s = math.cos(a), math.sin(a)
    return np.array(
        [
            [c, -s, pad.cx - (c * pad.width / 2 - s * pad.depth / 2)],
            [s, c, pad.cy - (s * pad.width / 2 + c * pad.depth / 2)],
            [0, 0, 1],
        ]
    )


class TableReader:
    """Reads every pad of a calibrated table from frames of the calibrated size.

    With ``photo`` (the photo reader, :class:`vision.photo.recognise.Recogniser`),
    a face-up card the template reader sees but cannot name is shown to the photo
    reader's classifier, which names it when at least its ``min_confidence`` sure:
    one recogniser for photographs and the table camera, the templates first
    because they are exact and fast on our own decks."""

    def __init__(
        self, calibration: Calibration, photo: Recogniser | None = None, scene: SceneReader | None = None
    ) -> None:
        self.calibration = calibration
        self.photo = photo
        self.scene = scene
        h = calibration.matrix
        self._pads = []
        for pad in calibration.layout.pads:
            # overview px -> pad mm (shifted by the margin) -> table mm -> image px
            low = np.array([[1 / LOW, 0, -MARGIN], [0, 1 / LOW, -MARGIN], [0, 0, 1]])
            pad_img = h @ pad_to_table(pad)
            size = (int((pad.width + 2 * MARGIN) * LOW), int((pad.depth + 2 * MARGIN) * LOW))
            self._pads.append((pad, pad_img, pad_img @ low, size))

    def read(self, frame: np.ndarray) -> dict[str, PadReading]:
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            raise VisionError("expected a colour frame (height x width x 3, BGR)")
        w, h = self.calibration.image_size
        if frame.shape[1] != w or frame.shape[0] != h:
            raise VisionError(
                f"frame is {frame.shape[1]}x{frame.shape[0]} but the calibration was made for "
                f"{w}x{h}: set the camera to {w}x{h} or calibrate again"
            )
        readings: dict[str, PadReading] = {}
        rows: list[_Row] = []
        for pad, pad_img, low_img, size in self._pads:
            readings[pad.name] = self._read_pad(frame, pad, pad_img, low_img, size, rows)
        # Only a frame with a face-up card the templates cannot name is read again: the
        # scene reader costs ten to thirty times the templates' time.
        if self.scene is not None and any(c.face_up and c.code is None for r in readings.values() for c in r.cards):
            readings = self._name_by_scene(self.scene, frame, readings, rows)
        return readings

    def _read_pad(self, frame, pad: Pad, pad_img, low_img, size, found_rows: list[_Row]) -> PadReading:
        view = cv2.warpPerspective(frame, low_img, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA)
        cards: np.ndarray = np.where(felt(view), 0, 255).astype(np.uint8)
        cards = cv2.morphologyEx(cards, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(cards, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        seen: list[SeenCard] = []
        rows = []
        min_area = 0.5 * CARD_W_MM * CARD_H_MM * LOW * LOW
        for cnt in contours:
            if cv2.contourArea(cnt) < min_area:
                continue
            row = self._row_geometry(cv2.minAreaRect(cnt))
            if row is None:
                continue
            origin, ux, uy, length = row
            # Whose row is it: rows centred outside the pad belong to a neighbour.
            cx, cy = origin + ux * length / 2 + uy * CARD_H_MM / 2 - MARGIN
            if not (0 <= cx <= pad.width and 0 <= cy <= pad.depth):
                continue
            width_px = int(round(length * S))
            # row px -> pad mm: columns along ux, rows along uy, from the row's top-left
            row_to_pad = np.array(
                [[ux[0] / S, uy[0] / S, origin[0] - MARGIN], [ux[1] / S, uy[1] / S, origin[1] - MARGIN], [0, 0, 1]]
            )
            m = pad_img @ row_to_pad
            straight = cv2.warpPerspective(
                frame,
                m,
                (width_px, ROW_H),
                flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            row_cards = read_row(straight)
            if self.photo is not None:
                row_cards = [
                    self._name_by_photo(self.photo, straight, c) if c.face_up and c.code is None else c
                    for c in row_cards
                ]
            corners = cv2.perspectiveTransform(
                np.array([[[0, 0]], [[width_px, 0]], [[width_px, ROW_H]], [[0, ROW_H]]], dtype=np.float32), m
            ).reshape(-1, 2)
            found_rows.append(_Row(pad.name, len(seen), tuple(row_cards), m, width_px, corners))
            seen.extend(row_cards)
            rows.append(tuple((float(x), float(y)) for x, y in corners))
        return PadReading(pad.name, sum(not c.face_up for c in seen), tuple(seen), tuple(rows))

    @staticmethod
    def _name_by_scene(
        scene: SceneReader, frame: np.ndarray, readings: dict[str, PadReading], rows: list[_Row]
    ) -> dict[str, PadReading]:
        """``readings`` checked and completed by the scene reader (``camera read``'s
        reader) on the part of the frame round the rows that hold a card to name
        (``_part_to_read``): the templates are exact on our own decks, but another
        deck's print can fool them (a club read as a spade), and they cannot name what
        they do not know.

        Each card the scene reader names is placed by the middle of each index corner it
        read as that card, in the straightened rows: on the card of that row one of whose
        visible index corners holds it (``_card_at``).  Then, for each face-up
        card: named by the templates and by the scene reader as another card, it is
        unknown (a wrong card is worse than a missing one); unnamed by the templates, it
        is named as the scene reader names it when that is the only name placed on it,
        placed nowhere else, and not a card the templates named elsewhere.  Face-down
        cards and their counts are the templates' own."""
        named_here = {c.code for r in readings.values() for c in r.cards if c.code is not None}
        claims: dict[tuple[str, int], dict[str, float]] = {}
        where: dict[str, set[tuple[str, int]]] = {}
        h, w = frame.shape[:2]
        ox, oy, part = _part_to_read(frame, [r for r in rows if any(c.face_up and c.code is None for c in r.cards)])
        to_row = [np.linalg.inv(row.to_image) for row in rows]  # only now: most frames need none
        for card, boxes in scene.named(part, short=min(w, h)):
            if card.card not in ALL_CODES:
                continue
            for x0, y0, x1, y1 in boxes:
                middle = np.array([[[(x0 + x1) / 2 + ox, (y0 + y1) / 2 + oy]]], np.float64)
                for row, m in zip(rows, to_row):
                    x, y = cv2.perspectiveTransform(middle, m)[0, 0]
                    if not (0 <= y <= ROW_H and 0 <= x <= row.width_px):
                        continue
                    i = _card_at(row.cards, x / S, y / S)
                    if i is not None and row.cards[i].face_up:
                        key = (row.pad, row.first + i)
                        claims.setdefault(key, {})[card.card] = card.confidence
                        where.setdefault(card.card, set()).add(key)
        out = dict(readings)
        for (pad, i), codes in claims.items():
            r = out[pad]
            seen = r.cards[i]
            if seen.code is not None:
                if set(codes) == {seen.code}:
                    continue
                named = SeenCard(True, None, 0.0, seen.x_mm)  # the two readers disagree
            else:
                if len(codes) != 1:
                    continue
                ((code, conf),) = codes.items()
                if len(where[code]) != 1 or code in named_here:
                    continue
                named = SeenCard(True, code, round(float(conf), 3), seen.x_mm)
            cards = list(r.cards)
            cards[i] = named
            out[pad] = PadReading(r.pad, r.face_down, tuple(cards), r.rows)
        return out

    @staticmethod
    def _name_by_photo(photo: Recogniser, straight: np.ndarray, card: SeenCard) -> SeenCard:
        """``card`` named by the photo reader's classifier, or as it was when that is unsure."""
        dx0, y0, dx1, y1 = INDEX_FROM_RANK
        box = ((card.x_mm + dx0) * S, y0 * S, (card.x_mm + dx1) * S, y1 * S)
        ((code, prob),) = photo.classify(straight, [box])
        conf = photo.confidence(card_score([prob]))
        if code in ALL_CODES and conf >= photo.min_confidence:
            return SeenCard(True, code, round(conf, 3), card.x_mm)
        return card

    @staticmethod
    def _row_geometry(rect):
        """From a blob's rectangle (overview px): the row's top-left (pad mm with margin),
        its unit axes and its length in mm; None if it is no row of upright cards."""
        box = cv2.boxPoints(rect) / LOW
        edges = [(box[(i + 1) % 4] - box[i]) for i in range(4)]
        # The row's x axis is the edge nearest to the pad's own x axis.
        i = max(range(4), key=lambda k: edges[k][0] / (np.linalg.norm(edges[k]) + 1e-9))
        ux = edges[i] / (np.linalg.norm(edges[i]) + 1e-9)
        if ux[0] < math.cos(math.radians(30)):
            return None
        uy = np.array([-ux[1], ux[0]])
        length = float(np.linalg.norm(edges[i]))
        height = float(np.linalg.norm(edges[(i + 1) % 4]))
        if not (0.8 * CARD_H_MM <= height <= 1.2 * CARD_H_MM) or length < 0.8 * CARD_W_MM:
            return None
        centre = np.asarray(rect[0], np.float64) / LOW
        origin = centre - ux * length / 2 - uy * height / 2
        # A row is exactly one card high: centre it on the blob.  The overview is
        # coarse, so take a little felt at either end rather than cut an index.
        origin = origin + uy * (height - CARD_H_MM) / 2 - ux * END_MM
        return origin, ux, uy, length + 2 * END_MM


def _part_to_read(frame: np.ndarray, rows: list[_Row]) -> tuple[int, int, np.ndarray]:
    """The part of ``frame`` the scene reader is shown, and where it lies (x, y): the
    rows holding a card to name, with ``PART_MARGIN`` of the frame's short side round
    them, as the frame's own shape (its witness squashes a picture to a square as it
    would the frame), at least ``PART_LEAST`` of the frame across.  The scene reader
    sees it at the frame's scale (``SceneReader.named(..., short=...)``): about a
    fifth of the frame's pixels for one pad instead of all of them."""
    h, w = frame.shape[:2]
    pts = np.concatenate([r.corners for r in rows])
    m = PART_MARGIN * min(w, h)
    x0, y0 = pts.min(axis=0) - m
    x1, y1 = pts.max(axis=0) + m
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pw = max(x1 - x0, (y1 - y0) * w / h, PART_LEAST * w)  # the frame's aspect, its least width
    pw = min(pw, w)
    ph = pw * h / w
    left = int(np.clip(round(cx - pw / 2), 0, w - round(pw)))
    top = int(np.clip(round(cy - ph / 2), 0, h - round(ph)))
    return left, top, frame[top : top + int(round(ph)), left : left + int(round(pw))]


def _left_mm(card: SeenCard) -> float:
    """A card's left edge along its row: a face-up card's ``x_mm`` is its rank glyph's middle."""
    return card.x_mm - _RANK_CX if card.face_up else card.x_mm


def _card_at(cards: tuple[SeenCard, ...], x_mm: float, y_mm: float) -> int | None:
    """The card of a row one of whose index corners holds (``x_mm``, ``y_mm``) (the
    row's upright view, mm; ``INDEX_BOX`` grown by ``INDEX_SLACK``): the top-left one,
    or the turned one at the bottom right when no next card covers it.  None when no
    card's corner, or more than one card's, holds it."""
    lefts = [_left_mm(c) for c in cards]
    x0, y0, x1, y1 = INDEX_BOX
    g = INDEX_SLACK
    found = set()
    for i, left in enumerate(lefts):
        shows_to = lefts[i + 1] if i + 1 < len(lefts) else math.inf
        if left + x0 - g <= x_mm <= min(left + x1 + g, shows_to + g) and y0 - g <= y_mm <= y1 + g:
            found.add(i)
        right = left + CARD_W_MM
        turned = (right - x1 - g, CARD_H_MM - y1 - g, right - x0 + g, CARD_H_MM - y0 + g)
        if shows_to >= turned[0] and turned[0] <= x_mm <= turned[2] and turned[1] <= y_mm <= turned[3]:
            found.add(i)
    return found.pop() if len(found) == 1 else None
