"""firmware_bridge: the serial link to the table's seat controller.

Three layers, each usable alone: ``codec`` (bytes <-> frames), ``link`` (handshake,
keepalive, reconnect), ``client`` (typed sensor events and acknowledged commands).
The wire protocol is hardware/PROTOCOL.md.

    async with SeatControllerClient("/dev/chicago-seat-controller") as sc:
        async for event in sc.events(): ...

``chicago-table link`` (watch the link, the bench self-test) is the composition root's
(``table_controller/app/commands/link.py``); this package holds no command.

May import, of the project, only ``table_controller.sensor_events`` (the event types it
produces, shared with the camera); never sensing, the rules, the dashboard, hardware or
the app.
"""

from .client import SeatControllerClient
from .clock import Clock, MonotonicClock
from .errors import BadCommand, BridgeError, CommandFailed
from .link import LinkStats

__all__ = [
    "BadCommand",
    "BridgeError",
    "Clock",
    "CommandFailed",
    "LinkStats",
    "MonotonicClock",
    "SeatControllerClient",
]
