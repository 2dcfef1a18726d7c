"""Simulated time (issue 15): the fast-forward loop, the in-memory ``sim://`` line, and
the virtual table's firmware on the loop's timers.  Nothing here waits on the wall
clock: a test that slept for real would fail the ``no_wall_sleep`` guard."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from firmware_bridge.client import SeatControllerClient
from firmware_bridge.errors import CommandFailed
from hardware.virtual import NoiseModel, VirtualTable
from hardware.virtual.simtime import LoopClock, SimulatedTimeLoop, run_simulated

FAST = dict(silence_s=1.0, hello_timeout_s=0.5, backoff_s=(0.02, 0.2), ping_s=0.3)


@pytest.fixture(autouse=True)
def no_wall_sleep(monkeypatch):
    """Simulated time never sleeps on the wall clock: time.sleep fails the test."""

    def refuse(seconds):
        raise AssertionError(f"time.sleep({seconds}) in simulated time")

    monkeypatch.setattr(time, "sleep", refuse)


def test_the_loop_jumps_to_the_next_timer_instead_of_sleeping():
    order = []

    async def sleeper(name, s):
        await asyncio.sleep(s)
        order.append((name, asyncio.get_running_loop().time()))

    async def main():
        await asyncio.gather(sleeper("hour", 3600), sleeper("second", 1), sleeper("minute", 60))
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.Event().wait(), 30)  # a timeout on simulated time
        return asyncio.get_running_loop().time()

    wall = time.perf_counter()
    end = run_simulated(main(), start=100.0)
    assert time.perf_counter() - wall < 5  # an hour and a half of simulated time, not of ours
    # each timer fires as time reaches it (a jump lands a hair, one float step, past it)
    assert [n for n, _ in order] == ["second", "minute", "hour"]
    assert [t for _, t in order] == pytest.approx([101.0, 160.0, 3700.0], abs=1e-9)
    assert end == pytest.approx(3730.0, abs=1e-9)


def test_executor_work_runs_inline_on_simulated_time():
    async def main():
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        value = await asyncio.to_thread(lambda: 6 * 7)
        with pytest.raises(ZeroDivisionError):
            await loop.run_in_executor(None, lambda: 1 / 0)
        return value, loop.time() - t0

    assert run_simulated(main()) == (42, 0.0)


def test_loop_clock_reads_the_running_loop():
    async def main():
        clock = LoopClock()
        await asyncio.sleep(2.5)
        return clock.now(), clock.ms()

    now, ms = run_simulated(main(), start=10.0)
    assert now == pytest.approx(12.5, abs=1e-9) and ms == 12500


def test_after_follow_wall_clock_the_loop_waits_for_its_timers_for_real():
    """The demo's table in simulated time, then its dashboard at an ordinary pace."""

    async def main():
        loop = asyncio.get_running_loop()
        await asyncio.sleep(600)  # ten simulated minutes, at once
        assert loop.fast_forward
        t0, wall0 = loop.time(), time.monotonic()
        loop.follow_wall_clock()
        assert not loop.fast_forward and loop.time() >= t0  # never backwards
        await asyncio.sleep(0.05)
        return loop.time() - t0, time.monotonic() - wall0

    # a real sleep of the loop (its selector), not time.sleep, which the guard refuses
    loop_passed, wall_passed = run_simulated(main(), start=5.0)
    assert wall_passed >= 0.05 and loop_passed >= 0.05


async def _online(sc, within: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not sc.online:
        assert loop.time() < end, "no handshake on the sim:// line"
        await asyncio.sleep(0.01)


def test_the_bridge_reads_a_simulated_table_over_sim_url():
    async def main():
        table = VirtualTable(seed=1, simulated=True)
        try:
            assert table.port.startswith("sim://")
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as sc:
                await _online(sc)
                assert sc.device.device_id == "SC-VIRTUAL"
                table.deal("seat2", ["AS", "KS"])
                uids = frozenset(table.deck.uid(c) for c in ("AS", "KS"))
                t0 = asyncio.get_running_loop().time()
                while sc.pads.get("seat2") != uids:
                    await asyncio.sleep(0.001)
                seen_after = asyncio.get_running_loop().time() - t0
                table.press("next")
                event = await sc.next_event(2.0)
                while getattr(event, "button", None) != "next":
                    event = await sc.next_event(2.0)
                await sc.set_led("seat1", "red", blink=True)  # acknowledged over the line
                assert table.leds.shown["seat1"] in ("red", "off")
                return seen_after, sc.stats.dropped
        finally:
            table.close()

    seen_after, dropped = run_simulated(main())
    # confirm_reads=2 scans of 5 ms (fast_config): seen within a few scans, exactly
    assert 0.005 <= seen_after <= 0.02 and dropped == 0


def test_unplug_and_replug_on_the_sim_line():
    async def main():
        table = VirtualTable(seed=1, simulated=True)
        try:
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as sc:
                await _online(sc)
                table.unplug()
                await asyncio.sleep(0.05)
                assert not sc.online
                with pytest.raises(CommandFailed):
                    await sc.set_led("seat1", "green")
                await asyncio.sleep(1.0)  # backing off: the port is gone
                table.put("QH", "seat3")
                table.replug()
                await _online(sc)
                want = frozenset({table.deck.uid("QH")})
                while sc.pads.get("seat3") != want:
                    await asyncio.sleep(0.005)
                return table.boots, sc.stats.connects
        finally:
            table.close()

    assert run_simulated(main()) == (2, 2)


def test_a_rough_simulated_line_is_the_same_on_every_run():
    """Noise, byte corruption and all: the same seed, the same bytes, the same events."""

    async def main():
        table = VirtualTable(seed=5, simulated=True, noise=NoiseModel.rough())
        events = []
        try:
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as sc:
                await _online(sc)
                for i, code in enumerate(["2C", "3C", "4C", "5C", "6C", "7C"]):
                    table.put(code, f"seat{i % 4 + 1}")
                    await asyncio.sleep(0.05)
                table.pick_up("seat1")
                await asyncio.sleep(1.0)
                while True:
                    try:
                        events.append(repr(sc._queue.get_nowait()))
                    except asyncio.QueueEmpty:
                        break
                return events, sc.stats.decoder.dropped
        finally:
            table.close()

    first = run_simulated(main())
    assert first[0] and first == run_simulated(main())


def test_a_simulated_table_needs_a_running_loop():
    with pytest.raises(RuntimeError):
        VirtualTable(simulated=True)


def test_a_deadline_a_hair_ahead_is_reached_not_waited_for_for_ever():
    """A deadline computed as now + 1.5 can lie 1e-13 s ahead after rounding: asyncio
    would run its timer at once (within the clock's resolution) with simulated time
    standing still, and a task re-waiting for the rest would spin for ever (it did, in
    a resumed bot table)."""

    async def main():
        loop = asyncio.get_running_loop()
        end = loop.time() + 1e-13
        rounds = 0
        while loop.time() < end:
            rounds += 1
            assert rounds < 10
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(asyncio.Event().wait(), end - loop.time())
        return rounds

    assert run_simulated(main(), start=2.7699999999999) == 1


def test_simulated_loop_is_an_ordinary_asyncio_loop():
    loop = SimulatedTimeLoop(start=5.0)
    try:
        fut = loop.create_future()
        loop.call_later(10, fut.set_result, "done")
        assert loop.run_until_complete(fut) == "done" and loop.time() == pytest.approx(15.0)
    finally:
        loop.close()


def test_a_bot_table_in_simulated_time_never_sleeps_on_the_wall_clock():
    """The whole chain (firmware task, sim:// line, bridge, live loop, bots, log) on the
    loop's clock: time.sleep fails this test, and simulated seconds outrun the wall."""
    from table_controller.sim.virtual import bots_on_virtual_table

    async def main():
        loop = asyncio.get_running_loop()
        live, shadow, driver = await bots_on_virtual_table(seed=5, noise="rough", max_actions=40, fast=True)
        return loop.time(), len(driver.played), live.rejected

    wall = time.perf_counter()
    simulated, played, rejected = run_simulated(main())
    assert played >= 40 and rejected == []
    assert simulated > 2 * (time.perf_counter() - wall)


def test_a_script_plays_on_simulated_time():
    async def main():
        table = VirtualTable(seed=1, simulated=True)
        try:
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            await table.play_script(["deal seat1 2C 3C", "wait 2.5", "pickup seat1", "tray 2C"], gap_s=0.1)
            return loop.time() - t0, table.where("3C"), table.on_pad("tray")
        finally:
            table.close()

    took, where, tray = run_simulated(main())
    assert took == pytest.approx(2.9, abs=1e-6) and where == "hand:seat1" and tray == ["2C"]


def test_a_report_and_a_press_damaged_on_the_line_are_asked_for_again_at_once_classic_seed9_rough():
    """Seed sweep, classic seeds 9 and 35 (rough noise): a pad's report with the card a
    player had just placed was damaged on the line five times running (the change and
    every 500 ms repeat), so the dealer's *next* 2 s later closed the placement without
    it (r13); a press damaged on the line was lost for good.  The host now asks for a
    frame it missed again at once (RESEND) instead of waiting for the repeat."""

    async def main():
        table = VirtualTable(seed=1, simulated=True)
        try:
            port = table.pty
            write = port.write
            damaged: list[bytes] = []

            def damaging(data: bytes) -> None:
                three = b" PAD pad=seat3 " in data and data.count(b",") == 2
                if (three and len(damaged) < 3) or (b" BTN " in data and not any(b" BTN " in d for d in damaged)):
                    damaged.append(data)
                    data = data.replace(b"=", b":", 1)  # one byte flipped: the CRC fails
                write(data)

            port.write = damaging  # type: ignore[method-assign]
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as sc:
                await _online(sc)
                loop = asyncio.get_running_loop()
                uids = frozenset(table.deck.uid(c) for c in ("AS", "KS", "QS"))
                t0 = loop.time()
                table.deal("seat3", ["AS", "KS", "QS"])
                while sc.pads.get("seat3") != uids and loop.time() - t0 < 2.0:
                    await asyncio.sleep(0.001)
                seen_after = loop.time() - t0
                while not sc._queue.empty():
                    sc._queue.get_nowait()
                t1 = loop.time()
                table.press("next")
                presses = []
                while loop.time() - t1 < 1.0:
                    with contextlib.suppress(TimeoutError):
                        event = await sc.next_event(0.01)
                        if getattr(event, "button", None) == "next":
                            presses.append(event.at - t1)
                return seen_after, presses, len(damaged), getattr(sc.stats, "resend_requests", 0)
        finally:
            table.close()

    seen_after, presses, damaged, asked = run_simulated(main())
    assert seen_after < 0.05  # not 1.5 s, with the third repeat
    assert len(presses) == 1 and presses[0] < 0.1  # once, at once (it was lost before)
    assert damaged == 4 and asked >= 4


def test_a_frame_cut_in_two_by_a_damaged_byte_is_asked_for_once_and_a_press_after_it_comes_once_sm2019_seed7_rough():
    """Seed sweep, sm2019 seed 7 (rough noise), with RESEND: a byte of an ACK flipped
    into "$" cut that frame in two, the line counted two damaged frames and asked for the
    next one as well: the press that came next, which arrived, was sent again, and the
    second *next* closed the following placement as empty discards (r13)."""

    async def main():
        table = VirtualTable(seed=1, simulated=True)
        try:
            port = table.pty
            write = port.write
            held: list[bytes] = []
            cut: list[bytes] = []

            def one_behind(data: bytes) -> None:  # each frame waits for the next one
                if held:
                    prev = held.pop()
                    if b" BTN " in data and not cut:
                        prev = prev[:9] + b"$" + prev[10:]  # the frame before the press, cut in two
                        cut.append(prev)
                    write(prev)
                held.append(data)

            port.write = one_behind  # type: ignore[method-assign]
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as sc:
                await _online(sc)
                loop = asyncio.get_running_loop()
                while not sc._queue.empty():
                    sc._queue.get_nowait()
                t0 = loop.time()
                table.press("next")
                presses = 0
                while loop.time() - t0 < 1.0:
                    with contextlib.suppress(TimeoutError):
                        event = await sc.next_event(0.01)
                        presses += getattr(event, "button", None) == "next"
                return len(cut), presses, sc.stats.resend_requests
        finally:
            table.close()

    cut, presses, asked = run_simulated(main())
    assert cut == 1 and asked >= 1
    assert presses == 1
