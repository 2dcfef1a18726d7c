"""An event's broker (TOPICS.md): a user per table and for the hub, topics restricted by
ACL.  The hub and a table log in; a table cannot put records in another table's name."""

from __future__ import annotations

import aiomqtt

from table_controller.tournament import topics
from table_controller.tournament.publisher import TablePublisher
from table_controller.tournament.service import HubService

from .broker import Broker, until
from .tables import RecordedTable, play_as_drawn
from .test_publish import hub_head, make_hub, running, same_log

ACL = """user hub
topic read chicago/v2/sm2026/tables/#
topic write chicago/v2/sm2026/hub/#
pattern write chicago/v2/sm2026/tables/%u/#
pattern read chicago/v2/sm2026/hub/ack/%u
pattern read chicago/v2/sm2026/hub/draw/%u
"""


async def test_tables_log_in_and_write_only_their_own_topics(tmp_path):
    users = {"hub": "hub-secret", "h1-t1": "t1-secret", "h1-t2": "t2-secret"}
    broker = Broker(tmp_path, users=users, acl=ACL).start()
    hub_db = tmp_path / "hub.sqlite"
    tables = make_hub(hub_db)
    t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=4))
    try:
        t.play(200)
        hub = HubService(hub_db, port=broker.port, username="hub", password="hub-secret")
        pub = TablePublisher(
            t.path, table="h1-t1", event="sm2026", port=broker.port, username="h1-t1", password="t1-secret"
        )
        async with running(hub, pub):
            await until(lambda: hub_head(hub_db, "h1-t1") == t.last_seq(), what="the table through its login")
            await until(lambda: "h1-t1" in hub.online, what="the table's status")
            # table 2's user publishes records in table 1's name: the broker drops them, unseen
            forged = [
                r
                for r in RecordedTable(tmp_path / "f.sqlite", play_as_drawn(tables[0], seed=99)).store_records(300)
                if r.seq > t.last_seq()
            ][:20]
            assert forged
            async with aiomqtt.Client("127.0.0.1", broker.port, username="h1-t2", password="t2-secret") as c:
                await c.publish(topics.records_topic("sm2026", "h1-t1"), topics.records_payload("h1-t1", forged), qos=1)
            t.play(50)  # the real table goes on
            await until(lambda: hub_head(hub_db, "h1-t1") == t.last_seq(), what="the real table's records")
        assert same_log(t.path, hub_db, "h1-t1") and hub.stats["conflicts"] == 0 and hub.stats["bad"] == 0
        try:
            async with aiomqtt.Client("127.0.0.1", broker.port, username="h1-t1", password="wrong"):
                raise AssertionError("a wrong password must not connect")
        except aiomqtt.MqttError as exc:
            assert "not authori" in str(exc).lower()
    finally:
        broker.stop()
        t.close()
