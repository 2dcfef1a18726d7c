"""Corrections from the Revisor or the TL, as values with a text form.

    >>> parse_correction("the card at pad 3 is 7H")
    CardAt(pad='seat3', card=Card('7H'))
    >>> parse_correction("tag 04A1B2C3D4E5F6 is QS").to_text()
    'tag 04A1B2C3D4E5F6 is QS'

A correction settles an alert: it says what the readers could not (a card on a pad, which
card a tag is) or the TL dismisses the alert.  Each goes into the log like any action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from table_controller.rules.cards import Card
from table_controller.rules.errors import CardError

from .errors import SensingError

_PAD = r"(?:pad|seat)\s*([1-4])|(tray)"


@dataclass(frozen=True, slots=True)
class CardAt:
    pad: str
    card: Card

    def to_text(self) -> str:
        return f"the card at {self.pad} is {self.card}"


@dataclass(frozen=True, slots=True)
class UidIs:
    uid: str
    card: Card

    def to_text(self) -> str:
        return f"tag {self.uid} is {self.card}"


@dataclass(frozen=True, slots=True)
class Dismiss:
    alert: int
    reason: str = ""

    def to_text(self) -> str:
        return f"dismiss {self.alert}" + (f": {self.reason}" if self.reason else "")


Correction = CardAt | UidIs | Dismiss


@dataclass(frozen=True, slots=True)
class DismissTag:
    """A dismissal that names an alert by the tag a blind role is shown
    (``views.blind_alert_id``: "s" and 12 hex digits), not by its number, which counts
    hidden things.  The dashboard finds the alert that role was shown by that tag and
    makes it a :class:`Dismiss`; the live table never sees a tag."""

    tag: str
    reason: str = ""

    def dismiss(self, alert: int) -> Dismiss:
        return Dismiss(alert, self.reason)


def _card(text: str) -> Card:
    try:
        return Card.parse(text)
    except CardError as exc:
        raise SensingError(str(exc)) from None


def parse_dismiss_tag(text: Any) -> DismissTag | None:
    """A dismissal by tag ("dismiss s1a2b3c4d5e6f: seen"), or None for any other text.

    >>> parse_dismiss_tag("Dismiss alert S1A2B3C4D5E6F - a shadow")
    DismissTag(tag='s1a2b3c4d5e6f', reason='a shadow')
    >>> parse_dismiss_tag("dismiss 4") is None
    True
    """
    if not isinstance(text, str):
        return None
    t = " ".join(text.strip().split())
    m = re.fullmatch(r"(?i)(?:dismiss|resolve)\s+(?:alert\s+)?#?s?([0-9a-f]{12})(?:\s*[:,-]\s*(.*))?", t)
    return DismissTag("s" + m.group(1).lower(), m.group(2) or "") if m else None


def parse_correction(text: Any) -> Correction:
    """Read a correction; :class:`SensingError` says what is wrong and what is expected."""
    if not isinstance(text, str) or not text.strip():
        raise SensingError("a correction is text like 'the card at pad 3 is 7H', 'tag 04AB.. is QS' or 'dismiss 4'")
    t = " ".join(text.strip().split())
    m = re.fullmatch(rf"(?i)(?:the\s+card\s+(?:at|on)\s+)?(?:{_PAD})\s+is\s+(\S+)", t)
    if m:
        pad = f"seat{m.group(1)}" if m.group(1) else "tray"
        return CardAt(pad, _card(m.group(3)))
    m = re.fullmatch(r"(?i)(?:tag|uid)\s+([0-9A-Fa-f:]+)\s+is\s+(\S+)", t)
    if m:
        uid = m.group(1).replace(":", "").upper()
        if len(uid) > 32:
            raise SensingError(f"{m.group(1)!r} is not a tag's UID")
        return UidIs(uid, _card(m.group(2)))
    # at most 9 digits: int() of 4,300 digits raises ValueError, not a clear error (issue 13)
    m = re.fullmatch(r"(?i)(?:dismiss|resolve)\s+(?:alert\s+)?#?(\d{1,9})(?:\s*[:,-]\s*(.*))?", t)
    if m:
        return Dismiss(int(m.group(1)), m.group(2) or "")
    shown = text if len(text) <= 60 else text[:60] + "..."
    raise SensingError(
        f"cannot read the correction {shown!r}: say 'the card at pad 3 is 7H', 'tag 04AB.. is QS' or 'dismiss 4'"
    )
