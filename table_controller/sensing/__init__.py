"""Sensing: what the pads and the camera see, turned into the actions of REPLAY.md.

    >>> sensing = Sensing(deck)
    >>> sensing.sync(facts); sensing.observe(event); sensing.propose()

See :mod:`.machine` for the steps it follows, :mod:`.alerts` for what it raises instead
of guessing, and :mod:`.corrections` for how the Revisor and the TL settle an alert.

May import the rules, the deck and the sensor events (``table_controller.sensor_events``);
never the bridge or the camera themselves, the store, the live loop, the dashboard, the
hardware, the simulation or the app.
"""

from .alerts import KINDS, Alert, AlertBook, Finding
from .corrections import CardAt, Correction, Dismiss, UidIs, parse_correction
from .errors import SensingError
from .facts import TableFacts
from .machine import Sensing

__all__ = ["Sensing", "TableFacts", "Alert", "AlertBook", "Finding", "KINDS", "SensingError",
           "CardAt", "UidIs", "Dismiss", "Correction", "parse_correction"]
