"""Suite-wide test settings."""

import pytest
from hypothesis import settings

# Speed is measured by the benchmarks in tests/bench, never by a unit test: hypothesis's
# per-example deadline would make a correct test fail on a busy machine.
settings.register_profile("chicago", deadline=None)
settings.load_profile("chicago")

# One OpenCV thread per test process (pytest-xdist runs one worker per core; child
# processes inherit the variable): the photo reader's networks would otherwise take
# every core and starve the live-table tests, whose virtual firmware keeps real time
# (its debounce and "card gone" timers) and whose bots wait for sensing to follow.
import os  # noqa: E402

import cv2  # noqa: E402

os.environ.setdefault("OPENCV_FOR_THREADS_NUM", "1")
cv2.setNumThreads(1)


def pytest_collection_modifyitems(config, items):
    # A browser runs on the wall clock too: "-m 'not realtime'" leaves only simulated
    # and fake-clock tests (issue 15).
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.realtime)
