"""Camera sources through OpenCV: a device index, a video file or a stream URL.

The resolution and frame rate are asked for and what the source really gives is
reported.  A recorded video plays like a live camera: frames come at the file's
own rate (not as fast as they can be decoded), so a recording replays a session.

    >>> with CameraSource("0", width=1280, height=720, fps=30) as cam:   # doctest: +SKIP
    ...     print(cam.info.describe()); frame = cam.read()
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import CameraUnavailable, VisionError


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What a source is and what it delivers (after any resizing we do)."""

    kind: str  # "device", "file" or "stream"
    spec: str
    width: int
    height: int
    fps: float
    native_size: tuple[int, int]  # what the camera or file itself gives
    frames: int | None = None  # a file's length

    def describe(self) -> str:
        size = f"{self.width}x{self.height}"
        if self.native_size != (self.width, self.height):
            size += f" (resized from {self.native_size[0]}x{self.native_size[1]})"
        length = f", {self.frames} frames" if self.frames else ""
        return f"{self.kind} {self.spec}: {size} at {self.fps:g} fps{length}"


def _quietly(open_it):
    """Open with OpenCV's own warnings off: our error says what to do, its log lines
    about backends it tried would only confuse a user."""
    try:
        import cv2.utils.logging as cvlog
    except ImportError:  # pragma: no cover - an OpenCV without its logging module
        return open_it()
    level = cvlog.getLogLevel()
    cvlog.setLogLevel(cvlog.LOG_LEVEL_ERROR)
    try:
        return open_it()
    finally:
        cvlog.setLogLevel(level)


def source_kind(spec: str) -> str:
    if spec.isdigit():
        return "device"
    if "://" in spec:
        return "stream"
    return "file"


def _cannot_open(kind: str, spec: str) -> CameraUnavailable:
    """A source OpenCV cannot open, said by its kind (each kind its own text: the console
    says it in its own words)."""
    if kind == "device":
        return CameraUnavailable(
            "cannot open device {spec!r}: check the cable or the address, and that no other program uses the camera",
            spec=spec,
        )
    if kind == "stream":
        return CameraUnavailable(
            "cannot open stream {spec!r}: check the cable or the address, and that no other program uses the camera",
            spec=spec,
        )
    return CameraUnavailable(
        "cannot open file {spec!r}: check the cable or the address, and that no other program uses the camera",
        spec=spec,
    )


class CameraSource:
    """One open camera source.  ``read()`` returns the next BGR frame, or None at
    the end of a file (unless ``loop``); a device or stream that stops raises
    :class:`CameraUnavailable`."""

    def __init__(
        self,
        spec: str | int,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        realtime: bool = True,
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        spec = str(spec).strip()
        if not spec:
            raise VisionError("no camera source given: use a device index (0), a video file or a stream URL")
        for name, v in (("width", width), ("height", height), ("fps", fps)):
            if v is not None and not (0 < v <= 10000):
                raise VisionError("{name} must be a positive number, got {value}", name=name, value=v)
        self.kind = source_kind(spec)
        if self.kind == "file" and not os.path.isfile(spec):
            raise CameraUnavailable("no video file {spec!r} (a camera is given by its index, e.g. 0)", spec=spec)
        self._cap = _quietly(lambda: cv2.VideoCapture(int(spec) if self.kind == "device" else spec))
        if not self._cap.isOpened():
            self._cap.release()
            raise _cannot_open(self.kind, spec)
        if self.kind != "file":  # a file's size and rate are what they are
            if width:
                self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            if height:
                self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            if fps:
                self._cap.set(cv2.CAP_PROP_FPS, fps)
        native = (int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        out_size = (width or native[0], height or native[1])
        rate = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        if rate <= 0 or rate > 1000:
            rate = float(fps or 30.0)
        count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT)) if self.kind == "file" else 0
        self.info = SourceInfo(self.kind, spec, out_size[0], out_size[1], rate, native, count or None)
        self._realtime = realtime and self.kind == "file"
        self._loop = loop
        self._clock, self._sleep = clock, sleep
        self._start: float | None = None
        self._index = 0

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        if not ok and self.kind == "file" and self._loop and self._index > 0:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok:
            if self.kind == "file":
                return None
            if self.kind == "device":
                raise CameraUnavailable("device {spec!r} stopped delivering frames", spec=self.info.spec)
            raise CameraUnavailable("stream {spec!r} stopped delivering frames", spec=self.info.spec)
        if self._realtime:  # play a recording at its own pace, like the live camera did
            now = self._clock()
            if self._start is None:
                self._start = now
            due = self._start + self._index / self.info.fps
            if due > now:
                self._sleep(due - now)
        self._index += 1
        if (frame.shape[1], frame.shape[0]) != (self.info.width, self.info.height):
            frame = cv2.resize(frame, (self.info.width, self.info.height), interpolation=cv2.INTER_AREA)
        return frame

    @property
    def frames_read(self) -> int:
        return self._index

    def close(self) -> None:
        self._cap.release()

    def __enter__(self) -> CameraSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
