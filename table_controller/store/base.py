"""What every event-store backend offers (a ``Protocol``); the contract tests
(tests/store/contract.py) hold every backend to it: the SQLite file per table
(:class:`~.sqlite.SQLiteStore`) and the in-memory log of tests and throwaway tables
(:class:`~.memory.MemoryStore`).  A backend that subclasses it gets ``append_one``,
``append_batches`` and the context manager."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from .records import NewRecord, Record


class EventStore(Protocol):
    clock: Callable[[], float]  # the wall clock records are stamped with (a simulated one on a --fast table)

    @abstractmethod
    def append(self, records: Sequence[NewRecord]) -> list[Record]:
        """Store the records in ONE transaction (all or none); returns them with their
        seq only once the commit is durable."""

    @abstractmethod
    def read(self, first: int = 1, last: int | None = None, kinds: Iterable[str] | None = None) -> list[Record]:
        """Records with first <= seq <= last, oldest first, optionally of some kinds only."""

    @abstractmethod
    def last_seq(self) -> int:
        """The newest record's seq; 0 for an empty log."""

    @abstractmethod
    def verify(self) -> int:
        """Check the whole log (no gaps, record chain intact); returns the record count
        or raises :class:`~table_controller.store.errors.StoreCorrupt`."""

    @abstractmethod
    def close(self) -> None: ...

    def append_batches(self, batches: Sequence[Sequence[NewRecord]]) -> list[Record]:
        """Several batches, each its own ``txn`` as if appended one by one (import and
        salvage); a backend may commit them together."""
        return [r for batch in batches for r in self.append(batch)]

    def append_one(
        self, kind: str, data: Mapping[str, Any], source: str = "table", time: float | None = None
    ) -> Record:
        return self.append([NewRecord(kind, data, source, time)])[0]

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
