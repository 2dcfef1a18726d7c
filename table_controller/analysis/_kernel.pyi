"""The double-dummy solver's search in C (``_kernel.c``; see ``solver.py``)."""

from collections.abc import Sequence

def search(
    n: int,
    chic: int,
    keys: Sequence[int],
    o_last: Sequence[int],
    o_stands: int,
    o_broken: Sequence[int],
    static_bound: Sequence[int],
    dead: Sequence[int],
    nolast: Sequence[int],
    rot: Sequence[Sequence[int]],
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    to_play: Sequence[int],
    trick_no: int,
    alive: int,
    /,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]: ...
