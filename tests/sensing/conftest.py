from __future__ import annotations

import asyncio
import contextlib

import pytest

from table_controller.live import LiveTable, MemoryLog

from .world import PadWorld


@pytest.fixture
async def rig():
    """A live table reading a PadWorld, its loop running; stopped cleanly after the test."""
    world = PadWorld()
    live = LiveTable(MemoryLog(), world.deck, sensors=world, clock=world.clock, record_sensors=False, tick_s=0.005)
    task = asyncio.create_task(live.run())
    yield world, live
    await live.stop()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
