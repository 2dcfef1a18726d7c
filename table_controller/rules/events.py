"""Domain events: the facts the engine has decided.  State is a fold over them.

Each event is a frozen value with a JSON round trip (``to_dict`` / ``event_from_dict``);
card fields hold :class:`Card` values and travel as codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from table_controller.rules.cards import Card


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _out(getattr(self, f.name))
        return out


def _out(v: Any) -> Any:
    if isinstance(v, Card):
        return v.code
    if isinstance(v, (tuple, list)):
        return [_out(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _out(x) for k, x in v.items()}
    return v


def _plain_text(event: Event, name: str) -> None:
    """Keep a field given as a ``Phase``/``Moment`` member as its plain text: an event reads,
    prints and compares the same decided live or read back from the log."""
    v = getattr(event, name)
    if type(v) is not str:
        object.__setattr__(event, name, str(v))


# Fields whose values are cards, by name; everything else is plain JSON.
_CARD = {"card"}
_CARDS = {"cards", "hand"}
_HANDS = {"hands"}


def _in(name: str, v: Any) -> Any:
    if name in _CARD:
        return None if v is None else Card.parse(v)
    if name in _CARDS:
        return tuple(Card.parse(c) for c in v)
    if name in _HANDS:
        return {k: tuple(Card.parse(c) for c in cs) for k, cs in v.items()}
    if isinstance(v, list):
        return tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return v


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    type: ClassVar[str] = "table_opened"
    ruleset: str
    players: tuple[str, ...]
    dealer: str
    options: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    number: int
    seats: tuple[str, ...]
    button: str
    playoff: bool = False


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    type: ClassVar[str] = "deal_started"
    number: int
    button: str
    hands: Mapping[str, tuple[Card, ...]]
    order: tuple[str, ...]  # players in the deal, in turn (left of the button first)
    folded: tuple[str, ...] = ()  # dealt a hand that is folded at once (r35)
    draw_stop: tuple[str, ...] = ()  # players at draw stop for this deal (classic: from its start)


@dataclass(frozen=True, slots=True)
class CardsPlaced(Event):
    type: ClassVar[str] = "cards_placed"
    player: str
    cards: tuple[Card, ...]
    exchange: int


@dataclass(frozen=True, slots=True)
class OpenCardShown(Event):
    type: ClassVar[str] = "open_card_shown"
    player: str
    card: Card
    taken: bool


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    type: ClassVar[str] = "cards_received"
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StubReshuffled(Event):
    """The stub ran out: the discards of earlier exchanges become the new stub (r16)."""

    type: ClassVar[str] = "stub_reshuffled"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealerErred(Event):
    """A dealer error (r14, r15): wrong number of cards, or an open card flashed."""

    type: ClassVar[str] = "dealer_erred"
    dealer: str | None
    player: str
    kind: str  # "wrong_count" or "flashed"
    wrong_cards: int
    cards: tuple[Card, ...] = ()  # a flashed card: seen by all, shuffled back into the stub


@dataclass(frozen=True, slots=True)
class ExchangeEnded(Event):
    type: ClassVar[str] = "exchange_ended"
    exchange: int


@dataclass(frozen=True, slots=True)
class PhaseEntered(Event):
    """The deal moves on: ``exchange`` (with its number), ``quads_choice`` (who chooses),
    ``chicago`` (who is asked, in turn), ``tricks`` (who leads)."""

    type: ClassVar[str] = "phase_entered"
    phase: str
    exchange: int = 0
    players: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _plain_text(self, "phase")


@dataclass(frozen=True, slots=True)
class Awarded(Event):
    """A score change; ``points`` is the change applied (after the floor at 0)."""

    type: ClassVar[str] = "awarded"
    player: str
    points: int
    reason: str
    moment: str
    asked: int = 0  # the points the rule gave, before the floor (protocol detail)

    def __post_init__(self) -> None:
        _plain_text(self, "moment")


@dataclass(frozen=True, slots=True)
class DeductionHeld(Event):
    """D13 (shootout): a point deduction (dealer error, revoke) held until the deal ends."""

    type: ClassVar[str] = "deduction_held"
    player: str
    points: int
    reason: str
    moment: str

    def __post_init__(self) -> None:
        _plain_text(self, "moment")


@dataclass(frozen=True, slots=True)
class DeductionsReleased(Event):
    """D13: the player's held deductions apply now (the ``awarded`` events that follow):
    the deal has ended, or the player could otherwise go out, win or say Chicago."""

    type: ClassVar[str] = "deductions_released"
    player: str


@dataclass(frozen=True, slots=True)
class HandBroken(Event):
    """A player discarded from a hand that scored at the last scoring moment (r17)."""

    type: ClassVar[str] = "hand_broken"
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChicagoMarkCleared(Event):
    """Shootout: a draw-stop attempt also clears the player's said-Chicago mark."""

    type: ClassVar[str] = "chicago_mark_cleared"
    player: str


@dataclass(frozen=True, slots=True)
class QuadsChosen(Event):
    type: ClassVar[str] = "quads_chosen"
    player: str
    choice: str


@dataclass(frozen=True, slots=True)
class ChicagoAnswered(Event):
    type: ClassVar[str] = "chicago_answered"
    player: str
    say: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    player: str
    card: Card
    revoke: bool = False


@dataclass(frozen=True, slots=True)
class CardRetracted(Event):
    type: ClassVar[str] = "card_retracted"
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class RevokeStood(Event):
    """A revoke not corrected in time (r26): sm2025 the hand is dead."""

    type: ClassVar[str] = "revoke_stood"
    player: str
    dead: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    type: ClassVar[str] = "trick_won"
    number: int
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class TrickHeld(Event):
    """A trick complete with a revoke on its last card, held open for a take-back (r26) until
    the next card: written by stop 63's engine only, read in its logs.  It changes nothing.
    Since stop 64 such a trick closes (``TrickWon``) as any trick, and a take-back opens it
    again, so the count of events tells nobody at the next card either."""

    type: ClassVar[str] = "trick_held"
    number: int


@dataclass(frozen=True, slots=True)
class HandFolded(Event):
    """A hand out of the deal: "time" run out (§2.12) or sitting out (r35)."""

    type: ClassVar[str] = "hand_folded"
    player: str
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """52 or more without having said Chicago: the game is lost at once (r21)."""

    type: ClassVar[str] = "player_out"
    player: str


@dataclass(frozen=True, slots=True)
class ViolationRecorded(Event):
    type: ClassVar[str] = "violation_recorded"
    player: str
    clock: str


@dataclass(frozen=True, slots=True)
class PenaltyGiven(Event):
    type: ClassVar[str] = "penalty_given"
    player: str
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    type: ClassVar[str] = "deal_ended"
    number: int
    reason: str  # "played", "zeroed", "game_over"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    number: int
    winner: str | None
    places: Mapping[str, int]
    placement_points: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class GamePlacesRevised(Event):
    """A TL correction after the game ended (r32) placed its players again by the corrected
    scores (§8; the winner stays the winner)."""

    type: ClassVar[str] = "game_places_revised"
    number: int
    places: Mapping[str, int]
    placement_points: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class TableEnded(Event):
    type: ClassVar[str] = "table_ended"
    ranking: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayoffNeeded(Event):
    """Players tied after all games and all tie-breaks: a särspel (r11, D10)."""

    type: ClassVar[str] = "playoff_needed"
    players: tuple[str, ...]
    deals: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        TableOpened,
        GameStarted,
        DealStarted,
        CardsPlaced,
        OpenCardShown,
        CardsReceived,
        StubReshuffled,
        DealerErred,
        ExchangeEnded,
        PhaseEntered,
        Awarded,
        HandBroken,
        ChicagoMarkCleared,
        DeductionHeld,
        DeductionsReleased,
        QuadsChosen,
        ChicagoAnswered,
        CardPlayed,
        CardRetracted,
        RevokeStood,
        TrickWon,
        TrickHeld,
        HandFolded,
        PlayerOut,
        ViolationRecorded,
        PenaltyGiven,
        DealEnded,
        GameEnded,
        GamePlacesRevised,
        TableEnded,
        PlayoffNeeded,
    )
}


class EventError(ValueError):
    """A stored event that cannot be read back."""


def event_from_dict(d: Mapping[str, Any]) -> Event:
    try:
        cls = EVENT_TYPES[d["type"]]
        return cls(**{f.name: _in(f.name, d[f.name]) for f in fields(cls) if f.name in d})
    except (KeyError, TypeError, ValueError) as exc:
        raise EventError(f"unreadable event {dict(d)!r}: {exc}") from None
