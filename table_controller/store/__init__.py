"""The durable event log of a table (issue 6): one append-only SQLite file per table.

    >>> store = SQLiteStore.open("table7.sqlite", create=True)
    >>> recorder = TableRecorder(store)            # judges and stores, durable first
    >>> engine, clocks = resume("table7.sqlite")   # after a power cut

Layers: this package sits above the rules (it drives the engine) and below the views.
"""

from .base import EventStore
from .errors import (ClockSnapshotError, ExportError, NotATableLog, RecordError, SchemaError, StoreBusy,
                     StoreClosed, StoreCorrupt, StoreError, StoreNotFound, StoreReadOnly, StoreWriteError)
from .records import KINDS, NewRecord, Record
from .sqlite import SQLiteStore

__all__ = [
    "EventStore", "SQLiteStore", "NewRecord", "Record", "KINDS",
    "StoreError", "StoreNotFound", "NotATableLog", "SchemaError", "StoreCorrupt", "StoreBusy",
    "StoreWriteError", "StoreReadOnly", "StoreClosed", "RecordError", "ExportError", "ClockSnapshotError",
]
