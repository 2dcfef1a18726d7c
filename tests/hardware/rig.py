"""A bench for the firmware logic on CPython: fake board parts around the real
``SeatController``, with a clock the test advances by hand."""

from __future__ import annotations

from firmware_bridge.codec import FrameDecoder, encode_frame
from firmware_bridge.messages import from_frame
from hardware.firmware.controller import Config, SeatController


class Clock:
    def __init__(self) -> None:
        self.now = 1000

    def ms(self) -> int:
        return self.now


class Port:
    def __init__(self) -> None:
        self.inbox = b""
        self.sent = bytearray()

    def read(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data


class Reader:
    def __init__(self, clock: Clock) -> None:
        self.uids: list[str] = []
        self.error: OSError | None = None
        self.stall_ms = 0  # a scan that hangs the loop this long
        self._clock = clock

    def scan(self) -> list[str]:
        self._clock.now += self.stall_ms
        if self.error:
            raise self.error
        return list(self.uids)


class Buttons:
    def __init__(self) -> None:
        self.down: set[str] = set()

    def held(self, now_ms: float | None = None) -> set[str]:
        return set(self.down)


class Leds:
    def __init__(self) -> None:
        self.shown: dict[str, str] = {}
        self.changes: list[tuple[int, str, str]] = []
        self.clock: Clock | None = None

    def show(self, seat: str, colour: str) -> None:
        self.shown[seat] = colour
        self.changes.append((self.clock.now if self.clock else 0, seat, colour))


class Buzzer:
    def __init__(self) -> None:
        self.on = False
        self.starts = 0

    def set(self, on: bool) -> None:
        self.starts += on and not self.on
        self.on = on


class Watchdog:
    """A hardware watchdog: trips when feeds are more than ``timeout_ms`` apart."""

    def __init__(self, clock: Clock, timeout_ms: int = 1000) -> None:
        self._clock = clock
        self.timeout_ms = timeout_ms
        self.last = clock.now
        self.tripped = False

    def feed(self) -> None:
        if self._clock.now - self.last > self.timeout_ms:
            self.tripped = True
        self.last = self._clock.now


class Rig:
    PADS = ("seat1", "seat2", "seat3", "seat4", "tray")

    def __init__(self, config: Config | None = None) -> None:
        self.clock = Clock()
        self.port = Port()
        self.readers = {pad: Reader(self.clock) for pad in self.PADS}
        self.buttons = Buttons()
        self.leds = Leds()
        self.leds.clock = self.clock
        self.buzzer = Buzzer()
        self.watchdog = Watchdog(self.clock)
        self.fw = SeatController(
            self.port,
            self.readers,
            self.buttons,
            self.leds,
            self.buzzer,
            self.clock,
            self.watchdog,
            "SC-TEST",
            config or Config(),
        )
        self._decoder = FrameDecoder()
        self._host_seq = 100

    def run(self, ms: int, step_ms: int = 1) -> None:
        end = self.clock.now + ms
        while self.clock.now < end:
            self.fw.step()
            self.clock.now += step_ms

    def messages(self) -> list:
        """Everything the device sent since the last call, as typed messages."""
        frames = self._decoder.feed(bytes(self.port.sent))
        self.port.sent.clear()
        assert self._decoder.stats.dropped == 0, self._decoder.stats
        return [from_frame(f) for f in frames]

    def send(self, kind: str, fields=(), seq: int | None = None) -> int:
        if seq is None:
            seq = self._host_seq
            self._host_seq += 1
        self.port.inbox += encode_frame(seq, kind, tuple(fields))
        return seq
