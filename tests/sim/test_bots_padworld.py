"""Bots through the pads: the sensed game equals the bots' game applied directly."""

from __future__ import annotations

import pytest

from table_controller.rules.replay import replay_document
from table_controller.sim.bots import RandomBot
from table_controller.sim.driver import TableDriver
from tests.sensing.helpers import assert_same_game


@pytest.mark.parametrize("seed", [1, 2])
async def test_bot_table_sensed_equals_direct(rig, seed):
    world, live = rig
    driver = TableDriver(live, world, sync_timeout=5)
    shadow = await driver.play(RandomBot(seed).next_action)
    assert shadow.phase == "table_over"
    assert_same_game(driver.played, live, shadow)
    assert replay_document(live.engine) == replay_document(shadow)
    assert not [a for a in live.alerts if a.holds]
