"""``chicago-table log check | export | import`` through the real command line."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from table_controller.app.words import phase_word, speaking
from table_controller.store import SQLiteStore
from table_controller.store.rebuild import resume
from tests.store.helpers import record_bot_table

CLI = [sys.executable, "-m", "table_controller.app.cli"]


def run(*args, stdin=None):
    return subprocess.run(CLI + list(map(str, args)), capture_output=True, text=True, input=stdin, timeout=120)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    p = tmp_path_factory.mktemp("cli") / "table.sqlite"
    rec = record_bot_table(p, seed=21, actions=300)
    return p, rec.engine


def test_check_reports_a_sound_log(table):
    p, engine = table
    r = run("log", "check", p, "--lang", "en")
    assert r.returncode == 0, r.stdout + r.stderr
    with speaking("en"):
        phase = phase_word(engine.phase)
    assert "OK" in r.stdout and f"phase {phase}" in r.stdout
    assert "resumes paused" in r.stdout
    doc = json.loads(run("log", "check", p, "--json").stdout)
    assert doc["ok"] and doc["problems"] == []
    assert doc["summary"]["phase"] == engine.phase and doc["counts"]["action"] == 300
    assert doc["last_seq"] == sum(doc["counts"].values())


def test_check_never_writes_the_file(table):
    p, _ = table
    before = p.read_bytes()
    run("log", "check", p)
    assert p.read_bytes() == before


def test_check_and_export_leave_the_folder_as_they_found_it(table, tmp_path):
    """A read-only look at a log in WAL mode made SQLite's -wal and -shm beside it, and
    they stayed (stop 65's audit)."""
    p, _ = table
    copy = tmp_path / "table.sqlite"
    copy.write_bytes(p.read_bytes())
    before = copy.read_bytes()
    assert run("log", "check", copy).returncode == 0
    assert run("log", "export", copy).returncode == 0
    assert run("protocol", copy, "-o", tmp_path / "p.pdf").returncode == 0
    assert sorted(f.name for f in tmp_path.iterdir()) == ["p.pdf", "table.sqlite"]
    assert copy.read_bytes() == before


def test_check_beside_a_running_table_leaves_its_write_ahead_log_alone(table, tmp_path):
    p, _ = table
    copy = tmp_path / "table.sqlite"
    copy.write_bytes(p.read_bytes())
    with SQLiteStore.open(copy) as live:  # the table writing as the official checks
        live.append_one("alert", {"text": "before the check"}, source="test")
        assert run("log", "check", copy).returncode == 0
        assert (tmp_path / "table.sqlite-wal").exists()
        live.append_one("alert", {"text": "after the check"}, source="test")
    doc = json.loads(run("log", "check", copy, "--json").stdout)
    assert doc["ok"] and doc["counts"]["alert"] >= 2


def test_check_of_a_damaged_file_says_so_and_salvage_recovers(tmp_path, table):
    p, _ = table
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(p.read_bytes()[: int(p.stat().st_size * 0.7)])
    r = run("log", "check", damaged, "--salvage", tmp_path / "saved.sqlite", "--lang", "en")
    assert r.returncode == 2
    assert "damaged" in r.stdout and "--salvage" in r.stdout
    assert "salvaged" in r.stdout and "may be lost" in r.stdout
    assert run("log", "check", tmp_path / "saved.sqlite").returncode == 0


@pytest.mark.parametrize("content", [None, b"plain text, not a log\n" * 50])
def test_check_of_a_missing_or_foreign_file_is_a_clear_error(tmp_path, content):
    p = tmp_path / "x.sqlite"
    if content:
        p.write_bytes(content)
    r = run("log", "check", p, "--lang", "en")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr + r.stdout
    assert ("no such file (a table's log was expected)" if content is None else "not a table log") in r.stdout
    r = run("log", "check", p)
    assert r.returncode == 2 and "Traceback" not in r.stderr + r.stdout
    assert ("filen finns inte (ett bords logg väntades)" if content is None else "inte ett bords logg") in r.stdout


def test_export_is_an_action_script_that_replay_accepts(tmp_path, table):
    p, engine = table
    out = tmp_path / "export.jsonl"
    out.write_text("")
    out.chmod(0o644)  # a file that was there, world-readable
    assert run("log", "export", p, "-o", out).returncode == 0
    # every hand and face-down card is in it: owner-only, as the log is (stop 63's second audit)
    assert out.stat().st_mode & 0o077 == 0
    lines = out.read_text().splitlines()
    kinds = {
        ln.split()[1]
        for ln in lines
        if ln.startswith("# ") and ln.split()[1] in ("event", "clock", "sensor", "alert", "audit", "action")
    }
    assert kinds == {"action", "event", "clock", "sensor", "alert", "audit"}
    r = run("replay", out, "--json", "--strict")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    from table_controller.rules.replay import replay_document

    assert doc == json.loads(json.dumps(replay_document(engine)))


def test_export_then_import_gives_the_same_table_and_the_same_records(tmp_path, table):
    p, engine = table
    export = run("log", "export", p).stdout
    r = run("log", "import", "-", "--db", tmp_path / "copy.sqlite", stdin=export)
    assert r.returncode == 0, r.stderr
    copy, clocks = resume(tmp_path / "copy.sqlite")
    assert copy.state.to_dict() == engine.state.to_dict()
    with SQLiteStore.open(p, readonly=True) as a, SQLiteStore.open(tmp_path / "copy.sqlite", readonly=True) as b:
        assert a.read() == b.read()  # same seqs, times, sources, transactions and checksums
    assert clocks is not None and clocks.paused


def test_a_plain_action_script_imports_with_its_events(tmp_path):
    script = os.path.join(os.path.dirname(__import__("table_controller").__file__), "examples", "chicago_won.jsonl")
    r = run("log", "import", script, "--db", tmp_path / "t.sqlite")
    assert r.returncode == 0, r.stderr
    from table_controller.rules.replay import replay_lines

    with open(script) as fh:
        engine, _ = replay_lines(fh.read().splitlines())
    assert resume(tmp_path / "t.sqlite")[0].state.to_dict() == engine.state.to_dict()


def test_import_into_a_new_folder_makes_it_private(tmp_path):
    """The log holds every dealt hand: a new folder is 0700 and the file 0600 (issue 13), so
    ``log import`` then ``serve --data`` over that folder works with nothing made by hand."""
    script = os.path.join(os.path.dirname(__import__("table_controller").__file__), "examples", "chicago_won.jsonl")
    target = tmp_path / "event" / "table7" / "table.sqlite"
    r = run("log", "import", script, "--db", target)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    for f in target.parent.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name


def test_import_refuses_a_doctored_export_and_writes_nothing(tmp_path, table):
    p, _ = table
    lines = run("log", "export", p).stdout.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("# event") and '"awarded"' in ln)
    lines[i] = lines[i].replace('"points": ', '"points": 1', 1)
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    r = run("log", "import", tmp_path / "bad.jsonl", "--db", tmp_path / "t.sqlite")
    # the store's refusal in Swedish by default, as the other commands say theirs
    assert r.returncode == 2 and "de exporterade händelserna skiljer sig" in r.stderr and "Traceback" not in r.stderr
    assert not list(tmp_path.glob("t.sqlite*"))


def test_import_never_overwrites_a_table_file(tmp_path, table):
    p, _ = table
    export = run("log", "export", p).stdout
    (tmp_path / "t.sqlite").write_text("precious")
    r = run("log", "import", "-", "--db", tmp_path / "t.sqlite", "--lang", "en", stdin=export)
    assert r.returncode == 2 and "already exists" in r.stderr
    assert (tmp_path / "t.sqlite").read_text() == "precious"


# Issue 13: a plain script's line that is no action is listed as rejected with its line
# number (as `replay` lists it) and kept as a "rejected" record; the import goes on.
ILL_TYPED = [
    (
        '{"do": "table", "players": ["A", "B", "C"], "options": {"hand_points": {"one_pair": "x"}}}',
        "hand_points.one_pair",
    ),  # first: the good table action follows it
    ('{"do": "table", "players": ["A", "B"', "not valid JSON"),
    ('{"do": "fly"}', "not an action"),
    ('{"do": ["play"]}', "not an action"),
    ('{"do": {}}', "not an action"),
    ('{"do": "adjust", "player": "A", "points": ' + "9" * 4400 + "}", "not valid JSON"),
    ('{"do": "adjust", "player": "A", "points": ' + "9" * 4000 + "}", "whole number"),
    ('{"do": "adjust", "player": "A", "points": true}', "whole number"),
    ('{"do": "play", "player": 7, "card": "AS"}', "player's name"),
    ('{"do": "discard", "player": "A", "cards": "AS"}', "list of cards"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
]


def test_import_lists_ill_typed_lines_as_rejected_and_goes_on(tmp_path):
    script = (
        [ILL_TYPED[0][0], '{"do": "table", "players": ["A", "B", "C"]}']
        + [t for t, _ in ILL_TYPED[1:]]
        + ['{"do": "game", "seats": ["A", "B", "C"], "button": "A"}']
    )
    r = run("log", "import", "-", "--db", tmp_path / "t.sqlite", "--lang", "en", stdin="\n".join(script) + "\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    for n, (_, msg) in zip([1] + list(range(3, len(ILL_TYPED) + 2)), ILL_TYPED):
        line = next(ln for ln in r.stderr.splitlines() if ln.startswith(f"line {n}: rejected:"))
        assert msg in line, line
    assert f"{len(ILL_TYPED)} rejected" in r.stderr
    with SQLiteStore.open(tmp_path / "t.sqlite", readonly=True) as store:
        assert [rec.kind for rec in store.read(kinds=["rejected"])] == ["rejected"] * len(ILL_TYPED)
    engine, _ = resume(tmp_path / "t.sqlite")
    assert engine.phase == "deal"  # the good lines around them were applied
    assert run("log", "check", tmp_path / "t.sqlite").returncode == 0


def test_import_refuses_an_exported_action_that_is_no_action(tmp_path, table):
    p, _ = table
    lines = run("log", "export", p).stdout.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("{") and '"play"' in ln)
    lines[i] = '{"do": ["play"]}'  # under its "# action" header: the export was doctored
    r = run("log", "import", "-", "--db", tmp_path / "t.sqlite", "--lang", "en", stdin="\n".join(lines) + "\n")
    assert r.returncode == 2 and f"line {i + 1}: not an action" in r.stderr and "Traceback" not in r.stderr
    assert not list(tmp_path.glob("t.sqlite*"))


def test_help_explains_each_action():
    for args in (
        ("log", "--help"),
        ("log", "check", "--help"),
        ("log", "export", "--help"),
        ("log", "import", "--help"),
    ):
        r = run(*args)
        assert r.returncode == 0 and len(r.stdout) > 200
    assert "salvage" in run("log", "check", "--help").stdout


def test_a_read_only_look_at_a_hub_or_a_witnessed_log_leaves_no_files_beside_it(table, tmp_path):
    from table_controller.tournament import witness
    from table_controller.tournament.hubstore import HubStore

    hub = tmp_path / "ev.hub"
    assert run("hub", "create", hub, "--event", "sm2026").returncode == 0
    copy = tmp_path / "table.sqlite"
    copy.write_bytes(table[0].read_bytes())
    with HubStore.open(hub, readonly=True) as h:
        assert h.path == hub
    assert witness._rows(copy)  # what log verify --witness reads
    assert sorted(f.name for f in tmp_path.iterdir()) == ["ev.hub", "table.sqlite"]


def test_check_says_no_shot_clock_runs_instead_of_an_empty_list(tmp_path):
    """Stop 72's audit: on a table that was over, ``log check`` printed "shot clocks (record
    22908): ; resumes paused"."""
    from table_controller.store import SQLiteStore, TableRecorder

    p = tmp_path / "t.sqlite"
    rec = TableRecorder(SQLiteStore.open(p, create=True))
    seq = rec.note("clock", {"remaining": {}, "paused": False}, "clocks")  # none running
    rec.store.close()
    r = run("log", "check", p, "--lang", "en")
    assert f"shot clocks (record {seq}): none running" in r.stdout, r.stdout + r.stderr
    r = run("log", "check", p)
    assert f"betänketider (post {seq}): ingen klocka går" in r.stdout, r.stdout + r.stderr


def test_export_and_import_say_what_they_did_in_swedish_unless_asked_for_english(tmp_path, table):
    p, _ = table
    examples = os.path.join(os.path.dirname(__import__("table_controller").__file__), "examples")
    with open(os.path.join(examples, "chicago_won.jsonl")) as fh:
        lines = fh.read().splitlines()
    script = "\n".join([lines[0], '{"do": "fly"}', *lines[1:]]) + "\n"  # line 2 is no action
    said = {}
    for lang in ("sv", "en"):
        r = run("log", "export", p, "-o", tmp_path / f"{lang}.jsonl", "--lang", lang)
        i = run("log", "import", "-", "--db", tmp_path / f"{lang}.sqlite", "--lang", lang, stdin=script)
        assert r.returncode == 0 and i.returncode == 0, r.stderr + i.stderr
        said[lang] = (r.stderr, i.stderr)
    with SQLiteStore.open(p, readonly=True) as store:
        n = store.last_seq()
    with SQLiteStore.open(tmp_path / "sv.sqlite", readonly=True) as store:
        m = store.last_seq()
    assert said["sv"][0] == f"exporterade {n} poster till {tmp_path / 'sv.jsonl'}\n", said["sv"][0]
    assert said["en"][0] == f"exported {n} records to {tmp_path / 'en.jsonl'}\n", said["en"][0]
    sv, en = said["sv"][1].splitlines(), said["en"][1].splitlines()
    assert sv[0].startswith("rad 2: avvisad: ") and en[0].startswith("line 2: rejected: "), (sv, en)
    assert sv[0].split(": ", 2)[2] == en[0].split(": ", 2)[2]  # the rules' reason, as the record keeps it
    assert sv[1:] == [f"importerade {m} poster till {tmp_path / 'sv.sqlite'}; avvisade rader: 1"], sv
    assert en[1:] == [f"imported {m} records into {tmp_path / 'en.sqlite'}, 1 rejected"], en
    # the two exports are the same lines, whatever the language spoken
    assert (tmp_path / "sv.jsonl").read_bytes() == (tmp_path / "en.jsonl").read_bytes()


def test_the_language_is_taken_before_the_action_too_and_every_option_explained(tmp_path):
    """'log --lang en check FILE' as 'log check FILE --lang en' (it was "invalid choice:
    'en'"), the language said before the action not put back by the action's default; and
    verify's --json has its help like every other option."""
    missing = tmp_path / "none.sqlite"
    before, after, swedish = (
        run("log", "--lang", "en", "check", missing),
        run("log", "check", missing, "--lang", "en"),
        run("log", "check", missing),
    )
    assert before.returncode == after.returncode == swedish.returncode == 2
    assert before.stdout == after.stdout and "PROBLEMS FOUND" in before.stdout, before.stdout + before.stderr
    assert "PROBLEM HITTADES" in swedish.stdout
    help_en = run("log", "verify", "--help", "--lang", "en").stdout
    assert "--json          print the comparison as JSON" in help_en
    assert "skriv ut jämförelsen som JSON" in run("log", "verify", "--help").stdout
    r = run("log", "--lang", "en")  # no action: its help, in the language asked for
    assert r.returncode == 2 and "Inspect a table's event log" in r.stdout + r.stderr
