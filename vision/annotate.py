"""Pictures to check by eye: the calibration (markers and pads) and the live view
(rows found and what was read on each pad)."""

from __future__ import annotations

import cv2
import numpy as np

from .calibration import Calibration, detect_markers
from .table_reader import PadReading

_PAD = (0, 220, 255)
_ROW = (255, 160, 0)


def _pads(img: np.ndarray, cal: Calibration) -> None:
    for pad in cal.layout.pads:
        pts = cal.to_image(pad.corners()).astype(np.int32)
        cv2.polylines(img, [pts], True, _PAD, 2, cv2.LINE_AA)
        # the owner's side of the pad: where the player sits
        cv2.line(img, tuple(pts[2]), tuple(pts[3]), (0, 120, 255), 4, cv2.LINE_AA)
        cx, cy = pts.mean(axis=0).astype(int)
        cv2.putText(img, pad.name, (cx - 30, cy), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(img, pad.name, (cx - 30, cy), cv2.FONT_HERSHEY_SIMPLEX, 0.7, _PAD, 2, cv2.LINE_AA)


def calibration_picture(frame: np.ndarray, cal: Calibration) -> np.ndarray:
    """The frame with the markers found, the felt's outline and every pad."""
    img = frame.copy()
    for marker_id, corners in detect_markers(frame).items():
        pts = corners.astype(np.int32)
        cv2.polylines(img, [pts], True, (0, 255, 0), 2, cv2.LINE_AA)
        cv2.putText(
            img, str(marker_id), tuple(pts[0] + [4, -6]), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 255, 0), 2, cv2.LINE_AA
        )
    lay = cal.layout
    felt = cal.to_image([(0, 0), (lay.width, 0), (lay.width, lay.height), (0, lay.height)]).astype(np.int32)
    cv2.polylines(img, [felt], True, (255, 255, 255), 1, cv2.LINE_AA)
    _pads(img, cal)
    text = f"markers {list(cal.markers_seen)}  error {cal.error_mm:.2f} mm"
    cv2.putText(img, text, (10, img.shape[0] - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
    return img


def view_picture(frame: np.ndarray, cal: Calibration, readings: dict[str, PadReading]) -> np.ndarray:
    """The frame with the pads, each row found, and each pad's reading."""
    img = frame.copy()
    _pads(img, cal)
    for r in readings.values():
        for row in r.rows:
            cv2.polylines(img, [np.array(row, dtype=np.int32)], True, _ROW, 2, cv2.LINE_AA)
        pad = cal.layout.pad(r.pad)
        x, y = cal.to_image([pad.to_table((0, 0))])[0].astype(int)
        cards = " ".join(c.code or "??" for c in r.face_up)
        label = f"down {r.face_down}  up {cards or '-'}"
        cv2.putText(img, label, (x, y - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(img, label, (x, y - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return img
