"""A serial port whose non-blocking write never spins.

pyserial's ``Serial.write`` with ``write_timeout=0`` (what serial_asyncio_fast sets)
retries ``EAGAIN`` in a loop until the bytes go out: when the device stops reading and
the kernel's buffer is full, that loop never ends, inside the event loop's thread, and
the whole table freezes (serial_asyncio_fast's catch-all even swallows a timeout raised
into it).  Here a full buffer raises ``BlockingIOError`` at once, which the asyncio
transport answers as for a socket: it keeps the bytes and waits until the port is
writable.  How long it may wait is the link's business (``SeatLink.write_timeout_s``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import serial

if TYPE_CHECKING:  # collections.abc.Buffer is Python 3.12's
    from typing_extensions import Buffer


class NonBlockingSerial(serial.Serial):
    def write(self, data: Buffer) -> int:
        if self.write_timeout != 0:  # a blocking or timed write: pyserial's own is bounded
            return int(super().write(data) or 0)
        if not self.is_open:
            raise serial.PortNotOpenError()
        try:
            assert self.fd is not None  # open (checked above)
            return os.write(self.fd, bytes(data))  # EAGAIN -> BlockingIOError, EINTR -> InterruptedError
        except (BlockingIOError, InterruptedError):
            raise
        except OSError as exc:
            raise serial.SerialException(f"write failed: {exc}") from exc
