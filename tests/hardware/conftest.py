from __future__ import annotations

import pytest

from hardware.virtual import VirtualTable


@pytest.fixture
def table():
    with VirtualTable(seed=1) as t:
        yield t
