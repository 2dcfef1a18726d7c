"""The engine's answers as :class:`~table_controller.sensing.TableFacts` (sensing never
imports the engine: it sits below the rules)."""

from __future__ import annotations

from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine
from table_controller.rules.events import OpenCardShown
from table_controller.rules.phases import DealPhase, Phase
from table_controller.rules.queries import retractable

from ..sensing import TableFacts

PADS = ("seat1", "seat2", "seat3", "seat4")


def pads_of(seats) -> dict[str, str]:
    """Seat draw -> pads: the first seat of the game's clockwise order sits at seat1."""
    return {p: PADS[i] for i, p in enumerate(seats)}


def facts_from_engine(engine: Engine) -> TableFacts:
    s = engine.state
    phase = engine.phase
    g = s.game
    if g is None or s.rules is None:
        return TableFacts(phase=phase, step=(0, 0, phase))
    pads = pads_of(g.seats)
    d = g.deal
    if d is None:
        dealt = tuple(g.players_left())
        return TableFacts(
            phase=phase, step=(g.number, len(g.deals), phase), pads=pads, dealt_to=dealt if phase is Phase.DEAL else ()
        )
    stub = frozenset(d.stub)
    owed = sum(d.awaiting.values())
    drawable = stub | frozenset(d.discards_earlier) if len(stub) < max(owed, 1) else stub
    open_next = frozenset(
        p for p, n in d.awaiting.items() if n == 1 and len(d.placed.get(p, ())) == 1 and p not in d.open_declined
    )
    declined: dict[str, Card] = {}
    if d.open_declined:
        for e in reversed(engine.events):
            if e.type in ("exchange_ended", "deal_started"):
                break
            if isinstance(e, OpenCardShown) and not e.taken and e.player not in declined:
                declined[e.player] = e.card
    pending = retractable(d)
    return TableFacts(
        phase=phase,
        step=(g.number, d.number, d.phase, d.exchange if d.phase is DealPhase.EXCHANGE else 0),
        pads=pads,
        order=tuple(d.in_play()),
        to_act=tuple(engine.to_act()),
        hands={p: frozenset(h) for p, h in d.hands.items()},
        placed={p: tuple(c) for p, c in d.placed.items()},
        awaiting=dict(d.awaiting),
        open_next=open_next,
        declined=declined,
        drawable=drawable,
        stub=stub,
        draw_stop=frozenset(p for p in d.order if engine.at_draw_stop(p)),
        draw_stop_refused=s.rules.draw_stop_attempt == "refuse",
        pending_revoke=pending,
        public=frozenset(c for cards in d.played.values() for c in cards),
    )
