"""A pad's picture for the TL's evidence (issue 18 item 3): the pad cut out of a frame
upright, as its owner sees it, at ``PX_PER_MM`` pixels per millimetre, as a JPEG.

    >>> jpeg = pad_jpeg(frame, calibration, "seat1")   # doctest: +SKIP

The picture is exactly the pad (``pad.width`` x ``pad.depth`` mm, so 600 x 240 px for a
seat's 300 x 120 mm pad): the TL sees the same rectangle the reader reads.  A hand pad's
picture shows hidden cards, so who may fetch it is the dashboard's to decide (the TL).
"""

from __future__ import annotations

import cv2
import numpy as np

from .calibration import Calibration
from .errors import VisionError
from .table_reader import pad_to_table

PX_PER_MM = 2.0  # finer than a 1280x720 camera gives (1.6 px/mm): nothing is lost
JPEG_QUALITY = 85


def pad_size(calibration: Calibration, pad: str, px_per_mm: float = PX_PER_MM) -> tuple[int, int]:
    """The picture's width and height in px for ``pad`` (``CalibrationError`` for a pad
    the layout does not have)."""
    p = calibration.layout.pad(pad)
    return int(round(p.width * px_per_mm)), int(round(p.depth * px_per_mm))


def pad_picture(frame: np.ndarray, calibration: Calibration, pad: str, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """``pad`` of ``frame`` upright (its owner's view), ``pad_size`` px."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.size == 0:
        raise VisionError("expected a colour frame (height x width x 3, BGR)")
    if not 0.1 <= px_per_mm <= 10:
        raise VisionError(f"px_per_mm must be from 0.1 to 10, got {px_per_mm}")
    size = pad_size(calibration, pad, px_per_mm)
    # picture px -> pad mm -> table mm -> frame px
    scale = np.array([[1 / px_per_mm, 0, 0], [0, 1 / px_per_mm, 0], [0, 0, 1]])
    m = calibration.matrix @ pad_to_table(calibration.layout.pad(pad)) @ scale
    return cv2.warpPerspective(frame, m, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA)


def pad_jpeg(frame: np.ndarray, calibration: Calibration, pad: str, px_per_mm: float = PX_PER_MM) -> bytes:
    """``pad_picture`` as JPEG bytes."""
    ok, data = cv2.imencode(
        ".jpg", pad_picture(frame, calibration, pad, px_per_mm), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
    )
    if not ok:
        raise VisionError(f"the picture of {pad} could not be encoded as JPEG")
    return data.tobytes()
