"""What the networks are fed (vision/photo/spec.py)."""

import numpy as np
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
