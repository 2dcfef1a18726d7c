"""The broadcast delay, held on the server (ARCHITECTURE.md §3-4; LIBRARIES.md on lichess).

The broadcast gets the newest frame whose delay has passed, and the start position while
there is none.  Two rules, both against a viewer who also watches the live public stream:

- **Monotonic time.**  The delay runs on a monotonic clock (``time.monotonic``, injectable),
  never the wall clock: a Pi has no real-time clock, and an NTP step of +1 h once released
  every queued frame at once.
- **A deal's hidden cards wait for the deal's end.**  After the last exchange a hand only
  shrinks by cards everyone sees played live, so a delayed frame's hands minus the plays
  shown live since are the live hands.  A frame that shows a deal's hidden cards is therefore
  shown whole only when its delay has passed AND that deal has ended at the live table
  (whichever is later); until then its ``masked`` twin goes out (the deal without hidden
  cards, what the public sees).

Frames live in a small SQLite file, so a restarted server neither shows something early nor
forgets what is queued.  A monotonic clock restarts with the machine, so no reading of it is
stored: each frame stores the seconds it still ``owed`` at the last checkpoint (at most a
second old), and a restarted server holds it at least that long again from its start: a
restart may hold a frame longer, never shorter.

    >>> d = BroadcastDelay(Path("broadcast.sqlite"), start_frame="{}")          # doctest: +SKIP
    >>> d.push(seq=12, frame="...", masked="...", deal="1.3")                   # doctest: +SKIP
    >>> d.due(live_deal="1.3")   # the Frame to show now                        # doctest: +SKIP
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Callable, NamedTuple

from .errors import DashboardError

CHECKPOINT_EVERY = 1.0  # seconds (monotonic) between writes of what each frame still owes


class Frame(NamedTuple):
    id: int  # push order; 0: the start position
    seq: int  # the table state shown; -1: the start position
    text: str
    masked: bool  # the deal's hidden cards are held back (the deal is still live)


class BroadcastDelay:
    def __init__(self, path: Path, start_frame: str, delay: float | None = None, default_delay: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.path = Path(path)
        self.start_frame = start_frame
        self.clock = clock
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # Frames are a cache of the action log: a power cut may lose the newest few (and the
        # newest checkpoint, which only holds frames longer), and a restarted hub re-queues
        # the current state (never shown early), so no fsync per frame.
        self._db.execute("PRAGMA synchronous=NORMAL")
        cols = [r[1] for r in self._db.execute("PRAGMA table_info(frames)")]
        if cols and "owed" not in cols:
            # Frames of the wall-clock format: their times mean nothing on the monotonic clock.
            # Dropped; the hub re-queues the current state, held a whole delay from now.
            self._db.execute("DROP TABLE frames")
        # id: push order (one state may be pushed again when its clocks or alerts change, and
        # the copy already shown must stay shown); owed: seconds the frame is still held,
        # counted from the last checkpoint (self._base); deal: "game.deal" whose hidden cards
        # ``body`` shows (NULL: none); masked: the frame without them (NULL: same as body).
        self._db.execute("CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                         "seq INTEGER NOT NULL, owed REAL NOT NULL, deal TEXT, body TEXT NOT NULL, masked TEXT)")
        self._db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        # The stored debts count from now: every frame held at least what it owed at the last
        # checkpoint before the stop, whatever the clocks did meanwhile.
        self._base = self.clock()
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
        """A new delay applies to the queued frames too (each is held ``seconds`` from its push)."""
        try:
            seconds = float(seconds)
        except (TypeError, ValueError):
            raise DashboardError(f"broadcast delay {seconds!r}: give 0 to 86400 seconds") from None
        if not (0 <= seconds <= 24 * 3600):
            raise DashboardError(f"broadcast delay {seconds} s: give 0 to 86400 seconds")
        old = self._setting("delay")
        if old is not None and float(old) != seconds:
            self._db.execute("UPDATE frames SET owed = max(0.0, owed + ?)", (seconds - float(old),))
        self._db.execute("INSERT OR REPLACE INTO settings VALUES ('delay', ?)", (repr(seconds),))

    def push(self, seq: int, frame: str, masked: str | None = None, deal: str | None = None) -> None:
        """Queue the broadcast frame of state ``seq``, held ``delay`` seconds from now.  ``deal``
        names the deal whose hidden cards ``frame`` shows; ``masked`` is the frame without them."""
        owed = self.delay + (self.clock() - self._base)
        self._db.execute("INSERT INTO frames (seq, owed, deal, body, masked) VALUES (?, ?, ?, ?, ?)",
                         (seq, owed, deal, frame, None if masked == frame else masked))

    def newest_seq(self) -> int | None:
        row = self._db.execute("SELECT max(seq) FROM frames").fetchone()
        return row[0]

    def _elapsed(self) -> float:
        """Seconds since the last checkpoint; writes a new one when that is a second old."""
        now = self.clock()
        elapsed = now - self._base
        if elapsed >= CHECKPOINT_EVERY:
            self.checkpoint(now)
            return 0.0
        return max(0.0, elapsed)  # a clock never runs back; a fake one is checked all the same

    def checkpoint(self, now: float | None = None) -> None:
        """Store what every held frame still owes (the debts a restart must honour)."""
        now = self.clock() if now is None else now
        elapsed = max(0.0, now - self._base)
        self._db.execute("UPDATE frames SET owed = max(0.0, owed - ?) WHERE owed > 0", (elapsed,))
        self._base = now

    def due(self, live_deal: str | None) -> Frame:
        """What the broadcast shows now: the newest frame whose delay has passed, masked while
        ``live_deal`` (the deal in progress at the live table, None between deals) is the deal
        whose hidden cards it shows; the start position while no frame is due."""
        row = self._db.execute("SELECT id, seq, deal, body, masked FROM frames WHERE owed <= ? "
                               "ORDER BY id DESC LIMIT 1", (self._elapsed(),)).fetchone()
        if row is None:
            return Frame(0, -1, self.start_frame, False)
        fid, seq, deal, body, masked = row
        # Older frames can never be shown again: keep the file small.
        self._db.execute("DELETE FROM frames WHERE id < ?", (fid,))
        if deal is not None and deal == live_deal:
            return Frame(fid, seq, body if masked is None else masked, True)
        return Frame(fid, seq, body, False)

    def next_due_in(self, after_id: int) -> float | None:
        """Seconds (monotonic) until the next frame after frame ``after_id`` is due; None: none queued."""
        row = self._db.execute("SELECT min(owed) FROM frames WHERE id > ?", (after_id,)).fetchone()
        return None if row[0] is None else max(0.0, row[0] - (self.clock() - self._base))

    def close(self) -> None:
        try:
            self.checkpoint()
        finally:
            self._db.close()
