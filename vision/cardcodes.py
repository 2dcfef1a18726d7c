"""Card codes as plain text in our notation (``"AS"``, ``"TD"``, ``"2C"``).

``vision`` sits below ``table_controller`` and must not import it, so it keeps
its own copy of the two alphabets; sensing turns the text into ``Card`` values.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "SHDC"
RED_SUITS = "HD"
ALL_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def is_red(code: str) -> bool:
    return code[1] in RED_SUITS


def rank_label(rank: str) -> str:
    """What is printed in the index corner: ``"10"`` for ``T``."""
    return "10" if rank == "T" else rank
