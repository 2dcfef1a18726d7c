"""The rules' error types, in one module every other rules module may import (no loops).

Each is a ``ValueError`` whose text is shown to the table as it is.  ``CardError``,
``ActionError`` and ``RulesetError`` may still be imported from their old homes (``cards``,
``actions``, ``rulesets``), ``IllegalAction`` from ``engine``.

    >>> try:
    ...     raise IllegalAction("out of turn: Bo plays next, not Anna (r25)")
    ... except IllegalAction as exc:
    ...     exc.reason
    'out of turn: Bo plays next, not Anna (r25)'

A reason that names cards keeps them apart, as fields of its sentence, so that a reader can
word it without them (the views' role filter does: a card named in a refusal may be hidden):

    >>> from table_controller.rules.cards import Card
    >>> exc = IllegalAction("{card} is not in {player}'s hand", card=Card.parse("AS"), player="Bo")
    >>> exc.reason, exc.template, exc.card_fields
    ("AS is not in Bo's hand", "{card} is not in {player}'s hand", frozenset({'card'}))
"""

from __future__ import annotations

from collections.abc import Mapping


class CardError(ValueError):
    """A card code that is not in our notation."""


class ActionError(ValueError):
    """A line that is not a well-formed action."""


class RulesetError(ValueError):
    """An unknown ruleset or option."""


class IllegalAction(ValueError):
    """An action the rules forbid; ``reason`` says which rule.

    ``template`` is the rule's sentence and ``fields`` what fills it in; a field whose value
    is a card or a sequence of cards (a ``Card``: anything with a ``code``) is one of
    ``card_fields``.  A reason given as plain text is its own template, with no fields."""

    def __init__(self, reason: str, **fields: object):
        text = reason.format(**{k: field_text(v) for k, v in fields.items()}) if fields else reason
        super().__init__(text)
        self.reason = text
        self.template = reason
        self.fields: Mapping[str, object] = fields

    def __reduce__(self) -> tuple[object, ...]:  # pickled with its fields, not only its text
        return (_illegal_action, (self.template, dict(self.fields)))

    @property
    def card_fields(self) -> frozenset[str]:
        return frozenset(k for k, v in self.fields.items() if names_cards(v))


def _illegal_action(template: str, fields: dict[str, object]) -> IllegalAction:
    return IllegalAction(template, **fields)


def names_cards(value: object) -> bool:
    """A card (it has a ``code``) or a non-empty sequence of cards."""
    if isinstance(value, (tuple, list)):
        return bool(value) and all(hasattr(v, "code") for v in value)
    return hasattr(value, "code")


def field_text(value: object) -> str:
    """A field as its reason says it: a card by its code, cards joined by ", "."""
    if isinstance(value, (tuple, list)) and names_cards(value):
        return ", ".join(str(v) for v in value)
    return str(value)
