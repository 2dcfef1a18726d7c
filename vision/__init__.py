"""vision: the overhead table camera (issue 7).

Frames from a camera source are read against a calibration (ArUco markers on the
felt give the table's geometry) and turned into ``table_controller.sensor_events.CameraPad``
sensor events: per pad the face-down count and the face-up cards with a confidence.
See ``vision.camera`` for the API sensing uses and ``vision/README.md`` for the rest.

Sub-modules are imported on use (``from vision.camera import TableCamera``), so
``import vision`` stays light; the names below are re-exported lazily.

``chicago-table camera`` (calibrate, view, read) is the composition root's
(``table_controller/app/commands/camera.py``); this package holds no command.

May import, of the project, only ``table_controller.sensor_events`` (the events it
produces, shared with the serial bridge); never sensing, the rules, the dashboard,
hardware or the app (tests/vision/test_layering.py, tests/test_architecture.py).
"""

from __future__ import annotations

_EXPORTS = {
    "TableCamera": "vision.camera",
    "CameraSource": "vision.source",
    "Calibration": "vision.calibration",
    "calibrate": "vision.calibration",
    "TableLayout": "vision.layout",
    "VisionError": "vision.errors",
}


def __getattr__(name: str):
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
