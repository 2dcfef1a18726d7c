"""Issue 15: bots resume a table from its log.  ``run --virtual --bots --db FILE`` on a
file that already holds a table rebuilds the virtual table's physical state from the
log (who holds which cards, what lies on which pad) and plays on to the end."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from hardware.virtual import VirtualTable
from hardware.virtual.simtime import run_simulated
from table_controller.live.facts import pads_of
from table_controller.live.sensor_replay import replay_sensor_log
from table_controller.rules.replay import replay_document
from table_controller.sim.resume import logged_actions, rebuild_table
from table_controller.sim.virtual import bots_on_virtual_table
from table_controller.store import TableRecorder
from table_controller.store.check import check_file


def _actions_in(db) -> int:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as c:
            return c.execute("SELECT count(*) FROM records WHERE kind = 'action'").fetchone()[0]
    except sqlite3.Error:
        return 0  # not created yet


def test_a_sigkilled_fast_bot_table_resumes_with_the_same_command_and_finishes(ram_path):
    db = ram_path / "table.sqlite"
    cmd = [
        sys.executable,
        "-m",
        "table_controller.app.cli",
        "run",
        "--virtual",
        "--bots",
        "--until-done",
        "--fast",
        "--db",
        str(db),
        "--json",
        "--seed",
        "3",
        "--quiet",
    ]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while _actions_in(db) < 700:  # mid-table: in the second game or so
            assert child.poll() is None, child.stderr.read().decode()
            assert time.monotonic() < deadline, "the table did not get going"
            time.sleep(0.02)  # polling a condition (the child's file), not waiting for time
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
        child.stderr.close()
    killed_at = _actions_in(db)
    assert check_file(db).ok

    # a hang is a failure with every task's stack (faulthandler on SIGABRT), not a silent timeout
    rerun = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONFAULTHANDLER": "1"}
    )
    try:
        stdout, stderr = rerun.communicate(timeout=200)
    except subprocess.TimeoutExpired:
        rerun.send_signal(signal.SIGABRT)
        stdout, stderr = rerun.communicate()
        raise AssertionError("the resumed table hung:\n" + stderr.decode(errors="replace")[-4000:]) from None
    out = subprocess.CompletedProcess(cmd, rerun.returncode, stdout, stderr)
    assert out.returncode == 0, out.stderr.decode()
    doc = json.loads(out.stdout)
    assert doc["table"]["finished"] and len(doc["games"]) == 3 and doc["rejected"] == []
    assert _actions_in(db) > killed_at

    check = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "log", "check", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0 and "OK" in check.stdout, check.stdout + check.stderr
    # both processes' sensor records, each with its own sensing machine, replay to the same game
    engine, replayed, _ = replay_sensor_log(db)
    assert replayed == doc


def test_a_stopped_table_resumes_in_process_and_the_rebuilt_pads_are_the_bots_moves(ram_path):
    db = ram_path / "table.sqlite"
    log, _ = TableRecorder.resume(db)
    try:
        first, _, _ = run_simulated(bots_on_virtual_table(seed=8, log=log, max_actions=150, fast=True))
        actions = logged_actions(log)
    finally:
        log.close()
    assert len(actions) >= 150 and first.engine.phase != "table_over"

    # the rebuilt table: every card where the state says, nothing on a pad it should not be
    table = VirtualTable(autostart=False)
    engine, _ = rebuild_table(actions, table)
    assert replay_document(engine) == replay_document(first.engine)
    d = engine.state.deal
    seats = pads_of(engine.state.game.seats)
    if d is not None:
        for player, hand in d.hands.items():
            for card in hand:
                assert table.where(card.code) in (f"hand:{seats[player]}", seats[player]), (player, card)

    log, _ = TableRecorder.resume(db)
    try:
        live, shadow, driver = run_simulated(bots_on_virtual_table(seed=8, log=log, fast=True))
    finally:
        log.close()
    assert live.engine.phase == "table_over" and shadow.phase == "table_over"
    assert replay_document(live.engine) == replay_document(shadow) and not live.rejected


def test_a_timeout_with_cards_placed_is_rebuilt_as_the_cards_lay_d12():
    """D12: a live table's exchange-clock timeout carries the cards that lay placed; a
    table rebuilt from its log puts them where a discard of them would have put them."""
    from table_controller.rules.actions import parse_action

    hands = {
        "Anna": ["AS", "KS", "QS", "JS", "9H"],
        "Bo": ["2C", "3C", "4D", "6D", "8H"],
        "Cilla": ["2D", "5C", "7C", "9C", "TC"],
        "Dan": ["3D", "5D", "7D", "2H", "4H"],
    }
    start = [
        {"do": "table", "players": list(hands)},
        {"do": "game", "seats": list(hands), "button": "Dan"},
        {"do": "deal", "hands": hands},
    ]
    placed = {"Anna": ["9H", "JS"]}

    def rebuilt(anna: dict, last: bool) -> dict:
        others = [{"do": "discard", "player": p, "cards": []} for p in ("Bo", "Cilla", "Dan")]
        lines = [*start, *(others + [anna] if last else [anna, *others])]
        table = VirtualTable(autostart=False)
        engine, _ = rebuild_table([parse_action(x) for x in lines], table)
        assert engine.state.deal.placed["Anna"] == tuple(sorted(engine.state.deal.placed["Anna"]))
        return {c: table.where(c) for cs in hands.values() for c in cs}

    for last in (False, True):
        timeout = rebuilt({"do": "timeout", "player": "Anna", "clock": "exchange", "cards": placed["Anna"]}, last)
        discard = rebuilt({"do": "discard", "player": "Anna", "cards": placed["Anna"]}, last)
        assert timeout == discard, last
        assert timeout["9H"] != "hand:seat1" and timeout["AS"] in ("hand:seat1", "seat1")
