"""The connection to the seat controller: open, handshake, keepalive, silence
detection and reconnect with backoff (hardware/PROTOCOL.md, "Link health").

``SeatLink`` turns bytes into typed device messages for its owner (``client.py``)
and never raises on what the wire brings; every drop is counted in ``LinkStats``.
The port is a path (``/dev/serial/by-id/...``, a pseudo-terminal), any pyserial
URL (``socket://host:port``, ``loop://``) or a scheme registered in ``transports``
(the virtual table's in-memory ``sim://``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from .codec import PROTO, SEQ_MOD, DecoderStats, FrameDecoder
from .messages import DeviceMessage, Hello, encode_ping, encode_resend, encode_sync, from_frame
from .transports import open_connection

# A jump this large is a reboot or a long outage, not lost frames.
_MAX_GAP = 1000
# A missed frame is asked for again (RESEND) if it is among the newest this many; the
# device remembers 64 (hardware/firmware/controller.py, RESEND_SLOTS)
_RESEND_WINDOW = 48
_RESEND_MAX = 16  # seqs in one RESEND (the device's RESEND_MAX)


@dataclass(slots=True)
class LinkStats:
    """Counters since the bridge started (mutable: the link updates them in place)."""

    decoder: DecoderStats = field(default_factory=DecoderStats)
    unknown_messages: int = 0  # CRC-valid frames with a type or field version 1 lacks
    missed_frames: int = 0  # sequence gaps
    stale_frames: int = 0  # frames before the HELLO of a session, ignored
    connects: int = 0  # successful handshakes
    connect_failures: int = 0  # opens or handshakes that failed
    silences: int = 0  # device went quiet while online
    write_stalls: int = 0  # device stopped reading what we send (sessions ended)
    writes_dropped: int = 0  # writes refused while the send buffer was full
    restarts: int = 0  # device rebooted while online (unasked HELLO)
    retries: int = 0  # command resends
    resend_requests: int = 0  # RESENDs sent for frames missed (damaged or gone)
    command_failures: int = 0
    last_error: str = ""

    @property
    def dropped(self) -> int:
        return self.decoder.dropped + self.unknown_messages


def _buffered(transport: asyncio.BaseTransport) -> int:
    """Bytes the transport holds that the device has not taken yet."""
    size = getattr(transport, "get_write_buffer_size", None)
    try:
        return int(size()) if size is not None else 0
    except (NotImplementedError, AttributeError, TypeError):
        return 0


class _Wire(asyncio.Protocol):
    def __init__(self, on_bytes: Callable[[bytes], None]) -> None:
        self._on_bytes = on_bytes
        self.lost: asyncio.Future[Exception | None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self._on_bytes(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(exc)


class SeatLink:
    def __init__(
        self,
        port: str,
        on_message: Callable[[DeviceMessage], None],
        on_status: Callable[[bool, str], None],
        *,
        baudrate: int = 115200,
        silence_s: float = 2.0,
        hello_timeout_s: float = 1.0,
        hello_tries: int = 3,
        ping_s: float = 1.0,
        backoff_s: tuple[float, float] = (0.05, 2.0),
        exclusive: bool = True,
        write_timeout_s: float = 2.0,
        max_buffered: int = 4096,
    ) -> None:
        self.port = port
        self._on_message = on_message
        self._on_status = on_status
        self._baudrate = baudrate
        self.silence_s = silence_s
        self._hello_timeout_s = hello_timeout_s
        self._hello_tries = hello_tries
        self._ping_s = ping_s
        self._backoff_s = backoff_s
        self._exclusive = exclusive
        # bytes the device has not taken may wait this long before the session is given up
        # (a device that stopped reading: pyserial alone would spin on EAGAIN, serialport.py)
        self.write_timeout_s = write_timeout_s
        self._max_buffered = max_buffered
        self.stats = LinkStats()
        self.online = False
        self.hello: Hello | None = None
        self._reported: bool | None = None
        self._seq = 0
        self._rx_seq: int | None = None
        self._asked: set[int] = set()  # device seqs asked for again (each once)
        self._damaged_lines = 0  # lines with a damaged frame since the last good frame
        self._transport: asyncio.Transport | None = None
        self._decoder = FrameDecoder()
        self._session_hello = asyncio.Event()  # a new one per session (_session)
        self._last_rx = 0.0
        self._task: asyncio.Task[None] | None = None
        self._closing = False  # close() was called: the session loop ends at its next turn

    # --- owner's API ------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._closing = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"seat-link {self.port}")

    async def close(self) -> None:
        if self._task is not None:
            # The flag as well as the cancel: on Python 3.11 a cancel that landed as one of
            # the session's asyncio.wait_for calls completed was lost (the HELLO arriving as
            # the client closes), and the loop ran on for ever. The session now waits with
            # asyncio.timeout, which keeps every cancel; the flag stays as a second guard
            # (tests/tournament/test_aio.py shows the lost cancel)
            self._closing = True
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    def next_seq(self) -> int:
        seq = self._seq
        self._seq = (seq + 1) % SEQ_MOD
        return seq

    def write(self, data: bytes) -> bool:
        """Send bytes if a session is open; False when there is none."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return False
        if _buffered(transport) > self._max_buffered:
            self.stats.writes_dropped += 1  # the device is not reading; the session loop ends it
            return False
        transport.write(data)
        return True

    # --- the session loop ---------------------------------------------------------
    async def _run(self) -> None:
        delay = self._backoff_s[0]
        while not self._closing:
            was_online = False
            try:
                was_online, detail = await self._session()
            except (serial.SerialException, OSError, ValueError) as exc:
                detail = f"cannot open {self.port}: {exc}"
            self.stats.last_error = detail
            if was_online:
                delay = self._backoff_s[0]
            else:
                self.stats.connect_failures += 1
            self._set_status(False, detail)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self._backoff_s[1])

    async def _session(self) -> tuple[bool, str]:
        loop = asyncio.get_running_loop()
        self._decoder = FrameDecoder()
        self._decoder.stats = self.stats.decoder  # counters survive reconnects
        self._session_hello = asyncio.Event()
        self._rx_seq = None
        self._asked = set()
        self._damaged_lines = 0
        wire = _Wire(self._on_bytes)
        transport, _ = await open_connection(
            loop, lambda: wire, self.port, baudrate=self._baudrate, exclusive=self._exclusive
        )
        self._transport = transport
        try:
            for _ in range(self._hello_tries):
                self.write(encode_sync(self.next_seq()))
                try:
                    async with asyncio.timeout(self._hello_timeout_s):
                        await self._session_hello.wait()
                    break
                except TimeoutError:
                    if wire.lost.done():
                        return False, f"port closed during handshake: {wire.lost.result()}"
            else:
                return False, f"no HELLO from {self.port} after {self._hello_tries} SYNCs"
            if not self.online:
                return False, self.stats.last_error
            last_ping = loop.time()
            stalled_since: float | None = None
            tick = min(self._ping_s, self.silence_s, self.write_timeout_s) / 4
            while not self._closing:
                await asyncio.wait((wire.lost,), timeout=tick)
                if wire.lost.done():
                    return True, f"port lost: {wire.lost.result() or 'closed'}"
                now = loop.time()
                if now - self._last_rx > self.silence_s:
                    self.stats.silences += 1
                    return True, f"device silent for {self.silence_s:g} s"
                if _buffered(transport) == 0:
                    stalled_since = None
                elif stalled_since is None:
                    stalled_since = now
                elif now - stalled_since > self.write_timeout_s:
                    self.stats.write_stalls += 1
                    return True, (
                        f"the device does not read what the host sends "
                        f"({_buffered(transport)} bytes waiting for {self.write_timeout_s:g} s)"
                    )
                if now - last_ping >= self._ping_s:
                    self.write(encode_ping(self.next_seq()))
                    last_ping = now
            return True, "the link was closed"
        finally:
            self._transport = None
            if not transport.is_closing():
                transport.abort()  # close() would wait to flush to a device that may be gone
            # The transport closes the port in an executor thread and then calls
            # connection_lost: wait for it, also when close() cancels this session meanwhile
            # (a session that just ended, being closed), or its task outlives the client.
            try:
                async with asyncio.timeout(2.0):
                    await asyncio.shield(wire.lost)
            except TimeoutError:
                pass
            except asyncio.CancelledError:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(2.0):
                        await asyncio.shield(wire.lost)
                raise

    # --- incoming ------------------------------------------------------------------------
    def _on_bytes(self, data: bytes) -> None:
        # line by line: a frame the decoder drops (bad CRC, cut, malformed) is then known
        # to be the one after the last good frame, and is asked for again at once
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end + 1
            self._on_line(data[start:end])
            start = end

    def _on_line(self, data: bytes) -> None:
        stats = self.stats.decoder
        dropped = stats.dropped
        frames = self._decoder.feed(data)
        if stats.dropped > dropped and not frames and self._rx_seq is not None:
            # one damaged frame (a flipped byte can cut one frame in two, so the drops of
            # a line count one): the next seq after the good ones and the damaged before
            self._damaged_lines += 1
            self._resend([(self._rx_seq + self._damaged_lines) % SEQ_MOD])
        for frame in frames:
            self._damaged_lines = 0
            msg = from_frame(frame)
            if msg is None:
                self.stats.unknown_messages += 1
                continue
            if self._rx_seq is not None and not isinstance(msg, Hello):
                gap = (frame.seq - self._rx_seq - 1) % SEQ_MOD
                if 0 < gap < _MAX_GAP:
                    self.stats.missed_frames += gap
                    self._resend([(frame.seq - gap + i) % SEQ_MOD for i in range(gap)])
            self._rx_seq = frame.seq
            if isinstance(msg, Hello):
                self._on_hello(msg)
                continue
            if self.hello is None or not self._session_hello.is_set():
                self.stats.stale_frames += 1  # left in the line from before our SYNC
                continue
            self._last_rx = asyncio.get_running_loop().time()
            if self.online:
                self._on_message(msg)

    def _resend(self, seqs: list[int]) -> None:
        """Ask the device for frames it sent that never arrived whole (PROTOCOL.md,
        ``RESEND``): a pad's report comes again at once instead of with its next repeat
        (500 ms, and as often lost on a bad line), a press instead of never.  Each seq is
        asked for once; a device without RESEND answers NAK, which nobody waits for."""
        if not self.online or not self._session_hello.is_set():
            return
        new = [s for s in seqs[-_RESEND_WINDOW:] if s not in self._asked][-_RESEND_MAX:]
        if not new:
            return
        self._asked.update(new)
        if len(self._asked) > 4 * _RESEND_WINDOW:  # forget the oldest (seqs only grow, mod 65536)
            newest = new[-1]
            self._asked = {s for s in self._asked if (newest - s) % SEQ_MOD < _RESEND_WINDOW}
        if self.write(encode_resend(self.next_seq(), new)):
            self.stats.resend_requests += 1

    def _on_hello(self, hello: Hello) -> None:
        self._last_rx = asyncio.get_running_loop().time()
        first = not self._session_hello.is_set()
        self.hello = hello
        self._session_hello.set()
        if hello.proto != PROTO:
            self.stats.last_error = (
                f"device {hello.device_id} speaks protocol {hello.proto}; "
                f"this bridge speaks {PROTO}: update one of them"
            )
            self._set_status(False, self.stats.last_error)
            return
        if first:
            self.stats.connects += 1
            self._set_status(True, f"protocol {hello.proto}, firmware {hello.firmware}")
        elif self._rx_seq == 0:
            # A later HELLO is a reboot (seq restarts at 0; the watchdog or a brown-out)
            # or a second answer to a resent SYNC (seq continues): only the first matters.
            self.stats.restarts += 1
            self._set_status(True, "device restarted")

    def _set_status(self, online: bool, detail: str) -> None:
        changed = online != self._reported or detail == "device restarted"
        self.online = online
        self._reported = online
        if changed:
            self._on_status(online, detail)
