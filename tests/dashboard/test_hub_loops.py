"""The hub's release loop ends at one cancel, also when the cancel lands as its wake-up
completes: on the Pi's Python 3.11 an ``asyncio.wait_for`` there dropped such a cancel, the
loop ran on, and the server's shutdown waited on it for ever (the same lost cancel that hung
the tournament hub, tests/tournament/test_aio.py). The loops now wait with
``asyncio.timeout``; ruff's banned-api rule (pyproject.toml) keeps ``wait_for`` out of the
product."""

from __future__ import annotations

import asyncio

from dashboard.delay import BroadcastDelay
from dashboard.hub import TableHub, start_frame
from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.store import TableRecorder


async def test_the_release_loop_ends_at_a_cancel_that_lands_as_it_wakes(tmp_path):
    mono = FakeClock(0.0)
    log, _ = TableRecorder.resume(tmp_path / "table.sqlite")
    hub = TableHub(
        LiveTable(log, virtual_deck(), clock=mono),
        BroadcastDelay(tmp_path / "broadcast.sqlite", start_frame("T"), delay=5, clock=mono.now),
        name="T",
    )
    try:
        loop = asyncio.create_task(hub.broadcast_loop())
        for _ in range(3):
            await asyncio.sleep(0)  # the loop waits for its wake-up
        hub._wake.set()  # a new frame wakes it...
        loop.cancel()  # ...in the same pass as the server's shutdown cancels it
        for _ in range(5):
            await asyncio.sleep(0)
        assert loop.cancelled()
    finally:
        log.close()
        hub.delay.close()
