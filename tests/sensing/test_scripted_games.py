"""Scripted physical games: each example action script, played as physical moves on the
pads, is recovered by sensing as exactly the same actions and scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table_controller.rules.actions import parse_action
from table_controller.rules.replay import replay_document, replay_lines
from table_controller.sim.driver import TableDriver

from .helpers import assert_same_game

EXAMPLES = Path(__file__).resolve().parents[2] / "table_controller" / "examples"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.jsonl"))


def script_actions(text: str):
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            try:
                yield parse_action(json.loads(line))
            except ValueError:
                continue


@pytest.mark.parametrize("name", SCRIPTS)
async def test_example_script_played_on_the_pads(rig, name):
    world, live = rig
    text = (EXAMPLES / name).read_text()
    driver = TableDriver(live, world, sync_timeout=3)
    shadow = await driver.play(script=script_actions(text))
    assert_same_game(driver.played, live, shadow)
    direct, doc = replay_lines(text.splitlines())
    doc["rejected"] = []
    assert replay_document(live.engine) == doc
    # a take-back is said by the player or the TL: the pads never take a card back (stop 67)
    assert {s for s, a in live.accepted if a.to_dict()["do"] == "retract"} <= {"tl"}
