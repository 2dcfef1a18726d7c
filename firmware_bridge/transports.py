"""How the link opens its port: by the port's URL scheme, as pyserial's URL handlers do.

A path (``/dev/serial/by-id/...``, a pseudo-terminal) or a pyserial URL (``socket://``,
``loop://``) opens a serial port with pyserial.  A scheme registered here opens an
in-process asyncio transport instead (the virtual table's ``sim://``: the same framed
bytes, no file descriptor, no thread), so the bridge code above it is the same either way.
A device path opens as ``serialport.NonBlockingSerial``, whose write never spins on a
device that stopped reading.

    register_scheme("sim", opener)   # async opener(loop, protocol_factory, url) -> (transport, protocol)
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

# (transport, the protocol protocol_factory made)
Connection = tuple[asyncio.Transport, asyncio.Protocol]
Opener = Callable[[asyncio.AbstractEventLoop, Callable[[], asyncio.Protocol], str], Awaitable[Connection]]

_SCHEMES: dict[str, Opener] = {}


def register_scheme(scheme: str, opener: Opener) -> None:
    _SCHEMES[scheme.lower()] = opener


def missing_port(port: str) -> str:
    """Why ``port`` (a device path) cannot be the seat controller's, said before anything
    waits on it: "" when it is a URL or exists, else the serial devices that are there."""
    import glob

    if "://" in port or os.path.exists(port):
        return ""
    found = sorted(glob.glob("/dev/serial/by-id/*"))
    hint = (
        ("serial devices here: " + ", ".join(found))
        if found
        else "no USB serial devices are plugged in (nothing in /dev/serial/by-id)"
    )
    return f"no port {port!r}; {hint}"


def scheme_of(url: str) -> str:
    head, sep, _ = url.partition("://")
    return head.lower() if sep else ""


async def open_connection(
    loop: asyncio.AbstractEventLoop, protocol_factory: Callable[[], asyncio.Protocol], url: str, **serial_options: Any
) -> Connection:
    """(transport, protocol) for ``url``; raises OSError/SerialException when it cannot open."""
    opener = _SCHEMES.get(scheme_of(url))
    if opener is not None:
        return await opener(loop, protocol_factory, url)
    if not scheme_of(url) and os.name == "posix":
        # a device path: our port class, whose non-blocking write cannot spin (serialport.py)
        from functools import partial

        from serial_asyncio_fast import connection_for_serial

        from .serialport import NonBlockingSerial

        port = await loop.run_in_executor(None, partial(NonBlockingSerial, url, **serial_options))
        try:
            return await connection_for_serial(loop, protocol_factory, port)
        except BaseException:
            port.close()
            raise
    from serial_asyncio_fast import create_serial_connection

    return await create_serial_connection(loop, protocol_factory, url, **serial_options)
