"""The hub's own SQLite file: the tournament (players, clubs, heats, tables, every draw
with its seed) and a copy of every table's log, by (table, seq).

    >>> from table_controller.tournament.event import create_event, draw_first_heat, register
    >>> hub = HubStore.open("sm2026.hub.sqlite", create=True)
    >>> create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025")
    >>> register(hub, [("Anna", ""), ("Bo", ""), ("Cilla", "")])
    >>> _ = draw_first_heat(hub, seed="8d1f")                     # the hub drew table h1-t1
    >>> from table_controller.rules.actions import TableStart
    >>> from table_controller.store import SQLiteStore, TableRecorder
    >>> _ = TableRecorder(SQLiteStore.open("h1-t1.sqlite", create=True)).apply(TableStart(("Anna", "Bo", "Cilla")))
    >>> with SQLiteStore.open("h1-t1.sqlite", readonly=True) as log:  # the table's log, as published
    ...     records = list(log.read())
    >>> hub.ingest("h1-t1", records).have
    2
    >>> hub.ingest("h1-t1", records).duplicates                 # sent again: dropped, counted
    2

The copy is a witness, not the record (each table's own file is): records are taken
only from tables the hub drew, only in order and only when they continue the table's chain (the digest of record N
follows from record N-1), so the copy is always an unbroken, checked prefix of the
table's log.  A record the hub already has is a duplicate (dropped, counted); one that
differs from what the hub has is a conflict (kept aside for the TL, never stored).
Every write is one transaction, WAL and ``synchronous=FULL`` like the tables' logs.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time as _time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, quote

from ..store.records import GENESIS, Record, digest, encode_data
from ..store.schema import HUB_APPLICATION_ID as APPLICATION_ID  # a hub file, never mistaken for a table log
from ..store.sqlite import has_sidecars, tidy_sidecars
from .draw import WordedError
from .texts import DIFFERS, HEAD_DIFFERS, NOT_DRAWN_TABLE, OFF_CHAIN

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, club TEXT NOT NULL DEFAULT '', added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS withdrawn (      -- players the TL withdrew (a no-show), with why
    name TEXT PRIMARY KEY, reason TEXT NOT NULL, time REAL NOT NULL);
CREATE TABLE IF NOT EXISTS draws (          -- every random draw, with its seed (r7)
    id INTEGER PRIMARY KEY, heat INTEGER NOT NULL, what TEXT NOT NULL, seed TEXT NOT NULL,
    data TEXT NOT NULL, time REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, heat INTEGER NOT NULL, number INTEGER NOT NULL,
    players TEXT NOT NULL, ruleset TEXT NOT NULL, options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seatings (       -- the seat draw of every game (r7), särspel too
    table_id TEXT NOT NULL, game INTEGER NOT NULL, seats TEXT NOT NULL, button TEXT NOT NULL,
    playoff INTEGER NOT NULL DEFAULT 0, draw INTEGER NOT NULL, PRIMARY KEY (table_id, game));
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, time REAL NOT NULL, source TEXT NOT NULL,
    kind TEXT NOT NULL, txn INTEGER NOT NULL, data TEXT NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heads (          -- per table: the end of the unbroken copy
    table_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, digest TEXT NOT NULL, time REAL NOT NULL);
CREATE TABLE IF NOT EXISTS keys (            -- each table's Ed25519 public key, registered at setup
    table_id TEXT PRIMARY KEY, public TEXT NOT NULL, added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS signed_heads (    -- the witness: every head a table signed
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, digest TEXT NOT NULL, sig TEXT NOT NULL,
    time REAL NOT NULL, PRIMARY KEY (table_id, seq));
CREATE TABLE IF NOT EXISTS dashboards (      -- each table's own dashboard, where the TL acts on it
    table_id TEXT PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS status (          -- each table's publisher: online or not (its MQTT will)
    table_id TEXT PRIMARY KEY, online INTEGER NOT NULL, last_seq INTEGER, time REAL NOT NULL);
CREATE TABLE IF NOT EXISTS clocks (          -- each table's shot clocks as it last published them
    table_id TEXT PRIMARY KEY, data TEXT NOT NULL, received REAL NOT NULL);
CREATE TABLE IF NOT EXISTS conflicts (
    id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, seq INTEGER NOT NULL, time REAL NOT NULL,
    detail TEXT NOT NULL, UNIQUE (table_id, seq, detail));
"""


class HubError(WordedError):
    """Bad input or a hub file that cannot be used; the message says what to do.

    Raised with its text and what goes in it, ``HubError("heat {heat} is not drawn",
    heat=2)``, the TL's console says it in Swedish too (``draw.WordedError``); a text from
    another part, ``HubError(str(exc))``, stays as it was said.

        >>> str(HubError("heat {heat} is not drawn", heat=2)), str(HubError("{not a field}"))
        ('heat 2 is not drawn', '{not a field}')
    """


def web_address(parts: SplitResult) -> bool:
    """Whether ``parts`` are a web server's address, ``http(s)://HOST[:PORT]``, its port (if
    it names one) 1-65535 (``urlsplit`` raises for one above, and a port of 99999 was
    "connection refused").

        >>> from urllib.parse import urlsplit
        >>> [web_address(urlsplit(u)) for u in ("http://hub:8090", "http://hub:99999", "ftp://hub", "http://")]
        [True, False, False, False]
    """
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    try:
        return parts.port != 0
    except ValueError:
        return False


@dataclass
class Ingest:
    table: str
    stored: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    conflicts: list[tuple[int, str]] = field(default_factory=list)  # (seq, what)
    have: int = 0
    digest: str = GENESIS


class HubStore:
    def __init__(self, conn: sqlite3.Connection, path: Path, tidy: bool = False):
        self.conn = conn
        self.path = path
        self._tidy = tidy  # a read-only look removes the -wal and -shm it made (``tidy_sidecars``)

    @classmethod
    def open(cls, path: str | os.PathLike, create: bool = False, readonly: bool = False) -> HubStore:
        """``readonly``: inspection beside a running hub (never writes, never waits for it)."""
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise HubError("{path}: no such hub file (create it with 'chicago-table hub create')", path=path)
        try:
            if readonly:
                tidy = not has_sidecars(path)
                conn = sqlite3.connect(
                    f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None, timeout=10
                )
                if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                    conn.close()
                    if tidy:
                        tidy_sidecars(path)
                    raise HubError("{path} is not a hub file", path=path)
                return cls(conn, path, tidy)
            if not path.exists():
                _create_private(path)
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=10)
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app == 0 and objects == 0 and not create:  # an empty file is no hub: left as it is
                conn.close()
                raise HubError(
                    "{path} is an empty file, not a hub file (create one with 'chicago-table hub create')", path=path
                )
            if app == 0 and objects == 0:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            elif app != APPLICATION_ID:
                conn.close()
                raise HubError("{path} is not a hub file (application id {app:#x})", path=path, app=app)
            conn.execute("PRAGMA synchronous = FULL")
            conn.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise HubError("{path}: {error}", path=path, error=exc) from None
        return cls(conn, path)

    def close(self) -> None:
        self.conn.close()
        if self._tidy:
            self._tidy = False
            tidy_sidecars(self.path)

    def __enter__(self) -> HubStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _tx(self):
        return _Tx(self.conn)

    # --- the event -------------------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta"))

    def set_meta(self, **values: str) -> None:
        with self._tx():
            for k, v in values.items():
                self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (k, str(v)))

    def event_id(self) -> str:
        ev = self.meta().get("event")
        if not ev:
            raise HubError("{path}: no event yet; run 'chicago-table hub create'", path=self.path)
        return ev

    def add_players(self, players: Sequence[tuple[str, str]]) -> None:
        names = [n for n, _ in players]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise HubError("{names}: a name is given twice; players are told apart by name", names=", ".join(twice))
        have = {r[0] for r in self.conn.execute("SELECT name FROM players")}
        again = [n for n in names if n in have]
        if again:
            raise HubError("already registered: {names}", names=", ".join(again))
        with self._tx():
            self.conn.executemany(
                "INSERT INTO players (name, club, added) VALUES (?, ?, ?)", [(n, c, _time.time()) for n, c in players]
            )

    def players(self) -> dict[str, str]:
        """name -> club, in the order registered."""
        return dict(self.conn.execute("SELECT name, club FROM players ORDER BY added, rowid"))

    def log_draw(self, heat: int, what: str, seed: str, data: Any) -> int:
        cur = self.conn.execute(
            "INSERT INTO draws (heat, what, seed, data, time) VALUES (?, ?, ?, ?, ?)",
            (heat, what, seed, json.dumps(data, ensure_ascii=False), _time.time()),
        )
        assert cur.lastrowid is not None  # set by every INSERT
        return cur.lastrowid

    def draws(self) -> list[dict[str, Any]]:
        return [
            {"id": i, "heat": h, "what": w, "seed": s, "data": json.loads(d), "time": t}
            for i, h, w, s, d, t in self.conn.execute("SELECT id, heat, what, seed, data, time FROM draws ORDER BY id")
        ]

    def withdraw(self, name: str, reason: str) -> None:
        with self._tx():
            self.conn.execute(
                "INSERT INTO withdrawn (name, reason, time) VALUES (?, ?, ?)", (name, reason, _time.time())
            )

    def withdrawn(self) -> dict[str, str]:
        """name -> why, of the players the TL withdrew (none in a hub file from before)."""
        try:
            return dict(self.conn.execute("SELECT name, reason FROM withdrawn ORDER BY time, rowid"))
        except sqlite3.OperationalError:  # a file written before withdrawals, opened read-only
            return {}

    def save_heat(
        self,
        heat: int,
        seed: str,
        tables: Sequence[dict[str, Any]],
        again: bool = False,
        withdrawn: tuple[str, str] | None = None,
    ) -> None:
        """A heat's tables and the seat draw of every game, with the draw logged (r7);
        ``again``: drawn again (a player withdrawn before any of its tables started), the
        earlier draw kept in the log, its tables replaced; ``withdrawn``: (name, why), stored
        in the same transaction."""
        if self.tables(heat) and not again:
            raise HubError("heat {heat} is already drawn", heat=heat)
        with self._tx():
            draw = self.log_draw(heat, "heat", seed, tables)
            if withdrawn is not None:  # the player withdrawn with the heat drawn again without them
                self.conn.execute(
                    "INSERT INTO withdrawn (name, reason, time) VALUES (?, ?, ?)", (*withdrawn, _time.time())
                )
            if again:
                self.conn.execute(
                    "DELETE FROM seatings WHERE table_id IN (SELECT id FROM tables WHERE heat = ?)", (heat,)
                )
                self.conn.execute("DELETE FROM tables WHERE heat = ?", (heat,))
            for t in tables:
                self.conn.execute(
                    "INSERT INTO tables (id, heat, number, players, ruleset, options) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        t["table"],
                        heat,
                        t["number"],
                        json.dumps(t["players"], ensure_ascii=False),
                        t["ruleset"],
                        json.dumps(t["options"]),
                    ),
                )
                for g in t["games"]:
                    self._seating(t["table"], g, draw)

    def save_playoff_seating(self, heat: int, table: str, seed: str, game: dict[str, Any]) -> None:
        """The särspel's seat draw (r11, r7), logged like every draw; once per table."""
        if self.conn.execute("SELECT 1 FROM seatings WHERE table_id = ? AND playoff = 1", (table,)).fetchone():
            return
        with self._tx():
            draw = self.log_draw(heat, f"särspel {table}", seed, game)
            self._seating(table, game, draw)

    def _seating(self, table: str, g: dict[str, Any], draw: int) -> None:
        self.conn.execute(
            "INSERT INTO seatings (table_id, game, seats, button, playoff, draw) VALUES (?, ?, ?, ?, ?, ?)",
            (
                table,
                g["game"],
                json.dumps(g["seats"], ensure_ascii=False),
                g["button"],
                int(bool(g.get("playoff"))),
                draw,
            ),
        )

    def tables(self, heat: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT id, heat, number, players, ruleset, options FROM tables"
        rows = self.conn.execute(
            sql + (" WHERE heat = ?" if heat is not None else "") + " ORDER BY heat, number",
            (heat,) if heat is not None else (),
        ).fetchall()
        clocks = self.meta().get("shot_clocks")  # the event's (D11), in every table's draw
        out = []
        for tid, h, n, players, ruleset, options in rows:
            games = [
                {"game": g, "seats": json.loads(s), "button": b, "playoff": bool(p)}
                for g, s, b, p in self.conn.execute(
                    "SELECT game, seats, button, playoff FROM seatings WHERE table_id = ? ORDER BY game", (tid,)
                )
            ]
            out.append(
                {
                    "table": tid,
                    "heat": h,
                    "number": n,
                    "players": json.loads(players),
                    "ruleset": ruleset,
                    "options": json.loads(options),
                    "games": games,
                    **({"shot_clocks": clocks} if clocks else {}),
                }
            )
        return out

    def table(self, table: str) -> dict[str, Any] | None:
        return next((t for t in self.tables() if t["table"] == table), None)

    def require_table(self, table: str) -> None:
        """Refuse ``table`` unless a heat drawn has it, naming the tables there are (the ids
        are the draw's: h1-t1, ...): a mistyped id would get a key, a dashboard or the
        broadcast for no table."""
        if self.table(table) is not None:
            return
        ids = [t["table"] for t in self.tables()]
        if not ids:
            raise HubError("no heat is drawn yet; run 'chicago-table hub draw'")
        raise HubError(
            "table {table!r} is not drawn; the tables drawn are {tables}", table=table, tables=", ".join(ids)
        )

    def heats(self) -> list[int]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT heat FROM tables ORDER BY heat")]

    # --- the tables' logs --------------------------------------------------------------

    def head(self, table: str) -> tuple[int, str]:
        row = self.conn.execute("SELECT seq, digest FROM heads WHERE table_id = ?", (table,)).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def heads(self) -> dict[str, tuple[int, str]]:
        return {t: (s, d) for t, s, d in self.conn.execute("SELECT table_id, seq, digest FROM heads ORDER BY table_id")}

    def ingest(self, table: str, records: Iterable[Record]) -> Ingest:
        """Take what continues the table's chain, in one durable transaction."""
        return self.ingest_many([(table, records)])[0]

    def ingest_many(self, batches: Sequence[tuple[str, Iterable[Record]]]) -> list[Ingest]:
        """Several messages' records in ONE durable transaction (a busy hub commits a group
        at a time: one fsync, not one per message); in order, as if ingested one by one."""
        out: list[Ingest] = []
        heads: dict[str, tuple[int, str]] = {}
        rows: list[tuple] = []
        taken: dict[tuple[str, int], tuple] = {}  # what this group took, for duplicates within it
        conflicts: list[tuple] = []
        drawn = {r[0] for r in self.conn.execute("SELECT id FROM tables")}
        for table, records in batches:
            res = Ingest(table)
            if table not in drawn:  # a mistyped --table must not vanish silently: the TL sees it
                res.conflicts.append((0, NOT_DRAWN_TABLE.format(table=table)))
                conflicts += [(table, 0, res.conflicts[0][1])]
                out.append(res)
                continue
            seq, prev = heads.get(table) or self.head(table)
            for r in records:
                if r.seq <= seq:
                    if self._same(table, r, taken):
                        res.duplicates += 1
                    else:
                        res.conflicts.append((r.seq, DIFFERS.format(seq=r.seq)))
                    continue
                if r.seq != seq + 1:
                    res.out_of_order += 1  # a gap: wait for the resend from the hub's ack
                    continue
                text = encode_data(r.data)
                if digest(prev, r.seq, r.time, r.source, r.kind, r.txn, text) != r.digest:
                    res.conflicts.append((r.seq, OFF_CHAIN.format(seq=r.seq)))
                    break
                rows.append((table, r.seq, r.time, r.source, r.kind, r.txn, text, r.digest))
                taken[(table, r.seq)] = rows[-1]
                seq, prev = r.seq, r.digest
                res.stored += 1
            heads[table] = (seq, prev)
            res.have, res.digest = seq, prev
            conflicts += [(table, cseq, what) for cseq, what in res.conflicts]
            out.append(res)
        if rows or conflicts:
            with self._tx():
                if rows:
                    self.conn.executemany(
                        "INSERT INTO records (table_id, seq, time, source, kind, txn, data, digest) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        rows,
                    )
                    now = _time.time()
                    self.conn.executemany(
                        "INSERT OR REPLACE INTO heads (table_id, seq, digest, time) VALUES (?, ?, ?, ?)",
                        [(t, sq, dg, now) for t, (sq, dg) in heads.items()],
                    )
                for table, cseq, what in conflicts:  # the same one resent is kept once
                    self.conn.execute(
                        "INSERT OR IGNORE INTO conflicts (table_id, seq, time, detail) VALUES (?, ?, ?, ?)",
                        (table, cseq, _time.time(), what),
                    )
        return out

    def _same(self, table: str, r: Record, taken: dict[tuple[str, int], tuple]) -> bool:
        """Is ``r`` exactly the record the hub has (stored, or taken earlier in this group)?
        The whole record, not just its digest: other data under the old digest is no duplicate."""
        mine = (r.time, r.source, r.kind, r.txn, encode_data(r.data), r.digest)
        if (table, r.seq) in taken:
            return taken[(table, r.seq)][2:] == mine
        old = self.conn.execute(
            "SELECT time, source, kind, txn, data, digest FROM records WHERE table_id = ? AND seq = ?", (table, r.seq)
        ).fetchone()
        return old is not None and old == mine

    def records(self, table: str, first: int = 1) -> list[Record]:
        rows = self.conn.execute(
            "SELECT seq, time, source, kind, txn, data, digest FROM records "
            "WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table, first),
        ).fetchall()
        return [Record(s, t, src, k, txn, json.loads(d), dg) for s, t, src, k, txn, d, dg in rows]

    # --- the witness: keys and signed heads ------------------------------------------------

    def set_key(self, table: str, public: str) -> None:
        from .signing import public_key

        public_key(public)  # refuse what is not a key
        self.require_table(table)
        old = self.key(table)
        if old and old != public:
            raise HubError(
                "table {table} already has another key registered; a table's key is never replaced "
                "silently (make a new hub entry for a new table instead)",
                table=table,
            )
        with self._tx():
            self.conn.execute(
                "INSERT OR IGNORE INTO keys (table_id, public, added) VALUES (?, ?, ?)", (table, public, _time.time())
            )

    def key(self, table: str) -> str | None:
        row = self.conn.execute("SELECT public FROM keys WHERE table_id = ?", (table,)).fetchone()
        return row[0] if row else None

    def add_signed_head(self, head: dict[str, Any]) -> str | None:
        """Keep a signed head as witness; returns why it was refused, or None."""
        from .signing import BadSignature, verify_head

        table = head.get("table")
        public = self.key(table) if isinstance(table, str) else None
        if public is None:
            return f"no key registered for table {table!r}"
        try:
            verify_head(public, head)
        except BadSignature as exc:
            return str(exc)
        seq, dg = int(head["seq"]), str(head["digest"])
        mine = self.conn.execute("SELECT digest FROM records WHERE table_id = ? AND seq = ?", (table, seq)).fetchone()
        if mine and mine[0] != dg:
            why = HEAD_DIFFERS.format(seq=seq)
            with self._tx():
                self.conn.execute(
                    "INSERT OR IGNORE INTO conflicts (table_id, seq, time, detail) VALUES (?, ?, ?, ?)",
                    (table, seq, _time.time(), why),
                )
            return why
        with self._tx():
            self.conn.execute(
                "INSERT OR IGNORE INTO signed_heads (table_id, seq, digest, sig, time) VALUES (?, ?, ?, ?, ?)",
                (table, seq, dg, head["sig"], _time.time()),
            )
        return None

    def set_dashboard(self, table: str, url: str) -> None:
        from urllib.parse import urlsplit

        parts = urlsplit(url.strip())
        if not web_address(parts) or parts.path not in ("", "/") or parts.query:
            raise HubError("{url!r}: give the table's dashboard as http://HOST:PORT (a port from 1 to 65535)", url=url)
        self.require_table(table)
        with self._tx():
            self.conn.execute(
                "INSERT OR REPLACE INTO dashboards (table_id, url) VALUES (?, ?)", (table, url.strip().rstrip("/"))
            )

    def dashboards(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT table_id, url FROM dashboards"))

    def set_status(self, table: str, online: bool, last_seq: int | None) -> None:
        with self._tx():
            self.conn.execute(
                "INSERT OR REPLACE INTO status (table_id, online, last_seq, time) VALUES (?, ?, ?, ?)",
                (table, int(online), last_seq, _time.time()),
            )

    def statuses(self) -> dict[str, dict[str, Any]]:
        return {
            t: {"online": bool(o), "last_seq": s, "time": tm}
            for t, o, s, tm in self.conn.execute("SELECT table_id, online, last_seq, time FROM status")
        }

    def set_clocks(self, clocks: dict[str, tuple[dict[str, Any], float]]) -> None:
        """The tables' last published clocks (TOPICS.md, "clocks"), each with the hub's
        time of receipt (``time.time()``): one transaction for all."""
        with self._tx():
            self.conn.executemany(
                "INSERT OR REPLACE INTO clocks (table_id, data, received) VALUES (?, ?, ?)",
                [(t, json.dumps(d, ensure_ascii=False), r) for t, (d, r) in clocks.items()],
            )

    def clocks(self) -> dict[str, dict[str, Any]]:
        """Table -> its last clocks message and ``received``; {} from a hub file older
        than the clocks (opened read-only, it has no such table)."""
        try:
            rows = self.conn.execute("SELECT table_id, data, received FROM clocks").fetchall()
        except sqlite3.OperationalError:
            return {}
        return {t: {**json.loads(d), "received": r} for t, d, r in rows}

    def signed_heads(self, table: str) -> list[dict[str, Any]]:
        return [
            {"seq": s, "digest": d, "sig": g}
            for s, d, g in self.conn.execute(
                "SELECT seq, digest, sig FROM signed_heads WHERE table_id = ? ORDER BY seq", (table,)
            )
        ]

    def conflicts(self) -> list[dict[str, Any]]:
        return [
            {"table": t, "seq": sq, "time": tm, "detail": d}
            for t, sq, tm, d in self.conn.execute("SELECT table_id, seq, time, detail FROM conflicts ORDER BY id")
        ]


class _Tx:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, *_: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _create_private(path: Path) -> None:
    """The hub keeps a copy of every table's log, every dealt hand in it: as a table's own
    log (``store.sqlite``), the file is created 0600 before SQLite opens it, so its -wal
    and -shm follow that mode, whatever the umask of whoever creates the event."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise HubError("cannot create {path}: {error}", path=path, error=exc) from None  # the console words it
