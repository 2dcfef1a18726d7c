"""``chicago-table protocol FILE``: the printable protocol of an action script, a replay
document or a table's SQLite log, as a user runs it (a real subprocess).  What the form
shows is tests/dashboard/test_scoresheet.py's."""

from __future__ import annotations

import re
import subprocess
import sys

from dashboard.scoresheet.pdf import scoresheet_pdf
from table_controller.rules.replay import replay_lines
from tests.dashboard.test_scoresheet import EXAMPLES, ROOT, pdf_text


def test_protocol_command_writes_the_pdf(tmp_path):
    out = tmp_path / "p.pdf"
    out.write_text("")
    out.chmod(0o644)  # a file that was there, world-readable
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "table_controller.app.cli",
            "protocol",
            str(EXAMPLES / "chicago_won.jsonl"),
            "-o",
            str(out),
            "--html",
            str(tmp_path / "p.html"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert "35 streck" in pdf_text(out.read_bytes())
    assert "<svg" in (tmp_path / "p.html").read_text()
    # the TL's typed reasons are in it as typed: owner-only, as the log is (stop 64's audit)
    assert out.stat().st_mode & 0o077 == 0 and (tmp_path / "p.html").stat().st_mode & 0o077 == 0


def test_protocol_command_refuses_bad_input_clearly(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for path in (bad, tmp_path / "missing.jsonl"):
        r = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "protocol", str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert r.returncode == 2 and "Traceback" not in r.stderr and "chicago-table protocol:" in r.stderr


def test_protocol_command_reads_a_tables_sqlite_log(tmp_path):
    from table_controller.rules.replay import read_script
    from table_controller.store import SQLiteStore
    from table_controller.store.recorder import TableRecorder

    log = tmp_path / "table7.sqlite"
    recorder = TableRecorder(SQLiteStore.open(log, create=True))
    for _, action in read_script((EXAMPLES / "full_table.jsonl").read_text().splitlines()):
        recorder.apply(action)
    recorder.store.close()
    _, doc = replay_lines((EXAMPLES / "full_table.jsonl").read_text().splitlines())
    out = tmp_path / "p.pdf"
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "protocol", str(log), "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    # the log and the script give the same protocol; the log adds the game's own date and times
    from_log = pdf_text(out.read_bytes()).splitlines()
    from_script = pdf_text(scoresheet_pdf(doc)).splitlines()
    # (the date line moves page breaks: page numbers and continuation headings left out)
    dated = re.compile(r"Datum:|Tid:|\d{4}-\d\d-\d\d|\d\d:\d\d(\u2013\d\d:\d\d)?|Sida \d+|.*\(forts\.\)")
    assert [x for x in from_log if x.strip() and not dated.fullmatch(x.strip())] == [
        x for x in from_script if x.strip() and not dated.fullmatch(x.strip())
    ]
    assert "Datum:" in from_log
    again = tmp_path / "again.pdf"
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "protocol", str(log), "-o", str(again)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0 and again.read_bytes() == out.read_bytes()  # reproducible for the same log
    not_a_log = tmp_path / "x.sqlite"
    not_a_log.write_text("hello")
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "protocol", str(not_a_log)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_protocol_speaks_the_forms_language_on_the_console_and_in_its_html(tmp_path, capsys):
    """The HTML said <title>Protocol</title> with no language and its forms in Swedish
    whatever --lang said; the console said "1 game" and its refusals in English."""
    from table_controller.app.cli import main

    out, html = tmp_path / "p.pdf", tmp_path / "p.html"
    argv = ["protocol", str(EXAMPLES / "chicago_won.jsonl"), "-o", str(out), "--html", str(html), "--table", "Bord 7"]
    assert main(argv) == 0
    assert capsys.readouterr().out == f"{out}: 1 omgång\n"
    page = html.read_text()
    assert page.startswith(
        "<!doctype html><html lang='sv'><meta charset='utf-8'><title>Protokoll \N{EN DASH} Bord 7</title>"
    )
    assert 'lang="sv"' in page and "Omgång" in page
    assert main([*argv, "--lang", "en"]) == 0
    assert capsys.readouterr().out == f"{out}: 1 game\n"
    page = html.read_text()
    assert page.startswith(
        "<!doctype html><html lang='en'><meta charset='utf-8'><title>Protocol \N{EN DASH} Bord 7</title>"
    )
    assert 'lang="en"' in page and "Omgång" not in page
    # a file that is none of a table's: why, in the language spoken
    assert main(["protocol", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err == f"chicago-table protocol: {tmp_path / 'none.jsonl'}: filen finns inte\n"
    assert main(["protocol", str(tmp_path / "none.jsonl"), "--lang", "en"]) == 2
    assert capsys.readouterr().err == f"chicago-table protocol: {tmp_path / 'none.jsonl'}: no such file\n"
