"""Camera sources through OpenCV, and the TableCamera sensor API over a recording."""

from __future__ import annotations

import cv2
import pytest

from table_controller.sensor_events import PADS, CameraPad, CardSighting
from vision.calibration import calibrate
from vision.camera import TableCamera
from vision.errors import CameraUnavailable, VisionError
from vision.scene import Scene, random_scene, render
from vision.source import CameraSource


class FakeTime:
    """A clock and a sleep that only move when slept: pacing without waiting."""

    def __init__(self):
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A 10 fps MJPEG recording of three table states, two frames each."""
    path = tmp_path_factory.mktemp("video") / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1280, 720))
    assert writer.isOpened()
    # Three states of one table under one camera pose (scene 21's).
    base = random_scene(21, 0.2)
    frames = []
    for seed in (21, 22, 23):
        s = random_scene(seed, 0.2)
        fixed = Scene(s.placements, base.corners, s.severity, s.seed, s.back)
        frames.append((fixed, render(fixed)))
    for _, frame in frames:
        writer.write(frame)
        writer.write(frame)
    writer.release()
    return str(path), frames


def test_a_video_file_reports_its_size_rate_and_length(recording):
    path, _ = recording
    with CameraSource(path) as cam:
        assert cam.info.kind == "file"
        assert (cam.info.width, cam.info.height, cam.info.fps, cam.info.frames) == (1280, 720, 10.0, 6)
        assert "1280x720 at 10 fps, 6 frames" in cam.info.describe()


def test_a_recording_plays_at_its_own_pace_like_a_live_camera(recording):
    path, _ = recording
    t = FakeTime()
    with CameraSource(path, clock=t.clock, sleep=t.sleep) as cam:
        frames = []
        while (f := cam.read()) is not None:
            frames.append(f)
    assert len(frames) == 6
    assert t.now - 100.0 == pytest.approx(0.5)  # frame 6 is due 5 frame intervals after frame 1
    with CameraSource(path, realtime=False, clock=t.clock, sleep=t.sleep) as cam:
        before = len(t.slept)
        while cam.read() is not None:
            pass
        assert len(t.slept) == before  # as fast as it decodes


def test_a_recording_can_loop_and_be_resized(recording):
    path, _ = recording
    with CameraSource(path, width=640, height=360, realtime=False, loop=True) as cam:
        shapes = {cam.read().shape for _ in range(9)}  # past the end and round again
        assert shapes == {(360, 640, 3)}
        assert "resized from 1280x720" in cam.info.describe()


def test_sources_that_cannot_open_say_so(tmp_path):
    with pytest.raises(CameraUnavailable, match="no video file"):
        CameraSource(str(tmp_path / "none.avi"))
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"not a video at all" * 10)
    with pytest.raises(CameraUnavailable, match="cannot open file"):
        CameraSource(str(junk))
    with pytest.raises(CameraUnavailable, match="cannot open device"):
        CameraSource("57")  # no such camera on this machine
    with pytest.raises(VisionError, match="no camera source"):
        CameraSource("  ")
    with pytest.raises(VisionError, match="width must be a positive number"):
        CameraSource("0", width=-5)


def test_table_camera_turns_frames_into_camera_pad_events(recording):
    path, frames = recording
    first_scene, first_frame = frames[0]
    cal = calibrate(first_frame)
    t = FakeTime()
    with CameraSource(path, realtime=False) as cam:
        camera = TableCamera(cam, cal, clock=t.clock)
        seen = []
        while events := camera.read():
            seen.append(events)
            t.now += 0.1
    assert len(seen) == 6
    for i, events in enumerate(seen):
        scene = frames[i // 2][0]
        assert [e.pad for e in events] == list(PADS)
        assert all(isinstance(e, CameraPad) and e.source == "camera" for e in events)
        assert events[0].at == pytest.approx(100.0 + 0.1 * i)
        for e in events:
            down, up = scene.truth()[e.pad]
            assert e.face_down == down
            assert all(isinstance(s, CardSighting) for s in e.face_up)
            assert [s.card for s in e.face_up] == list(up)
            assert all(0.0 <= s.confidence <= 1.0 for s in e.face_up)


def test_a_stream_url_is_read_over_the_network_and_its_end_is_reported(recording):
    """A recording served over HTTP on the loopback: OpenCV's FFmpeg reads it as a stream."""
    import functools
    import http.server
    import os
    import threading

    path, frames = recording

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=os.path.dirname(path))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{os.path.basename(path)}"
        with CameraSource(url, realtime=False) as cam:
            assert cam.info.kind == "stream"
            assert (cam.info.width, cam.info.height) == (1280, 720)
            got = [cam.read() for _ in range(6)]
            assert all(f.shape == (720, 1280, 3) for f in got)
            with pytest.raises(CameraUnavailable, match="stopped delivering frames"):
                cam.read()
        with pytest.raises(CameraUnavailable, match="cannot open stream"):
            CameraSource(f"http://127.0.0.1:{server.server_address[1]}/missing.avi")
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()
