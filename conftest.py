"""Collection outside tests/: the docstring examples (`make lint` runs pytest --doctest-modules
over the packages)."""

import pytest
from _pytest.doctest import DoctestItem

# The Pico's board glue imports MicroPython's own modules (machine, neopixel) and cannot be
# imported on CPython; the firmware tests run it (tests/link).
collect_ignore = ["hardware/firmware/hal_pico.py", "hardware/firmware/main.py"]


@pytest.fixture(autouse=True)
def _examples_write_into_a_fresh_folder(request: pytest.FixtureRequest) -> None:
    """An example that opens "table7.sqlite" makes it in a fresh folder, never in the checkout."""
    if isinstance(request.node, DoctestItem):
        request.getfixturevalue("monkeypatch").chdir(request.getfixturevalue("tmp_path"))
