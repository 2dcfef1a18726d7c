"""The durable event log of a table (issue 6): one append-only SQLite file per table.

    >>> recorder, clocks = TableRecorder.resume("table7.sqlite")  # new, or after a power cut
    >>> events = recorder.apply(action)            # judged, stored and fsynced, then returned
    >>> engine, clocks = resume("table7.sqlite")   # read-only rebuild (inspection, views)

Layers: this package sits above the rules (it drives the engine) and below the views.
May import the rules and the sensor events (the "sensor" records); never sensing, the
live loop, the views, the dashboard, the hardware, the simulation or the app.
"""

from .base import EventStore
from .errors import (ClockSnapshotError, ExportError, NotATableLog, RecordError, SchemaError, StoreBusy,
                     StoreClosed, StoreCorrupt, StoreError, StoreNotFound, StoreReadOnly, StoreWriteError)
from .records import KINDS, NewRecord, Record
from .rebuild import resume
from .recorder import TableRecorder
from .snapshots import ClockSnapshot
from .sqlite import SQLiteStore

__all__ = [
    "EventStore", "SQLiteStore", "NewRecord", "Record", "KINDS", "TableRecorder", "resume", "ClockSnapshot",
    "StoreError", "StoreNotFound", "NotATableLog", "SchemaError", "StoreCorrupt", "StoreBusy",
    "StoreWriteError", "StoreReadOnly", "StoreClosed", "RecordError", "ExportError", "ClockSnapshotError",
]
