from __future__ import annotations

import asyncio
import os

import pytest


@pytest.fixture(autouse=True)
async def no_tasks_left_behind():
    """Fail a test that leaves asyncio tasks running (a loop that did not shut down)."""
    before = asyncio.all_tasks()
    yield
    await asyncio.sleep(0)
    left = [t for t in asyncio.all_tasks() - before if not t.done() and t is not asyncio.current_task()]
    assert not left, f"tasks left running: {left}"


@pytest.fixture
def ram_path(tmp_path):
    """A folder on tmpfs (/dev/shm) when there is one, else ``tmp_path``.  For whole bot
    tables with a SQLite log: every commit is fsynced (synchronous=FULL), which on a busy
    shared disk costs more than the table; on tmpfs the file is as real (WAL, the same
    SQLite, a killed process leaves what it committed) and an fsync costs nothing."""
    import shutil
    import tempfile
    from pathlib import Path

    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        path = Path(tempfile.mkdtemp(prefix="chicago-test-", dir="/dev/shm"))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path
