from __future__ import annotations

import asyncio

import pytest


@pytest.fixture(autouse=True)
async def no_tasks_left_behind():
    """Fail a test that leaves asyncio tasks running (a loop that did not shut down)."""
    before = asyncio.all_tasks()
    yield
    await asyncio.sleep(0)
    left = [t for t in asyncio.all_tasks() - before if not t.done() and t is not asyncio.current_task()]
    assert not left, f"tasks left running: {left}"
