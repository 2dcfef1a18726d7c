"""Who may enter what by hand, and the one answer a blind role gets (ARCHITECTURE.md §3, §4).

The Revisor is a player.  An answer to a role that may not see hidden cards must not
depend on where a hidden card is (issue 13: "card seen twice: (card) is in Bo's hand"
gave every hand in 47 requests).  So:

- Card identities (``deal``, ``discard``, ``open``, ``receive``, ``play`` and the
  corrections that name a card) are entered by hand by the TL.  On a camera-only table
  (no RFID readers: sensing with ``rfid=False``) the dealt hands are declared by hand
  (ARCHITECTURE.md §1): each player declares their own five cards on their own phone (a
  seat's token, ``/seat``), and the deal is entered when every hand is in; the TL may
  declare a seat's hand for a player without a phone.  So are the cards each player places
  and receives face down in the exchanges (``dashboard.seat_exchange``).  The camera reads
  the open card and the cards played; a card it misses is played by its player on their
  phone (``TableHub.play_own``: judged against their own hand only), the open card by the
  TL.  The Revisor enters no card: even a face-up card named by the Revisor is judged
  against hands the Revisor may not see (is the card in the player's hand, in another's?),
  so whether it went in said where a hidden card lies (stop 66).
- A seat's token declares only its own seat's hand and sees no hidden card but that hand.
  Its answer to a well-formed declaration is ONE answer whatever the cards are: the
  hand is held until every hand is in, and a deal whose hands do not agree is refused
  for the TL (all hands declared again), never told to the player who sent the last one.
- Every card entry (``/api/action``) from a role other than the TL is refused before any
  card is read: ONE answer, whatever the cards are, the same status, the same text, no card
  code, saying who enters such cards at this table (``refusal_of``).  The TL's own answers
  and the TL's alert keep the reason (cards masked).
- The rejection is still a record of the table's log and an alert for the TL, the same
  record for every card (the attempt is what matters, not the cards).

    >>> names_cards("receive"), names_cards("chicago")
    (True, False)
    >>> refusal_of("play", True) == PLAYS_BY_CAMERA, refusal_of("play", False) == REFUSED
    (True, True)
"""

from __future__ import annotations

from typing import Any

from .i18n import N_, action_words, source_words, tr
from .seat_exchange import BY_SEATS

CARD_ACTIONS = frozenset({"deal", "discard", "open", "receive", "play"})

# Catalogue ids (dashboard.i18n): answered in the page's language, Swedish by default;
# each is one fixed text whatever the cards are.
REFUSED = N_("Rejected: at this table cards are entered by hand by the TL.")
REFUSED_REASON = N_("entering cards by hand is the TL's (ARCHITECTURE.md §3)")
CORRECTION_REFUSED = N_("Rejected: corrections that name a card are the TL's.")


def names_cards(do: Any) -> bool:
    """Whether an action of kind ``do`` names cards that may be hidden."""
    return isinstance(do, str) and do in CARD_ACTIONS


# Entries whose refusal says a fact of a hidden hand even though they name no card: a
# take-back is refused when the card was no revoke (the player held none of the led suit),
# a four of a kind's zero when the player holds none that may zero (r26, r28).
HAND_FACTS = frozenset({"retract", "quads"})
# A seat's own entries (its player's hand, on their phone): a refusal is the player's own to
# know and raises no alert for anyone, live or after a restart.
OWN_ENTRIES = frozenset({"retract", "quads", "play"})


def reason_hidden(do: Any) -> bool:
    """Whether a refused entry of kind ``do`` may have a reason that depends on a hidden
    hand: then a blind role's alert says only that it was refused (``blind_alert_text``).

        >>> reason_hidden("play"), reason_hidden("retract"), reason_hidden("chicago")
        (True, True, False)
    """
    return names_cards(do) or (isinstance(do, str) and do in HAND_FACTS)


QUADS_BY_OWNER = N_("A four of a kind that zeroes is announced on the player's own phone, or entered by the TL (r28).")
RETRACT_BY_OWNER = N_("A card is taken back by its player on their own phone, or entered by the TL (r26).")
DEAL_BY_SEATS = N_("Rejected: at this table each player declares their own hand on their phone.")
DECLARED = N_("Your hand is received. The deal is entered when every hand is in.")
NOT_DEALING = N_("Rejected: a hand is declared at the deal, on a table without readers.")
OWN_SEAT = N_("A seat's link declares its own hand only.")
PLAYS_BY_CAMERA = N_(
    "Rejected: at this table the camera reads the open card and the cards played; "
    "a card it misses is played on the player's own phone, and the TL enters the open card."
)
NOT_CAMERA_ONLY = N_("At this table the readers see the cards played.")


def refusal_of(do: Any, hands_by_hand: bool) -> str:
    """The one answer to a card entry (an action that ``names_cards``) posted by anyone but
    the TL, by who enters such cards at this table: the same whatever the cards are (a
    player enters their own on their phone: ``/api/hand``, ``/api/exchange``, ``/api/play``)."""
    if not hands_by_hand:
        return REFUSED
    return {"deal": DEAL_BY_SEATS, "discard": BY_SEATS, "receive": BY_SEATS}.get(do, PLAYS_BY_CAMERA)


def blind_alert_text(source: str, do: Any, lang: str = "en") -> str:
    """The Revisor's text of an alert about a rejected card entry: no reason, no card."""
    what = do if isinstance(do, str) and do.isidentifier() and len(do) <= 20 else "?"
    text = tr(
        N_("{source}: {what} rejected (the TL sees why)"),
        lang,
        source=source_words(source, lang),
        what=action_words(what, lang),
    )
    return text[:1].upper() + text[1:]
