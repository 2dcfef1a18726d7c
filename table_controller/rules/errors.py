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

The other parts' errors that a person reads (the store's, the tournament's) are worded:
raised with their English text and what goes in it, so that a console says them in its own
language (``app.words.said_error``; console.po), while ``str()`` is the English that logs
and programs read.  An OSError put in is said as the system says it, without its number:

    >>> exc = WordedError("cannot create {path}: {error}", path="/x/t.sqlite", error=PermissionError(13, "Permission denied"))
    >>> str(exc), exc.text, sorted(exc.params)
    ('cannot create /x/t.sqlite: Permission denied', 'cannot create {path}: {error}', ['error', 'path'])

A few words said inside such an error, or listed beside them (what was being done when it
failed, a check's problem), are a ``Phrase``: text as the English says it, with its own
template and params kept:

    >>> doing = Phrase("reading the last seq")
    >>> str(WordedError("{path}: disk I/O error while {doing}", path="t.sqlite", doing=doing))
    't.sqlite: disk I/O error while reading the last seq'
    >>> problem = Phrase("record {seq}: an event stored without its action", seq=7)
    >>> problem, problem.text, problem.params
    ('record 7: an event stored without its action', 'record {seq}: an event stored without its action', {'seq': 7})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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


def english(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with ``params`` put in as the English says it: an OSError by the system's
    reason (its ``strerror``: no "[Errno 2]" and no path again); a text without params as it
    is (its braces are no fields)."""
    if not params:
        return text
    shown = {k: (v.strerror or str(v)) if isinstance(v, OSError) else v for k, v in params.items()}
    return text.format(**shown)


class WordedError(Exception):
    """An error raised with its English text and what goes in it (``text``, ``params``), so
    that a console says it in its own language (``app.words.said_error``: console.po);
    ``str()`` is the English, as logs and programs read it.  The store's errors
    (``store.errors.StoreError``) and the tournament's refusals (``DrawError``,
    ``hubstore.HubError``) are such errors."""

    def __init__(self, text: str, **params: Any) -> None:
        super().__init__(english(text, params))
        self.text, self.params = text, params


class Phrase(str):
    """A few words a person reads, as their English (it is that ``str``: what a report or a
    log keeps), with their template and params kept (``text``, ``params``) so that a console
    says them in its own language as it says a ``WordedError``: what was being done when an
    error struck (``while {doing}``), a check's problem."""

    text: str
    params: dict[str, Any]

    def __new__(cls, text: str, **params: Any) -> Phrase:
        self = super().__new__(cls, english(text, params))
        self.text, self.params = text, params
        return self

    @classmethod
    def of(cls, exc: WordedError) -> Phrase:
        """A worded error's words, to keep in a list of problems beside others."""
        return cls(exc.text, **exc.params)
