"""Actions: what happens at the table, one per line of an action script (REPLAY.md).

    >>> a = parse_action({"do": "discard", "player": "Anna", "cards": ["AS", "7D"]})
    >>> a.to_dict()
    {'do': 'discard', 'player': 'Anna', 'cards': ['AS', '7D']}

Every action is a frozen value with a JSON round trip.  ``parse_action`` checks the
shape of a line (fields, types, card notation); whether the rules allow it is the
engine's business.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, cast

from table_controller.rules.cards import Card, parse_cards
from table_controller.rules.errors import ActionError, CardError


@dataclass(frozen=True, slots=True)
class Action:
    do: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None and f.default is None:
                continue
            out[f.name] = _jsonable(v)
        return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, Card):
        return v.code
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


@dataclass(frozen=True, slots=True)
class TableStart(Action):
    do: ClassVar[str] = "table"
    players: tuple[str, ...]
    ruleset: str = "sm2025"
    dealer: str | None = None
    options: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class GameStart(Action):
    do: ClassVar[str] = "game"
    seats: tuple[str, ...]
    button: str


@dataclass(frozen=True, slots=True)
class Deal(Action):
    do: ClassVar[str] = "deal"
    hands: Mapping[str, tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Discard(Action):
    do: ClassVar[str] = "discard"
    player: str
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class OpenCard(Action):
    do: ClassVar[str] = "open"
    player: str
    card: Card
    take: bool


@dataclass(frozen=True, slots=True)
class Receive(Action):
    do: ClassVar[str] = "receive"
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class QuadsChoice(Action):
    do: ClassVar[str] = "quads"
    player: str
    choice: str


@dataclass(frozen=True, slots=True)
class ChicagoAnswer(Action):
    do: ClassVar[str] = "chicago"
    player: str
    say: bool


@dataclass(frozen=True, slots=True)
class Play(Action):
    do: ClassVar[str] = "play"
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class Retract(Action):
    do: ClassVar[str] = "retract"
    player: str


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    """A shot clock ran out (D12).  ``cards``, for the exchange clock only: the cards the
    player had placed when it ran out, which they exchange (a live table's pads know them;
    an action script may give them).  None, as REPLAY.md's ``timeout``: nothing placed."""

    do: ClassVar[str] = "timeout"
    player: str
    clock: str
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class TimeCall(Action):
    do: ClassVar[str] = "time_call"
    player: str


@dataclass(frozen=True, slots=True)
class Penalty(Action):
    """A TL decision (RULES.md §11).  For kind ``points``, ``points`` is the size of the
    deduction: a penalty always deducts, so 5 and -5 both take 5 points away (``adjust``
    adds).  At most ``tl_points_limit`` (200 by default); the score floor at 0 (r19)
    still applies, and the ``awarded`` event keeps the points asked beside those applied."""

    do: ClassVar[str] = "penalty"
    player: str
    kind: str
    points: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Adjust(Action):
    """A TL score correction: signed points, non-zero, at most ``tl_points_limit`` (200
    by default) either way."""

    do: ClassVar[str] = "adjust"
    player: str
    points: int
    reason: str = ""


ACTIONS: dict[str, type[Action]] = {
    cls.do: cls
    for cls in (
        TableStart,
        GameStart,
        Deal,
        Discard,
        OpenCard,
        Receive,
        QuadsChoice,
        ChicagoAnswer,
        Play,
        Retract,
        Timeout,
        TimeCall,
        Penalty,
        Adjust,
    )
}

CLOCKS = ("exchange", "chicago", "quads", "play")
PENALTY_KINDS = ("warning", "sit_out_deal", "sit_out_game", "last_place", "no_placement", "points")


# Issue 13: every field is type-checked and bounded here, so ill-typed input (a list for
# "do", an int of 4,300 digits, true for a number, a deeply nested value) is a clear
# ActionError, never a crash further in; no message echoes a raw value at length.
MAX_NAME = 100
MAX_REASON = 500
MAX_POINTS = 1_000_000  # the rules bound TL points far tighter (tl_points_limit)


def shown(v: Any) -> str:
    """A value for an error text: short, never the repr of a huge or nested value."""
    if isinstance(v, bool) or v is None:
        return {True: "true", False: "false", None: "null"}[v]
    if isinstance(v, int):
        return str(v) if abs(v) < 10**12 else "a huge number"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return repr(v[:20] + ("..." if len(v) > 20 else ""))
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
    return f"a {type(v).__name__}"


def _name(obj: Mapping[str, Any], key: str) -> str:
    v = obj.get(key)
    if not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME:
        raise ActionError(f"'{key}' must be a player's name (text of 1..{MAX_NAME} characters)")
    return v


def _bool(obj: Mapping[str, Any], key: str) -> bool:
    v = obj.get(key)
    if not isinstance(v, bool):
        raise ActionError(f"'{key}' must be true or false")
    return v


def _int(obj: Mapping[str, Any], key: str) -> int:
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ActionError(f"'{key}' must be a whole number")
    if abs(v) > MAX_POINTS:
        raise ActionError(f"'{key}' must be a whole number from -{MAX_POINTS:,} to {MAX_POINTS:,}".replace(",", " "))
    return v


def _text(obj: Mapping[str, Any], key: str) -> str:
    v = obj.get(key, "")
    if not isinstance(v, str) or len(v) > MAX_REASON:
        raise ActionError(f"'{key}' must be a text of at most {MAX_REASON} characters")
    return v


def _names(obj: Mapping[str, Any], key: str) -> tuple[str, ...]:
    v = obj.get(key)
    if (
        not isinstance(v, list)
        or len(v) > 16
        or not all(isinstance(x, str) and x.strip() and len(x) <= MAX_NAME for x in v)
    ):
        raise ActionError(f"'{key}' must be a list of player names")
    if len(set(v)) != len(v):
        raise ActionError(f"'{key}' names a player twice")
    return tuple(v)


def _cards(obj: Mapping[str, Any], key: str, default: Any = ...) -> tuple[Card, ...]:
    if key not in obj and default is not ...:
        return cast("tuple[Card, ...]", default)
    v = obj.get(key)
    if not isinstance(v, list) or len(v) > 52:
        raise ActionError(f'\'{key}\' must be a list of cards like ["AS", "TD"]')
    try:
        cards = parse_cards(v)
    except CardError as exc:
        raise ActionError(str(exc)) from None
    if len(set(cards)) != len(cards):
        raise ActionError(f"'{key}' lists a card twice")
    return cards


def _card(obj: Mapping[str, Any], key: str) -> Card:
    try:
        return Card.parse(obj.get(key))
    except CardError as exc:
        raise ActionError(f"'{key}': {exc}") from None


class _NoConstant(Exception):
    pass


def _no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity are no JSON (RFC 8259), though Python's reader takes them."""
    raise _NoConstant(name)


def load_line(text: str) -> Any:
    """Decode one JSON line; :class:`ActionError` for anything ``json`` cannot read: bad
    syntax, an int of more than 4,300 digits (ValueError) or nesting too deep for the
    parser (RecursionError)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at")  # json's "Invalid control character at"
        raise ActionError(f"not valid JSON: {what} at column {exc.colno}") from None
    except _NoConstant as exc:
        raise ActionError(f"not valid JSON: {exc} is no JSON value") from None
    except RecursionError:
        raise ActionError("not valid JSON: nested too deeply") from None
    except ValueError:  # e.g. "Exceeds the limit (4300 digits) for integer string conversion"
        raise ActionError("not valid JSON: a number is too long") from None


def parse_action(obj: Any) -> Action:
    """Build an action from one decoded JSON line; :class:`ActionError` says what is wrong."""
    if not isinstance(obj, Mapping):
        raise ActionError('a line must be a JSON object like {"do": "play", ...}')
    do = obj.get("do")
    if not isinstance(do, str) or do not in ACTIONS:
        raise ActionError(f"unknown action {shown(do)}; 'do' is one of: {', '.join(ACTIONS)}")
    if do == "table":
        options = obj.get("options")
        if options is not None and not isinstance(options, Mapping):
            raise ActionError("'options' must be an object of ruleset parameters")
        ruleset = obj.get("ruleset", "sm2025")
        if not isinstance(ruleset, str) or len(ruleset) > 40:
            raise ActionError("'ruleset' must be a ruleset's name")
        dealer = obj.get("dealer")
        if dealer not in (None, "dedicated", "player"):
            raise ActionError("'dealer' must be 'dedicated' or 'player'")
        return TableStart(_names(obj, "players"), ruleset, dealer, dict(options) if options else None)
    if do == "game":
        return GameStart(_names(obj, "seats"), _name(obj, "button"))
    if do == "deal":
        hands = obj.get("hands")
        if not isinstance(hands, Mapping) or not hands or len(hands) > 16:
            raise ActionError("'hands' must be an object {name: [5 cards]}")
        out = {}
        for k in hands:
            try:
                name = _name({"player": k}, "player")
                out[name] = _cards(hands, name)
            except ActionError as exc:
                raise ActionError(f"'hands': {exc}") from None
        return Deal(out)
    if do == "discard":
        return Discard(_name(obj, "player"), _cards(obj, "cards", ()))
    if do == "open":
        return OpenCard(_name(obj, "player"), _card(obj, "card"), _bool(obj, "take"))
    if do == "receive":
        return Receive(_name(obj, "player"), _cards(obj, "cards"))
    if do == "quads":
        choice = obj.get("choice")
        if choice not in ("zero", "points"):
            raise ActionError("'choice' must be 'zero' or 'points'")
        return QuadsChoice(_name(obj, "player"), choice)
    if do == "chicago":
        return ChicagoAnswer(_name(obj, "player"), _bool(obj, "say"))
    if do == "play":
        return Play(_name(obj, "player"), _card(obj, "card"))
    if do == "retract":
        return Retract(_name(obj, "player"))
    if do == "timeout":
        clock = obj.get("clock")
        if clock not in CLOCKS:
            raise ActionError(f"'clock' must be one of {', '.join(CLOCKS)}")
        if "cards" in obj and clock != "exchange":
            raise ActionError("'cards' go with the exchange clock only: the cards placed when it ran out (D12)")
        cards = _cards(obj, "cards") if "cards" in obj else None
        return Timeout(_name(obj, "player"), clock, cards or None)
    if do == "time_call":
        return TimeCall(_name(obj, "player"))
    if do == "penalty":
        kind = obj.get("kind")
        if kind not in PENALTY_KINDS:
            raise ActionError(f"'kind' must be one of {', '.join(PENALTY_KINDS)}")
        points = _int(obj, "points") if kind == "points" else None
        return Penalty(_name(obj, "player"), kind, points, _text(obj, "reason"))
    if do == "adjust":
        return Adjust(_name(obj, "player"), _int(obj, "points"), _text(obj, "reason"))
    raise ActionError(f"unknown action {do!r}")  # pragma: no cover
