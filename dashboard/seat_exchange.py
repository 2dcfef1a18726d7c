"""A player's own exchange on a camera-only table (issue 13 item 1: ``dashboard.entry``).

On a table without readers the cards a player places (face down) and the cards a player
receives (face down) are hidden from everyone else, the Revisor included, so each player
enters their own on their phone (a seat's token, ``POST /api/exchange``).  The open card
(face up) and the plays stay with the Revisor and the camera.

- Placing: judged at once against the player's own hand and the public facts (the count
  limit, draw stop): the answer depends on nothing another player holds.
- Receiving: held until every player owed cards has entered theirs and no open card is
  still to be shown; then the exchange's replacements are tried together on a copy of the
  table and entered in turn order only if all of them go in (all or nothing).  The answer
  to every well-formed entry is one answer; a conflict goes to the TL as an alert and
  every player owed cards enters theirs again.

    >>> step_of(None) is None
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from table_controller.rules.engine import Engine
from table_controller.rules.phases import DealPhase
from table_controller.rules.queries import all_placed, still_placing

from .i18n import N_

PLACED = N_("Your cards are placed.")
RECEIVED = N_("Your cards are received. They are entered when every player's new cards are in.")
NOT_EXCHANGING = N_("Rejected: cards are placed and received in an exchange, on a table without readers.")
PLACE_REFUSED = N_("Rejected: those cards cannot be placed from your hand now.")
BY_SEATS = N_("Rejected: at this table each player enters their own placed and received cards on their phone.")


@dataclass(frozen=True, slots=True)
class Step:
    """Where an exchange is, from public facts only: who still places, and once all have
    placed, how many cards each player is owed and whose open card is still to be shown."""

    key: tuple[int, int, int]  # game, deal, exchange
    placing: tuple[str, ...]
    owed: dict[str, int]
    open_pending: tuple[str, ...]


def step_of(engine: Engine | None) -> Step | None:
    """The exchange now on, or None (no deal, or the deal is past its exchanges)."""
    if engine is None or not engine.state.games:
        return None
    g = engine.state.games[-1]
    d = g.deal
    if d is None or d.phase is not DealPhase.EXCHANGE:
        return None
    key = (len(engine.state.games), d.number, d.exchange)
    if not all_placed(engine.state, d):
        return Step(key, tuple(still_placing(engine.state, d)), {}, ())
    pending = tuple(
        p for p in d.order if len(d.placed.get(p, ())) == 1 and d.awaiting.get(p) == 1 and p not in d.open_declined
    )
    owed = {p: n for p in d.order if (n := d.awaiting.get(p, 0)) > 0 and p not in pending}
    return Step(key, (), owed, pending)
