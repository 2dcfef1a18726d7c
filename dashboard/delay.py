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
stored.  The delay runs instead on the server's *held clock*: the monotonic seconds this
server has run, summed over its runs and checkpointed in the file (at most a second old).
A frame is due at held time push + delay; what it still owes at the last checkpoint is its
due time minus the checkpoint, and a restarted server goes on from the checkpoint, so it
holds every frame at least that long again: a restart may hold a frame longer, never shorter.

    >>> now = [0.0]   # a fake monotonic clock, in seconds
    >>> d = BroadcastDelay(Path("broadcast.sqlite"), start_frame="{}", delay=60, clock=lambda: now[0])
    >>> d.push(seq=12, frame="hands", masked="no hands", deal="1.3")
    >>> d.due(live_deal="1.3").seq   # nothing is due yet: the start position
    -1
    >>> now[0] = 61.0
    >>> d.due(live_deal="1.3").text   # due, but deal 1.3 is still live
    'no hands'
    >>> d.due(live_deal="1.4").text   # that deal has ended at the live table
    'hands'
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from .errors import DashboardError

CHECKPOINT_EVERY = 1.0  # seconds between checkpoints of the held clock (a restart may hold this much longer)


# The longest broadcast delay a table takes, in seconds (a day): the flag --broadcast-delay
# (app/argtypes.delay_seconds), table.toml's [dashboard] broadcast_delay (app/config) and the
# store here refuse anything longer alike.
LONGEST_DELAY = 86400.0


class Frame(NamedTuple):
    id: int  # push order; 0: the start position
    seq: int  # the table state shown; -1: the start position
    text: str
    masked: bool  # the deal's hidden cards are held back (the deal is still live)


class BroadcastDelay:
    def __init__(
        self,
        path: Path,
        start_frame: str,
        delay: float | None = None,
        default_delay: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ):
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
        if cols and "due" not in cols:
            # Frames of the wall-clock format: their times mean nothing on the held clock.
            # Dropped; the hub re-queues the current state, held a whole delay from now.
            self._db.execute("DROP TABLE frames")
        # id: push order (one state may be pushed again when its clocks or alerts change, and
        # the copy already shown must stay shown); due: held-clock time it may be shown;
        # deal: "game.deal" whose hidden cards ``body`` shows (NULL: none); masked: the frame
        # without them (NULL: the same as body).
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY AUTOINCREMENT, "
            "seq INTEGER NOT NULL, due REAL NOT NULL, deal TEXT, body TEXT NOT NULL, masked TEXT)"
        )
        self._db.execute("CREATE INDEX IF NOT EXISTS frames_due ON frames (due, id)")
        self._db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        # The held clock goes on from the last checkpoint, whatever the clocks did meanwhile.
        self._run_start = self.clock()
        self._held_start = float(self._setting("held_clock") or 0.0)
        self._held = self._saved = self._held_start
        if delay is not None:
            self.set_delay(delay)
        elif self._setting("delay") is None:
            self.set_delay(default_delay)
        # Every frame was pushed before the stop: the held clock had reached its push time
        # (due - delay) even if no checkpoint says so.  Going on from there keeps frames due
        # in push order (a frame pushed now is never due before an older one) and is still
        # no later than the stop: nothing is shown early.
        newest = self._db.execute("SELECT max(due) FROM frames").fetchone()[0]
        if newest is not None:
            self._held_start = self._held = max(self._held_start, newest - self.delay)

    def _setting(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def delay(self) -> float:
        value = self._setting("delay")
        assert value is not None  # __init__ stores one
        return float(value)

    def set_delay(self, seconds: float) -> None:
        """A new delay applies to the queued frames too (each is held ``seconds`` from its push)."""
        try:
            seconds = float(seconds)
        except (TypeError, ValueError):
            raise DashboardError(f"broadcast delay {seconds!r}: give 0 to {LONGEST_DELAY:g} seconds") from None
        if not (0 <= seconds <= LONGEST_DELAY):
            raise DashboardError(f"broadcast delay {seconds} s: give 0 to {LONGEST_DELAY:g} seconds")
        old = self._setting("delay")
        if old is not None and float(old) != seconds:
            self._db.execute("UPDATE frames SET due = due + ?", (seconds - float(old),))
        self._db.execute("INSERT OR REPLACE INTO settings VALUES ('delay', ?)", (repr(seconds),))

    def now(self) -> float:
        """The held clock: monotonic seconds this server has run, over all its runs."""
        # max(): a monotonic clock never runs back; an injected one is held to that too.
        self._held = max(self._held, self._held_start + (self.clock() - self._run_start))
        return self._held

    def checkpoint(self) -> None:
        """Store the held clock: a restart goes on from here (what every frame still owes)."""
        self._saved = self.now()
        self._db.execute("INSERT OR REPLACE INTO settings VALUES ('held_clock', ?)", (repr(self._saved),))

    def _tick(self) -> float:
        now = self.now()
        if now - self._saved >= CHECKPOINT_EVERY:
            self.checkpoint()
        return now

    def push(self, seq: int, frame: str, masked: str | None = None, deal: str | None = None) -> None:
        """Queue the broadcast frame of state ``seq``, held ``delay`` seconds from now.  ``deal``
        names the deal whose hidden cards ``frame`` shows; ``masked`` is the frame without them."""
        self._db.execute(
            "INSERT INTO frames (seq, due, deal, body, masked) VALUES (?, ?, ?, ?, ?)",
            (seq, self._tick() + self.delay, deal, frame, None if masked == frame else masked),
        )

    def newest_seq(self) -> int | None:
        row = self._db.execute("SELECT max(seq) FROM frames").fetchone()
        return row[0]

    def due(self, live_deal: str | None) -> Frame:
        """What the broadcast shows now: the newest frame whose delay has passed, masked while
        ``live_deal`` (the deal in progress at the live table, None between deals) is the deal
        whose hidden cards it shows; the start position while no frame is due."""
        row = self._db.execute(
            "SELECT id, seq, deal, body, masked, due FROM frames WHERE due <= ? ORDER BY due DESC, id DESC LIMIT 1",
            (self._tick(),),
        ).fetchone()
        if row is None:
            return Frame(0, -1, self.start_frame, False)
        fid, seq, deal, body, masked, due = row
        if due > self._saved:
            self.checkpoint()  # a frame once shown stays due after a crash (no step back)
        # Older frames can never be shown again: keep the file small.
        self._db.execute("DELETE FROM frames WHERE id < ?", (fid,))
        if deal is not None and deal == live_deal:
            return Frame(fid, seq, body if masked is None else masked, True)
        return Frame(fid, seq, body, False)

    def next_due_in(self, after_id: int) -> float | None:
        """Seconds (monotonic) until the next frame after frame ``after_id`` is due; None: none queued."""
        row = self._db.execute("SELECT due FROM frames WHERE id > ? ORDER BY id LIMIT 1", (after_id,)).fetchone()
        return None if row is None else max(0.0, row[0] - self.now())

    def close(self) -> None:
        try:
            self.checkpoint()
        finally:
            self._db.close()
