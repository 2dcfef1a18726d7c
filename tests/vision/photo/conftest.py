"""Shared fixtures: the development photos and the multi-card photos (each skipped
with a reason when absent) and the recogniser, loaded once."""

from __future__ import annotations

import pytest

from vision.photo import scenes_data
from vision.photo.dataset import ENV_VAR, data_dir, load_photos
from vision.photo.recognise import Recogniser


@pytest.fixture(scope="session")
def dev_photos():
    root = data_dir()
    if not (root / "labels.csv").is_file():
        pytest.skip(f"development photos not found at {root} (set {ENV_VAR} to their folder)")
    return load_photos(root)


@pytest.fixture(scope="session")
def scenes():
    root = scenes_data.data_dir()
    if not (root / "images.csv").is_file():
        pytest.skip(f"multi-card photos not found at {root} (set {scenes_data.ENV_VAR} to their folder)")
    return scenes_data.load_scenes(root)


@pytest.fixture(scope="session")
def reader() -> Recogniser:
    return Recogniser.load()
