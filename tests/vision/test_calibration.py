"""Calibration: the ArUco markers on the felt give the table's geometry."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, calibrate
from vision.errors import CalibrationError
from vision.layout import TableLayout


def _pad_corner_error(scene, cal) -> float:
    pts = np.array([c for pad in scene.layout.pads for c in pad.corners()], np.float64)
    truth = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), scene.homography()).reshape(-1, 2)
    return float(np.abs(cal.to_image(pts) - truth).max())


@pytest.mark.parametrize("seed,severity", [(1, 0.0), (2, 0.5), (3, 1.0)])
def test_calibration_from_a_rendered_view_finds_every_pad(rendered, seed, severity):
    scene, frame = rendered(seed, severity)
    cal = calibrate(frame)
    assert cal.markers_seen == (0, 1, 2, 3)
    assert cal.image_size == (1280, 720)
    assert cal.error_mm < 1.0
    assert _pad_corner_error(scene, cal) < 1.5  # px: well under a card index's size


def test_a_bumped_camera_is_recalibrated_from_one_frame(rendered):
    scene_a, frame_a = rendered(4, 0.3)
    scene_b, frame_b = rendered(5, 0.3)  # another camera pose
    cal_a, cal_b = calibrate(frame_a), calibrate(frame_b)
    assert _pad_corner_error(scene_b, cal_a) > 5  # the old calibration no longer fits
    assert _pad_corner_error(scene_b, cal_b) < 1.5


def test_two_markers_are_enough_but_one_is_not(rendered):
    scene, frame = rendered(6, 0.2)
    covered = frame.copy()
    corners = scene.homography()
    for marker in scene.layout.markers[2:]:  # cover markers 2 and 3 with a hand-sized grey box
        pts = cv2.perspectiveTransform(
            np.float64([[marker.x - 5, marker.y - 5], [marker.x + 45, marker.y + 45]]).reshape(-1, 1, 2), corners
        )
        (x0, y0), (x1, y1) = pts.reshape(-1, 2).astype(int)
        covered[y0:y1, x0:x1] = 90
    cal = calibrate(covered)
    assert cal.markers_seen == (0, 1)
    assert _pad_corner_error(scene, cal) < 3.0
    marker = scene.layout.markers[1]
    pts = cv2.perspectiveTransform(
        np.float64([[marker.x - 5, marker.y - 5], [marker.x + 45, marker.y + 45]]).reshape(-1, 1, 2), corners
    )
    (x0, y0), (x1, y1) = pts.reshape(-1, 2).astype(int)
    covered[y0:y1, x0:x1] = 90
    with pytest.raises(CalibrationError, match="found 1 of the table's markers"):
        calibrate(covered)


def test_a_picture_without_markers_is_refused_clearly():
    felt = np.full((720, 1280, 3), (40, 110, 50), np.uint8)
    with pytest.raises(CalibrationError, match="at least two must be visible"):
        calibrate(felt)
    with pytest.raises(CalibrationError, match="expected a picture"):
        calibrate(np.zeros((0, 0, 3), np.uint8))


def test_calibration_round_trips_through_its_file(rendered, tmp_path):
    _, frame = rendered(1, 0.0)
    cal = calibrate(frame)
    path = tmp_path / "cal.json"
    cal.save(str(path))
    again = Calibration.load(str(path))
    assert again == cal
    assert again.layout == TableLayout.default()


@pytest.mark.parametrize(
    "content,message",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a calibration object"),
        ('{"table_to_image": [[1, 0], [0, 1]], "image_size": [1280, 720], "layout": {}}', "incomplete or malformed"),
    ],
)
def test_a_broken_calibration_file_is_refused_clearly(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(str(path))
    with pytest.raises(CalibrationError, match="cannot read calibration"):
        Calibration.load(str(tmp_path / "missing.json"))


def test_a_layout_file_moves_the_pads(rendered, tmp_path):
    data = TableLayout.default().to_dict()
    data["pads"][0]["cx"] += 20
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data))
    layout = TableLayout.load(str(path))
    _, frame = rendered(1, 0.0)
    cal = calibrate(frame, layout)
    assert cal.layout.pad("seat1").cx == TableLayout.default().pad("seat1").cx + 20
    data["pads"] = data["pads"] + [data["pads"][0]]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="unique"):
        TableLayout.load(str(path))


def test_a_layout_file_not_in_utf8_is_refused_clearly(tmp_path):
    """Stop 72's audit: ``camera calibrate --layout`` on a file not in UTF-8 gave a traceback."""
    path = tmp_path / "latin.json"
    path.write_bytes('{"markers": "\xe5"}'.encode("latin-1"))
    with pytest.raises(CalibrationError, match="is not text in UTF-8"):
        TableLayout.load(str(path))
