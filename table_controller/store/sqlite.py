"""The table log as one SQLite file: WAL, ``synchronous=FULL``, explicit transactions.

    >>> with SQLiteStore.open("table7.sqlite", create=True) as store:
    ...     store.append_one("alert", {"text": "reader seat2 offline"}, source="bridge").seq
    1

``append`` returns only after COMMIT, and with WAL + ``synchronous=FULL`` the commit
has been fsynced: a record that was returned survives a power cut.  ``open(...,
readonly=True)`` opens ``file:...?mode=ro`` for inspection.  Every open runs SQLite's
quick_check, so a damaged file is reported, never read as a shorter history.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time as _time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from table_controller.rules.errors import Phrase

from . import schema
from .base import EventStore
from .errors import (
    NotATableLog,
    SchemaError,
    StoreBusy,
    StoreClosed,
    StoreCorrupt,
    StoreError,
    StoreNotFound,
    StoreReadOnly,
    StoreWriteError,
)
from .records import GENESIS, KINDS, NewRecord, Record, check_new, digest

_COLUMNS = "seq, time, source, kind, txn, data, digest"


# sqlite3 decodes its own error messages; a damaged schema can make that decode fail
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def strict_text(raw: bytes) -> str:
    """sqlite3's text decoder, with damaged text reported as damage (a UnicodeDecodeError
    would otherwise escape as if it were a bug)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise sqlite3.DataError("database disk image is malformed (text that is not UTF-8)") from None


def translate(exc: Exception, path: Path, doing: Phrase) -> StoreError:
    """sqlite3's error as ours, saying what to do; what SQLite said (``error``) goes in as
    it said it, what was being done (``doing``) in the words of the one who reads it."""
    if isinstance(exc, UnicodeDecodeError):
        return StoreCorrupt(
            "{path} is damaged (unreadable text in the database) while {doing}; "
            "run 'chicago-table log check {path} --salvage NEW.sqlite' to recover what is readable",
            path=path,
            doing=doing,
        )
    low = str(exc).lower()
    if "file is not a database" in low:
        return NotATableLog(
            "{path} is not a table log (not an SQLite file, or its header is damaged): {error}", path=path, error=exc
        )
    if "malformed" in low or "corrupt" in low or (isinstance(exc, sqlite3.DatabaseError) and "disk i/o" in low):
        return StoreCorrupt(
            "{path} is damaged ({error}) while {doing}; "
            "run 'chicago-table log check {path} --salvage NEW.sqlite' to recover what is readable",
            path=path,
            error=exc,
            doing=doing,
        )
    if "locked" in low or "busy" in low:
        return StoreBusy(
            "{path} is locked by another process while {doing}: is another controller running this table?",
            path=path,
            doing=doing,
        )
    if "readonly" in low or "read-only" in low:
        return StoreReadOnly("{path} cannot be written ({error}) while {doing}", path=path, error=exc, doing=doing)
    if "full" in low or "disk i/o" in low:
        return StoreWriteError("{path}: {error} while {doing}; nothing was appended", path=path, error=exc, doing=doing)
    if "unable to open" in low:
        return StoreNotFound("cannot open {path}: {error}", path=path, error=exc)
    return StoreError("{path}: {error} while {doing}", path=path, error=exc, doing=doing)


class SQLiteStore(EventStore):
    def __init__(
        self,
        conn: sqlite3.Connection,
        path: Path,
        readonly: bool,
        clock: Callable[[], float],
        tidy: bool = False,
    ):
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self.readonly = readonly
        self.clock = clock
        self._tidy = tidy  # remove the -wal and -shm this look made (``tidy_sidecars``)

    # --- opening ---------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike,
        *,
        create: bool = False,
        readonly: bool = False,
        clock: Callable[[], float] = _time.time,
        check: bool = True,
        timeout: float = 5.0,
    ) -> SQLiteStore:
        """Open a table's log.  ``create`` makes a new file when there is none;
        ``readonly`` never writes (not even a migration); ``check`` runs quick_check;
        ``timeout``: seconds to wait for another process's write lock."""
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise StoreNotFound("{path}: no such file (a table's log was expected)", path=path)
        if path.is_dir():
            raise NotATableLog("{path} is a directory, not a table log", path=path)
        if create and not path.exists():
            _create_private(path)
        tidy = readonly and not has_sidecars(path)
        try:
            return cls._connect(path, readonly, clock, check, timeout, tidy, "mode=ro")
        except (StoreReadOnly, StoreNotFound):
            # a log on a read-only medium, or another user's: a look at a WAL file wants a -shm
            # beside it that SQLite may write ("attempt to write a readonly database", stop 72's
            # audit: no protocol could be printed from a log on a locked stick).  A log closed
            # cleanly (no -wal, no -shm: nobody writes it) is read as it lies (immutable); one
            # with them may be written now, or hold records in its -wal: said, never read stale
            locked = readonly and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
            if not locked:
                raise
            if has_sidecars(path):
                raise StoreReadOnly(
                    "{path}: its -wal and -shm beside it may hold records (a table may be writing it), "
                    "which can be read only where the log may be written; copy the log with them to "
                    "a folder of your own and read it there",
                    path=path,
                ) from None
            return cls._connect(path, readonly, clock, check, timeout, False, "immutable=1")

    @classmethod
    def _connect(
        cls,
        path: Path,
        readonly: bool,
        clock: Callable[[], float],
        check: bool,
        timeout: float,
        tidy: bool,
        mode: str,
    ) -> SQLiteStore:
        try:
            if readonly:
                uri = f"file:{quote(str(path.resolve()))}?{mode}"
                conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)
            else:
                conn = sqlite3.connect(str(path), isolation_level=None, timeout=timeout)
        except DB_ERRORS as exc:
            raise translate(exc, path, Phrase("opening")) from None
        conn.text_factory = strict_text
        try:
            cls._prepare(conn, path, readonly, check)
        except BaseException:
            conn.close()
            if tidy:
                tidy_sidecars(path)
            raise
        return cls(conn, path, readonly, clock, tidy)

    @staticmethod
    def _prepare(conn: sqlite3.Connection, path: Path, readonly: bool, check: bool) -> None:
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id == 0 and objects == 0:
                if readonly:
                    raise NotATableLog("{path} is an empty file, not a table log", path=path)
                conn.execute("PRAGMA journal_mode = WAL")  # stays set in the file
                schema.migrate(conn)
            elif app_id == schema.HUB_APPLICATION_ID:
                raise NotATableLog("{path} is a tournament hub's file (chicago-table hub), not a table log", path=path)
            elif app_id != schema.APPLICATION_ID:
                raise NotATableLog(
                    "{path} is an SQLite database of another program (application id {app_id:#x}), not a table log",
                    path=path,
                    app_id=app_id,
                )
            if check:
                problems = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
                if problems != ["ok"]:
                    # one line: SQLite's own report is many ("*** in database main ***", a
                    # line per page), which a console error printed as a ten-line dump (stop 72)
                    said = " ".join(str(p) for p in problems).replace("*** in database main ***", "")
                    first = " ".join(said.split())
                    first = first if len(first) <= 120 else first[:117] + "..."
                    raise StoreCorrupt(
                        "{path} is damaged (SQLite finds: {problems}); run "
                        "'chicago-table log check {path} --salvage NEW.sqlite' to recover what is readable",
                        path=path,
                        problems=first,
                    )
            v = schema.version(conn)
            if v is None:
                raise SchemaError(
                    "{path} is marked as a table log but has no schema version table: "
                    "it is damaged or was written by something else",
                    path=path,
                )
            if v > schema.CURRENT:
                raise SchemaError(
                    "{path} has schema version {version}; this program reads up to {current}: update chicago-table",
                    path=path,
                    version=v,
                    current=schema.CURRENT,
                )
            has_records = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'"
            ).fetchone()
            if not has_records:
                raise SchemaError(
                    "{path} has schema version {version} but no records table: it is damaged", path=path, version=v
                )
            if not readonly:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = FULL")  # fsync the WAL at every commit
                if v < schema.CURRENT:
                    schema.migrate(conn)
        except DB_ERRORS as exc:
            raise translate(exc, path, Phrase("opening")) from None

    # --- the interface -----------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreClosed("{path}: the store is closed", path=self.path)
        return self._conn

    def schema_version(self) -> int:
        try:
            return schema.version(self.conn) or 0
        except DB_ERRORS as exc:
            raise translate(exc, self.path, Phrase("reading the schema version")) from None

    def append(self, records: Sequence[NewRecord]) -> list[Record]:
        return self.append_batches([records])

    def append_batches(self, batches: Sequence[Sequence[NewRecord]]) -> list[Record]:
        """One SQLite transaction for all the batches (all or none); each batch gets its
        own ``txn``.  Returns once the commit is durable."""
        if self.readonly:
            raise StoreReadOnly("{path} is open read-only (for inspection); nothing was appended", path=self.path)
        batches = [list(b) for b in batches if b]
        if not batches:
            return []
        texts = [[check_new(r) for r in b] for b in batches]  # bad input changes nothing
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except DB_ERRORS as exc:
            raise translate(exc, self.path, Phrase("starting an append")) from None
        try:
            row = conn.execute("SELECT seq, digest FROM records ORDER BY seq DESC LIMIT 1").fetchone()
            seq, prev = (row[0], row[1]) if row else (0, GENESIS)
            now = self.clock()
            out: list[Record] = []
            rows = []
            for batch, batch_texts in zip(batches, texts):
                txn = seq + 1
                for rec, text in zip(batch, batch_texts):
                    seq += 1
                    t = float(now if rec.time is None else rec.time)
                    prev = digest(prev, seq, t, rec.source, rec.kind, txn, text)
                    out.append(Record(seq, t, rec.source, rec.kind, txn, json.loads(text), prev))
                    rows.append((seq, t, rec.source, rec.kind, txn, text, prev))
            conn.executemany(f"INSERT INTO records ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            conn.execute("COMMIT")
        except DB_ERRORS as exc:
            _rollback(conn)
            raise translate(exc, self.path, Phrase("appending")) from None
        except BaseException:
            _rollback(conn)
            raise
        return out

    def read(self, first: int = 1, last: int | None = None, kinds: Iterable[str] | None = None) -> list[Record]:
        """Records first..last (inclusive).  Without ``kinds`` the range is also checked:
        no gaps and an intact chain, so a damaged log is never returned short."""
        sql = f"SELECT {_COLUMNS} FROM records WHERE seq >= ?"
        params: list[object] = [first]
        if last is not None:
            sql += " AND seq <= ?"
            params.append(last)
        kinds = None if kinds is None else list(kinds)
        if kinds is not None:
            unknown = [k for k in kinds if k not in KINDS]
            if unknown:
                raise StoreError(
                    "unknown record kind(s) {unknown}; kinds: {kinds}",
                    unknown=", ".join(map(repr, unknown)),
                    kinds=", ".join(KINDS),
                )
            sql += f" AND kind IN ({', '.join('?' * len(kinds))})"
            params.extend(kinds)
        sql += " ORDER BY seq"
        try:
            rows = self.conn.execute(sql, params).fetchall()
            prev = None
            if kinds is None and rows:
                before = self.conn.execute("SELECT digest FROM records WHERE seq = ?", (rows[0][0] - 1,)).fetchone()
                prev = GENESIS if rows[0][0] == 1 else (before[0] if before else None)
        except DB_ERRORS as exc:
            raise translate(exc, self.path, Phrase("reading")) from None
        out = _records(self.path, rows)
        if kinds is None:
            _check_chain(self.path, out, [r[5] for r in rows], max(first, 1), prev)
        return out

    def last_seq(self) -> int:
        try:
            row = self.conn.execute("SELECT max(seq) FROM records").fetchone()
        except DB_ERRORS as exc:
            raise translate(exc, self.path, Phrase("reading the last seq")) from None
        return int(row[0] or 0)

    def verify(self) -> int:
        records = self.read()
        last = self.last_seq()
        if len(records) != last:
            raise StoreCorrupt(
                "{path}: {n} record(s) missing before seq {last}", path=self.path, n=last - len(records), last=last
            )
        return last

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except DB_ERRORS as exc:
                raise translate(exc, self.path, Phrase("closing")) from None
            finally:
                self._conn = None
                if self._tidy:
                    tidy_sidecars(self.path)


def sidecars(path: Path) -> tuple[Path, Path]:
    """SQLite's files beside a log in WAL mode: its write-ahead log and its shared memory."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def has_sidecars(path: Path) -> bool:
    return any(p.exists() for p in sidecars(path))


def tidy_sidecars(path: Path) -> None:
    """After a read-only look (its connection closed) at a log that had no ``-wal`` or
    ``-shm`` beside it: take away the two that SQLite made for the look, so that a check
    leaves the folder as it found it.  A read-only connection may not remove them; a
    read-write one that writes nothing is opened and closed instead, and SQLite removes
    them as its last connection closes (their write-ahead log is empty: nothing is
    checkpointed, the log's own file is not written).  A table that opened the log
    meanwhile keeps them (its connection is not the last), and a log in a folder we
    may not write to keeps them too: nothing is forced."""
    if not has_sidecars(path):
        return
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=rw", uri=True, timeout=0.5)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except (*DB_ERRORS, OSError):
        pass  # left as they are: harmless, and SQLite's own on the next open


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except DB_ERRORS:
        pass  # the transaction is already gone; nothing was committed


def _records(path: Path, rows: list[tuple]) -> list[Record]:
    try:  # one decode for the whole range: a rebuild reads thousands of records
        datas = json.loads("[" + ",".join(r[5] for r in rows) + "]")
    except (TypeError, ValueError):
        datas = None
    if datas is None or len(datas) != len(rows):
        datas = []
        for r in rows:
            try:
                datas.append(json.loads(r[5]))
            except (TypeError, ValueError):
                raise StoreCorrupt(
                    "{path}: record {seq} holds unreadable data; run 'chicago-table log check "
                    "{path} --salvage NEW.sqlite'",
                    path=path,
                    seq=r[0],
                ) from None
    out = []
    for (seq, t, source, kind, txn, _, dig), data in zip(rows, datas):
        if not isinstance(seq, int) or kind not in KINDS or not isinstance(data, dict):
            raise StoreCorrupt("{path}: record {seq} is malformed (kind {kind!r})", path=path, seq=seq, kind=kind)
        try:
            out.append(Record(seq, float(t), str(source), kind, int(txn), data, str(dig)))
        except (TypeError, ValueError):  # a damaged page: a time or transaction that is no number
            raise StoreCorrupt(
                "{path}: record {seq} is malformed (its time or transaction); run 'chicago-table log "
                "check {path} --salvage NEW.sqlite'",
                path=path,
                seq=seq,
            ) from None
    return out


def _check_chain(path: Path, records: list[Record], texts: list[str], first: int, prev: str | None) -> None:
    """No gaps, and each digest follows from the record and the one before."""
    expected = first
    for r, text in zip(records, texts):
        if r.seq == expected + 1:  # one record: said as one, not "records 100..100"
            raise StoreCorrupt(
                "{path}: record {seq} is missing; run 'chicago-table log check {path} --salvage NEW.sqlite'",
                path=path,
                seq=expected,
            )
        if r.seq != expected:
            raise StoreCorrupt(
                "{path}: records {first}..{last} are missing; run "
                "'chicago-table log check {path} --salvage NEW.sqlite'",
                path=path,
                first=expected,
                last=r.seq - 1,
            )
        if prev is not None and digest(prev, r.seq, r.time, r.source, r.kind, r.txn, text) != r.digest:
            raise StoreCorrupt(
                "{path}: record {seq} does not match its checksum (changed or damaged); "
                "run 'chicago-table log check {path} --salvage NEW.sqlite'",
                path=path,
                seq=r.seq,
            )
        prev = r.digest
        expected += 1


def _create_private(path: Path) -> None:
    """A new log holds every dealt hand: its folder (when new) is the owner's alone (0700) and
    the file is created 0600 before SQLite opens it, so its -wal and -shm follow that mode."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise StoreError("cannot create {path}: {error}", path=path, error=exc) from None  # the system's words
