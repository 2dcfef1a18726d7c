"""The table's pause is kept in one place, the live table's shot clocks (issue 14): the
banner every role is shown follows a pause from the TL, from the dealer's console, and
the pause a restart leaves until someone resumes (issue 6)."""

from __future__ import annotations

import asyncio
import json

import pytest

from dashboard.errors import DashboardError
from table_controller.app.table_files import open_table
from table_controller.rules import actions as act
from table_controller.sensor_events import ButtonPressed

from .test_hub import FakeClock

PLAYERS = ("Anna", "Bo", "Cilla", "Dan")
ROLES = ("tl", "revisor", "public", "dealer")


def _newest(client) -> dict:
    text = None
    while not client.queue.empty():
        text = client.queue.get_nowait()
    assert text is not None, "no message"
    return json.loads(text)


async def _into_a_deal(hub) -> None:
    await hub.submit_local(act.TableStart(PLAYERS))
    await hub.submit_local(act.GameStart(PLAYERS, "Dan"))
    from table_controller.sim.bots import RandomBot

    await hub.submit_local(RandomBot(1).next_action(hub.engine))  # the deal: exchange clocks run
    assert hub.live.clocks.view()["running"]


def test_a_console_pause_shows_on_every_banner_and_the_tl_resumes_it(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _into_a_deal(hub)
        clients = {r: hub.connect(r) for r in ROLES}
        assert not any(_newest(c)["paused"] for c in clients.values())
        await hub.live.feed(ButtonPressed(1.0, "pause"))  # the dealer's console, not the TL
        hub._pump_now()
        for r, c in clients.items():
            m = _newest(c)
            assert m["paused"] and m["state"]["clocks"]["paused"], r
        assert hub.paused
        with pytest.raises(DashboardError, match="paused"):  # the Revisor waits, as for the TL's pause
            await hub.post({"do": "chicago", "player": "Bo", "say": False}, "revisor")
        with pytest.raises(DashboardError, match="already paused"):
            hub.set_paused(True, "tl")
        hub.set_paused(False, "tl")  # the TL can resume a console pause (it said "not paused")
        assert not hub.live.clocks.paused
        for r, c in clients.items():
            m = _newest(c)
            assert not m["paused"] and not m["state"]["clocks"]["paused"], r
        await hub.live.feed(ButtonPressed(2.0, "pause"))
        hub._pump_now()
        assert all(_newest(c)["paused"] for c in clients.values())
        hub.log.close()

    asyncio.run(run())


def test_a_restarted_table_shows_paused_until_it_is_resumed(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _into_a_deal(hub)
        task = asyncio.create_task(hub.live.run())
        await asyncio.sleep(0)
        await hub.live.stop()
        await task  # the clocks stored as they stand (a killed table keeps its ticker's)
        hub.log.close()
        hub.delay.close()

        again, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        assert again.live.clocks.paused  # the restored clocks wait for the dealer (issue 6)
        assert again.paused
        clients = {r: again.connect(r) for r in ROLES}
        for r, c in clients.items():
            m = _newest(c)
            assert m["paused"] and m["state"]["clocks"]["paused"], r
        again.set_paused(False, "tl")  # before: "the table is not paused", and the clocks stayed stopped
        assert not again.live.clocks.paused
        assert not any(_newest(c)["paused"] for c in clients.values())
        again.log.close()

    asyncio.run(run())
