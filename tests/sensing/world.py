"""A table of pads without firmware: each change of a pad is reported at once, exactly,
on a clock the test moves.  The live tests use the real virtual table; this one keeps
sensing's own tests fast and deterministic (and lets a test add its own noise)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.rules.cards import FULL_DECK
from table_controller.sensor_events import ButtonPressed, PadContents

PADS = ("seat1", "seat2", "seat3", "seat4", "tray")


class PadWorld:
    def __init__(self, clock: FakeClock | None = None, settle_s: float = 1.5) -> None:
        self.clock = clock or FakeClock(100.0)
        self.deck = virtual_deck()
        self.uid = {c.code: self.deck.uid_of(c) for c in FULL_DECK}
        self.where_ = {c.code: "stub" for c in FULL_DECK}
        self.queue: asyncio.Queue = asyncio.Queue()
        self.settle_s = settle_s
        self.hidden: dict[str, set[str]] = {}  # pad -> codes its reader misses (a test's noise)
        self.extra: dict[str, set[str]] = {}  # pad -> UIDs it reads besides its cards
        # Called after the clock moves (a live table's tick): time passing is then seen at
        # once, not whenever a real-time ticker happens to run.
        self.on_time: Callable[[], Awaitable[None]] | None = None

    # --- the sensor source the live loop reads -------------------------------------
    async def events(self):
        while True:
            yield await self.queue.get()

    def _report(self, pad: str) -> None:
        if pad not in PADS:
            return
        uids = {self.uid[c] for c, w in self.where_.items() if w == pad and c not in self.hidden.get(pad, ())}
        uids |= self.extra.get(pad, set())
        self.queue.put_nowait(PadContents(self.clock.now(), pad, frozenset(uids)))

    def report_all(self) -> None:
        for pad in PADS:
            self._report(pad)

    # --- hands ----------------------------------------------------------------------------
    def _move(self, code: str, to: str) -> None:
        frm = self.where_[code]
        self.where_[code] = to
        self._report(frm)
        self._report(to)

    def put(self, code: str, pad: str) -> None:
        self._move(code, pad)

    def remove(self, code: str, to: str = "stub") -> None:
        self._move(code, to)

    def to_tray(self, code: str) -> None:
        self._move(code, "tray")

    def pick_up(self, pad: str) -> None:
        to = "stub" if pad == "tray" else f"hand:{pad}"
        codes = [c for c, w in self.where_.items() if w == pad]
        for c in codes:
            self.where_[c] = to
        if codes:
            self._report(pad)

    def press(self, button: str) -> None:
        self.queue.put_nowait(ButtonPressed(self.clock.now(), button))

    def where(self, code: str) -> str:
        return self.where_[code]

    def on_pad(self, pad: str) -> list[str]:
        return [c for c, w in self.where_.items() if w == pad]

    async def settle(self) -> None:
        await self.drain()
        self.clock.advance(self.settle_s)
        if self.on_time is not None:  # the time that passed reaches whoever ticks on it
            await self.on_time()
        await self.drain()

    async def drain(self) -> None:
        for _ in range(200):
            if self.queue.empty():
                break
            await asyncio.sleep(0)
        await asyncio.sleep(0)

    async def arrive(self) -> None:
        await self.drain()

    async def pause(self) -> None:
        await self.settle()
