"""The table side: publish the table's log to the hub, by sequence number (issue 20).

    >>> pub = TablePublisher("table7.sqlite", table="h1-t7", event="sm2026", port=1883)
    >>> await pub.run(stop)            # doctest: +SKIP
    >>> # ^ until ``stop`` is set; reconnects on its own (not run with the examples: it needs a broker)

It reads the table's SQLite file (read-only, its own connection) and never touches the
live loop: the table plays on when the broker or the hub is gone, and the log stays the
record.  What the hub has is what the hub says it has: its retained ack
(``.../hub/ack/TABLE``, the longest unbroken run of records it has stored durably).
After a (re)connect the publisher starts after that ack; when the ack does not move for
``stall`` seconds while records are out, it sends again from the ack (a broker that
died with messages in it, a hub that restarted), waiting twice as long before each
further resend while the hub stays silent (up to a minute; any ack resets it: the hub,
when it connects, acks every table it knows).  The hub drops what it already has, so
resending is always safe: nothing lost, nothing doubled.

It runs beside the table as its own process (``chicago-table hub publish``), following
the log as it grows; it may start before the table has created its file.  Once it has
sent everything, it also sends the shot clocks of the log's last "clock" record
(``.../clocks``, retained; TOPICS.md), for the TL's event screen.
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
import time
from pathlib import Path

import aiomqtt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..store.errors import StoreError, StoreNotFound
from ..store.records import Record
from ..store.sqlite import SQLiteStore
from . import topics
from .aio import cancel_and_wait
from .notes import Quiet, note, worth_saying
from .signing import load_key, signed_head

log = logging.getLogger(__name__)


class TablePublisher:
    def __init__(
        self,
        db: str | os.PathLike,
        *,
        table: str,
        event: str,
        host: str = "127.0.0.1",
        port: int = 1883,
        batch: int = 200,
        window: int = 5000,
        stall: float = 3.0,
        poll: float = 0.1,
        retry: float = 0.5,
        client_id: str | None = None,
        key: str | os.PathLike | None = None,
        username: str | None = None,
        password: str | None = None,
        tls: ssl.SSLContext | None = None,
        clock=time.monotonic,
    ):
        self.db = Path(db)
        self.table = topics.check_id(table, "table")
        self.event = topics.check_id(event, "event")
        self.host, self.port = host, port
        self.batch, self.window, self.stall = batch, window, stall
        self.poll, self.retry = poll, retry
        self.client_id = client_id or f"chicago-table-{event}-{table}"
        self.clock = clock
        self.username, self.password = username, password  # the broker's user for this table
        self.tls = tls  # the link to the broker encrypted (TLS), its certificate checked
        self.acked = 0  # what the hub last said it has
        self._ahead = Quiet()  # the hub ahead of this log: said once, then once a minute
        self.next = 1  # the next seq to send in this session
        self.sent_messages = 0
        self.connected = asyncio.Event()
        self._ack_moved = asyncio.Event()
        self._hub_spoke = False
        self._last_error = ""
        self._store: SQLiteStore | None = None
        self.key = load_key(key) if key is not None else None  # signs the chain head (item 4)
        self.signed = 0  # the last head signed and published in this session
        # the shot clocks as the log last holds them (its last "clock" record, and whether
        # an action came after it), sent on .../clocks once everything before is sent
        self._clock: Record | None = None
        self._moved = False
        self._noted = 0  # the last seq looked at for clocks
        self._clocks_sent: tuple[int, bool] | None = None

    # --- the loop --------------------------------------------------------------------

    async def run(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        quiet = Quiet()  # tried every half second: said once, then once a minute
        try:
            while not stop.is_set():
                try:
                    await self._session(stop)
                except aiomqtt.MqttError as exc:
                    if (words := worth_saying(quiet, self.connected.is_set(), exc)) is not None:
                        note(
                            log,
                            logging.INFO,
                            "{table}: the broker cannot be reached ({error}); trying again",
                            table=self.table,
                            error=words,
                        )
                self.connected.clear()
                if not stop.is_set():
                    await _wait(stop, self.retry)
        finally:
            self.connected.clear()
            if self._store is not None:
                self._store.close()
                self._store = None

    async def _session(self, stop: asyncio.Event) -> None:
        will = aiomqtt.Will(
            topics.status_topic(self.event, self.table), topics.status_payload(self.table, False), qos=1, retain=True
        )
        async with aiomqtt.Client(
            self.host,
            self.port,
            identifier=self.client_id,
            will=will,
            keepalive=10,
            timeout=5,
            socket_options=topics.SOCKET_OPTIONS,
            username=self.username,
            password=self.password,
            tls_context=self.tls,
        ) as client:
            await client.subscribe(topics.ack_topic(self.event, self.table), qos=1)
            listener = asyncio.create_task(self._listen(client))
            try:
                # The retained ack arrives first if the hub has spoken; else we go on from
                # the last ack this process heard (the hub's store is durable).
                self._ack_moved.clear()
                await _wait(self._ack_moved, 0.5)
                self.next = self.acked + 1
                self.signed = 0
                self._clocks_sent = None
                head = self._last_seq()
                self._note(self._read(max(1, head - 999, self._noted + 1), head) if head > self._noted else [])
                await client.publish(
                    topics.status_topic(self.event, self.table),
                    topics.status_payload(self.table, True, self._last_seq()),
                    qos=1,
                    retain=True,
                )
                self.connected.set()
                await self._pump(client, stop, listener)
                await client.publish(
                    topics.status_topic(self.event, self.table),
                    topics.status_payload(self.table, False, self._last_seq()),
                    qos=1,
                    retain=True,
                )
            finally:
                await cancel_and_wait(listener)

    async def _listen(self, client: aiomqtt.Client) -> None:
        async for msg in client.messages:
            try:
                ack = topics.parse_ack(msg.payload)
            except topics.PayloadError as exc:
                note(log, logging.WARNING, "{table}: ignoring an ack: {error}", table=self.table, error=exc)
                continue
            if ack["table"] == self.table:
                self.acked = ack["have"]
                self._hub_spoke = True
                self._ack_moved.set()

    async def _pump(self, client: aiomqtt.Client, stop: asyncio.Event, listener: asyncio.Task) -> None:
        last_move, seen_ack = self.clock(), self.acked
        stall = self.stall  # doubles while the hub stays silent (it may be down): no resend storm
        while not stop.is_set():
            if listener.done():  # the connection is gone
                listener.result()
                raise aiomqtt.MqttError("the connection was lost")
            if self.acked != seen_ack:
                seen_ack, last_move, stall = self.acked, self.clock(), self.stall
            if self._hub_spoke:  # the hub is there (maybe back): no longer wait doubled times
                self._hub_spoke, stall = False, self.stall
            if self.next <= self.acked:
                self.next = self.acked + 1
            head = self._last_seq()
            if self.acked > head and self._ahead.due("ahead"):
                # the hub holds more of this table than this log: another log (a table
                # started again on a new data folder) sends nothing the hub would take
                note(
                    log,
                    logging.WARNING,
                    "{table}: the hub holds {have} records of this table, this log only {head}: is it another "
                    "log than the one the hub copied? Nothing is sent; 'chicago-table log verify' with --hub "
                    "compares them",
                    table=self.table,
                    have=self.acked,
                    head=head,
                )
            if self.next - 1 > self.acked and self.clock() - last_move > stall:
                note(
                    log,
                    logging.INFO,
                    "{table}: the hub has records up to {seq}; sending again from there",
                    table=self.table,
                    seq=self.acked,
                )
                self.next, last_move, stall = self.acked + 1, self.clock(), min(stall * 2, 60.0)
            if self.next <= head and self.next - 1 - self.acked < self.window:
                recs = self._read(self.next, min(head, self.next + self.batch - 1))
                if recs:
                    self._note(recs)
                    await client.publish(
                        topics.records_topic(self.event, self.table),
                        topics.records_payload(self.table, recs),
                        qos=1,
                        timeout=10,
                    )
                    self.sent_messages += 1
                    self.next = recs[-1].seq + 1
                    continue
            if self.key is not None and self.next - 1 == head and head > self.signed:
                await self._sign(client, self.key, head)
            if self.next - 1 == head and self._noted >= head:
                await self._send_clocks(client)
            self._ack_moved.clear()
            await _wait_any(stop, self._ack_moved, self.poll)

    async def _sign(self, client: aiomqtt.Client, key: Ed25519PrivateKey, head: int) -> None:
        """Sign the head of what was sent (retained: the hub's witness takes every one)."""
        (last,) = self._read(head, head) or (None,)
        if last is None:
            return
        msg = signed_head(key, self.event, self.table, last.seq, last.digest)
        await client.publish(topics.head_topic(self.event, self.table), topics.json_payload(msg), qos=1, retain=True)
        self.signed = last.seq

    def _note(self, recs) -> None:
        for r in recs:
            if r.seq <= self._noted:
                continue
            if r.kind == "clock":
                self._clock, self._moved = r, False
            elif r.kind == "action" and self._clock is not None:
                self._moved = True
            self._noted = r.seq

    async def _send_clocks(self, client: aiomqtt.Client) -> None:
        """The clocks of the log's last clock record (retained: the hub's TL screen shows
        them, counting down from them); only names, clock kinds and seconds."""
        c = self._clock
        if c is None or (c.seq, self._moved) == self._clocks_sent:
            return
        kinds = (c.data.get("extra") or {}).get("kinds") or {}
        running = {}
        if not self._moved:
            for p, left in (c.data.get("remaining") or {}).items():
                if kinds.get(p) in topics.CLOCK_KINDS and isinstance(left, (int, float)):
                    running[p] = {"clock": kinds[p], "remaining": float(left)}
        age = min(max(0.0, time.time() - c.time), 86400.0)  # the table's own wall clock, on this machine
        payload = topics.clocks_payload(self.table, c.seq, age, bool(c.data.get("paused")), running, self._moved)
        await client.publish(topics.clocks_topic(self.event, self.table), payload, qos=1, retain=True)
        self._clocks_sent = (c.seq, self._moved)

    # --- the table's file ------------------------------------------------------------

    def _open(self) -> SQLiteStore | None:
        if self._store is None:
            try:
                self._store = SQLiteStore.open(self.db, readonly=True, check=False)
            except StoreNotFound as exc:
                # the table has not started yet: said once, so a mistyped --db is seen
                if str(exc) != self._last_error:
                    note(
                        log,
                        logging.WARNING,
                        "{table}: {error}; waiting for the table to start",
                        table=self.table,
                        error=exc,
                    )
                    self._last_error = str(exc)
                return None
            except StoreError as exc:
                # the table is creating its file this moment (empty, no schema yet), or it is
                # not a table's log at all: say so once, look again at the next poll
                if str(exc) != self._last_error:
                    note(
                        log,
                        logging.WARNING,
                        "{table}: {error}; waiting for the table's log",
                        table=self.table,
                        error=exc,
                    )
                    self._last_error = str(exc)
                return None
        return self._store

    def _last_seq(self) -> int:
        store = self._open()
        return store.last_seq() if store else 0

    def _read(self, first: int, last: int):
        store = self._open()
        if store is None:
            return []
        try:
            return store.read(first, last)  # checks the chain of what it returns
        except StoreError as exc:
            if str(exc) != self._last_error:  # once, not every poll: the TL runs 'log check'
                note(
                    log,
                    logging.ERROR,
                    "{table}: cannot read records {first}..{last}: {error}",
                    table=self.table,
                    first=first,
                    last=last,
                    error=exc,
                )
                self._last_error = str(exc)
            return []


async def _wait(event: asyncio.Event, seconds: float) -> None:
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        pass


async def _wait_any(a: asyncio.Event, b: asyncio.Event, seconds: float) -> None:
    tasks = [asyncio.create_task(a.wait()), asyncio.create_task(b.wait())]
    try:
        await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
