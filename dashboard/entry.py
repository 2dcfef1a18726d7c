"""Who may enter what by hand, and the one answer a blind role gets (ARCHITECTURE.md §3, §4).

The Revisor is a player.  An answer to a role that may not see hidden cards must not
depend on where a hidden card is (issue 13: "card seen twice: (card) is in Bo's hand"
gave every hand in 47 requests).  So:

- Hidden card identities (``deal``, ``discard``, ``open``, ``receive``, ``play`` and the
  corrections that name a card) are entered by hand by the TL.  On a camera-only table
  (no RFID readers: sensing with ``rfid=False``) the dealt hands are declared by hand
  (ARCHITECTURE.md §1): each player declares their own five cards on their own phone (a
  seat's token, ``/seat``), and the deal is entered when every hand is in; the TL may
  declare a seat's hand for a player without a phone.  So are the cards each player places
  and receives face down in the exchanges (``dashboard.seat_exchange``); the Revisor
  enters only what everybody sees: the open card and the plays.
- A seat's token declares only its own seat's hand and sees no hidden card but that hand.
  Its answer to a well-formed declaration is ONE answer whatever the cards are: the
  hand is held until every hand is in, and a deal whose hands do not agree is refused
  for the TL (all hands declared again), never told to the player who sent the last one.
- Every rejected card entry from a role other than the TL gets ONE answer, whatever the
  cards are: the same status, the same text, no card code.  The TL's own answers and the
  TL's alert keep the reason (cards masked).
- The rejection is still a record of the table's log and an alert for the TL, the same
  record for every card (the attempt is what matters, not the cards).

    >>> names_cards("receive"), names_cards("chicago")
    (True, False)
    >>> may_enter_cards("revisor", True, "open"), may_enter_cards("revisor", True, "receive")
    (True, False)
"""

from __future__ import annotations

from typing import Any

from .i18n import N_, tr

CARD_ACTIONS = frozenset({"deal", "discard", "open", "receive", "play"})

# Catalogue ids (dashboard.i18n): answered in the page's language, Swedish by default;
# each is one fixed text whatever the cards are.
REFUSED = N_("Rejected: at this table cards are entered by hand by the TL.")
REJECTED = N_("Rejected: the action cannot be accepted; the TL sees why.")
REFUSED_REASON = N_("entering cards by hand is the TL's (ARCHITECTURE.md §3)")
CORRECTION_REFUSED = N_("Rejected: corrections that name a card are the TL's.")


def names_cards(do: Any) -> bool:
    """Whether an action of kind ``do`` names cards that may be hidden."""
    return isinstance(do, str) and do in CARD_ACTIONS


QUADS_BY_OWNER = N_("A four of a kind that zeroes is announced on the player's own phone, or entered by the TL (r28).")
RETRACT_BY_OWNER = N_("A card is taken back by its player on their own phone, or entered by the TL (r26).")
OPEN_WHEN_DUE = N_("An open card is entered when the table waits for one; a flashed card is entered by the TL.")
DEAL_BY_SEATS = N_("Rejected: at this table each player declares their own hand on their phone.")
DECLARED = N_("Your hand is received. The deal is entered when every hand is in.")
NOT_DEALING = N_("Rejected: a hand is declared at the deal, on a table without readers.")
OWN_SEAT = N_("A seat's link declares its own hand only.")


def may_enter_cards(role: str, hands_by_hand: bool, do: Any = None) -> bool:
    """The TL always; the Revisor where hidden cards are entered by hand (a camera-only
    table), except each player's own hidden cards: the dealt hand (``/api/hand``) and the
    cards placed and received face down (``/api/exchange``): the Revisor enters the open
    card and the plays, which everybody sees."""
    return role == "tl" or (role == "revisor" and hands_by_hand and do not in ("deal", "discard", "receive"))


def blind_alert_text(source: str, do: Any, lang: str = "en") -> str:
    """The Revisor's text of an alert about a rejected card entry: no reason, no card."""
    what = do if isinstance(do, str) and do.isidentifier() and len(do) <= 20 else "?"
    return tr(N_("{source}: {what} rejected (the TL sees why)"), lang, source=source, what=what)
