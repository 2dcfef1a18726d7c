"""Benchmark: table records through a real Mosquitto into the tournament hub.

    .venv/bin/python tests/bench/hub.py [--tables 50] [--actions 300] [--batch 200] [--cut-actions 1000]

50 simulated tables (bot-played logs in SQLite, one aiomqtt publisher each, all in this
process) publish to a real broker; the hub (``chicago-table hub serve``) runs in its own
process and stores every record durably (one fsynced transaction per message).
``hub_events_per_s``: records in the hub's copies per second, from the publishers' start
until the hub holds every record of every table.  ``catch_up_s``: a table cut off while
it wrote ``--cut-actions`` actions (about 2,300 records, a whole game: more than ten
minutes of play at a live table) is connected again; seconds until the hub has it all.
Last line: JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from table_controller.tournament.event import create_event, draw_first_heat, register  # noqa: E402
from table_controller.tournament.hubstore import HubStore  # noqa: E402
from table_controller.tournament.publisher import TablePublisher  # noqa: E402
from tests.tournament.broker import Broker  # noqa: E402
from tests.tournament.procs import hub_proc  # noqa: E402
from tests.tournament.tables import RecordedTable, play_as_drawn  # noqa: E402

VERBOSE = False


def heads(hub_db: Path) -> dict[str, int]:
    with HubStore.open(hub_db, readonly=True) as hub:
        return {t: s for t, (s, _) in hub.heads().items()}


async def until_caught_up(hub_db: Path, want: dict[str, int], timeout: float = 600) -> None:
    end = time.monotonic() + timeout
    while True:
        h = heads(hub_db)
        if VERBOSE:
            print(f"  {time.monotonic():.2f}: {sum(h.values())}")
        if all(h.get(t, 0) >= n for t, n in want.items()):
            return
        if time.monotonic() > end:
            raise SystemExit(f"timed out: the hub has {sum(h.values())} of {sum(want.values())} records")
        await asyncio.sleep(0.02)


async def hub_listening(port: int) -> None:
    """The hub has subscribed once it publishes the draws (retained): what is published
    before its first session would not be queued for it."""
    import aiomqtt

    async with aiomqtt.Client("127.0.0.1", port) as c:
        await c.subscribe("chicago/v2/bench/hub/draw/+", qos=1)
        async for _ in c.messages:
            return


async def run(args) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="hub-bench-"))
    broker = Broker(folder).start()
    hub_db = folder / "hub.sqlite"
    with HubStore.open(hub_db, create=True) as hub:
        create_event(hub, "bench", "bench", "sm2025")
        register(hub, [(f"P{i:03d}", "") for i in range(4 * args.tables)])
        _, drawn = draw_first_heat(hub, seed="bench")
    t0 = time.perf_counter()
    tables = []
    for k, t in enumerate(drawn):
        rt = RecordedTable(folder / f"{t['table']}.sqlite", play_as_drawn(t, seed=k))
        rt.play(args.actions)
        want_seq = rt.last_seq()
        rt.close()
        tables.append((t["table"], rt, want_seq))
    want = {tid: n for tid, _, n in tables}
    total = sum(want.values())
    print(f"{len(tables)} tables, {total} records written in {time.perf_counter() - t0:.1f} s")
    hub = hub_proc(hub_db, broker.port, folder).start()
    await hub_listening(broker.port)
    stop = asyncio.Event()
    pubs = [
        TablePublisher(rt.path, table=tid, event="bench", port=broker.port, batch=args.batch) for tid, rt, _ in tables
    ]
    tasks: list[asyncio.Task] = []
    try:
        start = time.perf_counter()
        tasks = [asyncio.create_task(p.run(stop)) for p in pubs]
        await until_caught_up(hub_db, want)
        took = time.perf_counter() - start
        rate = total / took
        print(
            f"through the hub: {total} records in {took:.2f} s = {rate:.0f} records/s "
            f"({sum(p.sent_messages for p in pubs)} messages)"
        )

        # one table cut off while it plays on, then connected again
        cut_id, cut, _ = tables[0]
        tasks[0].cancel()
        await asyncio.gather(tasks[0], return_exceptions=True)
        now = cut.play(args.cut_actions)
        cut.close()
        with HubStore.open(hub_db, readonly=True) as h:
            had = h.head(cut_id)[0]
        print(f"cut off: {cut_id} wrote {now - had} records the hub does not have")
        start = time.perf_counter()
        again = TablePublisher(cut.path, table=cut_id, event="bench", port=broker.port, batch=args.batch)
        tasks[0] = asyncio.create_task(again.run(stop))
        await until_caught_up(hub_db, {cut_id: now})
        catch_up = time.perf_counter() - start
        print(f"catch-up after the cut: {catch_up:.2f} s for {now - had} records")
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        hub.stop()
        broker.stop()
    return {
        "tables": len(tables),
        "records": total,
        "batch": args.batch,
        "hub_events_per_s": round(rate),
        "cut_records": now - had,
        "catch_up_s": round(catch_up, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--actions", type=int, default=300, help="actions per table before the measurement")
    ap.add_argument("--batch", type=int, default=200, help="records per message at most")
    ap.add_argument("--cut-actions", type=int, default=1000, help="actions the cut-off table plays meanwhile")
    args = ap.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
