"""The log file's schema: an application id that marks the file as ours, a
``schema_version`` table, and the migrations that bring an older file up to date.

A migration is appended to :data:`MIGRATIONS`, never edited: a file at version N has
run exactly the first N.  Migrations so far never change the ``records`` columns, so
a read-only inspection can read any version up to :data:`CURRENT`.
"""

from __future__ import annotations

import sqlite3
import time

SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite file
APPLICATION_ID = 0x43484931  # "CHI1": PRAGMA application_id of every table log
HUB_APPLICATION_ID = 0x43484842  # "CHHB": a tournament hub's file (tournament.hubstore), never a table log

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "records and schema version",
        """
        CREATE TABLE schema_version (
            version INTEGER PRIMARY KEY,
            applied REAL NOT NULL,
            note    TEXT NOT NULL
        );
        CREATE TABLE records (
            seq    INTEGER PRIMARY KEY,   -- 1, 2, 3, ... no gaps
            time   REAL NOT NULL,         -- wall clock, seconds since the epoch
            source TEXT NOT NULL,
            kind   TEXT NOT NULL,
            txn    INTEGER NOT NULL,      -- seq of the first record of its transaction
            data   TEXT NOT NULL,         -- canonical JSON object
            digest TEXT NOT NULL          -- chains the record to the one before
        );
    """,
    ),
    (
        "index by kind; the log is append-only",
        """
        CREATE INDEX records_kind ON records (kind, seq);
        CREATE TRIGGER records_no_update BEFORE UPDATE ON records
            BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
        CREATE TRIGGER records_no_delete BEFORE DELETE ON records
            BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END;
    """,
    ),
)

CURRENT = len(MIGRATIONS)


def version(conn: sqlite3.Connection) -> int | None:
    """The file's schema version, or None when it has no version table."""
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if not has:
        return None
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else None


def migrate(conn: sqlite3.Connection, upto: int = CURRENT) -> int:
    """Run the missing migrations, each in its own transaction; returns the new version.
    The caller has checked that the file is ours (or empty)."""
    current = version(conn) or 0
    for n in range(current + 1, upto + 1):
        note, sql = MIGRATIONS[n - 1]
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                conn.execute(statement)
            if n == 1:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("INSERT INTO schema_version (version, applied, note) VALUES (?, ?, ?)", (n, time.time(), note))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        current = n
    return current


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (executescript would commit on its own)."""
    out, buf = [], ""
    for line in sql.strip().splitlines():
        buf += line.split("--", 1)[0] + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
