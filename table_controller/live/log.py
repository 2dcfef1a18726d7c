"""Where the live loop keeps what happened: a small interface over the event store.

``RecorderLog`` is the real one (issue 6's SQLite log: an accepted action and its
events are on disk before the call returns, so no view sees an event the log lacks);
``MemoryLog`` keeps everything in memory for tests and throwaway demos.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Protocol

from ..actions import Action
from ..engine import Engine
from ..events import Event


class TableLog(Protocol):
    engine: Engine

    def apply(self, action: Action, source: str) -> list[Event]: ...
    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int: ...
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
        from ..engine import IllegalAction
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

    def close(self) -> None:
        pass


class RecorderLog:
    """The SQLite event log of issue 6 behind the same small interface."""

    def __init__(self, recorder) -> None:
        self.recorder = recorder

    @classmethod
    def open(cls, path: str | os.PathLike) -> tuple["RecorderLog", Any]:
        from ..store.recorder import TableRecorder
        recorder, clocks = TableRecorder.resume(path, create=True)
        return cls(recorder), clocks

    @property
    def engine(self) -> Engine:
        return self.recorder.engine

    @property
    def seq(self) -> int:
        return self.recorder.store.last_seq()

    def apply(self, action: Action, source: str) -> list[Event]:
        return self.recorder.apply(action, source)

    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int:
        if kind == "clock":
            from ..store.snapshots import ClockSnapshot
            return self.recorder.record_clock(ClockSnapshot.from_dict(data), source).seq
        return self.recorder.store.append_one(kind, data, source).seq

    def close(self) -> None:
        self.recorder.store.close()
