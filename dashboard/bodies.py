"""Request bodies of the dashboard's POST routes, as pydantic models (issue 13 item 5).

Every field has a type and a bound; anything else is a clear 422 before the hub sees it.
``/api/action`` takes one REPLAY.md action: the models mirror its table (``do`` picks the
model), strict (``"1"`` is not a number, ``1`` is not a name) and closed (an unknown field
is an error, so junk never reaches the table's log).  Whether the rules allow an action
is still the engine's business; the points of ``adjust``/``penalty`` are bounded by the
server's ``max_points`` in the route (``serve --max-points``).

    >>> ACTION.validate_python({"do": "play", "player": "Anna", "card": "AS"}).card
    'AS'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

MAX_PLAYERS = 8
MAX_CARDS = 13  # more than any hand or exchange; the engine says what is legal
HARD_POINTS = 1_000_000  # no int beyond this is even read; the server's bound is lower

Name = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"\S")]
Card = Annotated[str, StringConstraints(max_length=5, pattern=r"^\s*(?:10|[2-9TJQKAtjqka])[SHDCshdc]\s*$")]
Cards = Annotated[list[Card], Field(max_length=MAX_CARDS)]
Reason = Annotated[str, StringConstraints(max_length=500)]
Points = Annotated[int, Field(ge=-HARD_POINTS, le=HARD_POINTS)]
# A whole ruleset restated as options is about 1 kB of JSON; the options' values are the
# engine's to check, but their size is bounded here: a rejected action is logged whole, so
# 60 kB of junk options once went into the table's log with every refused post.
MAX_OPTIONS_BYTES = 4096


def _options_small(options: dict[str, Any]) -> dict[str, Any]:
    size = len(json.dumps(options, separators=(",", ":")))
    if size > MAX_OPTIONS_BYTES:
        raise ValueError(
            f"the options take {size} bytes of JSON; at most {MAX_OPTIONS_BYTES} (a whole ruleset is 1 kB)"
        )
    return options


Options = Annotated[
    dict[Annotated[str, StringConstraints(max_length=40)], Any], Field(max_length=64), AfterValidator(_options_small)
]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TableBody(Body):
    do: Literal["table"]
    players: Annotated[list[Name], Field(min_length=1, max_length=MAX_PLAYERS)]
    ruleset: Annotated[str, StringConstraints(max_length=20)] = "sm2025"
    dealer: Literal["dedicated", "player"] | None = None
    options: Options | None = None


class GameBody(Body):
    do: Literal["game"]
    seats: Annotated[list[Name], Field(min_length=1, max_length=MAX_PLAYERS)]
    button: Name


class DealBody(Body):
    do: Literal["deal"]
    hands: Annotated[dict[Name, Cards], Field(min_length=1, max_length=MAX_PLAYERS)]


class DiscardBody(Body):
    do: Literal["discard"]
    player: Name
    cards: Cards = []


class OpenBody(Body):
    do: Literal["open"]
    player: Name
    card: Card
    take: bool


class ReceiveBody(Body):
    do: Literal["receive"]
    player: Name
    cards: Cards


class QuadsBody(Body):
    do: Literal["quads"]
    player: Name
    choice: Literal["zero", "points"]


class ChicagoBody(Body):
    do: Literal["chicago"]
    player: Name
    say: bool


class PlayBody(Body):
    do: Literal["play"]
    player: Name
    card: Card


class RetractBody(Body):
    do: Literal["retract"]
    player: Name


class TimeoutBody(Body):
    do: Literal["timeout"]
    player: Name
    clock: Literal["exchange", "chicago", "quads", "play"]


class TimeCallBody(Body):
    do: Literal["time_call"]
    player: Name


class PenaltyBody(Body):
    do: Literal["penalty"]
    player: Name
    kind: Literal["warning", "sit_out_deal", "sit_out_game", "last_place", "no_placement", "points"]
    points: Points | None = None
    reason: Reason = ""


class AdjustBody(Body):
    do: Literal["adjust"]
    player: Name
    points: Points
    reason: Reason = ""


ActionBody = Annotated[
    TableBody
    | GameBody
    | DealBody
    | DiscardBody
    | OpenBody
    | ReceiveBody
    | QuadsBody
    | ChicagoBody
    | PlayBody
    | RetractBody
    | TimeoutBody
    | TimeCallBody
    | PenaltyBody
    | AdjustBody,
    Field(discriminator="do"),
]
ACTION: TypeAdapter[Any] = TypeAdapter(ActionBody)


class HandBody(Body):
    """A hand declared on a camera-only table: the five cards; ``seat`` only from the TL
    (a seat's token declares its own seat's hand: ``dashboard.entry``)."""

    cards: Annotated[list[Card], Field(min_length=5, max_length=5)]
    seat: Annotated[int, Field(ge=1, le=4)] | None = None


class ExchangeBody(Body):
    """The cards a player places, or receives, face down in an exchange on a camera-only
    table (``dashboard.seat_exchange``); ``seat`` only from the TL."""

    cards: Annotated[list[Card], Field(max_length=5)]
    seat: Annotated[int, Field(ge=1, le=4)] | None = None


class OwnPlayBody(Body):
    """A card a player plays from their own hand on their phone (a camera-only table:
    the camera missed it; ``dashboard.entry``)."""

    card: Card


class CorrectBody(Body):
    text: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ReasonBody(Body):
    reason: Reason = ""


class CallTimeBody(Body):
    player: Name


class RevealBody(Body):
    player: Name
    reason: Reason


class SignBody(Body):
    game: Annotated[int, Field(ge=1, le=1000)]


class ConfirmBody(Body):
    """A scoring moment's awards, as the Revisor confirms them: the game, the deal, the moment."""

    game: Annotated[int, Field(ge=1, le=1000)]
    deal: Annotated[int, Field(ge=1, le=1000)]
    moment: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,19}$")]


class VoidBody(Body):
    ruling: Annotated[int, Field(ge=0, le=2**62)]  # the audit record's seq
    reason: Reason
