"""The virtual table: a simulated physical Chicago table driving the real firmware.

    with VirtualTable(noise=NoiseModel.rough(), seed=7) as table:
        print(table.port)              # open this with pyserial / firmware_bridge
        table.put("AS", "seat2")       # a card lands on seat 2's pad
        table.pick_up("seat2")         # player 2 takes the pad's cards into the hand
        table.press("next")            # the dealer presses a console button

Cards live in one place each: the dealer's stub, a player's hand, or a pad.  Only
pads are seen by the readers (players hold their hands, rule 13).  The firmware runs
in a thread from construction on (``close()`` or ``with`` ends it), one loop pass about
every millisecond, on a pseudo-terminal; ``port`` is
a stable symlink to that terminal (like ``/dev/serial/by-id/...`` on the Pi) that
survives ``unplug()``/``replug()``.

``simulated=True`` (made inside a running loop, best a ``SimulatedTimeLoop``): the
firmware runs on that loop's timers instead, on the loop's clock, and ``port`` is an
in-memory ``sim://`` URL (``memport.py``) with the same framing and noise.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import VirtualTableError
from ..firmware.controller import PADS, SEATS, Config, SeatController
from .deck import INLAYS, PUCK, VirtualDeck, virtual_uid
from .devices import BoardClock, Buzzer, ConsoleButtons, Leds, PtyPort, SimBoardClock, VirtualReader, Watchdog
from .noise import NoiseModel

if TYPE_CHECKING:
    from .memport import MemoryPort  # imported when a simulated table plugs in

BUTTONS = ("next", "declined", "time", "tl", "pause") + tuple(f"time:{s}" for s in SEATS)
STUB = "stub"  # the dealer's hand


def fast_config() -> Config:
    """Firmware timing for the simulation: same logic, quicker scans."""
    return Config(confirm_reads=2, gone_ms=150, scan_ms=5)


class VirtualTable:
    def __init__(
        self,
        deck: VirtualDeck | None = None,
        noise: NoiseModel | None = None,
        seed: int = 0,
        config: Config | None = None,
        device_id: str = "SC-VIRTUAL",
        step_s: float = 0.001,
        port_dir: str | None = None,
        autostart: bool = True,
        reader: str = "mfrc522",
        simulated: bool = False,
        clock=None,
    ) -> None:
        if reader not in INLAYS:
            raise VirtualTableError(f"reader {reader!r}: one of {', '.join(INLAYS)}")
        # a PN5180 table's deck carries ISO 15693 inlays (8-byte UIDs), the puck too
        self.deck = deck or VirtualDeck.standard(inlay=INLAYS[reader])
        if reader == "pn5180" and any(len(u) != 16 for u in self.deck.uids.values()):
            raise VirtualTableError(
                "a PN5180 reads ISO 15693 inlays (16-digit UIDs): give a deck of them, "
                "VirtualDeck.standard(inlay='iso15693')"
            )
        self.noise = noise or NoiseModel()
        self.config = config or fast_config()
        self.device_id = device_id
        self.button_uid = virtual_uid(PUCK, inlay=INLAYS[reader])
        self._step_s = step_s
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self.simulated = simulated
        self._version = 0  # bumped by every move (readers' cache)
        self._seen: dict[str, tuple[int, list[str]]] = {}
        self._where: dict[str, str] = {code: STUB for code in self.deck.uids}
        self._order: dict[str, int] = {}  # code -> when it landed (stack order)
        self._tick = 0
        self._puck: str | None = None
        if simulated:
            from . import memport
            from .simtime import LoopClock

            self._dir = None
            self.port = memport.new_name()
            now = (clock or LoopClock(asyncio.get_running_loop())).now
            self.clock: BoardClock | SimBoardClock = SimBoardClock(now)
        else:
            self._dir = port_dir or tempfile.mkdtemp(prefix="virtual-table-")
            self.port = os.path.join(self._dir, "seat-controller")
            now = clock.now if clock is not None else time.monotonic
            # at most two scans' worth of board time per loop pass (see BoardClock)
            self.clock = BoardClock(max_step_ms=max(4, 2 * self.config.scan_ms))
        self.buttons = ConsoleButtons(gap_ms=max(60, 3 * self.config.button_ms))
        self.leds = Leds(now)
        self.buzzer = Buzzer()
        self.watchdog = Watchdog(now)
        # the reader under every pad: "mfrc522" (stacks read a few cards per scan) or "pn5180"
        self.readers = {pad: VirtualReader(self._tags_fn(pad), self.noise, self._rng, reader) for pad in PADS}
        self.boots = 0
        self.pty: PtyPort | MemoryPort | None = None
        self.firmware: SeatController | None = None
        self._thread: threading.Thread | _TimedPasses | None = None
        self._stop = threading.Event()
        self._hung = threading.Event()
        if autostart:
            self.start()

    # --- life cycle -----------------------------------------------------------
    def start(self) -> VirtualTable:
        """Power the board up (done by the constructor unless ``autostart=False``)."""
        if self._thread is None:
            self._plug_in()
        return self

    def close(self) -> None:
        self._unplug()
        if self._dir is None:
            return
        try:
            os.rmdir(self._dir)
        except OSError:
            pass

    def __enter__(self) -> VirtualTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def plugged_in(self) -> bool:
        return self._thread is not None

    def _plug_in(self) -> None:
        if self.simulated:
            from .memport import MemoryPort

            self.pty = MemoryPort(self.port, self.noise, self._rng)
            self._boot()
            return
        self.pty = PtyPort(self.noise, self._rng)
        tmp = self.port + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.pty.path, tmp)
        os.replace(tmp, self.port)  # the stable name moves to the new terminal at once
        self._boot()

    def _boot(self) -> None:
        """Start the real firmware logic afresh, as power-on or a watchdog reset does."""
        self.boots += 1
        self.firmware = fw = SeatController(
            self.pty,
            self.readers,
            self.buttons,
            self.leds,
            self.buzzer,
            self.clock,
            self.watchdog,
            self.device_id,
            self.config,
        )
        self._stop.clear()
        if self.simulated:
            self._thread = _TimedPasses(fw, self._hung, max(self._step_s, self.config.scan_ms / 1000.0))
            return
        self._thread = threading.Thread(target=self._run, args=(fw,), name="virtual-seat-controller", daemon=True)
        self._thread.start()

    def _halt(self) -> None:
        """The firmware stops (power off, reset)."""
        self._stop.set()
        if isinstance(self._thread, _TimedPasses):
            self._thread.cancel()  # its next pass is a timer: it runs no further pass
        elif self._thread is not None:
            self._thread.join()

    def _unplug(self) -> None:
        if self._thread is None:
            return
        self._halt()
        self._thread = None
        if self.pty is not None:
            self.pty.close()
        if not self.simulated and os.path.lexists(self.port):
            os.unlink(self.port)
        # The board loses power: its LEDs and buzzer go dark.
        for seat in SEATS:
            if self.leds.shown.get(seat, "off") != "off":
                self.leds.show(seat, "off")
        self.buzzer.set(False)

    def _run(self, fw: SeatController) -> None:
        stop, hung = self._stop, self._hung
        while not stop.is_set():
            if not hung.is_set():
                with self._lock:
                    self.clock.advance()
                    fw.step()
            time.sleep(self._step_s)

    # --- what the readers see ---------------------------------------------------
    def _tags_fn(self, pad: str):
        def tags() -> list[str]:
            with self._lock:
                cached = self._seen.get(pad)
                if cached is not None and cached[0] == self._version:
                    return list(cached[1])
                codes = sorted((c for c, w in self._where.items() if w == pad), key=self._order.__getitem__)
                out = [self.deck.uids[c] for c in codes]
                if self._puck == pad:
                    out.append(self.button_uid)
                self._seen[pad] = (self._version, out)
                return list(out)

        return tags

    def on_pad(self, pad: str) -> list[str]:
        """Card codes on a pad, in the order they landed (the truth, not what is read)."""
        self._check_pad(pad)
        with self._lock:
            return sorted((c for c, w in self._where.items() if w == pad), key=self._order.__getitem__)

    def where(self, code: str) -> str:
        """``stub``, ``hand:seat2`` or a pad name."""
        return self._where[self._code(code)]

    # --- physical moves -----------------------------------------------------------
    def put(self, code: str, pad: str) -> None:
        """A card lands on a pad (dealt from the stub, or placed from a hand)."""
        code = self._code(code)
        self._check_pad(pad)
        with self._lock:
            self._tick += 1
            self._version += 1
            self._order[code] = self._tick
            self._where[code] = pad

    def deal(self, pad: str, codes: Iterable[str]) -> None:
        codes = [self._code(c) for c in codes]  # all checked before any moves
        for code in codes:
            self.put(code, pad)

    def remove(self, code: str, to: str = STUB) -> None:
        """A card leaves its pad: back to the dealer (``stub``) or into ``hand:seatN``."""
        code = self._code(code)
        if to != STUB and not (to.startswith("hand:") and to[5:] in SEATS):
            raise VirtualTableError(f"a card goes to 'stub' or 'hand:seat1'..'hand:seat4', not {to!r}")
        with self._lock:
            self._version += 1
            self._where[code] = to

    def pick_up(self, pad: str) -> list[str]:
        """Everything on a pad is picked up: a seat's cards into that player's hand, the
        tray's into the dealer's stub.  Returns the codes picked up."""
        self._check_pad(pad)
        to = STUB if pad == "tray" else f"hand:{pad}"
        with self._lock:
            codes = self.on_pad(pad)
            self._version += 1
            for code in codes:
                self._where[code] = to
        return codes

    def to_tray(self, code: str) -> None:
        self.put(code, "tray")

    def press(self, button: str, hold_s: float = 0.05) -> None:
        if button not in BUTTONS:
            raise VirtualTableError(f"no console button {button!r}; buttons: {', '.join(BUTTONS)}")
        self.buttons.press(button, hold_s)

    def move_button(self, seat: str | None) -> None:
        """The dealer button puck moves onto a seat's pad (``None``: off the table)."""
        if seat is not None and seat not in SEATS:
            raise VirtualTableError(f"the button puck goes on seat1..seat4, not {seat!r}")
        with self._lock:
            self._version += 1
            self._puck = seat

    def fail_reader(self, pad: str, broken: bool = True) -> None:
        self._check_pad(pad)
        self.readers[pad].broken = broken

    def unplug(self) -> None:
        """Pull the USB cable: the port vanishes, the board is off."""
        self._unplug()

    def replug(self) -> None:
        """Plug the cable back in: the board boots afresh (new HELLO, seq from 0)."""
        if self._thread is None:
            self._plug_in()

    def reboot(self) -> None:
        """The board resets (watchdog, brown-out) with the cable in: same port, a fresh
        firmware state, a new HELLO with seq 0."""
        if self._thread is None:
            raise VirtualTableError("the table is unplugged; replug() it first")
        self._halt()
        self._boot()

    def hang(self) -> None:
        """The firmware stops answering but the port stays open (a silent device)."""
        self._hung.set()

    def resume(self) -> None:
        self._hung.clear()

    def run_script(self, moves, gap_s: float = 0.0) -> None:
        """Do a list of moves (``Move`` values or lines like ``"put AS seat2"``), with
        ``gap_s`` seconds between them.  See ``script.py`` for the move words.  Its waits
        sleep on the wall clock: in a running loop use :meth:`play_script`."""
        from .script import parse_moves

        for move in parse_moves(moves):
            move.apply(self)
            if gap_s:
                time.sleep(gap_s)

    async def play_script(self, moves, gap_s: float = 0.0) -> None:
        """``run_script`` for a running loop (a simulated table above all): ``wait`` and
        the gaps are ``asyncio.sleep``, on the loop's clock, never on the wall clock."""
        import asyncio

        from .script import parse_moves

        for move in parse_moves(moves):
            if move.kind == "wait":
                await asyncio.sleep(float(move.args[0]))
            else:
                move.apply(self)
            if gap_s:
                await asyncio.sleep(gap_s)

    # --- checks ---------------------------------------------------------------------
    def _code(self, code: str) -> str:
        self.deck.uid(code)  # raises VirtualTableError for an unknown card
        return code.strip().upper()

    @staticmethod
    def _check_pad(pad: str) -> None:
        if pad not in PADS:
            raise VirtualTableError(f"no pad {pad!r}; pads: {', '.join(PADS)}")


class _TimedPasses:
    """The firmware on simulated time: one pass per scan interval of the loop's clock (at
    least ``step_s``), each pass a timer of the running loop that sets the next.  A board
    passes about every millisecond, but a pass between two scans only polls the line and the
    buttons, which the next pass does as well (a press is held 20 ms and more, an ACK is
    awaited 200 ms): every scan is still made on time, at half the cost.  Timers, not a task
    that sleeps: a sleeping task costs a future and a wake-up step per pass, a fifth of the
    loop's work on a simulated table (issue 15)."""

    def __init__(self, fw: SeatController, hung: threading.Event, step_s: float) -> None:
        self._fw, self._hung, self._step = fw, hung, step_s
        self._loop = asyncio.get_running_loop()
        self._stopped = False
        self._handle: asyncio.Handle = self._loop.call_soon(self._pass)

    def _pass(self) -> None:
        if not self._hung.is_set():
            self._fw.step()
        if not self._stopped:  # a pass that powered the board off sets no next one
            self._handle = self._loop.call_at(self._loop.time() + self._step, self._pass)

    def cancel(self) -> None:
        self._stopped = True
        self._handle.cancel()
