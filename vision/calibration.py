"""Calibration: where the table is in the camera's picture.

The ArUco markers on the felt are found in one frame; their corners, known in
table millimetres, give the homography between picture and table.  A bumped
camera is re-calibrated from a single frame.  The result is saved as JSON
together with the table layout, so a calibration file is all a reader needs.

    >>> cal = calibrate(frame)                  # doctest: +SKIP
    >>> cal.save("table1.calibration.json")     # doctest: +SKIP
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import CalibrationError
from .layout import ARUCO_DICT, TableLayout

# Worse than this (mean marker-corner error, mm) means a marker was misread or moved.
MAX_ERROR_MM = 4.0


@dataclass(frozen=True, slots=True)
class Calibration:
    """The table -> image homography (table mm to picture px) and the table layout."""

    table_to_image: tuple[tuple[float, ...], ...]
    image_size: tuple[int, int]  # width, height of the frames it was made for
    layout: TableLayout
    markers_seen: tuple[int, ...] = ()
    error_mm: float = 0.0

    @property
    def matrix(self) -> np.ndarray:
        return np.array(self.table_to_image, np.float64)

    def to_image(self, points_mm) -> np.ndarray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.matrix).reshape(-1, 2)

    def to_dict(self) -> dict:
        return {
            "format": "chicago-table camera calibration 1",
            "table_to_image": [list(r) for r in self.table_to_image],
            "image_size": list(self.image_size),
            "markers_seen": list(self.markers_seen),
            "error_mm": self.error_mm,
            "layout": self.layout.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Calibration:
        try:
            m = np.array(data["table_to_image"], np.float64)
            size = tuple(int(v) for v in data["image_size"])
            layout = TableLayout.from_dict(data["layout"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(
                "calibration data is incomplete or malformed ({error}); run 'chicago-table camera calibrate' again",
                error=exc,
            ) from exc
        if m.shape != (3, 3) or not np.isfinite(m).all() or len(size) != 2 or min(size) <= 0:
            raise CalibrationError(
                "calibration homography must be a finite 3x3 matrix and the "
                "image size two positive numbers; run 'chicago-table camera calibrate' again"
            )
        return cls(
            tuple(tuple(float(v) for v in r) for r in m),
            size,
            layout,
            tuple(int(i) for i in data.get("markers_seen", ())),
            float(data.get("error_mm", 0.0)),
        )

    def save(self, path: str) -> None:
        try:
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(self.to_dict(), fh, indent=2)
                fh.write("\n")
        except OSError as exc:
            raise CalibrationError("cannot write calibration {path}: {error}", path=path, error=exc) from exc

    @classmethod
    def load(cls, path: str) -> Calibration:
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as exc:
            raise CalibrationError(
                "cannot read calibration {path}: {error}; make one with 'chicago-table camera calibrate'",
                path=path,
                error=exc,
            ) from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CalibrationError("calibration {path} is not JSON: {error}", path=path, error=exc) from exc
        if not isinstance(data, dict):
            raise CalibrationError("calibration {path} is not a calibration object", path=path)
        return cls.from_dict(data)


def detect_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers in ``frame``: id -> its four corners in px (TL, TR, BR, BL)."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        raise CalibrationError("expected a picture (a non-empty image array)")
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT)), params)
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)}


def calibrate(frame: np.ndarray, layout: TableLayout | None = None) -> Calibration:
    """Find the table in one frame; raise :class:`CalibrationError` saying what is missing."""
    layout = layout or TableLayout.default()
    found = detect_markers(frame)
    markers = {i: m for i in found if (m := layout.marker(i)) is not None}
    known = {i: found[i] for i in markers}
    if len(known) < 2:
        wanted = ", ".join(str(m.id) for m in layout.markers)
        raise CalibrationError(
            "found {n} of the table's markers (ids {wanted}, {kind}); at least two must be "
            "visible: check that the felt's corners are in the picture, lit, and not covered",
            n=len(known),
            wanted=wanted,
            kind=ARUCO_DICT,
        )
    img_pts = np.concatenate([known[i] for i in sorted(known)]).astype(np.float64)
    tab_pts = np.array([c for i in sorted(known) for c in markers[i].corners()], np.float64)
    h, _ = cv2.findHomography(tab_pts, img_pts, 0)
    if h is None:
        raise CalibrationError("the markers do not give a usable table geometry (are they in a line?)")
    back = cv2.perspectiveTransform(img_pts.reshape(-1, 1, 2), np.linalg.inv(h)).reshape(-1, 2)
    error = float(np.linalg.norm(back - tab_pts, axis=1).mean())
    if error > MAX_ERROR_MM:
        raise CalibrationError(
            "markers disagree by {error:.1f} mm on average: one may have moved or the "
            "layout file does not match the felt",
            error=error,
        )
    height, width = frame.shape[:2]
    return Calibration(
        tuple(tuple(float(v) for v in r) for r in h), (width, height), layout, tuple(sorted(known)), round(error, 3)
    )
