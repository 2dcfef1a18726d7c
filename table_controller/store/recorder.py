"""The table's single writer: judge an action, store it with its events, then return.

    >>> from table_controller.rules.actions import TableStart
    >>> recorder = TableRecorder(SQLiteStore.open("t.sqlite", create=True))
    >>> [e.type for e in recorder.apply(TableStart(("Anna", "Bo", "Cilla")))]
    ['table_opened']
    >>> recorder.submit({"do": "table", "players": ["A", "B"]}, "tl").reason
    'the table has already started'
    >>> [r.kind for r in recorder.records()]
    ['action', 'event', 'rejected']

One writer over any event store (:class:`~.base.EventStore`): the SQLite file of a real
table (``TableRecorder.resume(path)``), or memory for tests and throwaway tables
(``TableRecorder.in_memory()``).  The live loop and the dashboard use it as it is.

``submit`` judges a line (an action or a decoded JSON line: ``rules.judge``) and appends
the action and the events it caused in ONE transaction, or the refusal as a "rejected"
record; it returns only after the commit is durable, so no view can show an event the log
does not hold.  ``apply`` is the same for an action, raising the refusal.  If the write
fails, the engine is put back as it was (the same ``Engine`` object, so a view holding it
sees the restored table) and the error is raised: the table never runs ahead of its log.
Any other exception from the engine (a bug) propagates with the engine rolled back and
nothing stored.  The call is synchronous and the live table runs on one event loop, so
no view can read the state between the engine's judgement and the commit.

Raw sensor observations (``sense``) come many a second: they are held back and written in
the same commit as the next record (an action, an alert, a clock snapshot), or in a batch
of their own when many have piled up or the oldest has waited a while
(``flush_sensors``).  One fsync per commit, never one per observation.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from table_controller.rules.actions import Action
from table_controller.rules.engine import Engine
from table_controller.rules.events import Event
from table_controller.rules.judge import Verdict, judge

from . import refusals
from .base import EventStore
from .errors import RecordError
from .memory import MemoryStore
from .rebuild import last_clock, load, rebuild
from .records import NewRecord, Record, check_new
from .snapshots import ClockSnapshot
from .sqlite import SQLiteStore


def _loop_time() -> float:
    """The live loop's clock (simulated seconds on a simulated table), else monotonic."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


class TableRecorder:
    def __init__(self, store: EventStore, engine: Engine | None = None, max_pending: int = 500):
        """Without ``engine`` the state is rebuilt from the store (empty log: a new table)."""
        self.store = store
        self.engine = engine if engine is not None else rebuild(store)
        self.last_records: list[Record] = []  # what the last judgement stored (seqs for the views)
        self.pending: list[NewRecord] = []  # held back for the next commit (``sense``)
        self.max_pending = max_pending
        self._oldest = 0.0
        self._refusals: dict[str, refusals.Window] = {}  # per source: what a flood may cost (``refusals``)

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

    @classmethod
    def in_memory(cls, engine: Engine | None = None) -> TableRecorder:
        """A table whose log lives in memory (tests, simulations, throwaway demos)."""
        return cls(MemoryStore(), engine or Engine())

    @property
    def seq(self) -> int:
        """The newest stored record's seq."""
        return self.store.last_seq()

    # --- judging -----------------------------------------------------------------------

    def submit(self, item: Action | Mapping[str, Any], source: str = "table") -> Verdict:
        """Judge and store: the action with its events, or the refusal as "rejected"."""
        before = len(self.engine.events)
        verdict = judge(self.engine, item)
        if verdict.action is None or not verdict.accepted:
            shown = verdict.action.to_dict() if verdict.action is not None else item
            self.last_records = [self._refused({"action": shown, "reason": verdict.reason}, source)]
            return verdict
        try:
            batch = [NewRecord("action", verdict.action.to_dict(), source)]
            batch += [NewRecord("event", e.to_dict(), "engine") for e in verdict.events]
            self.last_records = self._append(batch)
        except BaseException:
            # Both or neither: the log did not take them, so the table must not have them.
            self.engine.rollback(before)
            raise
        return verdict

    def apply(self, action: Action, source: str = "table") -> list[Event]:
        """``submit`` an action; a refused one is stored as "rejected" and re-raised."""
        verdict = self.submit(action, source)
        if verdict.error is not None:
            raise verdict.error
        return verdict.events

    # --- the other records -------------------------------------------------------------

    def reject(self, raw: Any, reason: str, source: str = "table") -> Record:
        """A line that never became an action (malformed input), kept for the record."""
        data = {"action": raw if isinstance(raw, Mapping) else repr(raw), "reason": reason}
        return self._refused(data, source)

    def _refused(self, data: Mapping[str, Any], source: str) -> Record:
        """Store a refusal within the bounds of :mod:`.refusals`: the record that holds it
        (a repeat or one beyond the window's share is counted, and its record is the
        source's last stored refusal)."""
        data = refusals.bounded(data)
        now = _loop_time()
        window = self._refusals.get(source)
        if window is not None and now - window.started >= refusals.WINDOW_S:
            self._end_window(source)
            window = None
        if window is None:
            window = self._refusals[source] = refusals.Window(started=now)
        key = refusals.key_of(data, source)
        if window.last_key is not None and (key == window.last_key or window.stored >= refusals.STORED_MAX):
            last = self.store.read(window.last_seq, window.last_seq)
            if last:
                if key == window.last_key and last[0].data.get("reason") == data.get("reason"):
                    window.repeat(self._now())
                else:  # beyond the window's share, or a blind source's repeat refused for another reason
                    window.beyond(str(data.get("reason", "")), self._now())
                return last[0]
        rec = self._append([NewRecord("rejected", data, source)])[0]
        window.stored += 1
        window.last_key, window.last_seq = key, rec.seq
        return rec

    def _end_window(self, source: str) -> None:
        """Hold the summary of ``source``'s window (written with the next commit)."""
        window = self._refusals.pop(source, None)
        summary = window.summary() if window is not None else None
        if summary is not None:
            self._hold(NewRecord("rejected", summary, source, self._now()))

    def end_refusal_windows(self, older_than_s: float | None = None) -> None:
        """Sum up the refusal windows that have run their time (all, when None)."""
        now = _loop_time()
        for source, window in list(self._refusals.items()):
            if older_than_s is None or now - window.started >= older_than_s:
                self._end_window(source)

    def note(self, kind: str, data: Mapping[str, Any], source: str) -> int:
        """Any record but an action (an alert, an audit entry, a clock snapshot); its seq."""
        if kind == "clock":
            return self.record_clock(ClockSnapshot.from_dict(data), source).seq
        return self._append([NewRecord(kind, data, source)])[0].seq

    def record_sensor(self, observation: Mapping[str, Any], source: str) -> Record:
        """A raw sensor observation, stored now (see :mod:`.sensors` for the event types)."""
        return self._append([NewRecord("sensor", observation, source)])[0]

    def alert(self, text: str, source: str = "sensing", **details: Any) -> Record:
        return self._append([NewRecord("alert", {"text": text, **details}, source)])[0]

    def audit(self, who: str, what: str, **details: Any) -> Record:
        """Who did what: a TL decision, a hand revealed to the TL, an override."""
        if not who or not what:
            raise RecordError("an audit record names who did what")
        return self._append([NewRecord("audit", {"who": who, "what": what, **details}, who)])[0]

    def record_clock(self, snapshot: ClockSnapshot, source: str = "clocks") -> Record:
        ClockSnapshot.from_dict(snapshot.to_dict())  # refuse a malformed snapshot before storing
        return self._append([NewRecord("clock", snapshot.to_dict(), source)])[0]

    # --- the records' times -------------------------------------------------------------

    def _now(self) -> float:
        """The store's wall clock (the time a record is stamped with)."""
        return float(self.store.clock())

    def stamp_with(self, wall: Callable[[], float]) -> None:
        """Stamp the records written from now on with ``wall`` (seconds since the epoch)
        instead of the wall clock: a table in simulated time (``run --fast``) stamps them
        on its simulated clock, so its log is the same on every run."""
        self.store.clock = wall

    def last_time(self) -> float | None:
        """The newest stored record's time (None for an empty log)."""
        seq = self.store.last_seq()
        return self.store.read(seq, seq)[0].time if seq else None

    # --- held records (sensor observations, running clocks) ----------------------------

    def sense(self, data: Mapping[str, Any], source: str) -> None:
        """A raw sensor observation, committed with the next write."""
        self._hold(NewRecord("sensor", data, source, self._now()))

    def hold_clocks(self, data: Mapping[str, Any]) -> None:
        """A running clock's snapshot, committed with the next write (at most a second on)."""
        self._hold(NewRecord("clock", ClockSnapshot.from_dict(data).to_dict(), "clocks", self._now()))

    def flush_sensors(self, older_than_s: float = 0.0) -> None:
        """Write what is held when the oldest has waited ``older_than_s`` (loop seconds);
        a refusal window that has run its time is summed up first."""
        self.end_refusal_windows(refusals.WINDOW_S)
        if self.pending and _loop_time() - self._oldest >= older_than_s:
            self._append([])

    def _hold(self, rec: NewRecord) -> None:
        check_new(rec)  # a bad observation is refused here, never in an action's commit
        if not self.pending:
            self._oldest = _loop_time()
        self.pending.append(rec)
        if len(self.pending) >= self.max_pending:
            self.flush_sensors()

    def _append(self, records: Sequence[NewRecord]) -> list[Record]:
        """Store ``records`` in one transaction, after what is held (its own ``txn``)."""
        held = self.pending
        out = self.store.append_batches([held, list(records)])  # on failure the held ones stay held
        self.pending = []
        return out[len(held) :]

    # --- reading -----------------------------------------------------------------------

    def records(self, *kinds: str) -> list[Record]:
        """The stored records (of ``kinds`` only, when named), oldest first."""
        return self.store.read(kinds=kinds or None)

    def stored_clocks(self) -> tuple[ClockSnapshot, bool] | None:
        """The last stored clock snapshot and whether it is current (no action stored
        after it); None when the log holds none."""
        snap = last_clock(self.store.read(kinds=["clock"]))
        if snap is None:
            return None
        return snap, not self.store.read(snap.seq + 1, kinds=["action"])

    def close(self) -> None:
        """Write what is still held, then close the store."""
        try:
            self.end_refusal_windows()
            self.flush_sensors()
        finally:
            self.store.close()
