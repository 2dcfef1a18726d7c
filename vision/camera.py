"""The table camera as a sensor: frames in, :class:`CameraPad` events out.

This is the API sensing uses (``table_controller.sensor_events`` is the shared shape, so
sensing fuses camera and RFID without knowing the source)::

    from vision import TableCamera, CameraSource, Calibration
    camera = TableCamera(CameraSource("0", 1280, 720, 30), Calibration.load("table1.json"))
    for event in camera.read():          # one CameraPad per pad of the layout
        event.pad, event.face_down, [(s.card, s.confidence) for s in event.face_up]

- ``read()`` grabs one frame and returns one ``CameraPad`` per pad ("seat1".."seat4",
  "tray"), also for empty pads (face_down 0, no face-up cards), so "nothing there"
  is news too.  It returns ``[]`` when a recording has ended.
- ``face_up`` lists the face-up cards in the order the pad's owner sees them, left to
  right (a trick row in playing order).  ``CardSighting.card`` is our card code
  ("AS", "TD") or ``None`` when the card is seen but not named with confidence;
  ``confidence`` is 0..1 and every named card has at least ``MIN_CONFIDENCE``.
- With ``scene`` (``vision.photo.scene_reader.SceneReader``, the reader of ``camera
  read``), a face-up card the templates see but cannot name (another deck's print) is
  named by that reader on the whole frame when it is sure; face-down counts stay the
  templates' own.  ``vision.worker`` gives the live camera one.
- ``at`` is the time of the clock the camera was given (monotonic seconds).
- ``read_frame(frame)`` does the same for a frame you already have (a photo, a test).
- A camera that stops raises ``vision.errors.CameraUnavailable`` (a ``VisionError``,
  itself a ``ValueError``); a frame of another size than calibrated raises
  ``VisionError`` saying to calibrate again.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from table_controller.sensor_events import CameraPad, CardSighting

from .calibration import Calibration
from .photo.recognise import Recogniser
from .photo.scene_reader import SceneReader
from .rowread import MIN_CONFIDENCE
from .source import CameraSource
from .table_reader import PadReading, TableReader

__all__ = ["MIN_CONFIDENCE", "TableCamera", "to_events"]


def to_events(readings: dict[str, PadReading], at: float) -> list[CameraPad]:
    """Pad readings as sensor events, in the layout's pad order."""
    return [
        CameraPad(at, r.pad, r.face_down, tuple(CardSighting(c.code, float(c.confidence)) for c in r.face_up))
        for r in readings.values()
    ]


class TableCamera:
    """A calibrated camera over one table."""

    def __init__(
        self,
        source: CameraSource,
        calibration: Calibration,
        clock: Callable[[], float] = time.monotonic,
        photo: Recogniser | None = None,
        scene: SceneReader | None = None,
    ):
        self.source = source
        self.calibration = calibration
        # scene (camera read's reader) or photo (its classifier alone): names what the templates cannot
        self.reader = TableReader(calibration, photo, scene)
        self.clock = clock
        self.last_frame: np.ndarray | None = None
        self.last_readings: dict[str, PadReading] = {}

    def read(self) -> list[CameraPad]:
        frame = self.source.read()
        if frame is None:
            return []
        return self.read_frame(frame)

    def read_frame(self, frame: np.ndarray) -> list[CameraPad]:
        at = self.clock()
        self.last_frame = frame
        self.last_readings = self.reader.read(frame)
        return to_events(self.last_readings, at)
