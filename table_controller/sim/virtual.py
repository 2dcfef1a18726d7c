"""Bots playing a whole table on the virtual table, through the serial bridge and sensing.

    live, shadow = await bots_on_virtual_table(seed=7, db="table.sqlite")

The virtual table (hardware/virtual: the real firmware logic on simulated readers, over
a pseudo-terminal) runs with a noise model; the bridge reads it like the real seat
controller; the live loop senses every action; the bots' own engine (the shadow)
must end in the same state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from table_controller.deck import virtual_deck
from table_controller.live.table import LiveTable
from table_controller.sim.bots import RandomBot
from table_controller.sim.driver import TableDriver, VirtualHands
from table_controller.store import TableRecorder


def mild_noise():
    """The default for bots on the virtual table (issue 5: "its default noise model on"):
    an ordinary day at a table: a card now and then missed in one scan, an occasional
    empty scan, and stacks read only a few cards at a time (an MFRC522 sees ~2-3)."""
    from hardware.virtual import NoiseModel

    return NoiseModel(flicker=0.03, missed_scan=0.01, stack_limit=3)


def noise_model(name: str):
    from hardware.virtual import NoiseModel

    return {"default": mild_noise, "mild": mild_noise, "clean": NoiseModel.clean, "rough": NoiseModel.rough}[name]()


async def _dealer_resumes(live: LiveTable, table, within_s: float = 5.0) -> None:
    """After a restart the clocks wait paused for the dealer (issue 6): the pads have
    been seen, the dealer presses *pause* to let them run again."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.5)  # the pads reported as they lie
    if not live.clocks.paused:
        return
    table.press("pause")
    end = loop.time() + within_s
    while live.clocks.paused and loop.time() < end:
        await asyncio.sleep(0.05)


# A new table in simulated time stamps its log from here (2026-01-01 00:00 UTC) on its
# simulated clock, so a --fast table's log is the same on every run (issue 15).
FAST_EPOCH = 1_767_225_600.0


def stamp_on_simulated_time(log: TableRecorder) -> None:
    """A durable ``log`` of a table in simulated time: its records' times from the loop's
    clock, from ``FAST_EPOCH`` (a new log) or a second after its newest record (a resumed
    one, whose times then still only grow)."""
    last = log.last_time()
    start = FAST_EPOCH if last is None else last + 1.0
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    log.stamp_with(lambda: start + (loop.time() - t0))


async def bots_on_virtual_table(
    seed: int = 0,
    log: TableRecorder | None = None,
    noise: str = "default",
    players=("Anna", "Bo", "Cilla", "Dan"),
    ruleset: str = "sm2025",
    sync_timeout: float = 30.0,
    record_sensors: bool = True,
    progress: Callable | None = None,
    max_actions: int = 100_000,
    script=None,
    fast: bool = False,
    reader: str = "mfrc522",
    bot: Callable | None = None,
    clock_limits: dict[str, float] | None = None,
):
    """Play a table to its end (or an action ``script`` instead of the bots); returns
    (live table, shadow engine, driver).

    A ``log`` that already holds a table is resumed: the virtual table is rebuilt from
    its actions (``resume.py``) and the bots play on to the end.

    ``fast``: the virtual table in simulated time (run this on a ``SimulatedTimeLoop``,
    ``hardware.virtual.simtime.run_simulated``): the firmware runs on the loop's timers, the
    line is in memory (``sim://``), and every part reads the one clock, the loop's.
    ``reader``: the virtual table's reader under every pad, "mfrc522" (stacks read a few
    cards per scan) or "pn5180" (read whole).  ``bot``: the bots' ``next_action``
    (default a :class:`RandomBot` of ``seed``, ``players``, ``ruleset``; a
    :class:`~table_controller.sim.bots.DrawnBot` plays the hub's draw).  ``clock_limits``: the
    event's shot clocks (D11's defaults for any not given)."""
    from firmware_bridge import SeatControllerClient
    from hardware.virtual import VirtualTable
    from hardware.virtual.deck import INLAYS
    from hardware.virtual.simtime import LoopClock

    log = log or TableRecorder.in_memory()
    if fast:
        stamp_on_simulated_time(log)
    from hardware.firmware.controller import Config

    # Simulated time: the board at its own pace (Config's defaults, as on the Pico: a scan
    # every 20 ms, a card gone after 300 ms unseen), which costs a tenth of the scans and
    # is what sensing meets on a real table.  On the wall clock: the firmware's logic at a
    # quicker pace (a scan every 2 ms, a card gone after 60 ms), so a table plays quickly.
    config = Config() if fast else Config(confirm_reads=2, gone_ms=60, scan_ms=2)
    # sensing's and the bots' pace to match: a card is really gone after 0.5 s unseen (the
    # sensing default, for the board's 300 ms) or 0.25 s (the quick firmware's 60 ms)
    linger_s, pause_s = (0.5, 0.6) if fast else (0.25, 0.3)
    clock = LoopClock()  # the loop's time: simulated seconds when fast, monotonic otherwise
    table = VirtualTable(
        noise=noise_model(noise), seed=seed, config=config, simulated=fast, clock=clock, autostart=False, reader=reader
    )
    resumed = None
    if log.engine.state.rules is not None:  # a table in the log: its cards back where they lay
        from table_controller.sim.resume import logged_actions, rebuild_table

        resumed = rebuild_table(logged_actions(log), table)
    with table:
        async with SeatControllerClient(table.port, clock=clock) as sc:
            for _ in range(200):  # the HELLO handshake
                if sc.online:
                    break
                await asyncio.sleep(0.02)
            live = LiveTable(
                log,
                virtual_deck(inlay=INLAYS[reader]),
                sensors=sc,
                leds=sc.set_led,
                record_sensors=record_sensors,
                linger_s=linger_s,
                clock=clock,
                clock_limits=clock_limits,
            )
            task = asyncio.create_task(live.run())
            driver = TableDriver(
                live,
                VirtualHands(
                    table,
                    lambda pad: sc.pads.get(pad, frozenset()),
                    pause_s=pause_s,
                    poll_s=max(0.005, config.scan_ms / 1000 / 2),  # no use more often than twice a scan
                    changed=sc.pads_changed,
                ),
                sync_timeout=sync_timeout,
                progress=progress,
            )
            if resumed is not None:
                driver.shadow, driver.translator = resumed
            try:
                if resumed is not None:
                    await _dealer_resumes(live, table)
                if script is not None:
                    await driver.play(script=script, max_actions=max_actions)
                else:
                    next_action = bot or RandomBot(seed, players, ruleset).next_action
                    await driver.play(next_action, max_actions=max_actions)
            finally:
                await live.stop()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
    return live, driver.shadow, driver
