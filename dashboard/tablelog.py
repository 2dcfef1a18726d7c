"""The table's record for the dashboard: the event store's SQLite log (issue 6).

Every action posted on the dashboard, every rejection, every alert and every audit entry
(a reveal, a pause, a resolved alert) goes into the one durable log of the table, through
its single writer, before any view shows it (ARCHITECTURE.md §3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from table_controller.rules.actions import Action
from table_controller.rules.engine import Engine
from table_controller.rules.events import Event
from table_controller.store import SQLiteStore, StoreError
from table_controller.store.recorder import TableRecorder
from table_controller.store.records import Record

from .errors import DashboardError


class TableLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.recorder, self.clocks = TableRecorder.resume(self.path, create=True)
        except StoreError as exc:
            raise DashboardError(f"{self.path}: cannot open the table log: {exc}") from exc

    @property
    def engine(self) -> Engine:
        return self.recorder.engine  # the recorder rolls it back if a write fails

    def apply(self, action: Action, source: str) -> list[Event]:
        """Judge and store durably (an illegal action is stored as rejected and re-raised)."""
        try:
            return self.recorder.apply(action, source)
        except StoreError as exc:
            raise DashboardError(f"the table log refused the write, nothing changed: {exc}") from exc

    def reject(self, raw: Any, reason: str, source: str) -> Record:
        return self._write(lambda: self.recorder.reject(raw, reason, source))

    def audit(self, who: str, what: str, **details: Any) -> Record:
        return self._write(lambda: self.recorder.audit(who, what, **details))

    def alert(self, text: str, source: str, **details: Any) -> Record:
        return self._write(lambda: self.recorder.alert(text, source, **details))

    def last_record(self) -> Record | None:
        return self.recorder.last_records[-1] if self.recorder.last_records else None

    def _write(self, fn):
        try:
            return fn()
        except StoreError as exc:
            raise DashboardError(f"the table log refused the write: {exc}") from exc

    def records(self, *kinds: str) -> list[Record]:
        return self.recorder.store.read(kinds=kinds or None)

    def close(self) -> None:
        self.recorder.store.close()


def read_actions(path: Path) -> list[dict[str, Any]]:
    """The accepted actions of a table's log, as REPLAY.md lines (for tests and export)."""
    with SQLiteStore.open(path, readonly=True, check=False) as store:
        return [dict(r.data) for r in store.read(kinds=["action"])]
