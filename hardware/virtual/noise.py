"""How badly the virtual table's readers and cable behave.

    >>> NoiseModel.clean().flicker
    0.0
    >>> NoiseModel.rough().stack_limit
    2

All probabilities are per event (per card per scan, per byte, per chunk).  The
defaults are a clean table; ``rough()`` is a bad day at a championship.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import VirtualTableError


@dataclass(frozen=True, slots=True)
class NoiseModel:
    flicker: float = 0.0  # a card on the pad is missed in one scan
    missed_scan: float = 0.0  # a whole scan returns nothing
    stack_limit: int = 0  # at most this many cards seen per scan (0: all); MFRC522 ~2
    dup_byte: float = 0.0  # a byte to the host is sent twice
    corrupt_byte: float = 0.0  # a byte to the host is flipped
    command_loss: float = 0.0  # a chunk from the host never arrives

    def __post_init__(self) -> None:
        for name in ("flicker", "missed_scan", "dup_byte", "corrupt_byte", "command_loss"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value < 1.0:
                raise VirtualTableError(f"noise {name}={value!r}: a probability in [0, 1)")
        if not isinstance(self.stack_limit, int) or self.stack_limit < 0:
            raise VirtualTableError(f"noise stack_limit={self.stack_limit!r}: 0 (no limit) or more")

    @classmethod
    def clean(cls) -> NoiseModel:
        return cls()

    @classmethod
    def rough(cls) -> NoiseModel:
        return cls(flicker=0.1, missed_scan=0.05, stack_limit=2, dup_byte=0.001, corrupt_byte=0.001, command_loss=0.05)
