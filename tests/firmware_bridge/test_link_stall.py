"""A device that stops reading what the host sends (issue 16): the pty's buffer fills,
and pyserial's non-blocking write used to retry EAGAIN for ever inside the event loop,
freezing the whole table.  Now the bytes wait in the transport, the loop stays
responsive, and after ``write_timeout_s`` the link ends the session with a clear detail
(the table gets its link alert); once the device reads again, the link comes back."""

from __future__ import annotations

import asyncio
import os
import threading
import tty

import pytest

from firmware_bridge.codec import encode_frame
from table_controller.sensor_events import LinkStatus

from .conftest import bridge, settle, until

HELLO = (("proto", "1"), ("fw", "1.0"), ("id", "SC-STALL"), ("pads", "seat1"))


class StallingDevice:
    """The device end of a real pseudo-terminal: answers SYNC with HELLO, reports a pad
    every 20 ms (so the link never falls silent), and reads the host's bytes only while
    ``reading`` is set."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.reading = threading.Event()
        self.reading.set()
        self._read_lock = threading.Lock()  # held while a read may happen
        self.stop = threading.Event()
        self._seq = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _send(self, kind: str, fields) -> None:
        try:
            os.write(self.master, encode_frame(self._seq, kind, fields))
        except OSError:
            pass
        self._seq += 1

    def _run(self) -> None:
        os.set_blocking(self.master, False)
        while not self.stop.wait(0.02):
            with self._read_lock:
                got = b""
                if self.reading.is_set():
                    try:
                        got = os.read(self.master, 1 << 16)
                    except OSError:
                        pass
            if b" SYNC*" in got:
                self._seq = 0
                self._send("HELLO", HELLO)
            self._send("PAD", (("pad", "seat1"), ("uids", "")))

    def stop_reading(self) -> None:
        """From now on nothing is read: returns only once no read is under way (a read
        begun before the call could otherwise drain the buffer the test then fills)."""
        with self._read_lock:
            self.reading.clear()

    def close(self) -> None:
        self.stop.set()
        self._thread.join(5)
        os.close(self.master)
        os.close(self._slave)


def _fill(fd: int) -> int:
    """Write to ``fd`` until the kernel has no room; the bytes written."""
    n = 0
    for chunk in (512, 1):  # then the last few bytes of room
        try:
            while True:
                n += os.write(fd, b"\0" * chunk)
        except BlockingIOError:
            pass
    return n


# A regression spins inside the loop's thread, where no asyncio timeout can reach: the
# thread method dumps the stacks and fails the run instead of hanging it.
@pytest.mark.timeout(60, method="thread")
@pytest.mark.realtime
async def test_a_device_that_stops_reading_ends_the_session_and_the_loop_stays_responsive():
    dev = StallingDevice()
    beats = 0

    async def heartbeat() -> None:
        nonlocal beats
        while True:
            await asyncio.sleep(0.01)
            beats += 1

    try:
        # no ping of the link's own while the test fills the line: on a busy machine the
        # fill takes longer than write_timeout_s, and a ping queued behind it ended the
        # session before the test's own write (a run beside a busy loop failed so)
        async with bridge(dev.path, silence_s=5.0, write_timeout_s=0.5, ping_s=60.0) as sc:
            hb = asyncio.create_task(heartbeat())
            await until(sc, lambda e: isinstance(e, LinkStatus) and e.online, timeout=10)
            dev.stop_reading()
            link = sc.link
            # Fill the kernel's buffers to the last byte through a second descriptor of the
            # same port, then let the link send: its write meets EAGAIN at once, where
            # pyserial's own write spun for ever.  The pty moves bytes from its write side to
            # the reader's side in a kernel worker, later on a busy machine, and each move
            # makes room again: fill until rounds in a row find no room at all.
            fill = os.open(dev.path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
            try:
                full_rounds = 0
                while full_rounds < 5:
                    written = _fill(fill)
                    full_rounds = full_rounds + 1 if written == 0 else 0
                    await asyncio.sleep(0.05)
            finally:
                os.close(fill)
            ping = b"$1 PING*8D2155FA\r\n"
            assert link._transport is not None
            assert link._transport.get_write_buffer_size() == 0  # nothing of the link's own waits
            assert link.write(ping)
            assert link._transport.get_write_buffer_size() == len(ping)  # queued, not written
            stalled_at = beats
            status = await until(sc, lambda e: isinstance(e, LinkStatus) and not e.online, timeout=10)
            assert "does not read" in status.detail
            assert sc.stats.write_stalls == 1 and sc.stats.silences == 0
            assert beats > stalled_at  # the loop ran its other tasks all along
            # writes meanwhile are refused, not queued without bound
            assert not link.write(ping)
            dev.reading.set()  # the device reads again (and drains what piled up)
            await until(sc, lambda e: isinstance(e, LinkStatus) and e.online, timeout=15)
            await settle(lambda: sc.online, timeout=5)
            hb.cancel()
            await asyncio.gather(hb, return_exceptions=True)
    finally:
        dev.close()
