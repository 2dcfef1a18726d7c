"""Bots through the virtual table: the real firmware logic on simulated readers, the
serial bridge, sensing, the rules and the SQLite log.  In simulated time (issue 15: the
firmware on the loop's timers, the line in memory, time jumping to the next timer), but
for one short table over a real pseudo-terminal in real time (marked ``realtime``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hardware.virtual.simtime import run_simulated
from table_controller.rules.replay import replay_document
from table_controller.sim.bots import play_table
from table_controller.sim.virtual import FAST_EPOCH, bots_on_virtual_table
from table_controller.store import TableRecorder
from tests.sensing.helpers import assert_same_game


def test_bots_on_a_rough_virtual_table_are_sensed_exactly(ram_path):
    log, _ = TableRecorder.resume(ram_path / "t.sqlite")
    try:
        live, shadow, driver = run_simulated(
            bots_on_virtual_table(seed=11, log=log, noise="rough", max_actions=120, fast=True)
        )
        assert len(driver.played) >= 120
        assert_same_game(driver.played, live, shadow)
        assert not [a for a in live.sensing.alerts.open if a.holds]
    finally:
        log.close()


@pytest.mark.realtime
async def test_bots_on_a_rough_virtual_table_in_real_time_over_a_pty(tmp_path):
    """The real-time table (the demo's): firmware thread, pseudo-terminal, wall clock."""
    log, _ = TableRecorder.resume(tmp_path / "t.sqlite")
    try:
        live, shadow, driver = await bots_on_virtual_table(seed=11, log=log, noise="rough", max_actions=40)
        assert len(driver.played) >= 40
        assert_same_game(driver.played, live, shadow)
    finally:
        log.close()


FAST_RUN = [
    sys.executable,
    "-m",
    "table_controller.app.cli",
    "run",
    "--virtual",
    "--bots",
    "--until-done",
    "--fast",
    "--json",
    "--seed",
    "5",
    "--quiet",
]


def test_run_virtual_bots_until_done_fast_prints_the_replay_document_byte_identical(ram_path):
    """A whole three-game table, no manual help, in simulated time (issue 15): the JSON
    equals the bots' game replayed directly through the rules (the bots decide on their own
    engine: same seed, same game), under the virtual table's default (mild) noise as issue 5
    asks.  Run twice, each with its own SQLite log: the same bytes, and the same log (its
    records stamped on the simulated clock), exported byte for byte."""
    db, db2 = ram_path / "table.sqlite", ram_path / "again" / "table.sqlite"
    db2.parent.mkdir()
    first = subprocess.run([*FAST_RUN, "--db", str(db)], capture_output=True, timeout=300)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([*FAST_RUN, "--db", str(db2)], capture_output=True, timeout=300)
    assert second.returncode == 0, second.stderr
    assert first.stdout == second.stdout
    exports = [
        subprocess.run([*FAST_RUN[:3], "log", "export", str(f)], capture_output=True, timeout=300) for f in (db, db2)
    ]
    assert exports[0].returncode == 0 and exports[0].stdout == exports[1].stdout
    first_record = json.loads(exports[0].stdout.splitlines()[1].split(b" ", 2)[2])
    assert FAST_EPOCH <= first_record["time"] < FAST_EPOCH + 60  # a new --fast table's log starts there
    doc = json.loads(first.stdout)
    assert doc == replay_document(play_table(seed=5))
    assert doc["table"]["finished"] and len(doc["games"]) == 3 and doc["rejected"] == []
    # the log on disk replays to the same table
    from table_controller.store.recorder import TableRecorder

    rec, _ = TableRecorder.resume(db, create=False)
    try:
        assert replay_document(rec.engine) == doc
    finally:
        rec.store.close()


def test_run_refuses_bad_combinations_without_a_traceback(tmp_path):
    for args, msg in (
        (["--port", "/dev/null", "--bots"], "virtual"),
        (["--virtual", "--until-done"], "--bots"),
        (["--virtual", "--bots", "--players", "Anna"], "players"),
        (["--virtual", "--fast"], "--bots"),
    ):
        out = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "run", *args], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 2 and msg in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "name",
    [
        "open_card_declined.jsonl",
        "revoke.jsonl",
        "chicago_broken.jsonl",
        "player_dealer_error.jsonl",
        "stub_reshuffled.jsonl",
    ],
)
def test_example_scripts_on_a_rough_virtual_table(name):
    from pathlib import Path

    from table_controller.rules.replay import replay_lines
    from tests.sensing.test_scripted_games import EXAMPLES, script_actions

    text = (Path(EXAMPLES) / name).read_text()
    live, shadow, driver = run_simulated(
        bots_on_virtual_table(seed=2, noise="rough", script=script_actions(text), fast=True)
    )
    assert_same_game(driver.played, live, shadow)
    _, doc = replay_lines(text.splitlines())
    doc["rejected"] = []
    assert replay_document(live.engine) == doc
