"""The seat controller as the rest of the system sees it: sensor events out, LED and
buzzer commands in.

    async with SeatControllerClient("/dev/serial/by-id/usb-chicago_seat-controller") as sc:
        await sc.set_led("seat2", "yellow", blink=True)
        async for event in sc.events():      # PadContents, ButtonPressed, ReaderStatus, LinkStatus
            ...

Events are stamped with the ``Clock`` the client is handed (monotonic by default).
``PadContents`` is emitted when a pad's set of UIDs changes (the device repeats its
reports; repeats that change nothing are not events).  Commands are acknowledged and
retried (PROTOCOL.md); after a reconnect or a device restart the last LED state of
every seat is sent again, so the console shows what the host believes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from table_controller.sensor_events import ButtonPressed, LinkStatus, PadContents, ReaderStatus, SensorEvent

from .clock import Clock, MonotonicClock
from .errors import BadCommand, CommandFailed
from .link import LinkStats, SeatLink
from .messages import (
    COLOURS,
    SEATS,
    Ack,
    ButtonEvent,
    DeviceMessage,
    Hello,
    Nak,
    PadReport,
    ReaderReport,
    encode_buzz,
    encode_led,
)


class SeatControllerClient:
    def __init__(
        self,
        port: str,
        *,
        clock: Clock | None = None,
        ack_timeout_s: float = 0.2,
        retries: int = 3,
        **link_options: Any,
    ) -> None:
        self.clock = clock or MonotonicClock()
        self._ack_timeout_s = ack_timeout_s
        self._retries = retries
        self.link = SeatLink(port, self._on_message, self._on_status, **link_options)
        self.pads: dict[str, frozenset[str]] = {}
        self._pad_waiters: list[asyncio.Future[None]] = []
        self.readers_ok: dict[str, bool] = {}
        self._leds: dict[str, tuple[str, bool]] = {}
        self._pending: dict[int, asyncio.Future[Ack | Nak]] = {}
        self._queue: asyncio.Queue[SensorEvent] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- life cycle -----------------------------------------------------------------
    async def start(self) -> SeatControllerClient:
        self.link.start()
        return self

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.link.close()

    async def __aenter__(self) -> SeatControllerClient:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def online(self) -> bool:
        return self.link.online

    @property
    def device(self) -> Hello | None:
        return self.link.hello

    @property
    def stats(self) -> LinkStats:
        return self.link.stats

    # --- events -----------------------------------------------------------------------
    async def events(self) -> AsyncIterator[SensorEvent]:
        while True:
            yield await self._queue.get()

    async def next_event(self, timeout: float | None = None) -> SensorEvent:
        """The next sensor event; ``TimeoutError`` if none comes within ``timeout`` s."""
        async with asyncio.timeout(timeout):
            return await self._queue.get()

    async def pads_changed(self) -> None:
        """Until what the board reports on some pad changes (``pads``)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pad_waiters.append(fut)
        await fut

    def _emit(self, event: SensorEvent) -> None:
        self._queue.put_nowait(event)

    def _on_status(self, online: bool, detail: str) -> None:
        hello = self.link.hello
        for fut in self._pending.values():
            if not online and not fut.done():
                fut.set_exception(CommandFailed(f"link lost while waiting for the answer: {detail}"))
        self._emit(
            LinkStatus(self.clock.now(), online, hello.device_id if hello else "", detail, hello.pads if hello else ())
        )
        if online and self._leds:
            self._spawn(self._restore_leds())

    def _on_message(self, msg: DeviceMessage) -> None:
        now = self.clock.now()
        if isinstance(msg, PadReport):
            if self.pads.get(msg.pad) != msg.uids:
                self.pads[msg.pad] = msg.uids
                self._emit(PadContents(now, msg.pad, msg.uids))
                waiters, self._pad_waiters = self._pad_waiters, []
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)
        elif isinstance(msg, ButtonEvent):
            self._emit(ButtonPressed(now, msg.name))
        elif isinstance(msg, ReaderReport):
            if self.readers_ok.get(msg.pad, True) != msg.ok:
                self.readers_ok[msg.pad] = msg.ok
                self._emit(ReaderStatus(now, msg.pad, msg.ok, msg.detail))
        elif isinstance(msg, (Ack, Nak)):
            fut = self._pending.get(msg.cmd)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    # --- commands ----------------------------------------------------------------------
    async def set_led(self, seat: str, colour: str, blink: bool = False) -> None:
        """Set a seat's shot-clock LED (``colour`` one of off, green, yellow, red, blue,
        white).  Raises ``BadCommand`` for a bad seat or colour, ``CommandFailed`` when
        the device refuses it or never answers; the state is still resent on reconnect."""
        if seat not in SEATS:
            raise BadCommand(f"no seat {seat!r}; seats: {', '.join(SEATS)}")
        if colour not in COLOURS:
            raise BadCommand(f"no LED colour {colour!r}; colours: {', '.join(COLOURS)}")
        self._leds[seat] = (colour, bool(blink))
        await self._command(lambda seq: encode_led(seq, seat, colour, bool(blink)), f"LED {seat}")

    async def buzz(self, ms: int = 200) -> None:
        if not isinstance(ms, int) or not 1 <= ms <= 2000:
            raise BadCommand(f"buzz for 1..2000 ms, not {ms!r}")
        await self._command(lambda seq: encode_buzz(seq, ms), "BUZZ")

    async def _command(self, build: Callable[[int], bytes], what: str) -> None:
        if not self.link.online:
            raise CommandFailed(
                f"{what}: the seat controller link is down ({self.stats.last_error or 'not connected yet'})"
            )
        seq = self.link.next_seq()
        data = build(seq)
        fut: asyncio.Future[Ack | Nak] = asyncio.get_running_loop().create_future()
        self._pending[seq] = fut
        try:
            for attempt in range(1 + self._retries):
                if attempt:
                    self.stats.retries += 1
                if not self.link.write(data):
                    break
                try:
                    async with asyncio.timeout(self._ack_timeout_s):
                        answer = await asyncio.shield(fut)
                except TimeoutError:
                    continue
                if isinstance(answer, Nak):
                    self.stats.command_failures += 1
                    raise CommandFailed(f"{what}: refused by the seat controller ({answer.error})")
                return
            self.stats.command_failures += 1
            raise CommandFailed(f"{what}: no answer from the seat controller after {1 + self._retries} tries")
        finally:
            self._pending.pop(seq, None)

    async def _restore_leds(self) -> None:
        for seat, (colour, blink) in list(self._leds.items()):

            def build(seq: int, s: str = seat, c: str = colour, b: bool = blink) -> bytes:
                return encode_led(seq, s, c, b)

            try:
                await self._command(build, f"LED {seat}")
            except CommandFailed:
                pass  # counted; the next reconnect tries again

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
