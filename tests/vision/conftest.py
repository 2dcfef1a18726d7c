"""Rendered scenes for the vision tests.  Seeds 0..999 are the tests'; the
recogniser was tuned on 1000..1999; the benchmark measures on 500000 and up."""

from __future__ import annotations

from functools import lru_cache

import pytest

from vision.scene import Scene, random_scene, render


@lru_cache(maxsize=64)
def scene_and_frame(seed: int, severity: float, fill: float = 0.8):
    scene = random_scene(seed, severity, fill=fill)
    return scene, render(scene)


@pytest.fixture
def rendered():
    return scene_and_frame


def frame_of(scene: Scene):
    return render(scene)
