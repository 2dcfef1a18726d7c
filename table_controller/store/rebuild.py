"""Restart: fold the log back into an engine, with the last shot-clock snapshot.

    >>> from table_controller.rules.actions import TableStart
    >>> from table_controller.store import TableRecorder
    >>> recorder, _ = TableRecorder.resume("table7.sqlite")
    >>> _ = recorder.apply(TableStart(("Anna", "Bo", "Cilla"))); recorder.store.close()
    >>> engine, clocks = resume("table7.sqlite")
    >>> engine.state.players, clocks    # no shot-clock snapshot stored yet
    (['Anna', 'Bo', 'Cilla'], None)

The whole log is read and its chain checked first: a damaged file raises
:class:`StoreCorrupt` and a table is never resumed on a shortened history.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from table_controller.rules.engine import Engine
from table_controller.rules.errors import Phrase
from table_controller.rules.events import EventError, event_from_dict

from .base import EventStore
from .errors import StoreCorrupt
from .records import Record
from .snapshots import ClockSnapshot
from .sqlite import SQLiteStore

THE_LOG = Phrase("the log")  # a log without a path (in memory), as what is said of it names it


def events_of(records: Sequence[Record], where: object = THE_LOG) -> list:
    out = []
    for r in records:
        if r.kind == "event":
            try:
                out.append(event_from_dict(r.data))
            except EventError as exc:
                raise StoreCorrupt("{where}: record {seq}: {error}", where=where, seq=r.seq, error=exc) from None
    return out


def fold(records: Sequence[Record], where: object = THE_LOG) -> Engine:
    """The engine the events fold into; ``where``: the log as what it says names it (its path)."""
    try:
        return Engine.from_events(events_of(records, where))
    except StoreCorrupt:
        raise
    except Exception as exc:  # an event that does not fit the state before it
        raise StoreCorrupt(
            "{where}: the events do not fold into a table state ({kind}: {error})",
            where=where,
            kind=type(exc).__name__,
            error=exc,
        ) from None


def last_clock(records: Sequence[Record]) -> ClockSnapshot | None:
    for r in reversed(records):
        if r.kind == "clock":
            return ClockSnapshot.from_dict(r.data, r.seq, r.time)
    return None


def load(store: EventStore) -> tuple[Engine, ClockSnapshot | None]:
    """The engine as the log leaves it, and the last clock snapshot paused for the
    dealer; every record is read and checked (no gap, chain intact) first."""
    where = getattr(store, "path", None) or THE_LOG
    records = store.read()
    if len(records) != store.last_seq():
        raise StoreCorrupt("{where}: records are missing before seq {last}", where=where, last=store.last_seq())
    clocks = last_clock(records)
    return fold(records, where), (clocks.paused_for_resume() if clocks else None)


def rebuild(store: EventStore) -> Engine:
    """The engine as the log leaves it (every record read and checked)."""
    return load(store)[0]


def read_actions(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The accepted actions of a table's file, as REPLAY.md lines (opened read-only and
    unchecked: a view of a log that may be being written)."""
    with SQLiteStore.open(path, readonly=True, check=False) as store:
        return [dict(r.data) for r in store.read(kinds=["action"])]


def resume(path: str | os.PathLike) -> tuple[Engine, ClockSnapshot | None]:
    """Rebuild a table from its file (opened read-only): the engine and the shot clocks,
    paused until the dealer resumes them (None when no snapshot was stored)."""
    with SQLiteStore.open(path, readonly=True) as store:
        return load(store)
