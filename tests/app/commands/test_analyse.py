"""``chicago-table analyse``, run as a real subprocess on the shipped examples."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from table_controller.analysis.timeline import analyse_lines
from tests.rules.script import ANNA_SWEEPS, JUNK, Script

EXAMPLES = Path("table_controller/examples")
CLI = [sys.executable, "-m", "table_controller.app.cli"]


def analyse(*args, input=None):
    return subprocess.run([*CLI, "analyse", *map(str, args)], capture_output=True, text=True, input=input, timeout=300)


def test_broken_chicago_example_r24():
    r = analyse(EXAMPLES / "chicago_broken.jsonl", "--samples", "200")
    assert r.returncode == 0, r.stderr
    assert "Chicago by Anna is broken by Cilla" in r.stdout
    assert "asked for Chicago: Anna's Chicago would be broken by Cilla" in r.stdout
    assert "before exchange 1" in r.stdout and "before exchange 3" in r.stdout


def test_last_trick_two_example_json_r27():
    r = analyse(EXAMPLES / "last_trick_two.jsonl", "--json", "--no-odds")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    v = doc["deals"][0]["verdict"]
    assert v["outcome"] == "last_trick" and v["last_trick"]["card"][0] == "2"
    assert v["values"][v["last_trick"]["player"]] == 10
    assert doc["deals"][0]["odds"] == [] and doc["rejected"] == []


def test_a_play_that_loses_points_is_listed_as_a_blunder():
    # Anna said Chicago with four spades nobody can follow and 9H; Bo holds TH: leading the
    # hearts first or last, Bo breaks it.  Here Bo throws his ten away on a spade lead and
    # the Chicago stands: Bo's card was worth 0 where the ten was worth +10 later on.
    hands = dict(JUNK, Bo="2C 3C 4D TH 8H", Cilla="2D 5C 7C 9C TC")
    s = Script().deal(**hands).adjust("Anna", 20)
    for _ in range(3):
        s.stand()
    s.chicago("Anna", True)
    s.play("Anna AS", "Bo TH", "Cilla 2D", "Dan 3D")
    doc = analyse_lines(s.text(), odds=False)
    d = doc["deals"][0]
    assert d["verdict"]["breaker"] == "Bo"
    assert d["blunders"][0] == {
        "trick": 1,
        "player": "Bo",
        "card": "TH",
        "value": 0,
        "best": 10,
        "loss": True,
        "best_cards": ["8H", "4D", "2C", "3C"],  # card order: ♠ ♥ ♦ ♣
        "before": {"Anna": -15, "Bo": 10, "Cilla": 0, "Dan": 0},
        "after": {"Anna": 15, "Bo": 0, "Cilla": 0, "Dan": 0},
    }


def test_a_clean_sweep_has_no_blunders_r23():
    s = Script().deal(**JUNK).adjust("Anna", 20)
    for _ in range(3):
        s.stand()
    s.chicago("Anna", True).play(*ANNA_SWEEPS)
    doc = analyse_lines(s.text(), odds=False)
    assert doc["deals"][0]["verdict"]["chicago_stands"] is True
    assert doc["deals"][0]["blunders"] == []


def test_bad_input_is_a_clear_error():
    r = analyse("no/such/file.jsonl")
    assert r.returncode == 2 and "kan inte läsa" in r.stderr and "Traceback" not in r.stderr  # cannot read
    r = analyse("-", "--samples", "0", input="")
    assert r.returncode == 2 and "--samples" in r.stderr
    r = analyse("-", input='{"do": "table", "players": ["A", "B", "C"]}\nnot json\n')
    assert r.returncode == 0 and "not valid JSON" in r.stdout


def test_docstring_examples():
    import doctest

    from table_controller.analysis import odds, timeline

    assert doctest.testmod(timeline).failed == 0
    assert doctest.testmod(odds).failed == 0


def test_plays_that_changed_the_result_of_best_play():
    lines = (EXAMPLES / "full_table.jsonl").read_text().splitlines()[:600]
    doc = analyse_lines(lines, odds=False)
    flagged = [b for d in doc["deals"] for b in d["blunders"]]
    assert any(b["loss"] for b in flagged) and any(not b["loss"] for b in flagged)
    for b in flagged:
        assert b["before"] != b["after"]
        assert (b["after"][b["player"]] < b["before"][b["player"]]) == b["loss"]
        assert b["value"] == b["after"][b["player"]] and b["best"] == b["before"][b["player"]]


def test_whether_a_chicago_would_stand_when_the_question_is_asked_r22_r23():
    s = Script().deal(**JUNK).adjust("Anna", 20).adjust("Bo", 20)
    for _ in range(3):
        s.stand()
    s.chicago("Anna", False).chicago("Bo", False)
    d = analyse_lines(s.text(), odds=False)["deals"][0]
    assert d["chicago_options"]["Anna"] == {
        "stands": True,
        "breaker": None,
        "values": {"Anna": 15, "Bo": 0, "Cilla": 0, "Dan": 0},
    }
    assert d["chicago_options"]["Bo"]["stands"] is False
