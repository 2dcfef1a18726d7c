"""Why an entry was refused, as a typed value that the role filter words for its audience.

A rule's refusal (``IllegalAction``) keeps the cards it names as fields of its sentence, so
they are left out by name, not found in its text.  Words from outside the rules (a line
that is not an action, a correction that cannot be read, a ruleset's complaint about an
option) may echo anything that was typed, cards included: they are kept as free words,
whose cards only ``redact`` can find.

    >>> from table_controller.rules.cards import Card, parse_cards
    >>> from table_controller.rules.errors import ActionError, IllegalAction
    >>> r = Refusal.of(IllegalAction("{card} is not in {player}'s hand", card=Card.parse("AS"), player="Bo"))
    >>> r.text(), r.text(cards=True)
    ("(card) is not in Bo's hand", "AS is not in Bo's hand")
    >>> Refusal.of(IllegalAction("{cards} not in {player}'s hand", cards=parse_cards(["AS", "KD"]), player="Bo")).text()
    "(card), (card) not in Bo's hand"
    >>> Refusal.of(ActionError("'cards' must be a list of cards like [\\"AS\\"]")).text()
    '\\'cards\\' must be a list of cards like ["(card)"]'

What each role is told is ``roles.Sight.refusal``'s decision; nothing else words one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from table_controller.rules.errors import IllegalAction, field_text

from .redact import without_cards

CARD_WORD = "(card)"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal's sentence (``template``, with ``{field}`` places) and its fields' texts;
    ``cards``: the fields that name cards, each with how many it names; ``words``: the
    fields of free words from outside the rules (they may name a card anywhere)."""

    template: str
    fields: Mapping[str, str]
    cards: Mapping[str, int] = field(default_factory=dict)
    words: frozenset[str] = frozenset()

    @classmethod
    def of(cls, exc: BaseException) -> Refusal:
        """The refusal ``exc`` says: a rule's with its fields, anything else as free words."""
        if isinstance(exc, IllegalAction):
            return cls(
                exc.template,
                {k: field_text(v) for k, v in exc.fields.items()},
                {k: _count(exc.fields[k]) for k in exc.card_fields},
                frozenset(k for k, v in exc.fields.items() if isinstance(v, BaseException)),
            )
        return cls("{words}", {"words": str(exc)}, words=frozenset({"words"}))

    def text(self, *, cards: bool = False, word: str = CARD_WORD) -> str:
        """The sentence; without ``cards``, every card it names is ``word``."""
        if not self.fields:
            return self.template
        if cards:
            return self.template.format(**self.fields)
        return self.template.format(**{k: self._without_cards(k, v, word) for k, v in self.fields.items()})

    def _without_cards(self, name: str, text: str, word: str) -> str:
        if name in self.cards:
            return ", ".join([word] * self.cards[name])
        return without_cards(text, word) if name in self.words else text


def _count(value: object) -> int:
    return len(value) if isinstance(value, (tuple, list)) else 1
