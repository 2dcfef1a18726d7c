"""The table's actions on disk, one REPLAY.md line each, fsynced before anything shows.

Until the event store (issue 6) serves the dashboard, this is the record a restarted
server folds back through the engine; the file is itself a valid action script.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from table_controller.actions import parse_action
from table_controller.engine import Engine, IllegalAction

from .errors import DashboardError


class ActionLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def load(self) -> Engine:
        engine = Engine()
        if not self.path.exists():
            return engine
        with self.path.open() as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                try:
                    engine.apply(parse_action(json.loads(line)))
                except (ValueError, IllegalAction) as exc:
                    raise DashboardError(f"{self.path}:{n}: the table log does not replay: {exc}") from exc
        return engine

    def append(self, action: dict[str, Any]) -> None:
        data = (json.dumps(action, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)  # ARCHITECTURE.md §3: on disk before any view shows it
        finally:
            os.close(fd)
