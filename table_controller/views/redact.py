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

# the notation's own: the rules read cards, and the hub's TL screen masks an error's text
from table_controller.rules.cards import CARD_CODE, without_cards

__all__ = ["CARD_CODE", "without_cards"]
