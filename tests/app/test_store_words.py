"""A table log that cannot be read (missing, damaged, not a table's) is said to the official
in the console's language: Swedish first, English with ``--lang en``
(table_controller/app/words.py: ``said_error``).  The store raises its errors worded
(their English text and what goes in it), and the console says them from its catalogue;
SQLite's common messages too (``sqlite_words``), a rare one in its own words."""

from __future__ import annotations

import errno
import json
import logging
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from table_controller.app.cli import main
from table_controller.app.commands.hub import Said
from table_controller.app.words import said_error, speaking
from table_controller.rules.errors import Phrase
from table_controller.rules.rulesets import ClockError
from table_controller.store import SQLiteStore, StoreCorrupt, StoreError, StoreNotFound
from table_controller.store.check import check_file
from table_controller.tournament.hubstore import HubError
from table_controller.tournament.notes import note
from tests.store.helpers import record_bot_table

CLI = [sys.executable, "-m", "table_controller.app.cli"]
# the store's English, which a Swedish line must not hold (what SQLite says may stay)
ENGLISH = (
    "is damaged",
    "while opening",
    "run 'chicago-table",
    "to recover",
    "not a table log",
    "no such file",
    "was expected",
    "cannot read",
    "checksum",
    "file is not a database",  # SQLite's common words are said too (words.sqlite_words)
    "malformed",
)


def _english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if w in text]


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    """A sound table log, a copy cut short, a file of garbage and one that is not there."""
    folder = tmp_path_factory.mktemp("logs")
    sound = folder / "table.sqlite"
    record_bot_table(sound, seed=5, actions=200)
    data = sound.read_bytes()
    (folder / "truncated.sqlite").write_bytes(data[: len(data) // 2])
    (folder / "garbage.sqlite").write_bytes(b"\x00\x17 not SQLite " * 500)
    return {
        "sound": sound,
        "truncated": folder / "truncated.sqlite",
        "garbage": folder / "garbage.sqlite",
        "missing": folder / "missing.sqlite",
    }


# --- the words function -------------------------------------------------------------


def test_a_worded_error_is_said_from_the_catalogue_with_the_systems_reason_in_it():
    full = StoreError("cannot create {path}: {error}", path="/data/t.sqlite", error=OSError(errno.ENOSPC, "No space"))
    assert str(full) == "cannot create /data/t.sqlite: No space"
    with speaking("sv"):
        assert said_error(full) == "kan inte skapa /data/t.sqlite: disken är full"
    with speaking("en"):
        assert said_error(full) == "cannot create /data/t.sqlite: the disk is full"


def test_a_worded_error_inside_another_and_a_phrase_are_said_too():
    damaged = StoreCorrupt(
        "{path} is damaged ({error}) while {doing}; "
        "run 'chicago-table log check {path} --salvage NEW.sqlite' to recover what is readable",
        path="t.sqlite",
        error="database disk image is malformed",
        doing=Phrase("reading the last seq"),
    )
    outer = HubError("{path}: {error}", path="h1-t1", error=damaged)
    with speaking("sv"):
        said = said_error(outer)
    assert said == (
        "h1-t1: t.sqlite är skadad (database disk image is malformed) vid läsningen av sista postens nummer; "
        "kör 'chicago-table log check t.sqlite --salvage NEW.sqlite' för att rädda det som går att läsa"
    )
    with speaking("en"):
        assert said_error(outer) == str(outer)
    with speaking("sv"):  # a check's problem: a phrase on its own
        assert said_error(Phrase("record {seq}: an event stored without its action", seq=9)) == (
            "post 9: en händelse lagrad utan sin åtgärd"
        )


def test_a_shot_clock_in_a_worded_error_is_said_by_its_own_words():
    refused = HubError(
        "{path}: {error}", path="ev.hub", error=ClockError("shot clock 'x' is given twice", "twice", name="'x'")
    )
    with speaking("sv"):
        assert said_error(refused) == "ev.hub: betänketiden 'x' anges två gånger"


def test_anything_else_is_said_as_it_says_itself_and_a_files_error_with_its_name():
    assert said_error(KeyError("heats")) == "'heats'"
    assert said_error(ValueError("plain words")) == "plain words"
    with speaking("sv"):
        assert said_error(FileNotFoundError(errno.ENOENT, "No such file", "/x.csv")) == (
            "/x.csv: filen eller mappen finns inte"
        )


# --- the console commands -----------------------------------------------------------


@pytest.mark.parametrize("which", ["truncated", "garbage"])
def test_protocol_of_a_damaged_log_says_it_in_swedish_unless_asked_for_english(logs, which, tmp_path):
    path = logs[which]
    argv = ["protocol", str(path), "-o", str(tmp_path / "p.pdf")]
    sv = subprocess.run(CLI + argv, capture_output=True, text=True, timeout=120)
    assert sv.returncode == 2 and "Traceback" not in sv.stderr, sv.stderr
    (line,) = sv.stderr.splitlines()
    assert line.startswith(f"chicago-table protocol: {path}: kan inte läsa bordets logg: {path} är "), line
    assert not _english_in(line), line
    assert ("är skadad" in line and "för att rädda det som går att läsa" in line) or "inte ett bords logg" in line
    en = subprocess.run(CLI + [*argv, "--lang", "en"], capture_output=True, text=True, timeout=120)
    assert en.returncode == 2
    assert f"{path}: cannot read the table log: {path} is " in en.stderr, en.stderr
    assert "is damaged" in en.stderr or "is not a table log" in en.stderr
    assert not tmp_path.joinpath("p.pdf").exists()


def test_log_export_of_a_missing_or_damaged_log_says_it_in_swedish_unless_asked_for_english(logs, capsys):
    for path, sv_words, en_words in (
        (logs["missing"], "filen finns inte (ett bords logg väntades)", "no such file (a table's log was expected)"),
        (logs["truncated"], "är skadad", "is damaged"),
    ):
        assert main(["log", "export", str(path)]) == 2
        out = capsys.readouterr()
        assert out.err.startswith(f"chicago-table log export: {path}"), out.err
        assert sv_words in out.err and not _english_in(out.err), out.err
        assert main(["log", "export", str(path), "--lang", "en"]) == 2
        assert en_words in capsys.readouterr().err


def test_run_on_a_log_that_is_no_table_log_says_it_in_swedish(logs, capsys):
    assert main(["run", "--db", str(logs["garbage"]), "--virtual"]) == 2
    text = capsys.readouterr().err
    assert f"kan inte öppna loggen {logs['garbage']}: {logs['garbage']} är inte ett bords logg" in text, text
    assert not _english_in(text), text


def test_doctors_line_on_a_damaged_log_says_its_problems_in_swedish(logs, tmp_path):
    """doctor says a log that fails its check (check_file's problems) in the words spoken."""
    from types import SimpleNamespace

    from table_controller.app.commands.doctor import _data

    lines: list[str] = []
    report = SimpleNamespace(ok=lines.append, note=lines.append, fail=lines.append)
    (tmp_path / "data").mkdir()
    shutil.copyfile(logs["truncated"], tmp_path / "data" / "table.sqlite")
    with speaking("sv"):
        _data(SimpleNamespace(table=SimpleNamespace(data=str(tmp_path / "data"))), report)
    (line,) = lines
    assert line.startswith("händelseloggen ") and "klarar inte sin kontroll: " in line, line
    assert "är skadad" in line and not _english_in(line), line
    # the check's own report keeps the English (log check's, --json's)
    assert "is damaged" in check_file(tmp_path / "data" / "table.sqlite").problems[0]


def test_a_publishers_note_with_a_store_error_in_it_is_said_in_swedish(logs):
    """``hub publish`` tells its operator a table's log it cannot read (publisher.py: a
    note with the store's error in it): the console's filter says the error in its words."""
    log = logging.getLogger("tests.store_words")
    records: list[logging.LogRecord] = []

    class Lines(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Lines()
    handler.addFilter(Said())
    log.addHandler(handler)
    try:
        with pytest.raises(StoreNotFound) as err:
            SQLiteStore.open(logs["missing"], readonly=True)
        with speaking("sv"):
            note(
                log, logging.WARNING, "{table}: {error}; waiting for the table to start", table="h1-t2", error=err.value
            )
    finally:
        log.removeHandler(handler)
    (record,) = records
    assert (
        record.getMessage()
        == f"h1-t2: {logs['missing']}: filen finns inte (ett bords logg väntades); väntar på att bordet startar"
    )


def test_a_table_whose_log_is_damaged_does_not_start_and_says_why_in_swedish(logs, tmp_path):
    """``serve`` and ``run`` open the table's folder (table_files.open_table): a log there that
    cannot be read stops it with the store's words in the language spoken."""
    from dashboard.errors import DashboardError
    from table_controller.app.table_files import open_table

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copyfile(logs["garbage"], data / "table.sqlite")
    said = {}
    for lang in ("sv", "en"):
        with speaking(lang), pytest.raises(DashboardError) as err:
            open_table(data)
        said[lang] = str(err.value)
        assert said[lang].startswith(f"{data / 'table.sqlite'}: "), said[lang]
    assert "kan inte öppna bordets logg" in said["sv"] and "är inte ett bords logg" in said["sv"], said["sv"]
    assert not _english_in(said["sv"]), said["sv"]
    assert "cannot open the table log" in said["en"] and "is not a table log" in said["en"], said["en"]


# --- log check's own report, and what --salvage kept, in the words spoken ------------

# log check's and --salvage's English, which their Swedish lines must not hold (the
# table's own names, a path, a command and its flags are no English words of it)
REPORT_ENGLISH = (
    "PROBLEMS FOUND",
    "records:",
    "schema version",
    "players ",
    "events",
    "now: game",
    "deal ",
    "phase",
    "waiting for",
    "scores:",
    "shot clocks",
    "resumes paused",
    "none running",
    "record ",
    "action ",
    "alert ",
    "audit ",
    "rejected ",
    "checking",
    "salvag",
    "saved history",
    "stops there because",
    "lost",
    "dropped",
    "readable",
    "could not",
    "cannot be",
    "the end of the log",
    "kept for the TL",
    "is at game",
    "exchange",  # a phase: its code (exchange_3, tricks) or the English word for it
    "trick",
    "dealing",
    "game_",
    "table_over",
    "quads",
) + ENGLISH


def _report_english_in(text: str, *paths: Path) -> list[str]:
    for p in paths:  # the files' own names are no words of the report
        text = text.replace(str(p), "FILE")
    text = text.replace("chicago-table log check FILE --salvage NEW.sqlite", "COMMAND")
    return [w for w in REPORT_ENGLISH if w in text]


def _numbers(text: str, *paths: Path) -> list[str]:
    for p in paths:
        text = text.replace(str(p), "FILE")
    return re.findall(r"\d+", text)


def _log(*argv: object) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "log", *map(str, argv)], capture_output=True, text=True, timeout=120)


def test_log_check_of_a_sound_log_says_its_report_in_swedish_unless_asked_for_english(logs):
    sv = _log("check", logs["sound"])
    assert sv.returncode == 0 and "Traceback" not in sv.stderr, sv.stderr
    said = sv.stdout + sv.stderr
    assert f"{logs['sound']}: OK\n  poster: " in sv.stdout, sv.stdout
    for words in ("åtgärder ", "händelser ", "; schemaversion ", "bord: ", "spelare ", "nu: omgång ", ", giv "):
        assert words in sv.stdout, (words, sv.stdout)
    assert ", fas " in sv.stdout and "poäng: " in sv.stdout and "betänketider (post " in sv.stdout, sv.stdout
    assert sv.stderr.startswith("kontrollerar "), sv.stderr
    assert not _report_english_in(said, logs["sound"]), (_report_english_in(said, logs["sound"]), said)
    en = _log("check", logs["sound"], "--lang", "en")
    assert en.returncode == 0 and en.stderr.startswith("checking "), en.stderr
    assert f"{logs['sound']}: OK\n  records: " in en.stdout and "schema version" in en.stdout, en.stdout
    assert "now: game " in en.stdout and ", phase " in en.stdout and "shot clocks (record " in en.stdout
    # the numbers as the language writes them: a decimal comma in Swedish, else the same
    clocks_sv = sv.stdout.split("betänketider (post ", 1)[1].split("\n", 1)[0]
    clocks_en = en.stdout.split("shot clocks (record ", 1)[1].split("\n", 1)[0]
    assert re.search(r"\d,\d s", clocks_sv) and not re.search(r"\d\.\d", clocks_sv), clocks_sv
    assert re.search(r"\d\.\d s", clocks_en), clocks_en
    assert re.sub(r"(\d),(\d)", r"\1.\2", clocks_sv.replace("startar pausade", "resumes paused")) == clocks_en


def test_log_check_of_a_damaged_log_and_its_salvage_say_their_report_in_swedish(logs, tmp_path):
    damaged = logs["truncated"]
    saved = tmp_path / "saved.sqlite"
    sv = _log("check", damaged, "--salvage", saved)
    assert sv.returncode == 2 and "Traceback" not in sv.stderr, sv.stderr
    lines = sv.stdout.splitlines()
    assert lines[0] == f"{damaged}: PROBLEM HITTADES", lines
    assert lines[1].startswith(f"  problem: {damaged} är skadad"), lines
    assert any(ln.startswith("räddade ") and f" poster ur {damaged} till {saved} (post 1.." in ln for ln in lines)
    assert any(ln.startswith("den räddade historiken slutar där eftersom: ") for ln in lines), lines
    assert "kan ha gått förlorade och hur många är okänt" in sv.stdout, sv.stdout
    assert lines[-1].startswith("det räddade bordet står i omgång "), lines
    assert sv.stderr.splitlines() == [f"kontrollerar {damaged} ...", f"räddar till {saved} ..."], sv.stderr
    said = sv.stdout + sv.stderr
    paths = (Path(f"{saved}.dropped.jsonl"), damaged, saved)
    assert not _report_english_in(said, *paths), (_report_english_in(said, *paths), said)

    saved_en = tmp_path / "saved-en.sqlite"
    en = _log("check", damaged, "--salvage", saved_en, "--lang", "en")
    assert en.returncode == 2, en.stderr
    assert en.stdout.startswith(f"{damaged}: PROBLEMS FOUND\n  problem: {damaged} is damaged"), en.stdout
    assert "salvaged " in en.stdout and "the saved history stops there because: " in en.stdout, en.stdout
    assert "may be lost and how many is unknown" in en.stdout and "the saved table is at game " in en.stdout
    # the same salvage said twice: as many lines, the same numbers
    assert len(en.stdout.splitlines()) == len(lines)
    assert _numbers(en.stdout, damaged, saved_en) == _numbers(sv.stdout, damaged, saved)
    # what it saved is a sound log, said so in Swedish too
    again = _log("check", saved)
    assert again.returncode == 0 and again.stdout.startswith(f"{saved}: OK\n"), again.stdout


def test_log_checks_json_is_the_same_in_both_languages(logs, tmp_path):
    for which in ("sound", "truncated", "missing"):
        out = {lang: _log("check", logs[which], "--json", "--lang", lang) for lang in ("sv", "en")}
        assert out["sv"].returncode == out["en"].returncode == (0 if which == "sound" else 2), which
        assert out["sv"].stdout == out["en"].stdout, which  # byte for byte
        doc = json.loads(out["sv"].stdout)
        assert doc["ok"] is (which == "sound")
        if which != "sound":  # the problems in English, as programs read them
            assert "is damaged" in doc["problems"][0] or "no such file" in doc["problems"][0], doc
    # with --salvage the JSON report is as it was, and the salvage's lines go to stderr
    out = {
        lang: _log("check", logs["truncated"], "--json", "--salvage", tmp_path / f"{lang}.sqlite", "--lang", lang)
        for lang in ("sv", "en")
    }
    assert out["sv"].stdout == out["en"].stdout and json.loads(out["sv"].stdout)["ok"] is False
    assert "räddade " in out["sv"].stderr and "salvaged " in out["en"].stderr
