"""The SQLite file itself: WAL and full sync, read-only inspection, schema versions and
migrations, append-only, locks, and files that are not ours."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest

from table_controller.store import (
    NotATableLog,
    SchemaError,
    SQLiteStore,
    StoreBusy,
    StoreError,
    StoreNotFound,
    StoreReadOnly,
    schema,
)
from table_controller.store.records import GENESIS, digest


def test_a_new_log_uses_wal_and_full_sync(tmp_path):
    with SQLiteStore.open(tmp_path / "t.sqlite", create=True) as s:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert s.conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
        assert s.schema_version() == schema.CURRENT


def test_opening_a_missing_file_without_create_is_an_error(tmp_path):
    with pytest.raises(StoreNotFound, match=r"no such file \(a table's log was expected\)"):
        SQLiteStore.open(tmp_path / "missing.sqlite")
    with pytest.raises(StoreNotFound):
        SQLiteStore.open(tmp_path / "missing.sqlite", readonly=True)
    assert not (tmp_path / "missing.sqlite").exists()


def test_read_only_open_reads_but_never_writes(tmp_path):
    p = tmp_path / "t.sqlite"
    with SQLiteStore.open(p, create=True) as s:
        s.append_one("alert", {"text": "x"})
    with SQLiteStore.open(p, readonly=True) as ro:
        assert [r.data for r in ro.read()] == [{"text": "x"}]
        with pytest.raises(StoreReadOnly):
            ro.append_one("alert", {})
        with pytest.raises(sqlite3.OperationalError, match="readonly"):  # mode=ro, not just our check
            ro.conn.execute("INSERT INTO records VALUES (2, 0, 's', 'alert', 2, '{}', 'x')")
    with SQLiteStore.open(p) as s:
        assert s.last_seq() == 1


def test_read_only_open_works_while_the_table_is_writing(tmp_path):
    p = tmp_path / "t.sqlite"
    with SQLiteStore.open(p, create=True) as writer:
        writer.append_one("alert", {"n": 1})
        with SQLiteStore.open(p, readonly=True) as ro:
            writer.append_one("alert", {"n": 2})
            assert [r.data["n"] for r in ro.read()] == [1, 2]


def test_the_log_is_append_only_even_for_raw_sql(tmp_path):
    with SQLiteStore.open(tmp_path / "t.sqlite", create=True) as s:
        s.append_one("alert", {"text": "x"})
        for sql in ("UPDATE records SET data = '{}'", "DELETE FROM records"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                s.conn.execute(sql)
        assert s.read()[0].data == {"text": "x"}


def test_an_older_schema_is_migrated_on_open(tmp_path):
    p = tmp_path / "old.sqlite"
    conn = sqlite3.connect(p, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    assert schema.migrate(conn, upto=1) == 1
    conn.execute(
        "INSERT INTO records VALUES (1, 5.0, 'table', 'alert', 1, '{\"n\":1}', ?)",
        (digest(GENESIS, 1, 5.0, "table", "alert", 1, '{"n":1}'),),
    )
    conn.close()
    with SQLiteStore.open(p, readonly=True) as ro:  # inspection never migrates
        assert ro.schema_version() == 1
        assert ro.read()[0].data == {"n": 1}
    with SQLiteStore.open(p) as s:
        assert s.schema_version() == schema.CURRENT
        assert s.read()[0].data == {"n": 1}
        notes = [r[0] for r in s.conn.execute("SELECT note FROM schema_version ORDER BY version")]
        assert len(notes) == schema.CURRENT
        with pytest.raises(sqlite3.IntegrityError):  # migration 2's trigger is there
            s.conn.execute("DELETE FROM records")


def test_a_newer_schema_is_refused(tmp_path):
    p = tmp_path / "new.sqlite"
    SQLiteStore.open(p, create=True).close()
    conn = sqlite3.connect(p)
    conn.execute("INSERT INTO schema_version VALUES (?, 0, 'from the future')", (schema.CURRENT + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(SchemaError, match="update chicago-table"):
        SQLiteStore.open(p)


def test_a_table_log_without_its_version_table_is_refused(tmp_path):
    p = tmp_path / "t.sqlite"
    conn = sqlite3.connect(p)
    conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    conn.execute("CREATE TABLE records (x)")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaError, match="no schema version"):
        SQLiteStore.open(p)


@pytest.mark.parametrize("content", [b"hello, this is a text file\n" * 200, b"\x00\x01" * 3000])
def test_a_foreign_file_is_not_a_table_log(tmp_path, content):
    p = tmp_path / "foreign.sqlite"
    p.write_bytes(content)
    for readonly in (False, True):
        with pytest.raises(NotATableLog, match="not a table log"):
            SQLiteStore.open(p, readonly=readonly)
    assert p.read_bytes() == content


def test_another_programs_database_is_not_a_table_log(tmp_path):
    p = tmp_path / "other.db"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE customers (name)")
    conn.commit()
    conn.close()
    with pytest.raises(NotATableLog, match="another program"):
        SQLiteStore.open(p, create=True)
    conn = sqlite3.connect(p)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["customers"]


def test_an_empty_file_is_not_opened_for_inspection(tmp_path):
    p = tmp_path / "empty.sqlite"
    p.touch()
    with pytest.raises(NotATableLog, match="empty"):
        SQLiteStore.open(p, readonly=True)


def test_a_directory_is_not_a_table_log(tmp_path):
    with pytest.raises(NotATableLog):
        SQLiteStore.open(tmp_path, create=True)


def test_a_second_writer_waiting_for_the_lock_gets_a_clear_error(tmp_path):
    p = tmp_path / "t.sqlite"
    with SQLiteStore.open(p, create=True) as first:
        first.append_one("alert", {})
        first.conn.execute("BEGIN IMMEDIATE")  # another controller in mid-transaction
        with SQLiteStore.open(p, timeout=0.1) as second, pytest.raises(StoreBusy, match="another controller"):
            second.append_one("alert", {})
        first.conn.execute("ROLLBACK")
        assert first.last_seq() == 1


def test_all_store_errors_share_one_root():
    assert all(issubclass(e, StoreError) for e in (NotATableLog, SchemaError, StoreBusy, StoreNotFound, StoreReadOnly))


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="reads the log as another user (uid 65534) with setpriv, which needs root; as that user, root's own permissions would not bind the test",
)
def test_a_log_the_user_may_only_read_is_read_whole_and_one_with_a_full_wal_says_what_to_do():
    """Stop 72's audit: a log on a locked stick or of another user ("log check", "log export"
    and "protocol" as that user) failed with "attempt to write a readonly database": a look
    at a WAL file wants a -shm it may write. Read by another user, in a folder and a file
    they may not write: a log closed cleanly is read whole and nothing is written beside it;
    one copied while its table wrote, with its -wal and -shm, is read whole as well; a -wal
    without its -shm says what to do."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from table_controller.rules.replay import read_script
    from table_controller.store.recorder import TableRecorder

    root = Path(__file__).resolve().parents[2]
    script = (root / "table_controller" / "examples" / "full_table.jsonl").read_text().splitlines()
    base = Path(tempfile.mkdtemp(prefix="chicago-ro-"))  # outside pytest's owner-only folders
    try:
        os.chmod(base, 0o755)
        locked, busy = base / "locked", base / "busy"
        for d in (locked, busy):
            d.mkdir()
        rec = TableRecorder(SQLiteStore.open(locked / "t.sqlite", create=True))
        for _, action in read_script(script):
            rec.apply(action)
        rec.store.close()
        writer = SQLiteStore.open(base / "live.sqlite", create=True)  # a table still writing
        TableRecorder(writer).apply(next(a for _, a in read_script(script)))
        for name in ("live.sqlite", "live.sqlite-wal", "live.sqlite-shm"):
            shutil.copy(base / name, busy / name.replace("live", "t"))
        writer.close()
        assert (busy / "t.sqlite-wal").stat().st_size > 0
        for d in (locked, busy):
            for f in d.iterdir():
                os.chmod(f, 0o444)
            os.chmod(d, 0o555)

        def as_nobody(*argv: str) -> subprocess.CompletedProcess:
            return subprocess.run(
                [
                    "setpriv",
                    "--reuid",
                    "65534",
                    "--regid",
                    "65534",
                    "--clear-groups",
                    sys.executable,
                    "-m",
                    "table_controller.app.cli",
                    *argv,
                ],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, "HOME": str(base)},
            )

        r = as_nobody("log", "check", str(locked / "t.sqlite"), "--lang", "en")
        assert r.returncode == 0 and "PROBLEMS" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert sorted(p.name for p in locked.iterdir()) == ["t.sqlite"]  # nothing written beside it
        # with its -wal and -shm beside it, SQLite reads it as a table writes it (its records
        # in the -wal too), never as it lay once (stop 72's review: an immutable read there was stale)
        r = as_nobody("log", "check", str(busy / "t.sqlite"), "--lang", "en")
        assert r.returncode == 0 and "records: 2 (action 1, event 1," in r.stdout, r.stdout + r.stderr
        os.chmod(busy, 0o755)
        (busy / "t.sqlite-shm").unlink()  # a -wal without its -shm: not read as the log lay
        os.chmod(busy, 0o555)
        r = as_nobody("log", "check", str(busy / "t.sqlite"), "--lang", "en")
        said = r.stdout + r.stderr
        assert r.returncode != 0 and "its -wal and -shm beside it may hold records" in said, said
    finally:
        for d in (base / "locked", base / "busy"):
            if d.exists():
                os.chmod(d, 0o755)
        shutil.rmtree(base)
