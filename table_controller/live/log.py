"""Where the live loop keeps what happened: a small interface over the event store.

``RecorderLog`` is the real one (issue 6's SQLite log: an accepted action and its
events are on disk before the call returns, so no view sees an event the log lacks);
``MemoryLog`` keeps everything in memory for tests and throwaway demos.

Raw sensor observations (``sense``) come many a second: ``RecorderLog`` holds them back
and writes them in the same commit as the next record (an action, an alert, a clock
snapshot), or in a batch of their own when many have piled up or the oldest has waited
a second (``flush_sensors``).  One fsync per commit, never one per observation; an
action is durable when ``apply`` returns whether or not observations rode along.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from table_controller.rules.actions import Action
from table_controller.rules.engine import Engine
from table_controller.rules.events import Event


class TableLog(Protocol):
    @property
    def engine(self) -> Engine: ...

    def apply(self, action: Action, source: str) -> list[Event]: ...
    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int: ...
    def sense(self, data: Mapping[str, Any], source: str) -> None: ...
    def hold_clocks(self, data: Mapping[str, Any]) -> None: ...
    def stored_clocks(self) -> tuple[Any, bool] | None: ...
    def flush_sensors(self, older_than_s: float = 0.0) -> None: ...
    def close(self) -> None: ...

    @property
    def seq(self) -> int: ...


class MemoryLog:
    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or Engine()
        self.records: list[tuple[int, str, dict, str]] = []

    @property
    def seq(self) -> int:
        return len(self.records)

    def apply(self, action: Action, source: str) -> list[Event]:
        from table_controller.rules.engine import IllegalAction

        try:
            events = self.engine.apply(action)
        except IllegalAction as exc:
            self.note("rejected", {"action": action.to_dict(), "reason": exc.reason}, source)
            raise
        self.note("action", action.to_dict(), source)
        for e in events:
            self.note("event", e.to_dict(), "engine")
        return events

    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int:
        self.records.append((len(self.records) + 1, kind, dict(data), source))
        return len(self.records)

    def sense(self, data: Mapping[str, Any], source: str) -> None:
        self.note("sensor", data, source)

    def hold_clocks(self, data: Mapping[str, Any]) -> None:
        self.note("clock", data, "clocks")

    def stored_clocks(self) -> tuple[Any, bool] | None:
        return None  # a memory log never outlives its table

    def flush_sensors(self, older_than_s: float = 0.0) -> None:
        pass

    def close(self) -> None:
        pass


class RecorderLog:
    """The SQLite event log of issue 6 behind the same small interface."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder
        if not isinstance(recorder.store, SensorBuffer):  # every write carries what is pending
            recorder.store = SensorBuffer(recorder.store)

    @classmethod
    def open(cls, path: str | os.PathLike) -> tuple[RecorderLog, Any]:
        from ..store.recorder import TableRecorder

        recorder, clocks = TableRecorder.resume(path, create=True)
        return cls(recorder), clocks

    @property
    def engine(self) -> Engine:
        return self.recorder.engine

    @property
    def seq(self) -> int:
        return self.recorder.store.last_seq()

    def stamp_with(self, wall: Callable[[], float]) -> None:
        """Stamp the records written from now on with ``wall`` (seconds since the epoch)
        instead of the wall clock: a table in simulated time (``run --fast``) stamps them
        on its simulated clock, so its log is the same on every run."""
        store = self.recorder.store
        getattr(store, "inner", store).clock = wall

    def last_time(self) -> float | None:
        """The newest stored record's time (None for an empty log)."""
        store = self.recorder.store
        seq = store.last_seq()
        return store.read(seq, seq)[0].time if seq else None

    def apply(self, action: Action, source: str) -> list[Event]:
        return self.recorder.apply(action, source)

    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int:
        if kind == "clock":
            from ..store.snapshots import ClockSnapshot

            return self.recorder.record_clock(ClockSnapshot.from_dict(data), source).seq
        return self.recorder.store.append_one(kind, data, source).seq

    def sense(self, data: Mapping[str, Any], source: str) -> None:
        self.recorder.store.hold("sensor", data, source)

    def hold_clocks(self, data: Mapping[str, Any]) -> None:
        """A running clock's snapshot, committed with the next write (at most a second on)."""
        from ..store.snapshots import ClockSnapshot

        self.recorder.store.hold("clock", ClockSnapshot.from_dict(data).to_dict(), "clocks")

    def stored_clocks(self) -> tuple[Any, bool] | None:
        """The last stored clock snapshot and whether it is current (no action stored
        after it); None when the log holds none."""
        from ..store.rebuild import last_clock

        store = self.recorder.store
        snap = last_clock(store.read(kinds=["clock"]))
        if snap is None:
            return None
        return snap, not store.read(snap.seq + 1, kinds=["action"])

    def flush_sensors(self, older_than_s: float = 0.0) -> None:
        self.recorder.store.flush(older_than_s)

    def close(self) -> None:
        self.recorder.store.close()  # writes what is still pending first


def _loop_time() -> float:
    """The live loop's clock (simulated seconds on a simulated table), else monotonic."""
    import asyncio

    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


class SensorBuffer:
    """An event store whose next commit also carries the records held back (``hold``),
    stored before the new ones, each batch with its own ``txn``.  Reads and everything
    else go to the store underneath."""

    def __init__(self, store, max_pending: int = 500) -> None:
        self.inner = store
        self.max_pending = max_pending
        self.pending: list = []
        self._oldest = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def hold(self, kind: str, data: Mapping[str, Any], source: str) -> None:
        from ..store.records import NewRecord, check_new

        rec = NewRecord(kind, data, source, getattr(self.inner, "clock", time.time)())  # the store's wall clock
        check_new(rec)  # a bad observation is refused here, never in an action's commit
        if not self.pending:
            self._oldest = _loop_time()
        self.pending.append(rec)
        if len(self.pending) >= self.max_pending:
            self.flush()

    def flush(self, older_than_s: float = 0.0) -> None:
        if self.pending and _loop_time() - self._oldest >= older_than_s:
            self.append_batches([])

    def append_batches(self, batches: Sequence[Sequence[Any]]) -> list:
        held = self.pending
        out = self.inner.append_batches([held, *batches])  # on failure the held ones stay held
        self.pending = []
        return out[len(held) :]

    def append(self, records: Sequence[Any]) -> list:
        return self.append_batches([records])

    def append_one(self, kind: str, data: Mapping[str, Any], source: str = "table", time: float | None = None):
        from ..store.records import NewRecord

        return self.append([NewRecord(kind, data, source, time)])[0]

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.inner.close()
