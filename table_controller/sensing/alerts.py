"""Alerts instead of guesses (ARCHITECTURE.md §3).

An alert names the seat (player and pad) and the evidence, and says what would settle
it.  Most alerts are conditions: sensing re-derives them from what the pads show and
what the rules expect after every change, so an alert ends by itself once its cause is
gone (the card taken back, the reader back online) or when a correction from the
Revisor or the TL settles it.  While an alert that holds is open, sensing proposes no
action for that player (or for nobody, when it names no player).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

KINDS = (
    "unknown_uid",  # a tag the deck does not know
    "two_pads",  # one card read on two pads
    "foreign_card",  # a card from another player's hand on this pad
    "misdeal",  # more than 5 cards dealt to a pad
    "dealer_count",  # wrong number of replacements (dealer error, r14)
    "draw_stop_discard",  # a player at köpstopp placed cards (D5)
    "out_of_turn",  # a card played out of turn (r25)
    "revoke",  # not following suit while able (r26): the rules apply it; told to the TL
    "unsure_count",  # the count does not add up: spread the cards or enter them
    "camera_disagrees",  # camera and RFID differ
    "reader_offline",  # one pad's reader
    "link_offline",  # the whole seat controller
    "camera_offline",  # the overhead camera (the table plays on with the readers)
    "rejected",  # the rules refused what sensing saw
    "stuck",  # someone must act and nothing happens (live.stuck): who, on what
    "tl_called",  # the dealer's console: the TL is called to the table
)


# What an alert says where hidden cards must not go (the Revisor is a player, r5): no
# card, only what to look at.
PUBLIC_TEXT = {
    "unknown_uid": "an unknown tag",
    "two_pads": "a card read on two pads",
    "foreign_card": "a card from another player's hand",
    "misdeal": "too many cards dealt",
    "dealer_count": "wrong number of replacement cards (dealer error)",
    "draw_stop_discard": "a discard at draw stop",
    "out_of_turn": "a card played out of turn",
    "revoke": "a revoke",
    "unsure_count": "a count that does not add up: spread the cards",
    "camera_disagrees": "camera and reader disagree",
    "reader_offline": "a reader offline",
    "link_offline": "the seat controller link is down",
    "camera_offline": "the camera is offline: the table plays on with the RFID readers",
    "rejected": "the rules refused what the pads show",
}
# Kinds told to the TL alone: a revoke is not following suit *while able*, and whether a
# player could follow is a fact of their hidden hand; the Revisor, a player, learnt it from
# the alert while the deal was live (stop 63's second audit).  The rules apply it anyway.
TL_ONLY = frozenset({"revoke"})
# Kinds whose own text names no card (a player and a step): shown as they are.
CARDLESS = frozenset({"stuck", "overtime", "tl_called"})  # texts of their own that name no card
# Told-once alerts that stay open when the step moves on, until someone closes them: the
# dealer's call for the TL is the TL's to close.
LASTING = frozenset({"tl_called"})


@dataclass(frozen=True, slots=True)
class Alert:
    """The one alert type, whoever raises it: sensing (a condition on the pads, ``origin``
    "sensing") or the table (a rejected entry, the dealer's call for the TL, an overtime:
    ``origin`` "table", built by ``table_controller.views.table_alert``).

    ``text`` is the alert as its source put it.  Sensing's names the cards of its evidence
    and goes only to the log; a table alert's texts are card-free when built.  What each
    role is shown is decided by the role filter, ``table_controller.views.for_role``."""

    id: int
    kind: str
    text: str
    player: str | None = None
    pad: str | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    at: float = 0.0
    holds: bool = True
    origin: str = "sensing"  # "sensing" or "table"
    seq: int = 0  # table alerts: the table's seq when raised
    resolved: bool = False  # table alerts: settled by the TL or a later entry
    text_sv: str | None = None  # table alerts: the text in Swedish
    blind_text: str | None = None  # the Revisor's text when the reason may tell where a card is
    blind_sv: str | None = None
    source: str | None = None  # table alerts: who entered what was rejected

    def to_dict(self) -> dict[str, Any]:
        """Everything, evidence and cards included: for the log and the TL."""
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "player": self.player,
            "pad": self.pad,
            "evidence": dict(self.evidence),
            "at": self.at,
            "holds": self.holds,
        }

    def resolve(self) -> Alert:
        return replace(self, resolved=True)


def card_free_text(alert: Alert) -> str:
    """What a sensing alert says at the table: its kind and where, never its evidence."""
    where = " ".join(x for x in (alert.pad, f"({alert.player})" if alert.player else None) if x)
    if alert.kind in CARDLESS:  # its own text names no card (the stuck-table alert)
        return alert.text
    text = PUBLIC_TEXT.get(alert.kind, alert.kind) + (f" at {where}" if where else "")
    return text[0].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class Finding:
    """A condition sensing found, before it becomes (or stays) an alert."""

    key: tuple
    kind: str
    text: str
    player: str | None = None
    pad: str | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    holds: bool = True


class AlertBook:
    """Open alerts by key; raised once, ended when the condition goes or is dismissed."""

    def __init__(self) -> None:
        self._open: dict[tuple, Alert] = {}
        self._dismissed: set[tuple] = set()
        self._next_id = 1
        self.raised: list[Alert] = []  # every alert ever raised, in order
        self.ended: list[Alert] = []

    def sync(
        self, findings: Iterable[Finding], at: float, sticky: Iterable[tuple] = ()
    ) -> tuple[list[Alert], list[Alert]]:
        """Make the open alerts match the findings; returns (new, ended).  ``sticky``
        keys stay open even when not found again (event alerts such as a revoke)."""
        found = {f.key: f for f in findings}
        new, ended = [], []
        for key, f in found.items():
            if key in self._open or key in self._dismissed:
                continue
            a = Alert(self._next_id, f.kind, f.text, f.player, f.pad, dict(f.evidence), at, f.holds)
            self._next_id += 1
            self._open[key] = a
            self.raised.append(a)
            new.append(a)
        keep = set(sticky)
        for key in list(self._open):
            if key not in found and key not in keep:
                ended.append(self._open.pop(key))
        self.ended.extend(ended)
        self._dismissed &= set(found) | keep  # a condition that went and comes back alerts again
        return new, ended

    def raise_event(self, f: Finding, at: float) -> Alert:
        """An alert for something that happened (not a lasting condition)."""
        a = Alert(self._next_id, f.kind, f.text, f.player, f.pad, dict(f.evidence), at, f.holds)
        self._next_id += 1
        self._open[("event", a.id) + f.key] = a
        self.raised.append(a)
        return a

    def dismiss(self, alert_id: int) -> Alert | None:
        for key, a in list(self._open.items()):
            if a.id == alert_id:
                del self._open[key]
                if key[0] != "event":
                    self._dismissed.add(key)
                self.ended.append(a)
                return a
        return None

    def end_events(self) -> list[Alert]:
        """A new step: told-once alerts that hold nothing have been seen; close them (not a
        ``LASTING`` one)."""
        ended = [
            self._open.pop(k)
            for k in [k for k, a in self._open.items() if k[0] == "event" and not a.holds and a.kind not in LASTING]
        ]
        self.ended.extend(ended)
        return ended

    def event_keys(self) -> list[tuple]:
        return [k for k in self._open if k[0] == "event"]

    @property
    def open(self) -> list[Alert]:
        return sorted(self._open.values(), key=lambda a: a.id)

    def holds(self, player: str | None) -> bool:
        return any(a.holds and (a.player is None or a.player == player) for a in self._open.values())
