"""The one role filter: what each audience may see (ARCHITECTURE.md §3-4).

    >>> sight("revisor").hands, sight("broadcast").hands, sight("tl", {"Bo"}).hands
    (frozenset(), None, frozenset({'Bo'}))

``sight`` is the only place that decides, role by role, what leaves the process; ``for_role``
applies that decision to a view model, ``views.history`` to the deal's events.  Hidden cards
(hands, face-down discards, hand names) go to the broadcast (which the dashboard delays and
holds until their deal has ended at the live table: ``TableView.hidden_deal``) and to the TL
only for hands revealed on request; a seat's role (a player's own phone) sees the hand of the
player sitting there and no other.  Unknown roles see what the public sees.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from table_controller.sensing.alerts import TL_ONLY, Alert, card_free_text

from .model import TableView
from .redact import without_cards
from .refusals import Refusal

# The one list of roles (the tokens, the pages, the filter), in the order views are listed.
ROLES = ("tl", "revisor", "public", "broadcast", "dealer")
# A player's own phone, one token per seat of the table (seat N: the game's N-th seat, pad
# seatN): on a camera-only table each player declares their own hand (README "Security").
SEATS = ("seat1", "seat2", "seat3", "seat4")


def seat_number(role: str) -> int | None:
    """``"seat2"`` -> 2; None for a role that is not a seat's.

    >>> seat_number("seat2"), seat_number("revisor")
    (2, None)
    """
    return SEATS.index(role) + 1 if role in SEATS else None


@dataclass(frozen=True, slots=True)
class Sight:
    """What one audience may see."""

    role: str  # as named in its messages
    hands: frozenset[str] | None  # whose hidden cards it sees; None: everybody's (the broadcast)
    alerts: bool  # the open alerts
    blind: bool  # alert texts that do not tell where a card is (the Revisor)
    signed: bool  # the protocols' signatures and the Revisor's confirmed awards
    revealed: bool  # which hands are revealed (the TL)
    typed_reasons: bool = False  # the TL's typed reasons as typed (one may name a card)

    def shows_hand(self, player: str | None) -> bool:
        return self.hands is None or player in self.hands

    def refusal(self, why: Refusal) -> str:
        """A refused entry's reason as this audience is told it (the answer to its post):
        never with a card.  A card a refusal names may be hidden, and even the TL sees a
        hidden card only by a reveal, which is logged (ARCHITECTURE.md §3)."""
        return why.text(cards=False)

    def words(self, text: str, card: str = "(kort)") -> str:
        """Words the TL typed (a penalty's reason), as this audience may read them: as typed
        by the TL; for the rest with every card code made ``card``, since a reason typed
        during a deal ("showed AS") may tell where a hidden card is (README "Security")."""
        return text if self.typed_reasons else without_cards(text, card)


def sight(
    role: str, revealed: Iterable[str] = frozenset(), *, masked: bool = False, seated: str | None = None
) -> Sight:
    """What ``role`` may see; ``revealed``: the hands the TL asked to see (logged, §3),
    shown to the TL alone whoever passes them.
    ``masked``: the broadcast frame of a deal still in progress live, as the public sees it.
    ``seated``: for a seat's role, the player sitting there now: that one hand and no other.

    >>> sight("seat2", {"Bo"}, seated="Cilla").hands, sight("seat2").hands
    (frozenset({'Cilla'}), frozenset())
    """
    if role in SEATS:  # a player's own phone: their own hand, nothing else hidden, no alerts
        return Sight(role, frozenset({seated}) if seated else frozenset(), False, True, False, False)
    if role == "broadcast":
        return Sight("broadcast", frozenset() if masked else None, False, False, False, False)
    if role == "tl":
        return Sight("tl", frozenset(revealed), True, False, True, True, typed_reasons=True)
    if role == "revisor":  # a player (r5): never a hidden card
        return Sight("revisor", frozenset(), True, True, True, False)
    return Sight(role, frozenset(), False, False, False, False)  # public, dealer, anything else


@dataclass(frozen=True, slots=True)
class ShownAlert:
    """An alert as one role is shown it: no evidence, no card."""

    id: int | str  # sensing's as "s<id>": its ids are sensing's own; a blind role's opaque (``blind_alert_id``)
    kind: str
    text: str
    resolved: bool
    player: str | None = None
    pad: str | None = None
    text_sv: str | None = None
    seq: int | None = None
    sensing: bool = False

    def to_dict(self) -> dict[str, Any]:
        if self.sensing:
            return {
                "id": self.id,
                "kind": self.kind,
                "player": self.player,
                "pad": self.pad,
                "text": self.text,
                "resolved": self.resolved,
            }
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "text_sv": self.text_sv,
            "seq": self.seq,
            "resolved": self.resolved,
        }


# A blind role sees an alert's id as an opaque tag: the ids count records and sensing's
# alerts, and both count hidden things too (a TL-only revoke alert, its record), so the
# gap between two ids told the Revisor that a revoke had happened (stop 64's fourth audit).
# The key is this process's own: a restart gives the open alerts new tags.
_ALERT_KEY = secrets.token_bytes(16)


def blind_alert_id(a: Alert) -> str:
    """``a``'s id as a blind role sees it: "s" (sensing) or "t" and 12 hex digits."""
    tag = hmac.new(_ALERT_KEY, f"{a.origin}:{a.id}".encode(), hashlib.sha256).hexdigest()[:12]
    return ("s" if a.origin == "sensing" else "t") + tag


def tl_only(a: Alert) -> bool:
    """Whether alert ``a`` is the TL's alone: a TL-only kind, or the TL's own refused entry
    (the TL enters hidden cards, and whether such an entry was refused may turn on where a
    card lies: stop 66's second twin-table audit)."""
    return a.kind in TL_ONLY or (a.kind == "rejected" and a.source == "tl")


def alert_shown(a: Alert, seen: Sight) -> bool:
    """Whether ``seen`` is shown alert ``a`` at all: a blind role none of the TL's alone."""
    return not (seen.blind and tl_only(a))


def shown_alert(a: Alert, seen: Sight) -> ShownAlert:
    if a.origin == "sensing":  # its text names the evidence's cards: the kind and place only
        sid = blind_alert_id(a) if seen.blind else f"s{a.id}"
        return ShownAlert(sid, a.kind, card_free_text(a), False, a.player, a.pad, sensing=True)
    blind = seen.blind and a.blind_text is not None
    text = a.blind_text if blind else a.text
    assert text is not None
    return ShownAlert(
        blind_alert_id(a) if seen.blind else a.id,
        a.kind,
        text,
        a.resolved,
        text_sv=(a.blind_sv if blind else a.text_sv) or text,
        seq=a.seq,
    )


@dataclass(frozen=True, slots=True)
class RoleView:
    """A view model as one role may see it; the dashboard serialises it as it is."""

    sight: Sight
    state: TableView
    alerts: tuple[ShownAlert, ...] | None = None
    signed: Mapping[str, tuple[str, ...]] | None = None
    revealed: tuple[str, ...] | None = None
    confirmed: tuple[str, ...] | None = None

    def message(self, table: str, at: float | None) -> dict[str, Any]:
        """The WebSocket message ``{"type": "state", ...}``."""
        msg: dict[str, Any] = {
            "type": "state",
            "table": table,
            "role": self.sight.role,
            "seq": self.state.seq,
            "at": at,
            "paused": self.state.paused,
            "state": self.state.to_dict(),
        }
        if self.alerts is not None:
            msg["alerts"] = [a.to_dict() for a in self.alerts]
        if self.signed is not None:
            msg["signed"] = {g: list(who) for g, who in self.signed.items()}
        if self.confirmed is not None:
            msg["confirmed"] = list(self.confirmed)
        if self.revealed is not None:
            msg["revealed"] = list(self.revealed)
        return msg


def for_role(
    view: TableView,
    role: str,
    revealed: Iterable[str] = frozenset(),
    *,
    masked: bool = False,
    holder: str | None = None,
) -> RoleView:
    """``view`` as ``role`` may see it (``sight``): hidden cards only where it may see them,
    alerts, signatures and reveals only for the roles that have them.  ``holder``: for a
    seat's role, the player its link belongs to (wherever they sit now); without it, the
    player sitting at that seat now."""
    n = seat_number(role)
    seated = holder or next((p.name for p in view.players if n is not None and p.seat == n), None)
    seen = sight(role, revealed, masked=masked, seated=seated)
    players = tuple(p if seen.shows_hand(p.name) else p.without_hidden() for p in view.players)
    state = view.seen(players)
    return RoleView(
        seen,
        state,
        alerts=tuple(shown_alert(a, seen) for a in view.alerts if alert_shown(a, seen)) if seen.alerts else None,
        signed=view.signed if seen.signed else None,
        revealed=tuple(sorted(seen.hands or ())) if seen.revealed else None,
        confirmed=view.confirmed if seen.signed else None,
    )
