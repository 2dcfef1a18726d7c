"""Faults with a real broker, real hub and publisher processes (issue 20, item 5): kill
the broker mid-stream and start it again, cut a table off for a while, kill the hub.
In every case nothing is lost or doubled, and the hub's standings equal those folded
from the tables' own logs."""

from __future__ import annotations

from table_controller.rules.replay import table_document
from table_controller.store import SQLiteStore
from table_controller.store.rebuild import resume
from table_controller.tournament.draw import draw_seats
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.standings import Standings

from .broker import wait_until
from .procs import hub_proc, publisher_proc
from .tables import RecordedTable, play_as_drawn
from .test_publish import make_hub

SEED = "fault-seed"


def heads(hub_db):
    with HubStore.open(hub_db, readonly=True) as hub:
        return {t: s for t, (s, _) in hub.heads().items()}


def caught_up(hub_db, tables):
    h = heads(hub_db)
    return all(h.get(t.table_id, 0) == t.last_seq() for t in tables)


def test_broker_killed_table_cut_off_hub_killed_nothing_lost_or_doubled(broker, tmp_path):
    hub_db = tmp_path / "hub.sqlite"
    drawn = make_hub(hub_db, seed=SEED)
    tables = []
    for k, t in enumerate(drawn):
        rt = RecordedTable(
            tmp_path / f"{t['table']}.sqlite",
            play_as_drawn(
                t,
                seed=10 + k,
                playoff_draw=lambda ps, g, tid=t["table"]: draw_seats(ps, seed=SEED, table=tid, game=g, playoff=True),
            ),
        )
        rt.table_id = t["table"]
        tables.append(rt)
    step = max(len(t.actions) for t in tables) // 6 + 1

    def play_all():
        for t in tables:
            t.play(step)

    hub = hub_proc(hub_db, broker.port, tmp_path).start()
    pubs = {t.table_id: publisher_proc(t.path, t.table_id, broker.port, tmp_path).start() for t in tables}
    try:
        play_all()
        wait_until(lambda: caught_up(hub_db, tables), 60, "the first part of every table")

        # 1. the broker dies mid-stream (SIGKILL, no persistence: what it held is gone)
        play_all()
        broker.kill()
        play_all()  # the tables play on alone
        broker.start()
        wait_until(lambda: caught_up(hub_db, tables), 60, "catch-up after the broker came back")

        # 2. one table cut off for a while
        cut = tables[1]
        pubs[cut.table_id].kill()
        play_all()
        others = [t for t in tables if t is not cut]
        wait_until(lambda: caught_up(hub_db, others), 60, "the other tables")
        assert heads(hub_db)[cut.table_id] < cut.last_seq()
        pubs[cut.table_id].start()
        wait_until(lambda: caught_up(hub_db, tables), 60, "the cut-off table catching up")

        # 3. the hub dies mid-stream
        play_all()
        hub.kill()
        play_all()
        hub.start()
        for t in tables:
            t.play()  # to the end
        wait_until(lambda: caught_up(hub_db, tables), 90, "everything after the hub came back")
    finally:
        for p in pubs.values():
            p.stop()
        hub.stop()

    with HubStore.open(hub_db, readonly=True) as hubstore:
        for t in tables:
            assert t.finished
            with SQLiteStore.open(t.path, readonly=True) as own:
                mine = [(r.seq, r.digest) for r in own.read()]
            theirs = [(r.seq, r.digest) for r in hubstore.records(t.table_id)]
            assert theirs == mine  # nothing lost, nothing doubled, in order
        assert hubstore.conflicts() == []
        board = Standings(hubstore)
        board.update()
        doc = board.document()
    heat = doc["heats"][0]
    assert heat["complete"]
    for t, hub_t in zip(tables, heat["tables"]):
        own = table_document(resume(t.path)[0])
        assert hub_t["standings"] == own["standings"]
        assert hub_t["advancing"] == own["advancing"] and len(own["advancing"]) == 2  # heat 1: top 2 (r7)
        assert hub_t["problems"] == []
    assert heat["advancing"] == [p for t in tables for p in table_document(resume(t.path)[0])["advancing"]]
    for t in tables:
        t.close()
