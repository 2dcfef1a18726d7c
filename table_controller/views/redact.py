"""Free text that may name a card, made card-free where it enters a view.

The rules' reasons are sentences ("AS is not in Bo's hand"); an alert or an answer built
from one replaces every card code before any role is shown it.  Structured parts of the
view model (hands, tricks) are filtered by ``roles.for_role`` instead.

    >>> without_cards("AS is not in Bo's hand"), without_cards("10H och KD", "(kort)")
    ("(card) is not in Bo's hand", '(kort) och (kort)')

A card the way the product itself reads or shows one is masked in any case: ``ks``,
``10h``, ``Td`` (``Card.parse`` takes them) and ``K♣``, ``10 ♥`` (the pages' own way).  The
TL's typed reasons pass here on their way to the Revisor and the public, and stop 63's
audit found ``ks``, ``10h`` and ``K♣`` in their protocol.  A word that is also a code
("as", "ad") is masked too: a reason garbled is better than a card shown.  A card
written out in words ("klöver kung") is not found.

    >>> without_cards("Bo visade ks, 10h och K\u2663 (as vanligt)")
    'Bo visade (card), (card) och (card) ((card) vanligt)'
"""

from __future__ import annotations

import re

# a rank (10 or one character), then a suit letter or a suit symbol (U+2660-2667, black
# and white, with or without a space), alone: no letter or digit touching either end
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])(?:[SHDC](?![0-9A-Za-z])|\s?[\u2660-\u2667])", re.IGNORECASE)


def without_cards(text: str, word: str = "(card)") -> str:
    return CARD_CODE.sub(word, text)
