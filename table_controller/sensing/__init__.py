"""Sensing: what the pads and the camera see, turned into the actions of REPLAY.md.

    >>> from table_controller.sensor_events import PadContents
    >>> from table_controller.deck import virtual_deck
    >>> from table_controller.rules.phases import Phase
    >>> deck = virtual_deck()
    >>> uid = {c.code: u for u, c in deck.cards.items()}
    >>> sensing = Sensing(deck)
    >>> sensing.sync(TableFacts(phase=Phase.DEAL, pads={"Anna": "seat1", "Bo": "seat2"}, dealt_to=("Anna", "Bo")))
    >>> sensing.observe(PadContents(0.1, "seat1", frozenset(uid[c] for c in ("2S", "3S", "4S", "5S", "6S"))))
    >>> sensing.propose() is None                    # Bo has no cards yet: no Deal
    True

See :mod:`.machine` for the steps it follows, :mod:`.alerts` for what it raises instead
of guessing, and :mod:`.corrections` for how the Revisor and the TL settle an alert.

May import the rules, the deck and the sensor events (``table_controller.sensor_events``);
never the bridge or the camera themselves, the store, the live loop, the dashboard, the
hardware, the simulation or the app.
"""

from .alerts import KINDS, Alert, AlertBook, Finding
from .corrections import CardAt, Correction, Dismiss, DismissTag, UidIs, parse_correction, parse_dismiss_tag
from .errors import SensingError
from .facts import TableFacts
from .machine import Sensing

__all__ = [
    "KINDS",
    "Alert",
    "AlertBook",
    "CardAt",
    "Correction",
    "Dismiss",
    "DismissTag",
    "Finding",
    "Sensing",
    "SensingError",
    "TableFacts",
    "UidIs",
    "parse_correction",
    "parse_dismiss_tag",
]
