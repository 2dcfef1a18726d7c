"""Issue 15: a seed sweep in simulated time.  Whole bot tables, 4 rulesets x 50 seeds,
half of them under the virtual table's default (mild) noise and half under the rough one
(the noise alternates with seed and ruleset, so both noises meet every ruleset).  Every
table must finish with nothing rejected, be sensed as the bots played it, and its sensor
log must replay (a fresh sensing machine and engine, no table, no clock) to the same game.

One table is one test (xdist spreads them over the cores).  A table takes 4-10 s of CPU
(the board's own pace, a scan every 20 ms; rough ones the most: a thick tray stack read
two cards a scan), so the whole sweep is about 21 min of CPU and is asked for by name; the
suite plays one seed per ruleset:

    CHICAGO_SWEEP_SEEDS=50 .venv/bin/python -m pytest -n 2 -m slow tests/sim/test_seed_sweep.py
"""

from __future__ import annotations

import os

import pytest

from hardware.virtual.simtime import run_simulated
from table_controller.live.sensor_replay import SensorReplay
from table_controller.rules.replay import replay_document
from table_controller.rules.rulesets import RULESETS
from table_controller.sim.virtual import bots_on_virtual_table
from table_controller.store import TableRecorder
from tests.sensing.helpers import assert_same_game

SEEDS = int(os.environ.get("CHICAGO_SWEEP_SEEDS", "1"))
NOISES = ("default", "rough")
RULESET_NAMES = sorted(RULESETS)
TABLES = [(ruleset, seed) for ruleset in RULESET_NAMES for seed in range(1, SEEDS + 1)]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, seed", TABLES, ids=[f"{r}-{s}" for r, s in TABLES])
def test_a_whole_table_in_simulated_time_is_sensed_and_replays(ruleset, seed):
    noise = NOISES[(seed + RULESET_NAMES.index(ruleset)) % 2]
    log = TableRecorder.in_memory()
    live, shadow, driver = run_simulated(
        bots_on_virtual_table(seed=seed, log=log, noise=noise, ruleset=ruleset, fast=True)
    )
    assert shadow.phase == "table_over" and live.engine.phase == "table_over", (noise, live.engine.phase)
    assert live.rejected == [], live.rejected[:3]
    assert_same_game(driver.played, live, shadow)
    doc = replay_document(live.engine)
    assert doc["table"]["finished"] and doc["rejected"] == []

    replay = SensorReplay()
    for r in log.records():
        replay.record(r.kind, dict(r.data), r.source)
    assert [(s, a.to_dict()) for s, a in replay.accepted] == [(s, a.to_dict()) for s, a in live.accepted]
    assert replay_document(replay.engine) == doc
