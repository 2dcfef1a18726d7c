"""Benchmark: the read path of one table (issue 14 item 3).  Run: .venv/bin/python tests/bench/views.py

A bot table in process (the live loop on a fake clock, the hub, no server) played 60
actions in; then, best of 15 batches of process CPU time:
- ``build_view_ms``: the live loop's view model from engine state, alerts and clocks;
- ``six_texts_ms``: the role filter and JSON of every role's message (TL, Revisor, public,
  dealer, broadcast and its masked frame), the work of one change for a full room;
- ``publish_ms``: one change end to end in the hub (view built, pumped, frame pushed).
Last line: JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dashboard.delay import BroadcastDelay
from dashboard.hub import TableHub, start_frame
from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.sim.bots import RandomBot
from table_controller.store import TableRecorder

ROLES = ("tl", "revisor", "public", "dealer", "broadcast", "broadcast:masked")


def best_ms(f, batches: int = 15, n: int = 50) -> float:
    out = []
    for _ in range(batches):
        t = time.process_time()
        for _ in range(n):
            f()
        out.append((time.process_time() - t) / n)
    return round(min(out) * 1e3, 3)


async def main(folder: Path) -> dict[str, float]:
    mono = FakeClock(0.0)
    log, _ = TableRecorder.resume(folder / "table.sqlite")  # as table_controller.app.table_files
    live = LiveTable(log, virtual_deck(), clock=mono)
    hub = TableHub(
        live, BroadcastDelay(folder / "broadcast.sqlite", start_frame("T"), delay=5, clock=mono.now), name="T"
    )
    bot = RandomBot(3)
    for _ in range(60):
        action = bot.next_action(hub.engine)
        if action is None:
            break
        await hub.submit_local(action)

    def texts() -> None:
        hub._publish(new_state=False)  # clears the texts and the combined model
        for r in ROLES:
            hub._text(r)

    def publish() -> None:
        live._publish()
        hub._pump_now()

    out = {"build_view_ms": best_ms(live.view), "six_texts_ms": best_ms(texts), "publish_ms": best_ms(publish)}
    log.close()
    hub.delay.close()
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        figures = asyncio.run(main(Path(d)))
    for k, v in figures.items():
        print(f"{k:>14}: {v} ms")
    print(json.dumps(figures))
