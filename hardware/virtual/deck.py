"""A virtual deck: each card code gets a stable fake RFID UID.

    >>> deck = VirtualDeck.standard()
    >>> deck.uid("AS") == virtual_uid("AS"), len(deck.uids)
    (True, 52)

The UID is derived from the code (7 bytes, starting 04 like NXP inlays), so every run,
every process and every test sees the same UID for the same card.  The simulator may
know card codes; the bridge never does (it only sees UIDs).  A deck of ISO 15693 inlays
(a PN5180 table) has 8-byte UIDs: the same ones after E0, as NXP ICODE UIDs begin.
The derivation is the controller's virtual deck (``table_controller.deck.virtual_uid``):
the simulated table deals the deck a table uses until a real one is registered.  The
simulator imports the controller's deck, never the reverse.
"""

from __future__ import annotations

from dataclasses import dataclass

from table_controller.deck import PUCK, DeckError
from table_controller.deck import virtual_uid as deck_uid
from table_controller.rules.cards import FULL_DECK

from ..errors import VirtualTableError

__all__ = ["INLAYS", "PUCK", "VirtualDeck", "virtual_uid"]


INLAYS = {"mfrc522": "iso14443", "pn5180": "iso15693"}  # the inlays each reader reads


def virtual_uid(code: str, salt: str = "", inlay: str = "iso14443") -> str:
    try:
        return deck_uid(code, salt, inlay)
    except DeckError as exc:  # the simulator's own error, as before
        raise VirtualTableError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class VirtualDeck:
    """Card code -> UID.  ``salt`` gives a second, different deck (a spare deck)."""

    uids: dict[str, str]

    @classmethod
    def standard(cls, salt: str = "", inlay: str = "iso14443") -> VirtualDeck:
        return cls({c.code: virtual_uid(c.code, salt, inlay) for c in FULL_DECK})

    def uid(self, code: str) -> str:
        try:
            return self.uids[code.strip().upper()]
        except (KeyError, AttributeError):
            raise VirtualTableError(f"card {code!r} is not in this deck (codes like 'AS', 'TD', '2C')") from None

    def code(self, uid: str) -> str | None:
        for code, u in self.uids.items():
            if u == uid:
                return code
        return None
