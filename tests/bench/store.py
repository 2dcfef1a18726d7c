"""Benchmark of the table log (issue 6): durable appends per second, and the time to
rebuild a full three-game table from its file (target: under 200 ms).

    .venv/bin/python tests/bench/store.py

Figures are medians over several runs; the last line is a JSON object with the keys
durable_appends_per_s and rebuild_table_ms.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from table_controller.sim.bots import RandomBot
from table_controller.store import SQLiteStore
from table_controller.store.rebuild import resume
from table_controller.store.recorder import TableRecorder

RUNS = 5
APPENDS = 200


def durable_appends(tmp: Path) -> tuple[float, float]:
    """Single-record appends (each its own fsynced commit) and action+events batches
    through the recorder, per second."""
    singles, batches = [], []
    for run in range(RUNS):
        with SQLiteStore.open(tmp / f"appends{run}.sqlite", create=True) as store:
            t = time.perf_counter()
            for k in range(APPENDS):
                store.append_one("sensor", {"pad": "seat1", "uids": ["04a1b2c3", f"04{k:06x}"]}, "rfid")
            singles.append(APPENDS / (time.perf_counter() - t))
        recorder = TableRecorder(SQLiteStore.open(tmp / f"batches{run}.sqlite", create=True))
        bot = RandomBot(run)
        t = time.perf_counter()
        for _ in range(APPENDS):
            recorder.apply(bot.next_action(recorder.engine))
        batches.append(APPENDS / (time.perf_counter() - t))
        recorder.store.close()
        print(f"  run {run + 1}: {singles[-1]:.0f} appends/s, {batches[-1]:.0f} actions(+events)/s", file=sys.stderr)
    return statistics.median(singles), statistics.median(batches)


def full_table(tmp: Path) -> tuple[Path, int, int]:
    path = tmp / "full.sqlite"
    recorder = TableRecorder(SQLiteStore.open(path, create=True))
    bot = RandomBot(2026)
    actions = 0
    t = time.perf_counter()
    while (action := bot.next_action(recorder.engine)) is not None:
        recorder.apply(action, source="bot")
        actions += 1
        if actions % 250 == 0:
            print(f"  recording a full table: {actions} actions, {time.perf_counter() - t:.1f} s", file=sys.stderr)
    assert recorder.engine.phase == "table_over"
    records = recorder.store.last_seq()
    recorder.store.close()
    return path, actions, records


def rebuild_ms(path: Path, expected: dict) -> float:
    times = []
    for _ in range(RUNS + 2):
        t = time.perf_counter()
        engine, _ = resume(path)
        times.append((time.perf_counter() - t) * 1000)
        assert engine.state.to_dict() == expected
    return statistics.median(times)


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        print("durable appends (WAL, synchronous=FULL, one commit each):", file=sys.stderr)
        single, batch = durable_appends(tmp)
        path, actions, records = full_table(tmp)
        expected = resume(path)[0].state.to_dict()
        ms = rebuild_ms(path, expected)
        size_kb = path.stat().st_size / 1024
    print(f"durable appends: median {single:.0f} single records/s; {batch:.0f} actions with their events/s")
    print(f"full three-game table: {actions} actions, {records} records, {size_kb:.0f} KiB")
    print(f"rebuild (open, check, read, verify chain, fold): median {ms:.1f} ms (target < 200 ms)")
    print(
        json.dumps(
            {
                "durable_appends_per_s": round(single, 1),
                "rebuild_table_ms": round(ms, 1),
                "durable_actions_per_s": round(batch, 1),
                "table_records": records,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
