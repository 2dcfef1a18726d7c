"""The store's errors are worded (``rules.errors.WordedError``): raised with their English
text and what goes in it, so that a console says them in Swedish too; ``str()`` stays the
English that logs, tests and programs read, word for word."""

from __future__ import annotations

import errno
import inspect
import os
import sqlite3
from pathlib import Path

import pytest

from table_controller.rules.errors import Phrase, WordedError
from table_controller.store import (
    NotATableLog,
    SQLiteStore,
    StoreBusy,
    StoreCorrupt,
    StoreError,
    StoreNotFound,
    StoreReadOnly,
)
from table_controller.store import errors as store_errors
from table_controller.store.check import check_file
from table_controller.store.memory import MemoryStore
from table_controller.store.records import NewRecord
from table_controller.store.sqlite import translate
from table_controller.store.transfer import import_export

from .helpers import record_bot_table


def test_every_store_error_is_a_worded_error_and_keeps_its_other_bases():
    classes = [c for _, c in inspect.getmembers(store_errors, inspect.isclass) if issubclass(c, StoreError)]
    assert len(classes) == 12
    assert all(issubclass(c, WordedError) for c in classes)
    assert issubclass(store_errors.RecordError, ValueError) and issubclass(store_errors.ClockSnapshotError, ValueError)
    from table_controller.tournament.draw import WordedError as from_draw  # still there for its old importers

    assert from_draw is WordedError


def test_a_missing_file_says_the_same_english_and_keeps_its_template(tmp_path):
    path = tmp_path / "nope.sqlite"
    with pytest.raises(StoreNotFound) as err:
        SQLiteStore.open(path, readonly=True)
    assert str(err.value) == f"{path}: no such file (a table's log was expected)"
    assert err.value.text == "{path}: no such file (a table's log was expected)"
    assert err.value.params == {"path": path}


def test_a_file_that_is_no_sqlite_says_sqlites_words_as_a_param(tmp_path):
    path = tmp_path / "garbage.sqlite"
    path.write_bytes(b"not a database at all " * 200)
    with pytest.raises(NotATableLog) as err:
        SQLiteStore.open(path, readonly=True)
    assert str(err.value) == (
        f"{path} is not a table log (not an SQLite file, or its header is damaged): file is not a database"
    )
    assert isinstance(err.value.params["error"], sqlite3.DatabaseError)  # SQLite's own, kept as it said it


def test_a_changed_record_says_the_same_english(tmp_path):
    path = tmp_path / "t.sqlite"
    record_bot_table(path, seed=3, actions=40)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("UPDATE records SET source = 'forged' WHERE seq = 7")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupt) as err, SQLiteStore.open(path, readonly=True) as store:
        store.read()
    assert str(err.value) == (
        f"{path}: record 7 does not match its checksum (changed or damaged); "
        f"run 'chicago-table log check {path} --salvage NEW.sqlite'"
    )
    assert err.value.params == {"path": path, "seq": 7}
    # log check keeps it in its report as the same English, with its words
    (problem,) = check_file(path).problems
    assert problem == str(err.value) and isinstance(problem, Phrase) and problem.text == err.value.text


def test_what_the_store_was_doing_goes_in_as_a_phrase_and_reads_as_before():
    path = Path("/x/t.sqlite")
    busy = translate(sqlite3.OperationalError("database is locked"), path, Phrase("starting an append"))
    assert isinstance(busy, StoreBusy)
    assert str(busy) == (
        "/x/t.sqlite is locked by another process while starting an append: is another controller running this table?"
    )
    assert busy.params["doing"].text == "starting an append"
    ro = translate(sqlite3.OperationalError("attempt to write a readonly database"), path, Phrase("appending"))
    assert isinstance(ro, StoreReadOnly)
    assert str(ro) == "/x/t.sqlite cannot be written (attempt to write a readonly database) while appending"


def test_the_systems_reason_is_said_without_its_number(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "t.sqlite"))

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(StoreError) as err:
        SQLiteStore.open(tmp_path / "t.sqlite", create=True)
    assert str(err.value) == f"cannot create {tmp_path / 't.sqlite'}: Permission denied"
    assert isinstance(err.value.params["error"], PermissionError)  # a console says it in its words


def test_the_other_stores_and_the_import_say_the_same_english(tmp_path):
    memory = MemoryStore()
    with pytest.raises(StoreError) as err:
        memory.read(kinds=["score", "alert"])
    assert str(err.value) == (
        "unknown record kind(s) 'score'; kinds: action, event, sensor, alert, audit, clock, rejected"
    )
    with pytest.raises(store_errors.RecordError) as bad:
        memory.append([NewRecord("alert", {"t": 1}, "")])
    assert str(bad.value) == "a record's source must be non-empty text (who or what produced it)"
    with pytest.raises(store_errors.ExportError) as refused:
        import_export(['{"do": "fly"}'], tmp_path / "t.sqlite")
    assert str(refused.value) == (
        "no action that the rules accept (the first must be 'table'); nothing written: 1 line(s) refused"
    )
