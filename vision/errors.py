"""The one root exception of ``vision``: bad input from outside (a camera that
will not open, a picture without markers, a broken calibration file) is raised as
a :class:`VisionError` with a message that says what to do."""

from __future__ import annotations


class VisionError(ValueError):
    """Something the camera side cannot work with; the message says what to do."""


class CameraUnavailable(VisionError):
    """A camera source that cannot be opened or stopped delivering frames."""


class CalibrationError(VisionError):
    """A frame the table geometry cannot be found in, or a bad calibration file."""
