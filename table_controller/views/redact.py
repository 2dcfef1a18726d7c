"""Free text that may name a card, made card-free where it enters a view.

The rules' reasons are sentences ("AS is not in Bo's hand"); an alert or an answer built
from one replaces every card code before any role is shown it.  Structured parts of the
view model (hands, tricks) are filtered by ``roles.for_role`` instead.

    >>> without_cards("AS is not in Bo's hand"), without_cards("10H och KD", "(kort)")
    ("(card) is not in Bo's hand", '(kort) och (kort)')
"""

from __future__ import annotations

import re

CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


def without_cards(text: str, word: str = "(card)") -> str:
    return CARD_CODE.sub(word, text)
