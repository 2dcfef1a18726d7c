"""The table's single writer: judge an action, store it with its events, then return.

    >>> from table_controller.rules.actions import TableStart
    >>> recorder = TableRecorder(SQLiteStore.open("t.sqlite", create=True))
    >>> [e.type for e in recorder.apply(TableStart(("Anna", "Bo", "Cilla")))]
    ['table_opened']

``apply`` appends the action and the events it caused in ONE transaction and returns
only after the commit is durable, so no view can show an event the log does not hold.
If the write fails, the engine is put back as it was (the same ``Engine`` object, so a
view holding it sees the restored table) and the error is raised: the table never runs
ahead of its log.  The call is synchronous and the live table runs on one event loop, so
no view can read the state between the engine's judgement and the commit.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from table_controller.rules.actions import Action
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.events import Event

from .base import EventStore
from .errors import RecordError
from .rebuild import load, rebuild
from .records import NewRecord, Record
from .snapshots import ClockSnapshot
from .sqlite import SQLiteStore


class TableRecorder:
    def __init__(self, store: EventStore, engine: Engine | None = None):
        """Without ``engine`` the state is rebuilt from the store (empty log: a new table)."""
        self.store = store
        self.engine = engine if engine is not None else rebuild(store)
        self.last_records: list[Record] = []  # what the last apply stored (seqs for the views)

    @classmethod
    def resume(cls, path: str | os.PathLike, create: bool = True) -> tuple[TableRecorder, ClockSnapshot | None]:
        """Open a table's file for play (a new one when ``create`` and there is none) and
        rebuild it: the recorder, and the shot clocks paused until the dealer resumes."""
        store = SQLiteStore.open(path, create=create)
        try:
            engine, clocks = load(store)
        except BaseException:
            store.close()
            raise
        return cls(store, engine), clocks

    def apply(self, action: Action, source: str = "table") -> list[Event]:
        """Judge and store.  An illegal action is stored as "rejected" and re-raised."""
        before = len(self.engine.events)
        try:
            events = self.engine.apply(action)
        except IllegalAction as exc:
            self.last_records = self.store.append(
                [NewRecord("rejected", {"action": action.to_dict(), "reason": exc.reason}, source)]
            )
            raise
        # Any other exception from the engine: it has put itself back (Engine.apply is all
        # or nothing) and nothing is stored; the caller sees the error.
        try:
            batch = [NewRecord("action", action.to_dict(), source)]
            batch += [NewRecord("event", e.to_dict(), "engine") for e in events]
            self.last_records = self.store.append(batch)
        except BaseException:
            # Both or neither: the log did not take them, so the table must not have them.
            self.engine.rollback(before)
            raise
        return list(events)

    def reject(self, raw: Any, reason: str, source: str = "table") -> Record:
        """A line that never became an action (malformed input), kept for the record."""
        return self.store.append_one(
            "rejected", {"action": raw if isinstance(raw, Mapping) else repr(raw), "reason": reason}, source
        )

    def record_sensor(self, observation: Mapping[str, Any], source: str) -> Record:
        """A raw sensor observation (see :mod:`.sensors` for the bridge's event types)."""
        return self.store.append_one("sensor", observation, source)

    def alert(self, text: str, source: str = "sensing", **details: Any) -> Record:
        return self.store.append_one("alert", {"text": text, **details}, source)

    def audit(self, who: str, what: str, **details: Any) -> Record:
        """Who did what: a TL decision, a hand revealed to the TL, an override."""
        if not who or not what:
            raise RecordError("an audit record names who did what")
        return self.store.append_one("audit", {"who": who, "what": what, **details}, who)

    def record_clock(self, snapshot: ClockSnapshot, source: str = "clocks") -> Record:
        ClockSnapshot.from_dict(snapshot.to_dict())  # refuse a malformed snapshot before storing
        return self.store.append_one("clock", snapshot.to_dict(), source)
