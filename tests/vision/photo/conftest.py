"""Shared fixtures: the development photos (skipped with a reason when absent) and
the recogniser, loaded once."""

from __future__ import annotations

import pytest

from vision.photo.dataset import ENV_VAR, data_dir, load_photos
from vision.photo.recognise import Recogniser


@pytest.fixture(scope="session")
def dev_photos():
    root = data_dir()
    if not (root / "labels.csv").is_file():
        pytest.skip(f"development photos not found at {root} (set {ENV_VAR} to their folder)")
    return load_photos(root)


@pytest.fixture(scope="session")
def reader() -> Recogniser:
    return Recogniser.load()
