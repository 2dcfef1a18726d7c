"""The durable event log of a table (issue 6): one append-only SQLite file per table.

    >>> from table_controller.rules.actions import TableStart
    >>> recorder, clocks = TableRecorder.resume("table7.sqlite")  # new, or after a power cut
    >>> [e.type for e in recorder.apply(TableStart(("Anna", "Bo", "Cilla")))]  # judged, stored, fsynced
    ['table_opened']
    >>> recorder.store.close()
    >>> engine, clocks = resume("table7.sqlite")   # read-only rebuild (inspection, views)
    >>> engine.state.players
    ['Anna', 'Bo', 'Cilla']

Layers: this package sits above the rules (it drives the engine) and below the views.
May import the rules and the sensor events (the "sensor" records); never sensing, the
live loop, the views, the dashboard, the hardware, the simulation or the app.
"""

from .base import EventStore
from .errors import (
    ClockSnapshotError,
    ExportError,
    NotATableLog,
    RecordError,
    SchemaError,
    StoreBusy,
    StoreClosed,
    StoreCorrupt,
    StoreError,
    StoreNotFound,
    StoreReadOnly,
    StoreWriteError,
)
from .memory import MemoryStore
from .rebuild import read_actions, resume
from .recorder import TableRecorder
from .records import KINDS, NewRecord, Record
from .snapshots import ClockSnapshot
from .sqlite import SQLiteStore

__all__ = [
    "KINDS",
    "ClockSnapshot",
    "ClockSnapshotError",
    "EventStore",
    "ExportError",
    "MemoryStore",
    "NewRecord",
    "NotATableLog",
    "Record",
    "RecordError",
    "SQLiteStore",
    "SchemaError",
    "StoreBusy",
    "StoreClosed",
    "StoreCorrupt",
    "StoreError",
    "StoreNotFound",
    "StoreReadOnly",
    "StoreWriteError",
    "TableRecorder",
    "read_actions",
    "resume",
]
