from __future__ import annotations

import asyncio
import contextlib

import pytest

from table_controller.live import LiveTable
from table_controller.store import TableRecorder

from .world import PadWorld


@pytest.fixture
async def rig():
    """A live table reading a PadWorld, its loop running; stopped cleanly after the test."""
    world = PadWorld()
    live = LiveTable(
        TableRecorder.in_memory(), world.deck, sensors=world, clock=world.clock, record_sensors=False, tick_s=0.005
    )
    task = asyncio.create_task(live.run())
    yield world, live
    await live.stop()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
