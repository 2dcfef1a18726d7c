"""The virtual table's USB line in memory: ``sim://NAME``, for simulated time.

The firmware writes framed bytes to a :class:`MemoryPort` (its end of the cable); the
bridge opens ``sim://NAME`` like any port (``firmware_bridge.transports`` picks the
opener by the URL scheme, as pyserial does for ``socket://``) and gets an asyncio
transport whose ``data_received`` brings those bytes.  Same framing, same noise (doubled
and flipped bytes to the host, lost chunks from it) as the pseudo-terminal, but no file
descriptor and no thread: every byte moves in a callback of the running loop, so a
simulated table runs the same way every time.
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import random
import weakref
from collections.abc import Callable
from typing import Any

from firmware_bridge.transports import Connection, register_scheme

from .devices import line_noise
from .noise import NoiseModel

SCHEME = "sim"
_ports: weakref.WeakValueDictionary[str, MemoryPort] = weakref.WeakValueDictionary()
_names = itertools.count(1)


def new_name() -> str:
    return f"{SCHEME}://virtual-table-{next(_names)}"


class MemoryPort:
    """The device end: ``read()``/``write()`` as the firmware expects of its port."""

    def __init__(self, path: str, noise: NoiseModel, rng: random.Random) -> None:
        self.path = path
        self._noise = noise
        self._rng = rng
        self._inbox: list[bytes] = []
        self.host: MemoryTransport | None = None
        self.dropped_bytes = 0
        self.closed = False
        _ports[path] = self

    # --- the firmware's side ------------------------------------------------------
    def read(self) -> bytes:
        if not self._inbox:
            return b""
        chunks, self._inbox = self._inbox, []
        loss = self._noise.command_loss
        return b"".join(c for c in chunks if not (loss and self._rng.random() < loss))

    def write(self, data: bytes) -> None:
        data = line_noise(data, self._noise, self._rng)
        host = self.host
        if host is None or self.closed:
            self.dropped_bytes += len(data)  # nobody listening: a CDC device drops it
            return
        host._loop.call_soon(host._deliver, data)

    def close(self) -> None:
        """The cable is pulled: the host's transport is lost at once."""
        if self.closed:
            return
        self.closed = True
        if _ports.get(self.path) is self:
            del _ports[self.path]
        if self.host is not None:
            self.host._lost(OSError(errno.EIO, "the virtual table was unplugged"))

    # --- the host's side ------------------------------------------------------------
    def _from_host(self, data: bytes | bytearray | memoryview[Any]) -> None:
        self._inbox.append(bytes(data))


class MemoryTransport(asyncio.Transport):
    def __init__(self, loop: asyncio.AbstractEventLoop, port: MemoryPort, protocol: asyncio.Protocol) -> None:
        super().__init__({"port": port.path})
        self._loop = loop
        self._port: MemoryPort | None = port
        self._protocol = protocol
        self._closing = False

    def write(self, data: bytes | bytearray | memoryview[Any]) -> None:
        if self._closing or self._port is None:
            return
        self._port._from_host(data)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self._lost(None)

    def abort(self) -> None:
        self._lost(None)

    def get_protocol(self) -> asyncio.Protocol:
        return self._protocol

    def _deliver(self, data: bytes) -> None:
        if not self._closing:
            self._protocol.data_received(data)

    def _lost(self, exc: Exception | None) -> None:
        if self._closing:
            return
        self._closing = True
        port, self._port = self._port, None
        if port is not None and port.host is self:
            port.host = None
        self._loop.call_soon(self._protocol.connection_lost, exc)


async def _open(
    loop: asyncio.AbstractEventLoop, protocol_factory: Callable[[], asyncio.Protocol], url: str
) -> Connection:
    port = _ports.get(url)
    if port is None or port.closed:
        raise OSError(errno.ENOENT, f"no virtual table plugged in at {url}")
    if port.host is not None:
        raise OSError(errno.EBUSY, f"{url} is already open")  # exclusive, like the real port
    protocol = protocol_factory()
    transport = MemoryTransport(loop, port, protocol)
    port.host = transport
    loop.call_soon(protocol.connection_made, transport)
    return transport, protocol


register_scheme(SCHEME, _open)
