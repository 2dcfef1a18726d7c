"""A virtual deck: each card code gets a stable fake RFID UID.

    >>> deck = VirtualDeck.standard()
    >>> deck.uid("AS") == virtual_uid("AS"), len(deck.uids)
    (True, 52)

The UID is derived from the code (7 bytes, starting 04 like NXP inlays), so every run,
every process and every test sees the same UID for the same card.  The simulator may
know card codes; the bridge never does (it only sees UIDs).  A deck of ISO 15693 inlays
(a PN5180 table) has 8-byte UIDs: the same ones after E0, as NXP ICODE UIDs begin.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from table_controller.rules.cards import FULL_DECK

from ..errors import VirtualTableError

PUCK = "PUCK"  # the dealer button puck carries a tag too


INLAYS = {"mfrc522": "iso14443", "pn5180": "iso15693"}   # the inlays each reader reads


def virtual_uid(code: str, salt: str = "", inlay: str = "iso14443") -> str:
    digest = hashlib.sha256(f"chicago-virtual:{salt}:{code}".encode()).hexdigest()
    uid = ("04" + digest[:12]).upper()
    if inlay == "iso15693":
        return "E0" + uid
    if inlay != "iso14443":
        raise VirtualTableError(f"inlay {inlay!r}: iso14443 or iso15693")
    return uid


@dataclass(frozen=True, slots=True)
class VirtualDeck:
    """Card code -> UID.  ``salt`` gives a second, different deck (a spare deck)."""

    uids: dict[str, str]

    @classmethod
    def standard(cls, salt: str = "", inlay: str = "iso14443") -> "VirtualDeck":
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
