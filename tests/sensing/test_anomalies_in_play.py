"""Real anomalies in the middle of a bot game: each raises its alert, holds the table,
and the game completes after the correction, with exactly the bots' actions."""

from __future__ import annotations

import asyncio

from table_controller.sensor_events import LinkStatus, ReaderStatus
from table_controller.sim.bots import RandomBot
from table_controller.sim.driver import TableDriver

from .helpers import assert_same_game


async def _until_alert(live, kind, timeout=5.0):
    for _ in range(int(timeout / 0.01)):
        found = [a for a in live.alerts if a.kind == kind]
        if found:
            return found[0]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {kind} alert; open: {[a.kind for a in live.alerts]}")


async def test_unknown_tag_offline_reader_and_lost_link_are_alerted_and_recovered(rig):
    world, live = rig
    fixes: list[asyncio.Task] = []
    seen: dict[str, object] = {}

    async def stray_tag():
        world.extra["seat2"] = {"04DEADBEEF0001"}  # a card from another deck lands on seat2
        world.report_all()
        seen["unknown"] = await _until_alert(live, "unknown_uid")
        world.extra.clear()  # the TL takes it off the table
        world.report_all()

    async def reader_down():
        world.queue.put_nowait(ReaderStatus(world.clock.now(), "seat3", False, "antenna-timeout"))
        seen["reader"] = await _until_alert(live, "reader_offline")
        await asyncio.sleep(0.05)
        world.queue.put_nowait(ReaderStatus(world.clock.now(), "seat3", True))

    async def link_down():
        world.queue.put_nowait(LinkStatus(world.clock.now(), False, "SC-VIRTUAL", "port lost"))
        seen["link"] = await _until_alert(live, "link_offline")
        await asyncio.sleep(0.05)
        world.queue.put_nowait(LinkStatus(world.clock.now(), True, "SC-VIRTUAL"))
        world.report_all()  # after a reconnect the pads are reported anew

    plan = {25: stray_tag, 60: reader_down, 120: link_down}

    def progress(n, shadow):
        if n in plan:
            fixes.append(asyncio.get_running_loop().create_task(plan.pop(n)()))

    driver = TableDriver(live, world, sync_timeout=8, progress=progress)
    shadow = await driver.play(RandomBot(4).next_action, max_actions=400)
    await asyncio.gather(*fixes)
    assert_same_game(driver.played, live, shadow)
    assert seen["unknown"].pad == "seat2" and seen["unknown"].evidence["uid"] == "04DEADBEEF0001"
    assert seen["reader"].pad == "seat3" and seen["link"].holds
    assert not [a for a in live.alerts if a.holds]
