"""Simulated parts of the seat controller: what the firmware's loop talks to.

The firmware (``hardware/firmware/controller.py``) gets these in place of the board's
SPI readers, GPIO buttons, LEDs, buzzer, watchdog and USB serial port.  They read the
physical table (``table.py``) and apply the noise model.
"""

from __future__ import annotations

import errno
import os
import random
import threading
import time
import tty
from collections.abc import Callable

from ..errors import VirtualTableError
from .noise import NoiseModel


class BoardClock:
    """Milliseconds since the table started, as the board's ticks.

    A microcontroller runs its loop without pause; the simulation's thread shares the
    machine and can be kept waiting.  So the board's time follows the wall clock, but
    moves by at most ``max_step_ms`` per loop pass (:meth:`advance`, called by the runner
    before each pass): a starved thread makes the board's time slower, never a loop
    pass that skips scans, debounce or a button press a real board would have seen."""

    def __init__(self, max_step_ms: int = 10) -> None:
        self.max_step_ms = max_step_ms
        self._wall = time.monotonic()
        self._ms = 0.0

    def advance(self) -> None:
        wall = time.monotonic()
        self._ms += min((wall - self._wall) * 1000.0, self.max_step_ms)
        self._wall = wall

    def ms(self) -> int:
        return int(self._ms)


class SimBoardClock:
    """The board's ticks on simulated time: milliseconds of the table's clock (``now``,
    seconds) since the table started.  The firmware task runs whenever the simulation
    lets it, so no pass is ever starved and no cap is needed."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._t0 = now()

    def advance(self) -> None:
        pass

    def ms(self) -> int:
        return int(round((self._now() - self._t0) * 1000.0, 6))


READER_KINDS = ("mfrc522", "pn5180")


class Pn5180Pad:
    """A PN5180 under a pad: the real driver (hardware/firmware/pn5180.py) over the
    register-level simulation of the chip (pn5180_chip.py), whose field holds the tags
    handed to ``scan``.  A stack is read whole, as the chip's inventory does it.

    The simulation is deterministic, so the driver runs again only when the tags in the
    field change: a full discard tray costs about 290 exchanges a scan, and running them
    every 2 ms starved the board's thread (the bots' table then fell behind)."""

    def __init__(self) -> None:
        from ..firmware.pn5180 import PN5180
        from .pn5180_chip import SimBusy, SimNSS, SimSPI, SimulatedPN5180

        self.chip = SimulatedPN5180([])
        self._tags: dict[str, object] = {}
        self.driver = PN5180(SimSPI(self.chip), SimNSS(self.chip), SimBusy(self.chip), sleep=lambda ms: None)
        self._last: tuple[tuple[str, ...], list[str]] | None = None

    def scan(self, uids: list[str]) -> list[str]:
        from .pn5180_chip import Tag

        key = tuple(uids)
        if self._last is not None and self._last[0] == key:
            return list(self._last[1])
        for uid in uids:
            if uid not in self._tags:
                self._tags[uid] = Tag(uid)
        self.chip.tags = [self._tags[u] for u in uids]
        found = self.driver.scan()
        self._last = (key, found)
        return list(found)


class VirtualReader:
    """One pad's antenna: returns the tags on the pad, through the noise model.

    ``kind`` is the reader under the pad: an MFRC522 (ISO 14443A) sees at most the
    noise model's ``stack_limit`` cards of a stack per scan; a PN5180 runs the real
    driver over the simulated chip, whose 16-slot inventory reads a stack whole
    (hardware/README.md, "A PN5180 build").  Flicker and missed scans apply to both."""

    def __init__(
        self, tags: Callable[[], list[str]], noise: NoiseModel, rng: random.Random, kind: str = "mfrc522"
    ) -> None:
        if kind not in READER_KINDS:
            raise VirtualTableError(f"reader {kind!r}: one of {', '.join(READER_KINDS)}")
        self._tags = tags
        self._noise = noise
        self._rng = rng
        self.kind = kind
        self._pn5180 = Pn5180Pad() if kind == "pn5180" else None
        self.broken = False
        self.scans = 0

    def scan(self) -> list[str]:
        self.scans += 1
        if self.broken:
            raise OSError("antenna-timeout")
        tags = self._tags()
        n = self._noise
        if n.missed_scan and self._rng.random() < n.missed_scan:
            return []
        if self._pn5180 is not None:
            # what the chip reads of the tags on the pad, then the odd tag missed in a scan
            tags = self._pn5180.scan(tags)
        if n.flicker:
            tags = [t for t in tags if self._rng.random() >= n.flicker]
        if self._pn5180 is not None:
            return tags
        if n.stack_limit and len(tags) > n.stack_limit:
            tags = self._rng.sample(tags, n.stack_limit)
        return tags


class ConsoleButtons:
    """The dealer console's buttons.  A press holds its button down for ``hold_s`` of
    the board's time from the moment the firmware first looks (``held(now_ms)``), so a
    busy machine cannot let a press come and go unseen; a press of a button still held
    waits until the button has been up long enough to be seen released (``gap_ms``)."""

    def __init__(self, gap_ms: int = 60) -> None:
        self.gap_ms = gap_ms
        self._queued: dict[str, list[float]] = {}  # name -> hold times (ms) to come
        self._down: dict[str, float] = {}  # name -> board ms it goes up
        self._up_at: dict[str, float] = {}  # name -> board ms it went up
        self._lock = threading.Lock()

    def press(self, name: str, hold_s: float = 0.05) -> None:
        with self._lock:
            self._queued.setdefault(name, []).append(hold_s * 1000.0)

    def pending(self, name: str | None = None) -> int:
        """Presses not yet over (queued or held down), of one button or of all."""
        with self._lock:
            if name is None:
                return sum(len(q) for q in self._queued.values()) + len(self._down)
            return len(self._queued.get(name, ())) + (name in self._down)

    def held(self, now_ms: float) -> set[str]:
        with self._lock:
            for name, until in list(self._down.items()):
                if now_ms >= until:
                    del self._down[name]
                    self._up_at[name] = now_ms
            for name, queue in self._queued.items():
                if queue and name not in self._down and now_ms - self._up_at.get(name, -1e9) >= self.gap_ms:
                    self._down[name] = now_ms + queue.pop(0)
            return set(self._down)


class Leds:
    """The seat LEDs as the firmware drives them; ``history`` keeps every change with
    the time it happened (``now``: the table's clock, monotonic seconds by default)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.shown: dict[str, str] = {}
        self.history: list[tuple[float, str, str]] = []
        self._now = now

    def show(self, seat: str, colour: str) -> None:
        self.shown[seat] = colour
        self.history.append((self._now(), seat, colour))


class Buzzer:
    def __init__(self) -> None:
        self.on = False
        self.buzzes = 0

    def set(self, on: bool) -> None:
        if on and not self.on:
            self.buzzes += 1
        self.on = on


class Watchdog:
    """Records feeds; the table's runner reboots the firmware if feeding stops."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self.last_feed = now()
        self.feeds = 0

    def feed(self) -> None:
        self.last_feed = self._now()
        self.feeds += 1


def line_noise(data: bytes, n: NoiseModel, rng: random.Random) -> bytes:
    """Bytes to the host as the cable delivers them: some doubled, some flipped."""
    if not (n.dup_byte or n.corrupt_byte):
        return data
    out = bytearray()
    for b in data:
        if n.corrupt_byte and rng.random() < n.corrupt_byte:
            b ^= 1 << rng.randrange(8)
        out.append(b)
        if n.dup_byte and rng.random() < n.dup_byte:
            out.append(b)
    return bytes(out)


class PtyPort:
    """The device end of a pseudo-terminal: the USB serial line of the board.

    ``path`` is the terminal the host opens with pyserial.  Closing the port is
    unplugging the cable: the host's reads fail at once (EIO).
    """

    def __init__(self, noise: NoiseModel, rng: random.Random) -> None:
        self._noise = noise
        self._rng = rng
        self.master, self._slave = os.openpty()
        # Raw at once: a cooked terminal would echo our own frames back to us.
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.dropped_bytes = 0
        self.closed = False

    def read(self) -> bytes:
        try:
            data = os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise
        if self._noise.command_loss and self._rng.random() < self._noise.command_loss:
            return b""
        return data

    def write(self, data: bytes) -> None:
        data = line_noise(data, self._noise, self._rng)
        view = memoryview(data)
        while view:
            try:
                sent = os.write(self.master, view)
            except (BlockingIOError, OSError):
                # Nobody reading (host away): a USB CDC device drops what it cannot send.
                self.dropped_bytes += len(view)
                return
            view = view[sent:]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self._slave)
