"""Camera-only mode (no readers): the open card of a one-card exchange is the face-up
card the camera names on the player's pad; the dealer's *next* takes it, *declined*
declines it (r12), and a sighting below the sensing threshold proposes nothing."""

from __future__ import annotations

import pytest

from table_controller.deck import virtual_deck
from table_controller.live.facts import facts_from_engine
from table_controller.rules.actions import OpenCard
from table_controller.rules.engine import Engine
from table_controller.sensing import Sensing
from table_controller.sensing.camera import MIN_CONFIDENCE
from table_controller.sensor_events import ButtonPressed, CameraPad, CardSighting
from table_controller.sim.bots import RandomBot


def _open_card_moment(seed: int):
    engine, bot = Engine(), RandomBot(seed)
    while not isinstance(action := bot.next_action(engine), OpenCard):
        engine.apply(action)
    return engine, action


@pytest.mark.parametrize("seed", [3, 8, 21])
@pytest.mark.parametrize("take", [True, False])
def test_next_takes_and_declined_declines_the_card_the_camera_sees(seed, take):
    engine, action = _open_card_moment(seed)
    facts = facts_from_engine(engine)
    s = Sensing(virtual_deck(), rfid=False)
    s.sync(facts)
    pad = facts.pad_of(action.player)
    s.observe(CameraPad(2.0, pad, 0, (CardSighting(action.card.code, MIN_CONFIDENCE),)))
    assert s.propose() is None  # nothing before the dealer says
    s.observe(ButtonPressed(2.5, "next" if take else "declined"))
    proposed = s.propose()
    assert proposed == OpenCard(action.player, action.card, take)
    engine.apply(proposed)  # the rules accept it
    assert (action.player in engine.state.deal.open_declined) == (not take)


def test_an_unsure_sighting_or_a_card_on_another_pad_proposes_nothing():
    engine, action = _open_card_moment(3)
    facts = facts_from_engine(engine)
    pad = facts.pad_of(action.player)
    other = next(p for p in ("seat1", "seat2", "seat3", "seat4") if p != pad and p in facts.pads.values())
    for event in (
        CameraPad(2.0, pad, 0, (CardSighting(action.card.code, MIN_CONFIDENCE - 0.05),)),
        CameraPad(2.0, pad, 0, (CardSighting(None, 0.99),)),
        CameraPad(2.0, other, 0, (CardSighting(action.card.code, 0.99),)),
    ):
        s = Sensing(virtual_deck(), rfid=False)
        s.sync(facts)
        s.observe(event)
        s.observe(ButtonPressed(2.5, "next"))
        assert s.propose() is None, event
