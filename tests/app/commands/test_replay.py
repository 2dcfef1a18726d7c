"""The ``chicago-table replay`` contract (REPLAY.md), run as a real subprocess."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted(Path("table_controller/examples").glob("*.jsonl"))
CLI = [sys.executable, "-m", "table_controller.app.cli"]


def replay(path, *flags, input=None):
    return subprocess.run([*CLI, "replay", str(path), *flags], capture_output=True, text=True, input=input, timeout=120)


def test_there_are_at_least_ten_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_replays_with_the_documented_keys(path):
    r = replay(path, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc) >= {"ruleset", "games", "table", "current", "rejected"}
    for g in doc["games"]:
        assert set(g) >= {
            "number",
            "finished",
            "winner",
            "scores",
            "said_chicago",
            "won_chicagos",
            "out_without_chicago",
            "places",
            "placement_points",
            "deals",
        }
        for d in g["deals"]:
            assert set(d) >= {"number", "button", "scores_after", "awards"}
            for a in d["awards"]:
                assert set(a) == {"player", "points", "reason", "moment"}
    assert set(doc["table"]) >= {"finished", "standings"}
    assert set(doc["current"]) >= {"game", "deal", "phase", "to_act", "scores"}
    expected_rejections = 1 if path.stem.startswith("draw_stop") else 0
    assert len(doc["rejected"]) == expected_rejections, doc["rejected"]


def test_text_output_is_the_protocol(tmp_path):
    r = replay("table_controller/examples/chicago_won.jsonl")
    assert r.returncode == 0
    assert "(Anna)*" in r.stdout  # circled name and a star (r10)
    assert "||||/" in r.stdout  # tally marks in fences of five (r9)


def test_malformed_lines_are_rejected_with_line_numbers(tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text(
        "\n".join(
            [
                '{"do": "table", "players": ["A", "B", "C"]}',
                "# a comment",
                "",
                '{"do": "game", "seats": ["A", "B", "C"], "button": "C"',
                '{"do": "fly", "player": "A"}',
                '{"do": "game", "seats": ["A", "B", "C"], "button": "C"}',
                '{"do": "discard", "player": "A", "cards": ["XX"]}',
                "[1, 2]",
                '{"do": "deal", "hands": {"A": ["AS", "KS", "QS", "JS", "TS"], "B": ["2C", "3C", "4C", "5C", "6C"], "C": ["2D", "3D", "4D", "5D", "6D"]}}',
            ]
        )
        + "\n"
    )
    r = replay(script, "--json")
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    lines = [(x["line"], x["action"]) for x in doc["rejected"]]
    assert lines == [(4, "?"), (5, "fly"), (7, "discard"), (8, "?")]
    assert "not valid JSON" in doc["rejected"][0]["reason"]
    assert "unknown action 'fly'" in doc["rejected"][1]["reason"]
    assert "unknown card 'XX'" in doc["rejected"][2]["reason"]
    assert doc["current"]["phase"] == "exchange_1"


def test_strict_stops_at_the_first_rejection(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text(
        '{"do": "table", "players": ["A", "B", "C"]}\n{"do": "nope"}\n'
        '{"do": "game", "seats": ["A", "B", "C"], "button": "C"}\n'
    )
    r = replay(script, "--json", "--strict")
    assert r.returncode == 1
    assert "rad 2" in r.stderr  # line 2, said in Swedish (--lang en: English)
    assert json.loads(r.stdout)["games"] == []


def test_unknown_ruleset_is_a_clear_rejection(tmp_path):
    script = tmp_path / "r.jsonl"
    script.write_text('{"do": "table", "ruleset": "poker", "players": ["A", "B", "C"]}\n')
    doc = json.loads(replay(script, "--json").stdout)
    assert "unknown ruleset 'poker'" in doc["rejected"][0]["reason"]
    assert "sm2025" in doc["rejected"][0]["reason"]


def test_missing_file_is_a_clear_error():
    r = replay("/nonexistent/x.jsonl")
    assert r.returncode == 2 and "kan inte läsa" in r.stderr and "Traceback" not in r.stderr  # cannot read


def test_stdin_is_read_with_a_dash():
    text = Path("table_controller/examples/last_trick_two.jsonl").read_text()
    r = replay("-", "--json", input=text)
    assert json.loads(r.stdout)["games"][0]["scores"]["Anna"] == 10


def test_help_explains():
    r = subprocess.run([*CLI, "replay", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--strict" in r.stdout and "åtgärdsskript" in r.stdout  # action script


def test_output_into_a_closed_pipe_is_not_an_error():
    r = subprocess.run(
        f"{sys.executable} -m table_controller.app.cli replay table_controller/examples/full_table.jsonl --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in r.stderr and r.stdout.startswith("{")


def test_ill_typed_lines_are_rejected_with_line_numbers_never_a_traceback(tmp_path):
    # Issue 13: each of these crashed replay (or a later action) with a traceback
    bad = [
        (
            '{"do": "table", "players": ["A", "B", "C"], "options": {"hand_points": {"one_pair": "x"}}}',
            "hand_points.one_pair",
        ),
        ('{"do": ["play"]}', "unknown action"),
        ('{"do": {}}', "unknown action"),
        ('{"do": "play", "player": ["A"], "card": "AS"}', "player's name"),
        ('{"do": "play", "player": "A", "card": [[["AS"]]]}', "a card is a text"),
        ('{"do": "receive", "player": "A", "cards": {"AS": 1}}', "list of cards"),
        ('{"do": "adjust", "player": "A", "points": ' + "7" * 4300 + "}", "whole number"),
        ('{"do": "adjust", "player": "A", "points": ' + "7" * 4400 + "}", "not valid JSON"),
        ('{"do": "adjust", "player": "A", "points": 2.5}', "whole number"),
        ('{"do": "chicago", "player": "A", "say": 1}', "true or false"),
        ('{"do": "penalty", "player": "A", "kind": "warning", "reason": {"r": 26}}', "'reason' must be a text"),
        ('{"do": "deal", "hands": {"A": "AS KS QS JS TS"}}', "'hands'"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "nested too deeply"),
    ]
    script = tmp_path / "ill.jsonl"
    script.write_text(
        "\n".join(
            [bad[0][0], '{"do": "table", "players": ["A", "B", "C"]}']
            + [t for t, _ in bad[1:]]
            + ['{"do": "game", "seats": ["A", "B", "C"], "button": "C"}']
        )
        + "\n"
    )
    r = replay(script, "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    got = {x["line"]: x["reason"] for x in doc["rejected"]}
    assert sorted(got) == [1] + list(range(3, len(bad) + 2))
    for line, (_, msg) in zip(sorted(got), bad):
        assert msg in got[line], (line, got[line])
        assert len(got[line]) < 300  # the reason names the field, never echoes the value
    assert doc["current"]["phase"] == "deal"
    r = replay(script, "--strict")
    assert r.returncode == 1 and "rad 1: table avvisad" in r.stderr and "Traceback" not in r.stderr


def test_a_line_is_what_ends_at_a_line_feed_and_a_bad_line_costs_only_itself(tmp_path):
    """Stop 63's replay audit: one byte that is not UTF-8 made the whole file unreadable
    (exit 2, nothing on stdout), a U+2028 inside a JSON string cut its line in two and moved
    every later line's number, NaN was taken as a number, and a byte-order mark made line 1
    "not valid JSON". Now: the bad line alone is rejected with its number; lines end at
    LF, CR or CRLF only (a raw control character such as a form feed is no JSON inside a
    string: its line is rejected, as one line); NaN and Infinity are no JSON; a BOM at
    the start is skipped."""
    lines = [
        b'{"do": "table", "players": ["A", "B", "C"]}',
        b'{"do": "game", "seats": ["A", "B", "C"], "button": "C"}',
        b'{"do": "adjust", "player": "A", "points": 3, "reason": "sum \xe2\x80\xa8 line \xc2\x85 x"}',
        b'{"do": "adjust", "player": "B", "points": 2, "reason": "\xc5 is Latin-1"}',
        b'{"do": "adjust", "player": "C", "points": 1, "x": NaN}',
        b'{"do": "adjust", "player": "C", "points": 1, "x": -Infinity}',
        b'{"do": "fly"}',
        b'{"do": "adjust", "player": "B", "points": 2, "reason": "a raw \x0c form feed"}',  # no JSON: one line
    ]
    for name, data in (
        ("lf", b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n"),
        ("crlf", b"\r\n".join(lines)),
        ("cr", b"\r".join(lines) + b"\r"),
    ):
        script = tmp_path / f"{name}.jsonl"
        script.write_bytes(data)
        r = replay(script, "--json")
        assert r.returncode == 0, (name, r.stderr)
        doc = json.loads(r.stdout)
        got = [(x["line"], x["action"], x["reason"]) for x in doc["rejected"]]
        assert got == [
            (4, "?", "not valid JSON: the line is not UTF-8 text"),
            (5, "?", "not valid JSON: NaN is no JSON value"),
            (6, "?", "not valid JSON: -Infinity is no JSON value"),
            (7, "fly", got[-2][2]),
            (8, "?", "not valid JSON: Invalid control character at column 63"),
        ], (name, got)
        # line 3 (U+2028 and U+0085 inside its string) went in whole; the rest changed nothing
        assert doc["current"]["scores"] == {"A": 3, "B": 0, "C": 0} and doc["ruleset"] == "sm2025", name


def test_cards_outside_the_notation_and_half_characters_are_rejected_lines_never_a_crash(tmp_path):
    """REPLAY.md: "Cards use the notation of RULES.md §2 (AS, TD, 2C)", and a line that is
    not valid JSON is rejected with its line number while the replay goes on.  Stop 71's
    audit: "10S", "ks" or " QS " in a deal were taken (the dashboard's reader forgives them
    to people typing), and a lone \\ud800 escape (JSON decodes it, no text can hold it)
    crashed the document half written."""
    seats = '"seats": ["A", "B", "C"], "button": "C"'
    deal = '{"do": "deal", "hands": {"A": [%s, "KS", "QS", "JS", "9H"], "B": ["2C", "3C", "4C", "5D", "7D"], "C": ["8H", "8D", "6S", "6C", "TD"]}}'
    script = tmp_path / "s.jsonl"
    script.write_text(
        "\n".join(
            [
                '{"do": "table", "players": ["A", "B", "C"]}',
                '{"do": "nope\\ud800"}',  # an unknown action, and half a character in its name
                '{"do": "game", ' + seats + ', "note": "\\udfff"}',
                '{"do": "game", ' + seats + "}",
                deal % '"10S"',
                deal % '"as"',
                deal % '" AS"',
                deal % '"AS"',
                '{"do": "discard", "player": "A", "cards": ["9h"]}',
                '{"do": "discard", "player": "A", "cards": ["9H"]}',
                '{"do": "chicago", "player": "A\\ud83d\\ude00", "say": false}',  # a whole pair: a character
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    r = replay(script, "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    doc = json.loads(r.stdout)
    lines = {x["line"]: x for x in doc["rejected"]}
    assert sorted(lines) == [2, 3, 5, 6, 7, 9, 11], doc["rejected"]
    for n in (2, 3):
        assert lines[n]["action"] == "?" and "lone surrogate" in lines[n]["reason"]
    for n, card in ((5, "'10S'"), (6, "'as'"), (7, "' AS'"), (9, "'9h'")):
        assert lines[n]["reason"].startswith(card + " is not a card in the notation of RULES.md §2"), lines[n]
    assert "surrogate" not in lines[11]["reason"], lines[11]  # judged by the rules, not refused as text
    assert doc["current"]["phase"] == "exchange_1"  # lines 8 and 10 went in
    strict = replay(script, "--json", "--strict")
    assert strict.returncode == 1 and "rad 2" in strict.stderr and json.loads(strict.stdout)["games"] == []
    text = replay(script)  # the protocol as text: written whole too
    assert text.returncode == 0 and "Traceback" not in text.stderr, text.stderr
