"""A small table for the docstring examples of the rules package."""

from __future__ import annotations

from table_controller.rules import actions as act
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine


def first_deal(in_tricks: bool = False) -> Engine:
    """Anna, Bo and Cilla in their first deal (button Cilla: Anna first), no hand scoring;
    with ``in_tricks`` all three have stood through the exchanges and Anna leads.

        >>> first_deal().phase, first_deal(in_tricks=True).phase
        ('exchange_1', 'tricks')
    """
    e = Engine()
    e.apply(act.TableStart(("Anna", "Bo", "Cilla")))
    e.apply(act.GameStart(("Anna", "Bo", "Cilla"), "Cilla"))
    hands = {"Anna": "2S 4H 6D 8C TS", "Bo": "3S 5H 7D 9C JH", "Cilla": "QS KH AD 2C 3C"}
    e.apply(act.Deal({p: tuple(Card.parse(c) for c in h.split()) for p, h in hands.items()}))
    if in_tricks:
        for _ in range(3):
            for p in ("Anna", "Bo", "Cilla"):
                e.apply(act.Discard(p, ()))
    return e
