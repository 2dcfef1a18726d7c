"""Bad pictures from outside become a clear UnreadableImage naming the file."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import VisionError
from vision.photo import images, synth
from vision.photo.images import UnreadableImage, load_image


def test_a_png_round_trips(tmp_path):
    img = np.random.default_rng(1).integers(0, 255, (60, 80, 3), np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), img)
    assert np.array_equal(load_image(tmp_path / "a.png"), img)


def test_a_phone_photos_turn_is_applied(tmp_path):
    """A phone stores a portrait photo as landscape pixels and says in its EXIF tag how to
    turn it (orientation 6: a quarter turn clockwise); the picture is read turned, as the
    phone shows it, so a card's box is where a person sees it."""
    from PIL import Image

    img = np.zeros((60, 120, 3), np.uint8)
    img[:, :30] = 255  # white on the left as stored: at the top once turned
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(img).save(tmp_path / "portrait.jpg", "JPEG", exif=exif.tobytes(), quality=95)
    turned = load_image(tmp_path / "portrait.jpg")
    assert turned.shape == (120, 60, 3)
    assert turned[:20].mean() > 200 and turned[-60:].mean() < 30


HEIC = Path(__file__).parent / "data" / "portrait_qh.heic"


def test_an_iphone_heic_photo_is_read_turned_as_shown():
    """An iPhone saves HEIC, which OpenCV cannot decode. The fixture is a rendered queen of
    hearts (``synth.render_photo(0, ["QH"], 0.2)``, rows 80-560), stored a quarter turn to
    the left with the turn to undo in the file, as a phone stores a portrait photo; it
    is read as the phone shows it."""
    shown = load_image(HEIC)
    rendered = synth.render_photo(0, ["QH"], severity=0.2).image[80:560]
    assert shown.shape == rendered.shape == (480, 640, 3)
    assert np.abs(shown.astype(int) - rendered).mean() < 4  # HEIC is lossy: 1.3 measured
    assert np.abs(np.rot90(shown, 2).astype(int) - rendered).mean() > 20


def test_a_damaged_heic_says_so(tmp_path):
    (tmp_path / "cut.heic").write_bytes(HEIC.read_bytes()[:3000])
    with pytest.raises(UnreadableImage, match=r"cut\.heic: not a picture that can be decoded .*HEIC"):
        load_image(tmp_path / "cut.heic")


def test_the_content_decides_not_the_name(tmp_path):
    img = np.full((64, 64, 3), 200, np.uint8)
    ok, buf = cv2.imencode(".png", img)
    (tmp_path / "photo.txt").write_bytes(buf.tobytes())
    assert load_image(tmp_path / "photo.txt").shape == (64, 64, 3)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"hello, this is text not a photo\n", "not a picture"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 40, "not a picture"),  # a JPEG header and nothing else
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path, content, message):
    p = tmp_path / "bad.jpg"
    p.write_bytes(content)
    with pytest.raises(UnreadableImage, match=message) as info:
        load_image(p)
    assert str(p) in str(info.value)
    assert isinstance(info.value, VisionError) and isinstance(info.value, ValueError)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(UnreadableImage, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(UnreadableImage, match="folder"):
        load_image(tmp_path)


def test_tiny_picture_is_refused(tmp_path):
    cv2.imwrite(str(tmp_path / "t.png"), np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(UnreadableImage, match="too small"):
        load_image(tmp_path / "t.png")


def _png_header(width: int, height: int) -> bytes:
    """A PNG that says it is a picture of that size and holds a few rows of it: a file's
    size does not bound its picture (a 20000 x 20000 PNG of one colour is 0.4 MB)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(bytes(2 * (1 + 3 * width)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    "width, height, said", [(9000, 8000, "9000x8000 px (72 megapixels)"), (20000, 20000, "400 megapixels")]
)
def test_a_giant_picture_is_refused_before_it_is_decoded(tmp_path, width, height, said):
    p = tmp_path / "giant.png"
    p.write_bytes(_png_header(width, height))
    with pytest.raises(UnreadableImage, match="too large a picture") as info:
        load_image(p)
    assert said in str(info.value) and str(p) in str(info.value)


def test_the_pixel_limit_is_the_limit(tmp_path, monkeypatch):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((60, 80, 3), np.uint8))
    monkeypatch.setattr(images, "MAX_PIXELS", 60 * 80)
    assert load_image(tmp_path / "a.png").shape == (60, 80, 3)
    monkeypatch.setattr(images, "MAX_PIXELS", 60 * 80 - 1)
    with pytest.raises(UnreadableImage, match=r"80x60 px \(0 megapixels\) is too large"):
        load_image(tmp_path / "a.png")
