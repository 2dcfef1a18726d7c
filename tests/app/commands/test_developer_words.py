"""The developers' commands (``replay``, ``rules``, ``analyse``, ``deck``, ``link``, ``camera``)
speak Swedish first, English with ``--lang en``, as the officials' commands do
(table_controller/app/words.py): a file that cannot be read, a name that is no ruleset, a port
that is not there, an option out of its range.  Bad input exits 2 in each, the camera too
(it exited 1); what programs read (``--json``) is the same in both languages.  Each runs the
real command line, as a user does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.photo.scene_reader import DEFAULT_MIN_CONFIDENCE

CLI = [sys.executable, "-m", "table_controller.app.cli"]
EXAMPLES = Path(__file__).resolve().parents[3] / "table_controller" / "examples"


def run(*args: object, stdin: str | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, input=stdin, timeout=120)
    assert "Traceback" not in r.stdout + r.stderr, r.stderr
    return r


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("words")
    (d / "log.sqlite").write_bytes(b"SQLite format 3\x00" + bytes(200))  # a table's log where a script goes
    (d / "strict.jsonl").write_text('{"do": "table", "players": ["A", "B", "C"]}\n{"do": "nope"}\n')
    (d / "uids.txt").write_text("04A1B2C3D4E5F6\n04A1B2C3D4E5F7\n")  # 2 UIDs, not 52
    (d / "notes.txt").write_text("not a picture\n")
    return d


# (argv, its Swedish, its English): each said after "chicago-table COMMAND: " on stderr, exit status 2
BAD_INPUT = [
    (
        ["replay", "/nonexistent/x.jsonl"],
        "chicago-table replay: kan inte läsa /nonexistent/x.jsonl: filen eller mappen finns inte",
        "chicago-table replay: cannot read /nonexistent/x.jsonl: no such file or folder",
    ),
    (
        ["replay", "{d}/log.sqlite"],
        "chicago-table replay: {d}/log.sqlite är en SQLite-fil (ett bords logg?), inget åtgärdsskript; "
        "'chicago-table log export {d}/log.sqlite -o FILE.jsonl' skriver en loggs åtgärder som ett",
        "chicago-table replay: {d}/log.sqlite is an SQLite file (a table's log?), not an action script; "
        "'chicago-table log export {d}/log.sqlite -o FILE.jsonl' writes a log's actions as one",
    ),
    (
        ["rules", "nope"],
        "chicago-table rules: okänd regeluppsättning 'nope'; välj en av sm2025, sm2019, shootout, classic",
        "chicago-table rules: unknown ruleset 'nope'; choose one of sm2025, sm2019, shootout, classic",
    ),
    (
        ["rules", "sm2019", "--diff", "sm2019", "poker"],
        "chicago-table rules: antingen en regeluppsättning (sm2019) eller --diff A B, inte båda",
        "chicago-table rules: either a ruleset (sm2019) or --diff A B, not both",
    ),
    (
        ["rules", "--diff", "sm2019", "poker"],
        "chicago-table rules: okänd regeluppsättning 'poker'",
        "chicago-table rules: unknown ruleset 'poker'",
    ),
    (
        ["analyse", "/nonexistent/x.jsonl"],
        "chicago-table analyse: kan inte läsa /nonexistent/x.jsonl: filen eller mappen finns inte",
        "chicago-table analyse: cannot read /nonexistent/x.jsonl: no such file or folder",
    ),
    (
        ["analyse", "{d}/uids.txt", "--no-odds"],
        "chicago-table analyse: inget bord i {d}/uids.txt (den första åtgärden måste vara 'table'); inget att analysera",
        "chicago-table analyse: no table in {d}/uids.txt (the first action must be 'table'); nothing to analyse",
    ),
    (
        ["analyse", "-", "--samples", "0"],
        "chicago-table analyse: fel: argument --samples: ett heltal från 1 och uppåt, inte 0",
        "chicago-table analyse: error: argument --samples: a whole number of 1 or more, not 0",
    ),
    (
        ["deck", "show", "/nonexistent/deck.json"],
        "chicago-table deck: ingen lekfil /nonexistent/deck.json: registrera en med 'chicago-table deck register'",
        "chicago-table deck: no deck file /nonexistent/deck.json: register one with 'chicago-table deck register'",
    ),
    (
        ["deck", "register", "--uids", "{d}/uids.txt", "--out", "{d}/deck.json"],
        "chicago-table deck: 2 UID:n lästa för 52 kort: läs varje kort en gång, i ordning",
        "chicago-table deck: 2 UIDs scanned for 52 cards: scan each card once, in order",
    ),
    (
        ["deck", "check", "{d}/deck.json", "--port", "/dev/no-such-port"],
        "chicago-table deck: ingen port '/dev/no-such-port'; ",
        "chicago-table deck: no port '/dev/no-such-port'; ",
    ),
    (
        ["link", "monitor", "/dev/no-such-port"],
        "chicago-table link: ingen port '/dev/no-such-port'; ",
        "chicago-table link: no port '/dev/no-such-port'; ",
    ),
    (
        ["link", "monitor", "/dev/null", "--duration", "-1"],
        "chicago-table link: --duration måste vara mer än 0 sekunder",
        "chicago-table link: --duration must be more than 0 seconds",
    ),
    (
        ["link", "selftest", "/dev/null", "--stack", "40"],
        "chicago-table link selftest: --stack: 1 till 16 taggar",
        "chicago-table link selftest: --stack: 1 to 16 tags",
    ),
    (
        ["camera", "read", "/nonexistent/table.jpg"],
        "chicago-table camera read: /nonexistent/table.jpg: filen finns inte",
        "chicago-table camera read: /nonexistent/table.jpg: no such file",
    ),
    (
        ["camera", "read", "{d}/notes.txt"],
        "chicago-table camera read: {d}/notes.txt: ingen bild som går att avkoda",
        "chicago-table camera read: {d}/notes.txt: not a picture that can be decoded",
    ),
    (
        ["camera", "read", "{d}/notes.txt", "--min-confidence", "1.5"],
        "chicago-table camera read: fel: argument --min-confidence: 1.5 ligger inte mellan 0 och 1",
        "chicago-table camera read: error: argument --min-confidence: 1.5 is not between 0 and 1",
    ),
    (
        ["camera", "calibrate", "--image", "/nonexistent/felt.png"],
        "chicago-table camera: kan inte läsa bilden /nonexistent/felt.png: filen finns inte",
        "chicago-table camera: cannot read picture /nonexistent/felt.png: no such file",
    ),
    (
        ["camera", "view", "--source", "0", "--calibration", "/nonexistent/cal.json"],
        "chicago-table camera: kan inte läsa kalibreringen /nonexistent/cal.json: filen eller mappen finns inte; "
        "gör en med 'chicago-table camera calibrate'",
        "chicago-table camera: cannot read calibration /nonexistent/cal.json: no such file or folder; "
        "make one with 'chicago-table camera calibrate'",
    ),
]


@pytest.mark.parametrize(("argv", "sv", "en"), BAD_INPUT, ids=lambda x: " ".join(x) if isinstance(x, list) else "")
def test_bad_input_is_said_in_swedish_unless_asked_for_english_and_exits_2(argv, sv, en, files):
    argv = [a.format(d=files) for a in argv]
    swedish = run(*argv)
    assert swedish.returncode == 2, swedish.stderr
    assert sv.format(d=files) in swedish.stderr, swedish.stderr
    english = run(*argv, "--lang", "en")
    assert english.returncode == 2, english.stderr
    assert en.format(d=files) in english.stderr, english.stderr


@pytest.mark.parametrize(
    ("argv", "sv", "en"),
    [
        (
            ["camera"],
            "välj ett underkommando: calibrate, view eller read",
            "choose a subcommand: calibrate, view or read",
        ),
        (["link"], "säg vad som ska göras, till exempel", "say what to do, e.g."),
    ],
)
def test_a_command_without_its_action_says_what_to_do_in_the_language_asked(argv, sv, en):
    """--lang before the action: the command's own (``camera --lang en``)."""
    swedish, english = run(*argv), run(*argv, "--lang", "en")
    assert (swedish.returncode, english.returncode) == (2, 2)
    assert sv in swedish.stderr and en in english.stderr, (swedish.stderr, english.stderr)


def test_the_language_may_come_before_the_action_or_after_it(files):
    before = run("deck", "--lang", "en", "show", "/nonexistent/deck.json")
    after = run("deck", "show", "/nonexistent/deck.json", "--lang", "en")
    assert before.stderr == after.stderr and "no deck file" in after.stderr
    assert (before.returncode, after.returncode) == (2, 2)


def test_strict_stops_in_the_words_spoken_with_the_documents_reason_as_it_is(files):
    """The reason is the replay document's (REPLAY.md's English); the line around it is said."""
    swedish, english = (
        run("replay", files / "strict.jsonl", "--strict"),
        run("replay", files / "strict.jsonl", "--strict", "--lang", "en"),
    )
    assert (swedish.returncode, english.returncode) == (1, 1)
    assert swedish.stderr.startswith("rad 2: nope avvisad: unknown action 'nope'; 'do' is one of: table,")
    assert english.stderr.startswith("line 2: nope rejected: unknown action 'nope'; 'do' is one of: table,")
    assert swedish.stderr.count("\n") == english.stderr.count("\n") == 1
    assert swedish.stdout == english.stdout  # the protocol as text: the rules' words


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", EXAMPLES / "draw_stop.jsonl", "--json"],
        ["replay", "{d}/strict.jsonl", "--json", "--strict"],
        ["rules", "sm2019", "--json"],
        ["rules", "--diff", "sm2019", "sm2025", "--json"],
        ["analyse", EXAMPLES / "last_trick_two.jsonl", "--json", "--no-odds"],
        ["camera", "read", "/nonexistent/table.jpg", "{d}/notes.txt", "--json"],
    ],
    ids=lambda a: " ".join(str(x).rsplit("/", 1)[-1] for x in a),
)
def test_what_programs_read_is_the_same_in_both_languages(argv, files):
    argv = [str(a).format(d=files) for a in argv]
    swedish, english = run(*argv), run(*argv, "--lang", "en")
    assert swedish.returncode == english.returncode
    assert swedish.stdout == english.stdout and json.loads(swedish.stdout) is not None
    if argv[0] == "camera":  # the errors in the document in English, as ever; bad input: 2
        assert swedish.returncode == 2
        errors = [e["error"] for e in json.loads(swedish.stdout)["images"]]
        assert errors[0] == "/nonexistent/table.jpg: no such file", errors


def test_the_rules_table_is_headed_in_the_words_spoken():
    swedish, english = run("rules", "classic"), run("rules", "classic", "--lang", "en")
    assert "classic: Det klassiska hemmaspelet (pagat.com)" in swedish.stdout and "parameter" in swedish.stdout
    assert "värde" in swedish.stdout
    assert "classic: The classic home game (pagat.com)" in english.stdout and "value" in english.stdout
    diff = run("rules", "--diff", "sm2019", "sm2025")
    assert "sm2019 mot sm2025:" in diff.stdout and "parametrar skiljer sig" in diff.stdout


# Every option with a default says it, in the words spoken: (argv of the help, the option's line's words)
DEFAULTS = [
    (["analyse"], ("stickprov per oddsberäkning (standard 2000)", "slumpfrö för oddsens stickprov (standard 0)")),
    (["rules"], ("regeluppsättningen som ska visas (standard sm2025)",)),
    (["deck", "register"], ("(skrivs på larm; standard deck)", "(standard: ingen)")),
    (["deck", "check"], ("hur länge den läses (standard 120)",)),
    (["link", "monitor"], ("(standard: tills Ctrl-C)", "räknas som borta (standard 2)")),
    (
        ["link", "selftest"],
        ("testhögen (standard 5)", "(standard 10)", "scan_ms (standard 20)", "(standard 60)", "(standard: alla)"),
    ),
    (
        ["camera", "calibrate"],
        ("(standard 1280)", "(standard 720)", "(standard 30)", "(standard camera-calibration.png)"),
    ),
    (["camera", "view"], ("(standard camera-view.png)", "(standard 0: till slutet", "förnyelser (standard 0.5)")),
    (["camera", "read"], (f"(0..1, standard {DEFAULT_MIN_CONFIDENCE})",)),
]


@pytest.mark.parametrize(("argv", "words"), DEFAULTS, ids=lambda x: " ".join(x) if isinstance(x[0], str) else "")
def test_each_options_help_says_its_default_in_the_words_spoken(argv, words):
    swedish, english = run(*argv, "--help"), run(*argv, "--help", "--lang", "en")
    assert (swedish.returncode, english.returncode) == (0, 0)
    help_text = " ".join(swedish.stdout.split())  # argparse's line breaks aside
    for w in words:
        assert w in help_text, (w, swedish.stdout)
    assert "användning: chicago-table" in swedish.stdout and "usage: chicago-table" in english.stdout
    assert "(standard" not in english.stdout and "default" in english.stdout
