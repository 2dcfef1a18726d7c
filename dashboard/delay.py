"""The broadcast delay, held on the server (ARCHITECTURE.md §4; LIBRARIES.md on lichess).

The broadcast gets the newest frame that is at least ``delay`` seconds old, and the start
position while there is none.  Frames and the delay live in a small SQLite file, so a
restarted server neither shows the stream something early nor forgets what is queued.

    >>> d = BroadcastDelay(Path("broadcast.sqlite"), start_frame="{}")   # doctest: +SKIP
    >>> d.push(seq=12, frame="...", at=time.time())                      # doctest: +SKIP
    >>> d.due(now)   # (seq, frame) to show now                          # doctest: +SKIP
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .errors import DashboardError


class BroadcastDelay:
    def __init__(self, path: Path, start_frame: str, delay: float | None = None, default_delay: float = 60.0):
        self.path = Path(path)
        self.start_frame = start_frame
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # Frames are a cache of the action log: a power cut may lose the newest few, and a
        # restarted hub re-queues the current state (never shown early), so no fsync per frame.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS frames (seq INTEGER PRIMARY KEY, at REAL NOT NULL, body TEXT NOT NULL)")
        self._db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        if delay is not None:
            self.set_delay(delay)
        elif self._setting("delay") is None:
            self.set_delay(default_delay)

    def _setting(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def delay(self) -> float:
        return float(self._setting("delay"))

    def set_delay(self, seconds: float) -> None:
        if not (0 <= float(seconds) <= 24 * 3600):
            raise DashboardError(f"broadcast delay {seconds} s: give 0 to 86400 seconds")
        self._db.execute("INSERT OR REPLACE INTO settings VALUES ('delay', ?)", (repr(float(seconds)),))

    def push(self, seq: int, frame: str, at: float) -> None:
        """Queue the broadcast frame of state ``seq``, appended at wall time ``at``."""
        self._db.execute("INSERT OR REPLACE INTO frames VALUES (?, ?, ?)", (seq, at, frame))

    def newest_seq(self) -> int | None:
        row = self._db.execute("SELECT max(seq) FROM frames").fetchone()
        return row[0]

    def due(self, now: float) -> tuple[int, str]:
        """The frame to show at ``now``: the newest at least ``delay`` old, else the start."""
        row = self._db.execute("SELECT seq, body FROM frames WHERE at <= ? ORDER BY seq DESC LIMIT 1",
                               (now - self.delay,)).fetchone()
        if row is None:
            return -1, self.start_frame
        # Older frames can never be shown again: keep the file small.
        self._db.execute("DELETE FROM frames WHERE seq < ?", (row[0],))
        return row[0], row[1]

    def next_due_at(self, after_seq: int) -> float | None:
        """Wall time at which the next frame after ``after_seq`` becomes due."""
        row = self._db.execute("SELECT min(at) FROM frames WHERE seq > ?", (after_seq,)).fetchone()
        return None if row[0] is None else row[0] + self.delay

    def close(self) -> None:
        self._db.close()
