"""The virtual table: simulated pads, console and cable around the real firmware."""

from .deck import VirtualDeck, virtual_uid
from .noise import NoiseModel
from .script import Move, parse_moves
from .table import BUTTONS, VirtualTable

__all__ = ["VirtualTable", "VirtualDeck", "NoiseModel", "Move", "parse_moves", "virtual_uid", "BUTTONS"]
