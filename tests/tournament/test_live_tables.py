"""Three live tables through a real Mosquitto to the hub, with faults (issue 20, item 5).

Each table is ``chicago-table run --virtual --bots --fast`` (bots on the virtual table,
in simulated time), seated from the hub's draw (``--hub URL --table-id``), with
``chicago-table hub publish`` beside it following the table's growing SQLite log, as a
club runs them.  A table plays in parts (``--max-actions``, then resumed from its log),
so every fault lands mid-game at a known point without a wall-clock sleep:

1. the broker is killed (SIGKILL, nothing persisted) while the tables play, and started
   again after they played on alone;
2. one table's publisher is cut off for a part of the game, then comes back;
3. the hub is killed while the tables play, and started again.

While a part runs, a table is held (SIGSTOP: a simulated table does not notice) once it
has written records, until the hub has them: the hub takes the log while the game goes
on, not only after it.  At the end the hub's copy of every table equals the table's own
log record for record (nothing lost, nothing doubled), and its standings equal those
folded from the tables' own logs.
"""

from __future__ import annotations

import os
import re
import signal
import time

import httpx
import pytest

from table_controller.rules.replay import table_document
from table_controller.store import SQLiteStore
from table_controller.store.errors import StoreError
from table_controller.store.rebuild import resume
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.standings import Standings

from .broker import free_port, wait_until
from .procs import hub_proc, publisher_proc, table_proc, wait_exit, web_proc
from .test_publish import make_hub

PART = 300  # actions of a table per part; a whole table is about 2,500


def heads(hub_db) -> dict[str, int]:
    with HubStore.open(hub_db, readonly=True) as hub:
        return {t: s for t, (s, _) in hub.heads().items()}


def last_seq(db) -> int:
    try:
        with SQLiteStore.open(db, readonly=True, check=False) as s:
            return s.last_seq()
    except StoreError:  # not there yet, or being created this moment
        return 0


class Table:
    def __init__(self, tid: str, seed: int, folder, hub_url: str):
        self.id, self.seed, self.folder, self.hub_url = tid, seed, folder, hub_url
        self.db = folder / f"{tid}.sqlite"
        self.proc = None

    def play(self, actions: int | None = PART):
        self.proc = table_proc(self.db, self.id, self.seed, self.hub_url, self.folder, actions).start()
        return self

    def done(self) -> None:
        assert wait_exit(self.proc) == 0, (self.folder / f"{self.id}.run.log").read_text()[-2000:]

    def finished(self) -> bool:
        return resume(self.db)[0].state.finished


def caught_up(hub_db, tables) -> bool:
    h = heads(hub_db)
    return all(h.get(t.id, 0) == last_seq(t.db) > 0 for t in tables)


def held_while_playing(t: Table, hub_db, since: int) -> bool:
    """Hold the running table (SIGSTOP) once it wrote records past ``since``; wait until
    the hub has them; let it go on.  False if the part ended before it could be held."""
    p = t.proc.p
    wait_until(lambda: last_seq(t.db) > since or p.poll() is not None, 300, f"{t.id} playing")
    os.kill(p.pid, signal.SIGSTOP)
    try:
        if p.poll() is not None:
            return False
        seq = last_seq(t.db)
        if seq <= since:
            return False
        wait_until(lambda: heads(hub_db).get(t.id, 0) >= seq, 120, f"the hub taking {t.id} mid-game")
        return not t.finished()  # the game goes on after what the hub has
    finally:
        os.kill(p.pid, signal.SIGCONT)


@pytest.mark.slow  # about 3 minutes: three whole tables, each a few thousand fsynced commits
@pytest.mark.timeout(1200)
def test_three_live_bot_tables_through_mosquitto_broker_table_and_hub_faults(broker, tmp_path):
    started = time.monotonic()
    hub_db = tmp_path / "hub.sqlite"
    drawn = make_hub(hub_db, seed="live")  # 12 players: three tables of four
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    web = web_proc(hub_db, port, tmp_path).start()

    def web_up():
        try:
            return httpx.get(url + "/api/standings", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    hub = hub_proc(hub_db, broker.port, tmp_path)
    tables = [Table(t["table"], 31 + k, tmp_path, url) for k, t in enumerate(drawn)]
    pubs = {t.id: publisher_proc(t.db, t.id, broker.port, tmp_path) for t in tables}
    held = 0
    try:
        wait_until(web_up, 30, "the hub's web server (the draw)")
        hub.start()
        for p in pubs.values():
            p.start()  # beside each table before it starts: it waits for the log to appear

        # part 1: everything up; each table held once mid-part until the hub has its records
        for t in tables:
            t.play()
        held += sum(held_while_playing(t, hub_db, 0) for t in tables)
        for t in tables:
            t.done()
        wait_until(lambda: caught_up(hub_db, tables), 120, "part 1 at the hub")
        assert not any(t.finished() for t in tables)

        # part 2: the broker dies while the tables play; they play on alone
        before = {t.id: last_seq(t.db) for t in tables}
        for t in tables:
            t.play()
        wait_until(lambda: any(heads(hub_db).get(t.id, 0) > before[t.id] for t in tables), 120, "part 2 streaming")
        broker.kill()
        for t in tables:
            t.done()
        assert all(last_seq(t.db) > before[t.id] for t in tables)
        broker.start()
        wait_until(lambda: caught_up(hub_db, tables), 120, "catch-up after the broker came back")

        # part 3: one table cut off from the broker for a part of the game
        cut = tables[1]
        others = [t for t in tables if t is not cut]
        pubs[cut.id].kill()
        for t in tables:
            t.play()
        for t in tables:
            t.done()
        wait_until(lambda: caught_up(hub_db, others), 120, "the other tables")
        assert heads(hub_db)[cut.id] < last_seq(cut.db)  # the cut table's part is not at the hub
        pubs[cut.id].start()
        wait_until(lambda: caught_up(hub_db, tables), 120, "the cut-off table catching up")

        # part 4: the hub dies while the tables play, and comes back
        before = {t.id: last_seq(t.db) for t in tables}
        for t in tables:
            t.play()
        wait_until(lambda: any(heads(hub_db).get(t.id, 0) > before[t.id] for t in tables), 120, "part 4 streaming")
        hub.kill()
        for t in tables:
            t.done()
        hub.start()
        wait_until(lambda: caught_up(hub_db, tables), 120, "catch-up after the hub came back")

        # the rest of every game, everything up, each table held once more mid-game
        before = {t.id: last_seq(t.db) for t in tables}
        for t in tables:
            t.play(None)
        held += sum(held_while_playing(t, hub_db, before[t.id]) for t in tables)
        for t in tables:
            t.done()
        wait_until(lambda: caught_up(hub_db, tables), 180, "every table to its end")
    finally:
        for t in tables:
            if t.proc is not None:
                t.proc.stop()
        for p in pubs.values():
            p.stop()
        hub.stop()
        web.stop()
    wall = time.monotonic() - started

    assert held >= 1  # at least once a table was seen at the hub while it still played
    records = 0
    with HubStore.open(hub_db, readonly=True) as hubstore:
        for t in tables:
            assert t.finished()
            with SQLiteStore.open(t.db, readonly=True) as own:
                mine = [(r.seq, r.digest) for r in own.read()]
            theirs = [(r.seq, r.digest) for r in hubstore.records(t.id)]
            assert theirs == mine  # nothing lost, nothing doubled, in order
            records += len(mine)
        assert hubstore.conflicts() == []
        # the shot clocks came too (tables/TABLE/clocks): at the end nobody's clock runs
        clocks = hubstore.clocks()
        assert set(clocks) == {t.id for t in tables}
        assert all(c["running"] == {} for c in clocks.values())
        board = Standings(hubstore)
        board.update()
        doc = board.document()
    (heat,) = doc["heats"]
    assert heat["complete"]
    for t, hub_t in zip(tables, heat["tables"]):
        own = table_document(resume(t.db)[0])
        assert hub_t["standings"] == own["standings"] and hub_t["advancing"] == own["advancing"]
        assert hub_t["problems"] == []  # players, heat and every game's seats as the hub drew them (r7)
    simulated = sum(
        float(s)
        for t in tables
        # run's summary line, Swedish first: "N s of simulated table time"
        for s in re.findall(r"(\d+) s simulerad tid vid bordet", (tmp_path / f"{t.id}.run.log").read_text())
    )
    print(
        f"\nlive tables: {len(tables)} tables, {records} records at the hub, "
        f"{simulated:.0f} s of simulated table time in all, {wall:.0f} s wall, held mid-game {held} time(s)"
    )
