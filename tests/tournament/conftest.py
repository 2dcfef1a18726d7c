import shutil

import pytest

from .broker import MOSQUITTO, Broker


@pytest.fixture
def broker(tmp_path):
    if not shutil.which("mosquitto") and not shutil.which(MOSQUITTO):
        pytest.fail("mosquitto is not installed: 'make test' installs it (Debian package mosquitto)")
    b = Broker(tmp_path).start()
    yield b
    b.stop()
