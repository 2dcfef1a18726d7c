"""The bridge against odd devices and transports: a pyserial URL (socket://), a device
that sends only garbage, one that speaks another protocol version."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import threading
import time
import tty
from concurrent.futures import ThreadPoolExecutor

import serial

from firmware_bridge.codec import encode_frame
from table_controller.sensor_events import LinkStatus, PadContents

from .conftest import bridge, settle, until


class SocketRelay:
    """A TCP port relaying to a serial port, as ser2net does for a remote table."""

    def __init__(self, port_path: str) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.serial = serial.Serial(port_path, 115200, timeout=0.02)
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        conn.settimeout(0.02)
        while not self.stop.is_set():
            data = self.serial.read(4096)
            if data:
                conn.sendall(data)
            try:
                data = conn.recv(4096)
            except TimeoutError:
                continue
            if not data:
                break
            self.serial.write(data)
        conn.close()

    def close(self) -> None:
        self.stop.set()
        self.server.close()


async def test_a_pyserial_socket_url_reaches_the_table(table):
    relay = SocketRelay(table.port)
    try:
        async with bridge(relay.url) as sc:
            await until(sc, lambda e: isinstance(e, LinkStatus) and e.online, timeout=5)
            table.put("8D", "seat1")
            await until(sc, lambda e: isinstance(e, PadContents) and e.uids == {table.deck.uid("8D")})
            await sc.set_led("seat1", "white")
            assert table.leds.shown["seat1"] == "white"
    finally:
        relay.close()


class FakeDevice:
    """A pseudo-terminal whose 'device' end writes what the test says, forever."""

    def __init__(self, payload) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self._slave = slave
        self.path = os.ttyname(slave)
        self._payload = payload
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        os.set_blocking(self.master, False)
        while not self.stop.wait(0.02):
            try:
                os.read(self.master, 65536)  # a device reads what the host sends: a full pty
            except OSError:  # would leave the host's writes spinning (pyserial's
                pass  # non-blocking write retries EAGAIN for ever)
            try:
                os.write(self.master, self._payload())
            except OSError:
                pass

    def close(self) -> None:
        self.stop.set()
        os.close(self.master)
        os.close(self._slave)


async def test_a_device_sending_only_garbage_never_comes_online_and_nothing_raises():
    rng = random.Random(4)
    dev = FakeDevice(lambda: bytes(rng.randrange(256) for _ in range(200)))
    try:
        async with bridge(dev.path, hello_timeout_s=0.3) as sc:
            status = await until(sc, lambda e: isinstance(e, LinkStatus), timeout=5)
            assert not status.online and "no HELLO" in status.detail
            await settle(lambda: sc.stats.connect_failures >= 2, timeout=5)
            assert not sc.online and sc.stats.decoder.garbage_bytes > 1000
    finally:
        dev.close()


async def test_a_device_of_another_protocol_version_is_refused_with_a_message():
    frames = encode_frame(0, "HELLO", (("proto", "2"), ("fw", "9.0"), ("id", "SC-NEW"), ("pads", "seat1")))
    frames += encode_frame(1, "PAD", (("pad", "seat1"), ("uids", "04AABBCCDDEEFF")))
    dev = FakeDevice(lambda: frames)
    try:
        async with bridge(dev.path) as sc:
            status = await until(sc, lambda e: isinstance(e, LinkStatus), timeout=5)
            assert not status.online
            assert "protocol 2" in status.detail and "update" in status.detail
            await settle(lambda: sc.stats.decoder.frames > 4)
            assert sc.pads == {} and not sc.online
    finally:
        dev.close()


class SlowToClosePorts(ThreadPoolExecutor):
    """The loop's executor, where the serial transport closes its port: each close takes
    0.3 s (a busy machine), and the loop learns when the first one begins."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(max_workers=2)
        self.loop, self.closing = loop, asyncio.Event()

    def submit(self, fn, /, *args, **kwargs):
        if getattr(fn, "__name__", "") != "close":
            return super().submit(fn, *args, **kwargs)

        def slow():
            self.loop.call_soon_threadsafe(self.closing.set)
            time.sleep(0.3)
            return fn(*args, **kwargs)

        return super().submit(slow)


async def test_a_client_closed_while_a_session_closes_its_port_waits_for_the_port():
    # The race a loaded machine once showed (the test above): a session refused for its
    # protocol ends, its transport closes the port in the executor, and the client is
    # closed meanwhile.  The session must still wait for the port to close, or the
    # transport's task outlives the client (``bridge`` checks that none does).
    loop = asyncio.get_running_loop()
    slow = SlowToClosePorts(loop)
    loop.set_default_executor(slow)
    frames = encode_frame(0, "HELLO", (("proto", "2"), ("fw", "9.0"), ("id", "SC-NEW"), ("pads", "seat1")))
    dev = FakeDevice(lambda: frames)
    try:
        async with bridge(dev.path):
            await asyncio.wait_for(slow.closing.wait(), 10)  # the port's close has begun
    finally:
        dev.close()
