"""What the networks are fed (vision/photo/spec.py)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.photo import spec


@given(
    st.integers(1, 40).flatmap(
        lambda h: st.integers(1, 40).flatmap(lambda w: arrays(np.uint8, (h, w, 3), elements=st.integers(0, 255)))
    )
)
def test_a_detectors_input_is_written_in_one_pass_with_the_values_of_the_old_three(picture):
    """``net_input`` gives to the bit what the reader fed its detectors before (a float
    conversion, a division, channels first, then the network's contiguous copy), so no
    reading changes; contiguous, so ONNX Runtime takes it without a copy."""
    old = np.ascontiguousarray((picture.astype(np.float32) / 255.0).transpose(2, 0, 1)[None], dtype=np.float32)
    new = spec.net_input(picture)
    assert new.dtype == np.float32 and new.flags["C_CONTIGUOUS"]
    assert new.shape == old.shape and np.array_equal(new, old)


@given(
    arrays(np.uint8, st.tuples(st.integers(1, 50), st.integers(1, 50)), elements=st.integers(0, 255)),
    st.lists(st.floats(0, 100), min_size=1, max_size=4),
)
def test_percentiles_from_the_histogram_are_numpys_to_the_bit(pixels, qs):
    """The scene reader's crop statistics (median, 2nd, 90th, 98th percentile) come
    from ``percentiles``, which must give exactly what ``np.percentile`` gave, so that
    no crop is judged dark, grey or light-glyphed otherwise than before."""
    assert spec.percentiles(pixels, tuple(qs)) == [float(v) for v in np.percentile(pixels, qs)]


def _stripes(h: int = 1200, w: int = 1200) -> np.ndarray:
    """Black and white columns one pixel wide: any shrinking of them is mid grey."""
    picture = np.zeros((h, w, 3), np.uint8)
    picture[:, ::2] = 255
    return picture


def test_a_much_shrunk_crop_is_averaged_first_when_asked_so_it_is_not_aliased():
    # A 400 px square to 48 px: a straight warp samples 2 x 2 pixels for each of the
    # crop's, so fine detail comes out as stripes of its own (here black and white
    # columns read as a picture of contrast); averaged first, it is the grey it is.
    picture = _stripes()
    straight = spec.crop_square(picture, 600.3, 590.6, 400)
    smooth = spec.crop_square(picture, 600.3, 590.6, 400, smooth=True)
    assert straight.shape == smooth.shape == (spec.CLS_SIZE, spec.CLS_SIZE, 3)
    assert float(straight.std()) > 40
    assert float(smooth.std()) < 8 and abs(float(smooth.mean()) - 127.5) < 8


@pytest.mark.parametrize(
    ("cx", "cy", "side"),
    [(600.3, 590.6, 400), (5.0, 7.0, 300), (1190.0, 600.0, 97), (600, 600, 1500), (5000, 600, 300)],
)
def test_an_averaged_crop_shows_the_same_square_as_a_straight_one(cx, cy, side):
    # on a smooth picture the two crops agree: the same place, the same size, the
    # picture's edge replicated alike (a corner square, one past the edge, one larger
    # than the picture, one wholly outside it)
    y, x = np.mgrid[0:1200, 0:1200].astype(np.float32)
    picture = np.stack(
        [127 + 100 * np.sin(x / 90), 127 + 100 * np.cos(y / 110), 127 + 60 * np.sin((x + y) / 130)], axis=2
    )
    picture = picture.astype(np.uint8)
    straight = spec.crop_square(picture, cx, cy, side).astype(int)
    smooth = spec.crop_square(picture, cx, cy, side, smooth=True).astype(int)
    assert np.abs(straight - smooth).mean() < 0.75


def test_a_crop_that_shrinks_little_is_the_same_averaged_or_not():
    picture = _stripes(300, 300)
    for side in (48, 60, 95):  # shrunk by 0.5 or less: the warp alone does it
        assert np.array_equal(
            spec.crop_square(picture, 150, 150, side), spec.crop_square(picture, 150, 150, side, smooth=True)
        )


def test_a_face_is_cut_at_its_own_size_up_to_what_the_face_classifier_learnt():
    """``face_square``: the square round a face's box, its side FACE_GROW times the
    box's longer side, as large as the picture shows it up to FACE_SEEN_MAX (the face
    classifier learnt cards 45-150 px long); ``face_blob`` brings it to 64 x 64."""
    picture = np.zeros((400, 600, 3), np.uint8)
    picture[100:180, 200:260] = 255  # a white card 60 x 80 px
    small = spec.face_square(picture, (200, 100, 260, 180))
    assert small.shape == (round(80 * spec.FACE_GROW), round(80 * spec.FACE_GROW), 3)
    # the card in the middle, the rest of the square round it dark
    h = small.shape[0]
    assert small[h // 2, h // 2].min() == 255 and small[1, 1].max() == 0
    large = spec.face_square(picture, (0, 0, 600, 400))
    assert large.shape[0] == round(spec.FACE_SEEN_MAX * spec.FACE_GROW)
    # outside the picture its edge is replicated, not black
    edge = np.full((100, 100, 3), 200, np.uint8)
    assert spec.face_square(edge, (-50, -50, 50, 50)).min() == 200
    blob = spec.face_blob([small, large])
    assert blob.shape == (2, 3, spec.FACE_CLS_SIZE, spec.FACE_CLS_SIZE) and blob.dtype == np.float32
    assert blob.min() >= 0.0 and blob.max() <= 1.0 and blob.flags["C_CONTIGUOUS"]
