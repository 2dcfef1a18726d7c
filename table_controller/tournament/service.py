"""The hub's link to the broker: take every table's records, store them, say what it has.

    >>> await HubService("sm2026.hub.sqlite", port=1883).run(stop)   # doctest: +SKIP
    >>> # ^ until ``stop`` is set (not run with the examples: it needs a broker)

One durable transaction per message (``HubStore.ingest``), then the table's ack
(retained, so a table that connects later learns where to start).  The broker session
is persistent (fixed client id, ``clean_session=False``, QoS 1), so what the tables sent
while the hub was down waits at the broker; what the broker lost (a restart) the tables
send again from the ack.  Standings are folded from the copied logs and published
(retained) at most every ``standings_every`` seconds; a särspel a table needs gets its
seat draw (r11, r7) and the draw is published on the table's draw topic.  The
tables' shot clocks (``.../clocks``) are kept with the time they came, for the TL's
event screen (``hub web``), written to the hub file at most every ``standings_every``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import time
from typing import Any

import aiomqtt

from ..store.records import GENESIS
from . import topics
from .aio import cancel_and_wait
from .event import schedule_playoffs
from .hubstore import HubStore
from .notes import Quiet, fault, note, worth_saying
from .standings import Standings

log = logging.getLogger(__name__)


class HubService:
    def __init__(
        self,
        path: str | os.PathLike,
        *,
        host: str = "127.0.0.1",
        port: int = 1883,
        client_id: str | None = None,
        retry: float = 0.5,
        standings_every: float = 0.5,
        flush_every: int = 50,
        username: str | None = None,
        password: str | None = None,
        tls: ssl.SSLContext | None = None,
    ):
        self.path = path
        self.host, self.port = host, port
        self.client_id = client_id
        self.username, self.password = username, password
        self.tls = tls  # the link to the broker encrypted (TLS), its certificate checked
        self.retry, self.standings_every, self.flush_every = retry, standings_every, flush_every
        self.online: dict[str, dict[str, Any]] = {}
        self.stats = {"messages": 0, "stored": 0, "duplicates": 0, "out_of_order": 0, "conflicts": 0, "bad": 0}
        self.connected = asyncio.Event()
        self.hub: HubStore | None = None
        self.clocks: dict[str, tuple[dict[str, Any], float]] = {}  # table -> (clocks, received), not yet stored
        self._drawn: set[str] = set()
        self.board: Standings | None = None

    # the store and the board, once run() has opened them
    @property
    def _hub(self) -> HubStore:
        if self.hub is None:
            raise RuntimeError("the hub service is not running: run() opens its store")
        return self.hub

    @property
    def _board(self) -> Standings:
        if self.board is None:
            raise RuntimeError("the hub service is not running: run() builds its standings")
        return self.board

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        self.hub = hub = HubStore.open(self.path)
        self.board = Standings(hub)
        self.board.update()
        self.event = hub.event_id()
        quiet = Quiet()  # tried every half second: said once, then once a minute
        try:
            while not stop.is_set():
                try:
                    await self._session(stop)
                except aiomqtt.MqttError as exc:
                    if (words := worth_saying(quiet, self.connected.is_set(), exc)) is not None:
                        note(
                            log, logging.INFO, "hub: the broker cannot be reached ({error}); trying again", error=words
                        )
                self.connected.clear()
                if not stop.is_set():
                    try:
                        async with asyncio.timeout(self.retry):
                            await stop.wait()
                    except TimeoutError:
                        pass
        finally:
            self.connected.clear()
            hub.close()

    async def _session(self, stop: asyncio.Event) -> None:
        ev = self.event
        async with aiomqtt.Client(
            self.host,
            self.port,
            identifier=self.client_id or f"chicago-hub-{ev}",
            clean_session=False,
            keepalive=10,
            timeout=5,
            socket_options=topics.SOCKET_OPTIONS,
            username=self.username,
            password=self.password,
            tls_context=self.tls,
        ) as client:
            for what in ("records", "status", "head", "clocks"):
                await client.subscribe(topics.table_filter(ev, what), qos=1)
            # every table hears the hub is back (a publisher waiting to resend goes at once)
            heads = self._hub.heads()
            for table in sorted(set(heads) | {t["table"] for t in self._hub.tables()}):
                seq, dg = heads.get(table, (0, GENESIS))
                await client.publish(
                    topics.ack_topic(ev, table), topics.ack_payload(table, seq, dg), qos=1, retain=True
                )
            for t in self._hub.tables():
                await self._publish_draw(client, t)
            self._drawn = {t["table"] for t in self._hub.tables()}
            self.connected.set()
            self._dirty_standings = True
            reader = asyncio.create_task(self._read(client))
            ticker = asyncio.create_task(self._tick(client))
            stopper = asyncio.create_task(stop.wait())
            try:
                done, _ = await asyncio.wait({reader, ticker, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    if task is not stopper:
                        task.result()  # the connection's error, if any
                        raise aiomqtt.MqttError("the connection was lost")
            finally:
                await cancel_and_wait(reader, ticker, stopper)

    async def _read(self, client: aiomqtt.Client) -> None:
        messages = client.messages.__aiter__()
        while True:
            group = [await messages.__anext__()]
            while len(client.messages) and len(group) < self.flush_every:  # what is already waiting
                group.append(await messages.__anext__())
            batches = []
            for msg in group:
                self.stats["messages"] += 1
                topic = str(msg.topic)
                try:
                    if topic.endswith("/records"):
                        got = topics.parse_records(msg.payload)
                        if got["table"] != topics.table_of(topic):
                            raise topics.PayloadError("records of one table on another's topic")
                        batches.append((got["table"], got["records"]))
                    elif topic.endswith("/head"):
                        self._head(msg.payload, topic)
                    elif topic.endswith("/clocks"):
                        c = topics.parse_clocks(msg.payload)
                        if c["table"] != topics.table_of(topic):
                            raise topics.PayloadError("clocks of one table on another's topic")
                        if c["table"] in self._drawn:  # stored with the next tick (one write for all)
                            self.clocks[c["table"]] = (c, time.time())
                    elif topic.endswith("/status"):
                        st = topics.parse_status(msg.payload)
                        self.online[st["table"]] = st
                        last = st.get("last_seq")
                        self._hub.set_status(st["table"], st["online"], last if isinstance(last, int) else None)
                        self._dirty_standings = True
                except topics.PayloadError as exc:
                    self.stats["bad"] += 1
                    note(log, logging.WARNING, "hub: dropped a message on {topic}: {error}", topic=topic, error=exc)
            if batches:
                await self._take(client, batches)

    def _head(self, payload: bytes, topic: str) -> None:
        head = topics.parse_json(payload, "head")
        if head.get("table") != topics.table_of(topic) or head.get("event") != self.event:
            raise topics.PayloadError("a head of another table or event")
        why = self._hub.add_signed_head(head)
        if why:
            self.stats["bad_heads"] = self.stats.get("bad_heads", 0) + 1
            note(
                log,
                logging.WARNING,
                "hub: table {table}: signed head refused: {reason}",
                table=head["table"],
                reason=why,
            )

    async def _take(self, client: aiomqtt.Client, batches) -> None:
        """One durable transaction for the group, then the acks, then the standings."""
        results = self._hub.ingest_many(batches)
        dirty: dict[str, tuple[int, str]] = {}
        for (table, _records), res in zip(batches, results):
            self.stats["stored"] += res.stored
            self.stats["duplicates"] += res.duplicates
            self.stats["out_of_order"] += res.out_of_order
            self.stats["conflicts"] += len(res.conflicts)
            for _, what in res.conflicts:
                note(log, logging.WARNING, "hub: table {table}: {conflict}", table=res.table, conflict=what)
            dirty[table] = (res.have, res.digest)
        await asyncio.gather(
            *(
                client.publish(
                    topics.ack_topic(self.event, table), topics.ack_payload(table, seq, dg), qos=1, retain=True
                )
                for table, (seq, dg) in dirty.items()
            )
        )
        try:  # the copy is safe already; a standings fault must not stop the ingest
            for (table, records), res in zip(batches, results):
                if res.stored:
                    self._board.feed(table, [r for r in records if r.seq <= res.have][-res.stored :])
            new = schedule_playoffs(self._hub, self._board, set(dirty))
        except Exception as exc:
            fault(log, "hub: the standings cannot be folded ({error}); the records are stored and acknowledged", exc)
            new = []
        for game in new:
            drawn = self._hub.table(game["table"])
            if drawn is not None:  # just scheduled: it is there
                await self._publish_draw(client, drawn)
        self._dirty_standings = True

    async def _tick(self, client: aiomqtt.Client) -> None:
        seatings = self._seatings()
        said, said_at = None, 0.0
        while True:
            if self.stats != said and time.monotonic() - said_at > 30:  # the operator's log
                said, said_at = dict(self.stats), time.monotonic()
                self._say_stats(said)
            if self._seatings() != seatings:  # 'hub advance' (another process) drew a heat
                seatings = self._seatings()
                before, self._drawn = self._drawn, {t["table"] for t in self._hub.tables()}
                for t in self._hub.tables():
                    await self._publish_draw(client, t)
                for gone in sorted(before - self._drawn):  # a heat drawn again with fewer tables
                    await client.publish(topics.draw_topic(self.event, gone), b"", qos=1, retain=True)
                self._dirty_standings = True
            if self.clocks:
                fresh, self.clocks = self.clocks, {}
                try:
                    self._hub.set_clocks(fresh)
                except Exception as exc:  # the TL's clocks only: never stop the ingest for them
                    fault(
                        log, "hub: the tables' clocks cannot be stored ({error}); the TL's screen shows older ones", exc
                    )
            if self._dirty_standings:
                self._dirty_standings = False
                try:
                    doc = self.standings()
                except Exception as exc:
                    fault(
                        log,
                        "hub: the standings cannot be built ({error}); the records are stored and acknowledged",
                        exc,
                    )
                else:
                    await client.publish(
                        topics.standings_topic(self.event), topics.json_payload(doc), qos=1, retain=True
                    )
            await asyncio.sleep(self.standings_every)

    @staticmethod
    def _say_stats(stats: dict[str, int]) -> None:
        """What the hub has taken since it started, for its operator every 30 s at most."""
        note(
            log,
            logging.INFO,
            "hub: messages {messages}, records stored {stored}, already held {duplicates}, out of order "
            "{out_of_order}, conflicts {conflicts}, dropped {bad}, signed heads refused {bad_heads}",
            **{"bad_heads": 0, **stats},
        )

    def _seatings(self) -> tuple[int, int]:
        """How many seat draws there are and the newest's draw: a heat drawn again (a player
        withdrawn) has as many, from a newer draw."""
        return tuple(self._hub.conn.execute("SELECT count(*), coalesce(max(draw), 0) FROM seatings").fetchone())

    async def _publish_draw(self, client: aiomqtt.Client, t: dict[str, Any]) -> None:
        await client.publish(topics.draw_topic(self.event, t["table"]), topics.json_payload(t), qos=1, retain=True)

    def standings(self) -> dict[str, Any]:
        doc = self._board.document()
        for heat in doc["heats"]:
            for t in heat["tables"]:
                st = self.online.get(t["table"])
                t["online"] = bool(st and st["online"])
        doc["time"] = time.time()
        return doc
