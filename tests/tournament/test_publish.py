"""The table side over a real Mosquitto: every record reaches the hub once, in order,
and the table never waits for the broker (issue 20, item 1)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from table_controller.store import SQLiteStore
from table_controller.tournament.event import create_event, draw_first_heat, register, withdraw
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.publisher import TablePublisher
from table_controller.tournament.service import HubService

from .broker import until
from .tables import RecordedTable, play_as_drawn

PLAYERS = [(f"Spelare {i}", f"Klubb {i % 3}") for i in range(1, 13)]


def make_hub(path, seed="seed-1", shot_clocks=""):
    with HubStore.open(path, create=True) as hub:
        create_event(hub, "sm2026", "SM 2026", "sm2025", shot_clocks)
        register(hub, PLAYERS)
        draw_first_heat(hub, seed=seed)
        return hub.tables(1)


def same_log(table_db, hub_db, table_id):
    with SQLiteStore.open(table_db, readonly=True) as s, HubStore.open(hub_db) as hub:
        mine = [(r.seq, r.digest) for r in s.read()]
        theirs = [(r.seq, r.digest) for r in hub.records(table_id)]
    return mine == theirs


def hub_head(hub_db, table_id):
    with HubStore.open(hub_db) as hub:
        return hub.head(table_id)[0]


@contextlib.asynccontextmanager
async def running(*services):
    stop = asyncio.Event()
    tasks = [asyncio.create_task(s.run(stop)) for s in services]
    try:
        yield stop
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 20)


async def test_every_record_reaches_the_hub_once_in_order(broker, tmp_path):
    tables = make_hub(tmp_path / "hub.sqlite")
    t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=1))
    t.play(300)
    hub = HubService(tmp_path / "hub.sqlite", port=broker.port)
    pub = TablePublisher(t.path, table=tables[0]["table"], event="sm2026", port=broker.port, batch=50)
    async with running(hub, pub):
        await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the first part")
        t.play()  # the rest of the table, while the publisher runs
        await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the whole table")
    assert same_log(t.path, tmp_path / "hub.sqlite", "h1-t1")
    assert hub.stats["conflicts"] == 0 and hub.stats["bad"] == 0
    t.close()


async def test_the_table_plays_on_while_the_broker_is_down_and_catches_up_after(tmp_path):
    from .broker import Broker

    tables = make_hub(tmp_path / "hub.sqlite")
    broker = Broker(tmp_path)  # its port is known; it is not running yet
    t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=2))
    pub = TablePublisher(t.path, table="h1-t1", event="sm2026", port=broker.port, retry=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(pub.run(stop))
    try:
        for _ in range(5):  # the publisher keeps trying in the same loop; the table never waits for it
            t.play(100)
            await asyncio.sleep(0)
        assert not pub.connected.is_set() and t.last_seq() > 500
        broker.start()
        hub = HubService(tmp_path / "hub.sqlite", port=broker.port)
        async with running(hub):
            await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the catch-up")
            t.play()
            await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the rest")
        assert same_log(t.path, tmp_path / "hub.sqlite", "h1-t1")
        assert hub.stats["stored"] == t.last_seq()  # each record taken once (a resend is dropped)
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)
        broker.stop()
        t.close()


async def test_a_heat_drawn_while_the_hub_serves_is_published_to_the_tables__r7(broker, tmp_path):
    import aiomqtt

    from table_controller.tournament import topics

    hub_db = tmp_path / "hub.sqlite"
    with HubStore.open(hub_db, create=True) as h:
        create_event(h, "sm2026", "SM 2026", "sm2025")
        register(h, PLAYERS)
    hub = HubService(hub_db, port=broker.port, standings_every=0.05)
    async with running(hub):
        await until(hub.connected.is_set, what="the hub connected")
        with HubStore.open(hub_db) as h:  # as 'chicago-table hub draw' in another process
            draw_first_heat(h, seed="live")
            drawn = h.tables(1)
        async with aiomqtt.Client("127.0.0.1", broker.port) as c:
            await c.subscribe(topics.draw_topic("sm2026", "h1-t2"), qos=1)
            async with asyncio.timeout(90):
                async for msg in c.messages:  # retained: there once the hub has published it
                    got = topics.parse_json(msg.payload, "draw")
                    break
        assert got["games"] == drawn[1]["games"] and got["players"] == drawn[1]["players"]
        # a no-show withdrawn before the tables start: the heat drawn again is published again
        # (as many seat draws as before: the hub tells them apart by the newer draw, stop 71)
        with HubStore.open(hub_db) as h:
            withdraw(h, drawn[0]["players"][0], "did not come", seed="again")
            redrawn = h.tables(1)
        assert sorted(len(t["players"]) for t in redrawn) == [3, 4, 4]
        assert redrawn[1]["players"] != drawn[1]["players"]  # the retained draw must change
        async with aiomqtt.Client("127.0.0.1", broker.port) as c:
            await c.subscribe(topics.draw_topic("sm2026", "h1-t2"), qos=1)
            async with asyncio.timeout(90):
                async for msg in c.messages:
                    got = topics.parse_json(msg.payload, "draw")
                    if got["players"] == redrawn[1]["players"]:
                        break
        assert got["games"] == redrawn[1]["games"]
        # one more: 10 players sit at three tables, 9 at three too; 8 at two, and the third
        # table's retained draw is cleared, not left for a table that no longer plays
        async with aiomqtt.Client("127.0.0.1", broker.port) as c:
            await c.subscribe(topics.draw_topic("sm2026", "h1-t3"), qos=1)
            with HubStore.open(hub_db) as h:
                for p in [q for q in h.players() if q != drawn[0]["players"][0]][:3]:
                    withdraw(h, p, "did not come")
                assert len(h.tables(1)) == 2
            async with asyncio.timeout(90):
                async for msg in c.messages:
                    if not msg.payload:  # the retained draw cleared
                        break


async def test_a_tied_table_gets_its_sarspel_drawn_through_the_broker__r11_r7(broker, tmp_path):
    import aiomqtt

    from table_controller.tournament import topics

    from .test_event import tie_start

    hub_db = tmp_path / "hub.sqlite"
    tables = make_hub(hub_db, seed="tie")
    t1 = tables[0]
    t = RecordedTable(tmp_path / "t1.sqlite", tie_start(t1))
    t.play()  # three games, three straight flushes: three players tied (r11)
    hub = HubService(hub_db, port=broker.port)
    pub = TablePublisher(t.path, table=t1["table"], event="sm2026", port=broker.port)
    async with running(hub, pub):
        async with aiomqtt.Client("127.0.0.1", broker.port) as c:
            await c.subscribe(topics.draw_topic("sm2026", t1["table"]), qos=1)
            async with asyncio.timeout(30):
                async for msg in c.messages:  # the table learns its särspel seats from the hub
                    drawn = topics.parse_json(msg.payload, "draw")
                    if any(g["playoff"] for g in drawn["games"]):
                        break
        (sp,) = [g for g in drawn["games"] if g["playoff"]]
        assert sp["game"] == 4 and len(sp["seats"]) == 3
        t.actions = play_as_drawn(t1, seed=3, start=t.actions, playoff_draw=lambda ps, g: sp)
        t.play()
        await until(lambda: hub_head(hub_db, t1["table"]) == t.last_seq(), what="the särspel at the hub")
    with HubStore.open(hub_db, readonly=True) as h:
        from table_controller.tournament.standings import Standings

        board = Standings(h)
        board.update()
        (doc,) = [x for x in board.document()["heats"][0]["tables"] if x["table"] == t1["table"]]
    assert doc["finished"] and doc["problems"] == [] and len(doc["advancing"]) == 2
    assert doc["advancing"][0] in sp["seats"]  # the särspel's winner heads the table (r11)
    t.close()


async def test_the_link_to_the_broker_can_be_encrypted_and_checks_the_brokers_certificate(tmp_path, capsys):
    """Stop 63's second audit read a table's broker password and its deal off the hall's
    network: the link had no TLS. With ``--cafile`` (a TLS context here) the publisher and
    the hub reach a broker's TLS listener, check its certificate and carry the table whole;
    a publisher that trusts another certificate is refused by TLS and delivers nothing. The
    command warns in Swedish and English when a broker beyond this machine has no TLS."""
    import argparse
    import ssl

    import aiomqtt

    from table_controller.app.commands.hub import _tls
    from tests.dashboard.test_security import make_certificate

    from .broker import Broker

    cert, key = make_certificate(tmp_path)
    broker = Broker(tmp_path, tls=(cert, key)).start()
    try:
        tables = make_hub(tmp_path / "hub.sqlite")
        t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=1))
        t.play(200)
        trusted = ssl.create_default_context(cafile=str(cert))
        hub = HubService(tmp_path / "hub.sqlite", port=broker.port, tls=trusted)
        (tmp_path / "other").mkdir()
        other, _ = make_certificate(tmp_path / "other")  # a certificate the broker does not hold
        with pytest.raises(aiomqtt.MqttError, match="CERTIFICATE_VERIFY_FAILED"):
            async with aiomqtt.Client(
                "127.0.0.1", broker.port, tls_context=ssl.create_default_context(cafile=str(other))
            ):
                pass
        with pytest.raises(aiomqtt.MqttError):  # and a client without TLS gets no answer it can read
            async with aiomqtt.Client("127.0.0.1", broker.port, timeout=3):
                pass
        pub = TablePublisher(t.path, table=tables[0]["table"], event="sm2026", port=broker.port, tls=trusted)
        async with running(hub, pub):
            await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the table over TLS")
        assert same_log(t.path, tmp_path / "hub.sqlite", "h1-t1")
        t.close()
    finally:
        broker.stop()
    assert _tls(argparse.Namespace(cafile=None), "127.0.0.1") is None and capsys.readouterr().err == ""
    assert _tls(argparse.Namespace(cafile=None), "hub.local") is None
    err = capsys.readouterr().err
    assert err.index("VARNING: länken till mäklaren hub.local är okrypterad") < err.index("WARNING")


async def test_a_log_shorter_than_the_hubs_copy_is_said_not_sent_silently(broker, tmp_path, caplog):
    """A table started again on a new data folder publishes a log the hub holds more of:
    the hub takes none of it.  Stop 71's audit: the publisher then said nothing, and the
    TL's screen showed the table online with its old copy.  It says so now."""
    import logging

    tables = make_hub(tmp_path / "hub.sqlite")
    t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=1))
    t.play(300)
    again = RecordedTable(tmp_path / "again.sqlite", play_as_drawn(tables[0], seed=2))
    again.play(50)
    hub = HubService(tmp_path / "hub.sqlite", port=broker.port)
    pub = TablePublisher(t.path, table="h1-t1", event="sm2026", port=broker.port, batch=100)
    async with running(hub, pub):
        await until(lambda: hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq(), what="the first log")
    caplog.set_level(logging.WARNING, logger="table_controller.tournament.publisher")
    second = TablePublisher(again.path, table="h1-t1", event="sm2026", port=broker.port, batch=100)
    async with running(hub, second):
        said = f"the hub holds {t.last_seq()} records of this table, this log only {again.last_seq()}"
        await until(lambda: said in caplog.text, what="the publisher saying the hub is ahead")
    assert hub_head(tmp_path / "hub.sqlite", "h1-t1") == t.last_seq()  # the hub's copy stands
    t.close()
    again.close()
