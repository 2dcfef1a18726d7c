"""The virtual table: simulated pads, console and cable around the real firmware.

May import the firmware (it runs it), the bridge's transports (an in-memory cable) and
the table's virtual deck (``table_controller.deck``); never the controller's sensing,
store, live loop, dashboard, simulation or app.
"""

from .deck import VirtualDeck, virtual_uid
from .noise import NoiseModel
from .script import Move, parse_moves
from .table import BUTTONS, VirtualTable

__all__ = ["BUTTONS", "Move", "NoiseModel", "VirtualDeck", "VirtualTable", "parse_moves", "virtual_uid"]
