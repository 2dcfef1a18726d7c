"""Issue 5: the bot run plays "through the virtual table (its default noise model on)":
the default is a mild, realistic model, and bots under it are still sensed exactly."""

from __future__ import annotations

from hardware.virtual import NoiseModel
from hardware.virtual.simtime import run_simulated
from table_controller.rules.replay import replay_document
from table_controller.sim.virtual import bots_on_virtual_table, noise_model
from table_controller.store import TableRecorder
from tests.sensing.helpers import assert_same_game


def test_the_default_noise_is_mild_not_clean():
    default = noise_model("default")
    assert default != NoiseModel.clean() and default == noise_model("mild")
    assert 0 < default.flicker < NoiseModel.rough().flicker and default.missed_scan > 0
    assert default.stack_limit > NoiseModel.rough().stack_limit  # stacks read a few cards at a time


def test_a_few_deals_under_the_default_noise_are_the_bots_game(ram_path):
    log, _ = TableRecorder.resume(ram_path / "t.sqlite")
    try:
        live, shadow, driver = run_simulated(bots_on_virtual_table(seed=9, log=log, max_actions=110, fast=True))
    finally:
        log.close()
    assert len(live.engine.state.games[0].deals) >= 3
    assert_same_game(driver.played, live, shadow)
    assert replay_document(live.engine) == replay_document(shadow)
    assert not [a for a in live.sensing.alerts.open if a.holds]
