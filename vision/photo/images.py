"""Opening pictures from outside: anything that is not a readable picture becomes
an :class:`UnreadableImage` that names the file and says what is wrong."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError

MAX_BYTES = 64 * 1024 * 1024  # a phone photo is a few MB; refuse to decode a giant
MIN_SIDE = 32


class UnreadableImage(VisionError):
    """A file that cannot be read as a picture (missing, empty, corrupt, not an image)."""


def load_image(path: str | Path) -> np.ndarray:
    """The picture at ``path`` as a BGR uint8 array."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UnreadableImage(f"{p}: is a folder, not a picture")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise UnreadableImage(f"{p}: {size // 2**20} MB is too large for a photo (limit {MAX_BYTES // 2**20} MB)")
        data = p.read_bytes()
    except FileNotFoundError:
        raise UnreadableImage(f"{p}: no such file") from None
    except PermissionError:
        raise UnreadableImage(f"{p}: not allowed to read it") from None
    except OSError as exc:
        raise UnreadableImage(f"{p}: cannot be read ({exc.strerror or exc})") from None
    if not data:
        raise UnreadableImage(f"{p}: the file is empty")
    # imdecode rather than imread: no warnings on stderr, and it goes by content, not name.
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise UnreadableImage(f"{p}: not a picture OpenCV can decode (corrupt, or not JPEG/PNG/BMP/TIFF/WebP)")
    if min(image.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(f"{p}: {image.shape[1]}x{image.shape[0]} px is too small to read cards in")
    return image
