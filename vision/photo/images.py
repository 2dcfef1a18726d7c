"""Opening pictures from outside: anything that is not a readable picture becomes
an :class:`UnreadableImage` that names the file and says what is wrong."""

from __future__ import annotations

import functools
import io
import re
import warnings
from pathlib import Path

import cv2
import numpy as np

from ..errors import VisionError

MAX_BYTES = 64 * 1024 * 1024  # a phone photo is a few MB; refuse to decode a giant
# A file's size does not bound its picture: a 20000 x 20000 PNG of one colour is 0.4 MB
# and takes 1.2 GB to decode (2.4 GB at the peak, 5 s). A 50-megapixel phone photo passes.
MAX_PIXELS = 64_000_000
MIN_SIDE = 32
# HEIF's file types (ISO/IEC 23008-12): the brand after "ftyp" in the file's first box.
# An iPhone saves its photos as HEIC; OpenCV cannot decode them, pi-heif (libheif) can.
HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"})


class UnreadableImage(VisionError):
    """A file that cannot be read as a picture (missing, empty, corrupt, not an image)."""


def _header_size(data: bytes) -> tuple[str, int] | None:
    """The picture's size as its header gives it, said and in pixels, without decoding
    it (Pillow reads only the header until asked for pixels); None for a format Pillow
    does not know or a damaged header, which OpenCV then decodes or refuses as before."""
    from PIL import Image  # reportlab's dependency too; imported only when a picture is opened

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as picture:
                w, h = picture.size
    except Image.DecompressionBombError as exc:  # past Pillow's own limit, which is above ours
        found = re.search(r"\((\d+) pixels\)", str(exc))
        if found:
            pixels = int(found.group(1))
            return f"{pixels / 1e6:.0f} megapixels", pixels
        limit = 2 * (Image.MAX_IMAGE_PIXELS or MAX_PIXELS)  # Pillow's error limit, said another way
        return f"over {limit / 1e6:.0f} megapixels", limit + 1
    except Exception:
        return None
    return f"{w}x{h} px ({w * h / 1e6:.0f} megapixels)", int(w) * int(h)


def load_image(path: str | Path) -> np.ndarray:
    """The picture at ``path`` as a BGR uint8 array."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UnreadableImage("{path}: is a folder, not a picture", path=p)
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise UnreadableImage(
                "{path}: {mb} MB is too large for a photo (limit {limit} MB)",
                path=p,
                mb=size // 2**20,
                limit=MAX_BYTES // 2**20,
            )
        data = p.read_bytes()
    except FileNotFoundError:
        raise UnreadableImage("{path}: no such file", path=p) from None
    except PermissionError:
        raise UnreadableImage("{path}: not allowed to read it", path=p) from None
    except OSError as exc:
        raise UnreadableImage("{path}: cannot be read ({error})", path=p, error=exc) from None
    if not data:
        raise UnreadableImage("{path}: the file is empty", path=p)
    heif = _is_heif(data)
    if heif:
        _register_heif()
    header = _header_size(data)
    if header is not None and header[1] > MAX_PIXELS:
        raise UnreadableImage(
            "{path}: {size} is too large a picture to read (limit {limit} megapixels)",
            path=p,
            size=header[0],
            limit=MAX_PIXELS // 1_000_000,
        )
    # imdecode rather than imread: it goes by content, not name; OpenCV's own warning on a
    # broken file ("PNG input buffer is incomplete") is held back, the error below says it
    image = _decode_heif(data) if heif else _decode(data)
    if image is None:
        raise UnreadableImage(
            "{path}: not a picture that can be decoded (corrupt, or not JPEG/PNG/BMP/TIFF/WebP/HEIC)", path=p
        )
    if min(image.shape[:2]) < MIN_SIDE:
        raise UnreadableImage(
            "{path}: {w}x{h} px is too small to read cards in", path=p, w=image.shape[1], h=image.shape[0]
        )
    return image


def _decode(data: bytes) -> np.ndarray | None:
    """OpenCV's decoding of ``data``, with its warnings held back (its errors are kept)."""
    log = cv2.utils.logging
    level = log.getLogLevel()
    log.setLogLevel(min(level, log.LOG_LEVEL_ERROR))
    try:
        return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    finally:
        log.setLogLevel(level)


def _is_heif(data: bytes) -> bool:
    """Whether ``data`` begins as a HEIF file (HEIC, an iPhone's photos): its first box
    is ``ftyp`` and names a HEIF brand."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


@functools.cache
def _register_heif() -> None:
    """Pillow learns to open HEIF files (pi-heif: libheif's decoder, no encoder), once."""
    import pi_heif

    pi_heif.register_heif_opener()


def _decode_heif(data: bytes) -> np.ndarray | None:
    """A HEIF file's primary picture as BGR, turned as the phone shows it (libheif
    applies the file's own turn and mirror, and pi-heif then says "upright" in the EXIF
    it hands on, so nothing is turned twice), or None when it cannot be decoded."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as picture:
            rgb = np.asarray(picture.convert("RGB"))
    except Exception:
        return None
    return np.ascontiguousarray(rgb[:, :, ::-1])
