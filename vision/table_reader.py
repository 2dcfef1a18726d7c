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

import cv2
import numpy as np

from .calibration import Calibration
from .cardcodes import ALL_CODES
from .errors import VisionError
from .faces import INDEX_BOX, RANK_BOX
from .layout import CARD_H_MM, CARD_W_MM, Pad
from .photo.recognise import Recogniser, card_score
from .rowread import ROW_H, S, SeenCard, felt, read_row

LOW = 1.0  # px per mm of the pad overview
MARGIN = 12.0  # mm around a pad that is looked at too (rows overhang a little)
END_MM = 3.0  # mm of felt taken at each end of a row
# A face's index corner from the centre line of its rank glyph (where the template
# reader places a face-up card), mm in the row's upright view: what the photo
# reader's classifier is shown of a card the templates could not name.
_RANK_CX = (RANK_BOX[0] + RANK_BOX[2]) / 2
INDEX_FROM_RANK = (INDEX_BOX[0] - _RANK_CX, INDEX_BOX[1], INDEX_BOX[2] - _RANK_CX, INDEX_BOX[3])


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

    def __init__(self, calibration: Calibration, photo: Recogniser | None = None) -> None:
        self.calibration = calibration
        self.photo = photo
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
        return {
            pad.name: self._read_pad(frame, pad, pad_img, low_img, size) for pad, pad_img, low_img, size in self._pads
        }

    def _read_pad(self, frame, pad: Pad, pad_img, low_img, size) -> PadReading:
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
            seen.extend(row_cards)
            corners = cv2.perspectiveTransform(
                np.array([[[0, 0]], [[width_px, 0]], [[width_px, ROW_H]], [[0, ROW_H]]], dtype=np.float32), m
            )
            rows.append(tuple((float(x), float(y)) for x, y in corners.reshape(-1, 2)))
        return PadReading(pad.name, sum(not c.face_up for c in seen), tuple(seen), tuple(rows))

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
