"""The audit trail: who did what on the dashboard and why (reveals, pauses, alerts).

One JSON line per entry, fsynced: a reveal of a hidden hand is on disk before the TL sees
the cards (ARCHITECTURE.md §3).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any


class AuditLog:
    def __init__(self, path: Path, clock=time.time):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock

    def append(self, by: str, what: str, detail: dict[str, Any]) -> None:
        line = json.dumps({"at": self.clock(), "by": by, "what": what, **detail}, ensure_ascii=False)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, (line + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)

    def entries(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(x) for x in self.path.read_text().splitlines() if x.strip()]
