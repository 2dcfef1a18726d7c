"""``chicago-table camera``: calibrate, view and the delegated read, as a user runs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from table_controller.app.cli import main as cli
from tests.vision.conftest import scene_and_frame
from vision.calibration import Calibration


@pytest.fixture
def table_png(tmp_path):
    scene, frame = scene_and_frame(31, 0.3, 1.0)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), frame)
    return scene, str(path)


def test_calibrate_saves_the_geometry_and_an_annotated_picture(table_png, tmp_path, capsys):
    _, png = table_png
    out, pic = tmp_path / "cal.json", tmp_path / "cal.png"
    assert cli(["camera", "calibrate", "--image", png, "--out", str(out), "--picture", str(pic)]) == 0
    cal = Calibration.load(str(out))
    assert cal.markers_seen == (0, 1, 2, 3)
    annotated = cv2.imread(str(pic))
    assert annotated.shape == (720, 1280, 3)
    assert np.abs(annotated.astype(int) - cv2.imread(png).astype(int)).sum() > 0  # something drawn
    assert "kalibrerad från markörerna [0, 1, 2, 3]" in capsys.readouterr().out  # calibrated from markers


def test_calibrate_on_a_picture_without_markers_fails_clearly_and_writes_nothing(tmp_path, capsys):
    png = tmp_path / "felt.png"
    cv2.imwrite(str(png), np.full((720, 1280, 3), (40, 110, 50), np.uint8))
    out = tmp_path / "cal.json"
    assert (  # bad input: exit status 2, as every command's
        cli(["camera", "calibrate", "--image", str(png), "--out", str(out), "--picture", str(tmp_path / "p.png")]) == 2
    )
    err = capsys.readouterr().err
    assert "hittade 0 av bordets markörer" in err and "Traceback" not in err  # found 0 of the table's markers
    assert not out.exists()
    assert cli(["camera", "calibrate", "--image", str(tmp_path / "none.png")]) == 2
    assert "kan inte läsa bilden" in capsys.readouterr().err  # cannot read picture


def test_calibrate_opens_a_picture_as_camera_read_does(tmp_path, capsys):
    # an iPhone's HEIC photo is decoded (it shows a card, no markers: the markers are what is missing)
    heic = Path(__file__).resolve().parents[2] / "vision" / "photo" / "data" / "portrait_qh.heic"
    out = tmp_path / "cal.json"
    assert (
        cli(["camera", "calibrate", "--image", str(heic), "--out", str(out), "--picture", str(tmp_path / "p.png")]) == 2
    )
    err = capsys.readouterr().err
    assert "markörer" in err and "kan inte läsa bilden" not in err and not out.exists()
    # a damaged file says what is wrong with it, not only that it failed
    bad = tmp_path / "table.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    assert cli(["camera", "calibrate", "--image", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"kan inte läsa bilden {bad}: ingen bild som går att avkoda" in err and "Traceback" not in err
    assert cli(["camera", "calibrate", "--image", str(tmp_path), "--out", str(out), "--lang", "en"]) == 2
    assert "is a folder, not a picture" in capsys.readouterr().err


def test_view_reads_a_recording_and_writes_the_annotated_picture(table_png, tmp_path, capsys):
    scene, png = table_png
    cal = tmp_path / "cal.json"
    assert cli(["camera", "calibrate", "--image", png, "--out", str(cal), "--picture", str(tmp_path / "c.png")]) == 0
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 25, (1280, 720))
    frame = cv2.imread(png)
    for _ in range(3):
        writer.write(frame)
    writer.release()
    out = tmp_path / "view.png"
    assert cli(["camera", "view", "--source", str(video), "--calibration", str(cal), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "3 bilder på" in captured.out  # 3 frames in ... s, said in Swedish first
    down, up = scene.truth()["seat1"]
    assert f"seat1: {down} nedvända, uppvända {' '.join(up) or '-'}" in captured.out  # face down, face up
    assert cv2.imread(str(out)).shape == (720, 1280, 3)
    assert "kamera: filen " in captured.err and "1280x720 med 25 bilder/s" in captured.err  # the source is reported


def test_view_without_a_calibration_says_what_to_do(tmp_path, capsys):
    assert cli(["camera", "view", "--source", "0", "--calibration", str(tmp_path / "none.json")]) == 2
    assert "chicago-table camera calibrate" in capsys.readouterr().err


def test_camera_without_a_subcommand_and_every_help():
    assert cli(["camera"]) == 2
    for args in (
        ["camera", "--help"],
        ["camera", "calibrate", "--help"],
        ["camera", "view", "--help"],
        ["camera", "read", "--help"],
    ):
        run = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", *args], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stderr
        assert "användning: chicago-table camera" in run.stdout  # argparse's words in Swedish too


def test_read_is_delegated_to_the_photo_reader():
    # 'camera read' parses with vision.photo_reader's own options (issue 9).
    run = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "camera", "read", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "IMAGE" in run.stdout


def test_read_says_not_available_when_the_photo_reader_is_missing(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "vision.photo_reader", None)  # import now fails as if absent
    assert cli(["camera", "read", "table.jpg"]) == 2
    assert "inte tillgängligt" in capsys.readouterr().err  # not available
