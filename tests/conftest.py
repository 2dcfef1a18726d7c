"""Suite-wide test settings."""

import os

import pytest
from hypothesis import settings

# Speed is measured by the benchmarks in tests/bench, never by a unit test: hypothesis's
# per-example deadline would make a correct test fail on a busy machine.
settings.register_profile("chicago", deadline=None)
settings.load_profile("chicago")

# tmp_path and tmp_path_factory on tmpfs (/dev/shm) when there is one (issue 15): the
# suite's SQLite logs commit with synchronous=FULL, and on a busy shared disk every fsync
# waits for other people's writes; on tmpfs the files are as real (the same SQLite, WAL, a
# killed process leaves what it committed) and an fsync costs nothing.  pytest reads this
# variable ("Temporary directory location and retention" in its docs) the first time a
# test asks for a temporary folder; xdist's workers get sub-folders of the controller's.
# An explicit --basetemp, or the variable set by the caller, wins.
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"

# One OpenCV thread per test process (pytest-xdist runs one worker per core; child
# processes inherit the variable): the photo reader's networks would otherwise take
# every core and starve the live-table tests, whose virtual firmware keeps real time
# (its debounce and "card gone" timers) and whose bots wait for sensing to follow.
import cv2  # noqa: E402

os.environ.setdefault("OPENCV_FOR_THREADS_NUM", "1")
cv2.setNumThreads(1)


def pytest_collection_modifyitems(config, items):
    # A browser runs on the wall clock too: "-m 'not realtime'" leaves only simulated
    # and fake-clock tests (issue 15).
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.realtime)
