"""Issue 6: "Restart: rebuild the state from the log and resume mid-deal, shot clocks
included (the remaining time is stored, and the clock stays paused until the dealer
resumes)".  A real SQLite file; a clean stop and a killed process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.rules import actions as act
from table_controller.sim.bots import RandomBot
from table_controller.store import TableRecorder


@contextlib.asynccontextmanager
async def running(db, start: float):
    log, _ = TableRecorder.resume(db)
    clock = FakeClock(start)
    live = LiveTable(log, virtual_deck(), clock=clock, tick_s=0.005)
    task = asyncio.create_task(live.run())
    try:
        yield live, clock
    finally:
        await live.stop()
        await asyncio.wait_for(task, 5)
        log.close()


async def to_exchange(live) -> list[str]:
    """Hand-entered actions up to the first exchange: the players whose clocks run."""
    bot = RandomBot(6)
    while not live.engine.phase.startswith("exchange"):
        await live.submit(bot.next_action(live.engine), "revisor")
    waiting = sorted(live.clocks_view()["running"])
    assert waiting and all(live.clocks_view()["running"][p]["clock"] == "exchange" for p in waiting)
    return waiting


async def ticked(live) -> None:
    await live.tick()
    await asyncio.sleep(0.02)


async def test_a_stopped_table_restarts_mid_deal_with_each_clock_paused_at_its_time(tmp_path):
    db = tmp_path / "table.sqlite"
    async with running(db, 100.0) as (live, clock):
        waiting = await to_exchange(live)
        clock.advance(12.0)
        await ticked(live)
        assert live.clocks.remaining(waiting[0]) == pytest.approx(18.0)
        phase, state = live.engine.phase, live.engine.state.to_dict()

    async with running(db, 7000.0) as (live, clock):  # another process: another monotonic clock
        assert live.engine.phase == phase and live.engine.state.to_dict() == state
        view = live.clocks_view()
        assert view["paused"] and sorted(view["running"]) == waiting
        assert all(view["running"][p]["remaining"] == pytest.approx(18.0) for p in waiting)
        clock.advance(500.0)  # the dealer takes a while: nobody's time
        await ticked(live)
        assert live.clocks.remaining(waiting[0]) == pytest.approx(18.0) and len(live.accepted) == 0
        live.resume("console")
        clock.advance(5.0)
        await ticked(live)
        assert not live.clocks.paused and live.clocks.remaining(waiting[0]) == pytest.approx(13.0)
        clock.advance(14.0)  # the clocks run out: D12, the exchange counts as placing nothing
        await ticked(live)
        timed_out = {a.player for src, a in live.accepted if src == "clock"}
        assert timed_out == set(waiting)


CHILD = textwrap.dedent("""
    import asyncio, sys
    from hardware.virtual.simtime import run_simulated
    from table_controller.sim.bots import RandomBot
    from table_controller.clocks import FakeClock
    from table_controller.deck import virtual_deck
    from table_controller.live import LiveTable
    from table_controller.store import TableRecorder

    async def main():
        log, _ = TableRecorder.resume(sys.argv[1])
        clock = FakeClock(100.0)
        live = LiveTable(log, virtual_deck(), clock=clock, tick_s=0.005)
        task = asyncio.create_task(live.run())
        bot = RandomBot(6)
        while not live.engine.phase.startswith("exchange"):
            await live.submit(bot.next_action(live.engine), "revisor")
        clock.advance(21.5)
        await asyncio.sleep(1.6)  # the ticker stores the running clocks (within about a second)
        print(sorted(live.clocks_view()["running"]), flush=True)
        sys.stdin.read()  # the whole loop stops here until the kill: no clean stop, no final snapshot

    run_simulated(main())  # the loop's second and a half is simulated: no wall-clock wait
""")


async def test_a_killed_table_restarts_with_the_time_its_clocks_had_left(tmp_path):
    db = tmp_path / "table.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), 120)
        waiting = eval(line)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    async with running(db, 50.0) as (live, clock):
        assert live.engine.phase.startswith("exchange")
        view = live.clocks_view()
        assert view["paused"] and sorted(view["running"]) == waiting
        # stored about a second apart: the time left then, give or take that second
        for p in waiting:
            assert 8.0 <= view["running"][p]["remaining"] <= 8.5 + 1e-6
        live.resume("console")
        clock.advance(3.0)
        await ticked(live)
        assert all(
            live.clocks.remaining(p) == pytest.approx(view["running"][p]["remaining"] - 3.0, abs=0.06) for p in waiting
        )


async def test_a_snapshot_older_than_the_last_action_keeps_nobodys_time_but_still_waits(tmp_path):
    db = tmp_path / "table.sqlite"
    async with running(db, 100.0) as (live, clock):
        waiting = await to_exchange(live)
        clock.advance(10.0)
        await ticked(live)
    # an action stored after the last snapshot (entered while the controller was down)
    log, _ = TableRecorder.resume(db)
    try:
        log.apply(act.Discard(waiting[0], ()), "revisor")
    finally:
        log.close()
    async with running(db, 0.0) as (live, clock):
        view = live.clocks_view()
        assert view["paused"] and waiting[0] not in view["running"] and view["running"]
        assert all(c["remaining"] == pytest.approx(c["limit"]) for c in view["running"].values())
        audit = [r.data for r in live.log.store.read(kinds=["audit"]) if r.data["what"] == "restored"]
        assert audit[-1]["current"] is False
