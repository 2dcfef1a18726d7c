"""The phases of a table and of a deal, and the scoring moments (REPLAY.md).

``str``-valued enums: a member is equal to, hashes as, prints as, shows (``repr``) as and
serialises as its text, so events, documents, logs and any dict printed with a phase in
it keep their exact strings.

    >>> Phase.exchange(2)
    'exchange_2'
    >>> Phase.exchange(2) is Phase.EXCHANGE_2, Phase.exchange(2) == "exchange_2", f"{Phase.TRICKS}"
    (True, True, 'tricks')
    >>> DealPhase("chicago") is DealPhase.CHICAGO
    True
    >>> Moment.exchange(1).is_exchange, Moment.FINAL.is_exchange, Phase.EXCHANGE_3.is_exchange
    (True, False, True)
"""

from __future__ import annotations

from enum import StrEnum


class _Text(StrEnum):
    def __repr__(self) -> str:
        return repr(self.value)


class DealPhase(_Text):
    """Where a deal stands (``DealState.phase``)."""

    EXCHANGE = "exchange"  # which one: ``DealState.exchange`` (r12-r18)
    QUADS_CHOICE = "quads_choice"  # a four of a kind chooses points or zero (RULES §5)
    CHICAGO = "chicago"  # the Chicago question (r22)
    TRICKS = "tricks"  # trick play (r23-r27)
    OVER = "over"


class Phase(_Text):
    """Where the table stands, as REPLAY.md names it (``Engine.phase``)."""

    GAME_START = "game_start"
    DEAL = "deal"
    EXCHANGE_1 = "exchange_1"
    EXCHANGE_2 = "exchange_2"
    EXCHANGE_3 = "exchange_3"
    QUADS_CHOICE = "quads_choice"
    CHICAGO = "chicago"
    TRICKS = "tricks"
    GAME_OVER = "game_over"
    TABLE_OVER = "table_over"

    @classmethod
    def exchange(cls, k: int) -> Phase:
        """The phase of exchange ``k`` (1-3, r12)."""
        return cls(f"exchange_{k}")

    @property
    def is_exchange(self) -> bool:
        """One of the three exchanges (r12)."""
        return self in (Phase.EXCHANGE_1, Phase.EXCHANGE_2, Phase.EXCHANGE_3)


class Moment(_Text):
    """When an award was made (``Awarded.moment``): after an exchange, in the tricks, in
    the final scoring (D7) or by the TL."""

    EXCHANGE_1 = "exchange_1"
    EXCHANGE_2 = "exchange_2"
    EXCHANGE_3 = "exchange_3"
    TRICKS = "tricks"
    FINAL = "final"
    TL = "tl"

    @classmethod
    def exchange(cls, k: int) -> Moment:
        """The scoring moment after exchange ``k`` (D4)."""
        return cls(f"exchange_{k}")

    @property
    def is_exchange(self) -> bool:
        return self in (Moment.EXCHANGE_1, Moment.EXCHANGE_2, Moment.EXCHANGE_3)
