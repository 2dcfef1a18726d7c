"""``chicago-table link selftest``: the bench check list for a newly built seat
controller (issue 22), before it goes under a table.

    $ chicago-table link selftest /dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_XXXX-if00

It connects, then walks the person at the bench through every part and says PASS or
FAIL per item, in words: the link and firmware answer; every reader answers; a test
tag on each pad reads at once and stays read; a stack of tags on each pad reads whole
within N scans; every console button reports; every seat LED and the buzzer do what
they are told.  What the person must do is handed to a ``Bench`` (the command prints
it; the tests act it out on the virtual table), and the check waits for the board to
see it done, up to ``wait_s``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from table_controller.sensor_events import (
    PADS,
    ButtonPressed,
    PadContents,
    ReaderStatus,
    SensorEvent,
)

from .client import SeatControllerClient
from .errors import CommandFailed
from .messages import SEATS

BUTTONS = ("next", "declined", "time", "tl", "pause") + tuple(f"time:{s}" for s in SEATS)
LED_COLOURS = ("green", "yellow", "red", "blue", "white")
CHECKS = ("link", "readers", "tag", "stack", "buttons", "leds", "buzzer")


@dataclass(frozen=True, slots=True)
class Check:
    item: str
    ok: bool
    text: str

    def line(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'}  {self.item}: {self.text}"


class Bench:
    """The person at the bench.  ``do`` tells them what to do next (it returns at once;
    the check then waits for the board to see it); ``confirm`` asks what only a person
    can see, and returns None when nobody can be asked."""

    def do(self, instruction: str) -> None:
        raise NotImplementedError

    def confirm(self, question: str) -> bool | None:
        return None


@dataclass
class Options:
    pads: tuple[str, ...] = PADS
    tag: str | None = None  # the test tag's UID; None: any one tag
    stack: int = 5  # tags in the stack
    scans: int = 10  # the stack must read whole within this many scans...
    scan_ms: float = 20.0  # ...of this length (the firmware's scan_ms)
    hold_s: float = 1.0  # a lone tag must stay read this long
    wait_s: float = 60.0  # for the person to do each step
    connect_s: float = 10.0
    listen_s: float = 1.0  # for the readers' status: two of the board's report periods
    checks: tuple[str, ...] = CHECKS


@dataclass
class _Seen:
    reports: dict[str, list[tuple[float, frozenset[str]]]] = field(default_factory=dict)
    readers: dict[str, tuple[bool, str]] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)


class SelfTest:
    def __init__(
        self,
        client: SeatControllerClient,
        bench: Bench,
        options: Options | None = None,
        on_result: Callable[[Check], None] | None = None,
    ) -> None:
        self.client = client
        self.bench = bench
        self.o = options or Options()
        self._on_result = on_result  # told each result as it comes (progress at the bench)
        self.seen = _Seen()
        self.results: list[Check] = []

    # --- watching the board ------------------------------------------------------------
    def _note(self, event: SensorEvent) -> None:
        if isinstance(event, PadContents):
            self.seen.reports.setdefault(event.pad, []).append((event.at, event.uids))
        elif isinstance(event, ReaderStatus):
            self.seen.readers[event.pad] = (event.ok, event.detail)
        elif isinstance(event, ButtonPressed):
            self.seen.buttons.append(event.button)

    async def _until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Wait for ``done()`` to hold, reading the board's events meanwhile."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            left = end - loop.time()
            if left <= 0:
                return False
            try:
                self._note(await self.client.next_event(min(left, 0.1)))
            except TimeoutError:
                pass
        return True

    def _pad(self, pad: str) -> frozenset[str]:
        return self.client.pads.get(pad, frozenset())

    async def _confirm(self, question: str) -> bool | None:
        # A person may take a while to answer: the link keeps running meanwhile.
        return await asyncio.get_running_loop().run_in_executor(None, self.bench.confirm, question)

    def _record(self, item: str, ok: bool, text: str) -> Check:
        check = Check(item, ok, text)
        self.results.append(check)
        if self._on_result is not None:
            self._on_result(check)
        return check

    # --- the check list --------------------------------------------------------------------
    async def run(self) -> list[Check]:
        if not await self._link():
            return self.results
        working = await self._readers() if "readers" in self.o.checks else list(self.o.pads)
        for pad in working:
            if "tag" in self.o.checks:
                await self._tag(pad)
            if "stack" in self.o.checks:
                await self._stack(pad)
        if "buttons" in self.o.checks:
            await self._buttons()
        if "leds" in self.o.checks:
            await self._leds()
        if "buzzer" in self.o.checks:
            await self._buzzer()
        return self.results

    async def _link(self) -> bool:
        ok = await self._until(lambda: self.client.online, self.o.connect_s)
        hello = self.client.device
        if not ok or hello is None:
            self._record(
                "link",
                False,
                f"no answer from the seat controller in {self.o.connect_s:g} s: check "
                "the USB cable and the port name, and that the board boots into main.py (no "
                "service jumper)",
            )
            return False
        self._record(
            "link",
            True,
            f"{hello.device_id} answers, protocol {hello.proto}, firmware "
            f"{hello.firmware}, pads {', '.join(hello.pads)}",
        )
        return True

    async def _readers(self) -> list[str]:
        # SYNC's answer reports every pad; a reader offline is repeated (RDR) with every
        # pad report, every 500 ms: listen through two of them
        await self._until(lambda: all(p in self.client.pads for p in self.o.pads), 3.0)
        await self._until(lambda: False, self.o.listen_s)
        working = []
        for pad in self.o.pads:
            ok = self.client.readers_ok.get(pad, True) and pad in self.client.pads
            detail = self.seen.readers.get(pad, (True, ""))[1] or (
                "never reported" if pad not in self.client.pads else ""
            )
            if ok:
                working.append(pad)
                self._record(f"reader {pad}", True, "answers")
            else:
                self._record(
                    f"reader {pad}",
                    False,
                    f"offline ({detail}): check its power, its wiring "
                    "and its chip select; the pad's other checks are skipped",
                )
        return working

    async def _tag(self, pad: str) -> None:
        item = f"tag on {pad}"
        if self._pad(pad):
            self.bench.do(f"Clear {pad}: take everything off it.")
            if not await self._until(lambda: not self._pad(pad), self.o.wait_s):
                self._record(item, False, f"{pad} still reads {len(self._pad(pad))} tag(s) with nothing on it")
                return
        self.bench.do(f"Lay the test tag alone on {pad}.")
        if not await self._until(lambda: bool(self._pad(pad)), self.o.wait_s):
            self._record(item, False, f"no tag read in {self.o.wait_s:g} s: is the antenna under the pad's mark?")
            return
        got = self._pad(pad)
        if len(got) != 1 or (self.o.tag and got != {self.o.tag}):
            want = f"the test tag {self.o.tag}" if self.o.tag else "one tag"
            self._record(item, False, f"reads {', '.join(sorted(got))}, not {want}")
        else:
            uid = next(iter(got))
            start = len(self.seen.reports.get(pad, []))
            await self._until(lambda: False, self.o.hold_s)  # watch it for hold_s
            lost = sum(1 for _, uids in self.seen.reports.get(pad, [])[start:] if uid not in uids)
            if lost:
                self._record(
                    item,
                    False,
                    f"{uid} read, then lost {lost} time(s) in {self.o.hold_s:g} s: "
                    "the antenna is too far from the tag or detuned (metal near it?)",
                )
            else:
                self._record(item, True, f"{uid} read at once and held for {self.o.hold_s:g} s")
        self.bench.do(f"Take the tag off {pad}.")
        await self._until(lambda: not self._pad(pad), self.o.wait_s)

    async def _stack(self, pad: str) -> None:
        item = f"stack on {pad}"
        n = self.o.stack
        if self._pad(pad):
            self.bench.do(f"Clear {pad}: take everything off it.")
            await self._until(lambda: not self._pad(pad), self.o.wait_s)
        self.bench.do(f"Lay a stack of {n} tags on {pad}.")
        if not await self._until(lambda: bool(self._pad(pad)), self.o.wait_s):
            self._record(item, False, f"no tag of the stack read in {self.o.wait_s:g} s")
            return
        loop = asyncio.get_running_loop()
        first = loop.time()
        budget = self.o.scans * self.o.scan_ms / 1000.0
        whole = await self._until(lambda: len(self._pad(pad)) >= n, budget)
        took = loop.time() - first
        if whole:
            self._record(item, True, f"all {n} read within {self.o.scans} scans ({took:.2f} s)")
        else:
            self._record(
                item,
                False,
                f"read {len(self._pad(pad))} of {n} within {self.o.scans} scans "
                f"({budget:.2f} s): an MFRC522 reads a stack a few cards per scan; a PN5180 "
                "build reads it whole (hardware/README.md)",
            )
        self.bench.do(f"Take the stack off {pad}.")
        await self._until(lambda: not self._pad(pad), self.o.wait_s)

    async def _buttons(self) -> None:
        start = len(self.seen.buttons)
        self.bench.do("Press each console button once: " + ", ".join(BUTTONS) + ".")

        def pressed() -> set[str]:
            return set(self.seen.buttons[start:])

        await self._until(lambda: set(BUTTONS) <= pressed(), self.o.wait_s)
        missing = [b for b in BUTTONS if b not in pressed()]
        if missing:
            self._record(
                "buttons", False, "never reported: " + ", ".join(missing) + " (check the wire to its pin and to GND)"
            )
        else:
            self._record("buttons", True, f"all {len(BUTTONS)} report a press")

    async def _leds(self) -> None:
        try:
            for seat in SEATS:
                for colour in LED_COLOURS:
                    await self.client.set_led(seat, colour)
                await self.client.set_led(seat, "off")
        except CommandFailed as exc:
            self._record("LEDs", False, f"the board did not carry out a command: {exc}")
            return
        seen = await self._confirm(
            "Did each seat's LED show green, yellow, red, blue and white in turn, seat1 to seat4?"
        )
        if seen is False:
            self._record(
                "LEDs",
                False,
                "commands acknowledged but not seen: check the WS2812 data line (GP15, 330 ohm) and their 5 V",
            )
        else:
            self._record(
                "LEDs",
                True,
                "every colour on every seat acknowledged by the board"
                + ("" if seen else " (nobody was asked to look)"),
            )

    async def _buzzer(self) -> None:
        try:
            await self.client.buzz(300)
        except CommandFailed as exc:
            self._record("buzzer", False, f"the board did not carry out the command: {exc}")
            return
        heard = await self._confirm("Did the buzzer sound?")
        if heard is False:
            self._record(
                "buzzer", False, "command acknowledged but not heard: check GP14, the transistor and the buzzer's 5 V"
            )
        else:
            self._record(
                "buzzer", True, "acknowledged by the board" + ("" if heard else " (nobody was asked to listen)")
            )


def summary(results: list[Check]) -> str:
    passed = sum(c.ok for c in results)
    verdict = "the board is ready" if passed == len(results) else "fix the failed items and run it again"
    return f"{passed} of {len(results)} checks passed: {verdict}"
