"""Shared helpers for the store tests: a table log written by the real recorder."""

from __future__ import annotations

from pathlib import Path

from table_controller.sim.bots import RandomBot
from table_controller.store import SQLiteStore
from table_controller.store.recorder import TableRecorder
from table_controller.store.snapshots import ClockSnapshot


def record_bot_table(path: Path, seed: int, actions: int | None = None, extras: bool = True) -> TableRecorder:
    """Play ``actions`` bot actions (None: the whole table) into a new log, with a clock
    snapshot, a sensor reading, an alert and an audit record now and then.  Closed on return."""
    recorder = TableRecorder(SQLiteStore.open(path, create=True))
    bot = RandomBot(seed)
    n = 0
    while actions is None or n < actions:
        action = bot.next_action(recorder.engine)
        if action is None:
            break
        recorder.apply(action, source="bot")
        n += 1
        if extras and n % 25 == 0:
            recorder.record_clock(ClockSnapshot({"seat1": 30.0 - n % 30, "seat2": 12.5}, paused=False))
            recorder.record_sensor({"pad": "seat1", "uids": ["04a1b2", "04c3d4"]}, "rfid")
        if extras and n % 70 == 0:
            recorder.alert("camera and RFID disagree on seat2", pad="seat2")
            recorder.audit("tl:Eva", "reveal_hand", player="Bo")
    recorder.store.close()
    return recorder
