"""The rules' error types, in one module every other rules module may import (no loops).

Each is a ``ValueError`` whose text is shown to the table as it is.  ``CardError``,
``ActionError`` and ``RulesetError`` may still be imported from their old homes (``cards``,
``actions``, ``rulesets``), ``IllegalAction`` from ``engine``.

    >>> try:
    ...     raise IllegalAction("out of turn: Bo plays next, not Anna (r25)")
    ... except IllegalAction as exc:
    ...     exc.reason
    'out of turn: Bo plays next, not Anna (r25)'
"""

from __future__ import annotations


class CardError(ValueError):
    """A card code that is not in our notation."""


class ActionError(ValueError):
    """A line that is not a well-formed action."""


class RulesetError(ValueError):
    """An unknown ruleset or option."""


class IllegalAction(ValueError):
    """An action the rules forbid; ``reason`` says which rule."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
