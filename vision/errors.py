"""The one root exception of ``vision``: bad input from outside (a camera that
will not open, a picture without markers, a broken calibration file) is raised as
a :class:`VisionError` with a message that says what to do.

A message a person reads is raised with its English text and what goes in it, so that the
console says it in its own language (``table_controller.app.words.said_error``; console.po),
as the store's and the hub's errors are (``WordedError``, which vision may not import:
it shares only the sensor events); ``str()`` is the English, as logs and programs read it.
An OSError put in is said as the system says it, without its number:

    >>> exc = VisionError("{path}: cannot be read ({error})", path="/x.jpg", error=PermissionError(13, "Permission denied"))
    >>> str(exc), exc.text, sorted(exc.params)
    ('/x.jpg: cannot be read (Permission denied)', '{path}: cannot be read ({error})', ['error', 'path'])
    >>> str(VisionError("a text {with braces} and no params"))
    'a text {with braces} and no params'
"""

from __future__ import annotations

from typing import Any


class VisionError(ValueError):
    """Something the camera side cannot work with; the message says what to do.
    ``text`` and ``params``: its English and what goes in it, for the console's words."""

    def __init__(self, text: str = "", **params: Any) -> None:
        shown = {k: (v.strerror or str(v)) if isinstance(v, OSError) else v for k, v in params.items()}
        super().__init__(text.format(**shown) if params else text)
        self.text, self.params = text, params

    def __reduce__(self) -> tuple[object, ...]:  # pickled with its words, not only its English
        return (_vision_error, (type(self), self.text, dict(self.params)))


def _vision_error(cls: type[VisionError], text: str, params: dict[str, Any]) -> VisionError:
    return cls(text, **params)


class CameraUnavailable(VisionError):
    """A camera source that cannot be opened or stopped delivering frames."""


class CalibrationError(VisionError):
    """A frame the table geometry cannot be found in, or a bad calibration file."""
