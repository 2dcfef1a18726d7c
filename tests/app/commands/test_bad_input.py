"""Bad input to the command line gets a clear error and changes nothing (stop 65's audit of
every command with the slips a user makes): an output named as the command's own input or
as a database, a log where a script goes, an empty or binary script, a port out of range,
a file where a folder goes, a wrong certificate, a ruleset or a player count the table
cannot have.  Each case ran to a traceback, or destroyed its input and said it had done
well, before."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from table_controller.app.cli import main
from tests.store.helpers import record_bot_table

CLI = [sys.executable, "-m", "table_controller.app.cli"]
EXAMPLE = Path(__file__).resolve().parents[3] / "table_controller" / "examples" / "chicago_won.jsonl"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("bad") / "table.sqlite"
    record_bot_table(p, seed=21, actions=60).store.close()
    return p


@pytest.fixture
def hub(tmp_path) -> Path:
    h = tmp_path / "ev.hub"
    assert main(["hub", "create", str(h), "--event", "sm2026"]) == 0
    return h


def said(capsys) -> str:
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return out.out + out.err


@pytest.mark.parametrize(
    "argv",
    [
        ["log", "export", "{log}", "-o", "{log}"],
        ["log", "export", "{log}", "-o", "{other}"],  # another table's log named by mistake
        ["protocol", "{log}", "-o", "{log}"],
        ["protocol", "{log}", "-o", "{tmp}/p.pdf", "--html", "{other}"],
    ],
)
def test_an_output_never_overwrites_the_log_it_reads_nor_any_database(argv, log, tmp_path, capsys):
    other = tmp_path / "other.sqlite"
    other.write_bytes(log.read_bytes())
    before = {p: digest(p) for p in (log, other)}
    args = [a.format(log=log, other=other, tmp=tmp_path) for a in argv]
    assert main(args) == 2
    text = said(capsys)
    assert "är filen som kommandot läser" in text or "är en SQLite-databas" in text, text
    assert {p: digest(p) for p in (log, other)} == before
    assert not (tmp_path / "p.pdf").exists()


def test_no_output_is_written_when_another_cannot_be_and_an_export_cut_short_leaves_the_old_whole(
    log, tmp_path, capsys
):
    """Stop 72's audit: ``protocol -o p.pdf --html /nonexist/p.html`` wrote the PDF and then
    failed; ``log export -o`` stopped by Ctrl-C left a third of a file where a whole export
    had been. Every output's folder is checked before anything is written, and an export is
    put in its place only once whole (owner-only: it holds every hand)."""
    from table_controller.app.outputs import replaced

    assert main(["protocol", str(log), "-o", str(tmp_path / "p.pdf"), "--html", str(tmp_path / "no" / "p.html")]) == 2
    assert f"mappen {tmp_path / 'no'} finns inte" in said(capsys)  # the folder does not exist
    assert not (tmp_path / "p.pdf").exists() and not (tmp_path / "no").exists()
    out = tmp_path / "export.jsonl"
    assert main(["log", "export", str(log), "-o", str(out)]) == 0
    whole = out.read_bytes()
    assert out.stat().st_mode & 0o777 == 0o600 and whole.count(b"\n") > 100
    with pytest.raises(KeyboardInterrupt), replaced(out) as fh:  # Ctrl-C part way through a new export
        fh.write("half a line")
        raise KeyboardInterrupt
    assert out.read_bytes() == whole and sorted(p.name for p in tmp_path.iterdir() if "export" in p.name) == [
        "export.jsonl"
    ]
    assert main(["log", "export", str(log), "-o", str(out)]) == 0  # again: put in place whole
    assert out.read_bytes() == whole and out.stat().st_mode & 0o777 == 0o600


def test_the_hubs_exports_never_overwrite_the_hub(hub, capsys):
    before = digest(hub)
    for argv in (
        ["hub", "export", str(hub), "--pdf", str(hub)],
        ["hub", "export", str(hub), "--csv", str(hub)],
        ["hub", "witness", str(hub), "-o", str(hub)],
    ):
        assert main(argv) == 2, argv
        assert "är filen som kommandot läser" in said(capsys)  # the file this command reads (Swedish first, stop 72)
    assert digest(hub) == before
    assert main(["hub", "standings", str(hub)]) == 0  # still the hub


def test_a_deck_is_never_saved_over_its_uid_list_nor_as_a_folder(tmp_path, capsys):
    uids = tmp_path / "uids.txt"
    uids.write_text("".join(f"04{n:012X}\n" for n in range(52)))
    before = digest(uids)
    assert main(["deck", "register", "--uids", str(uids), "--out", str(uids)]) == 2
    assert "är filen som kommandot läser" in said(capsys)  # the file this command reads (Swedish first, stop 72)
    assert digest(uids) == before
    folder = tmp_path / "decks"
    folder.mkdir()
    assert main(["deck", "register", "--uids", str(uids), "--out", str(folder)]) == 2
    assert "är en mapp" in said(capsys)  # is a folder
    assert sorted(tmp_path.iterdir()) == sorted([uids, folder])  # no half-written file left beside them
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["deck", "register", "--uids", str(binary), "--out", str(tmp_path / "d.json")]) == 2
    assert "är ingen textfil med UID:n" in said(capsys)  # not a text file of UIDs (Swedish first)
    assert not (tmp_path / "d.json").exists()


@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe\x00\x01binary", b'{"do": "game", "seats": ["A"], "button": "A"}\n']
)
def test_analyse_of_a_script_with_no_table_says_so(content, tmp_path, capsys):
    script = tmp_path / "s.jsonl"
    script.write_bytes(content)
    assert main(["analyse", str(script), "--no-odds"]) == 2
    assert "inget bord i" in said(capsys)  # no table in (Swedish first)


@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_a_log_given_for_a_script_is_named_with_the_command_that_exports_it(command, log, capsys):
    assert main([command, str(log)]) == 2
    text = said(capsys)
    assert "är en SQLite-fil (ett bords logg?), inget åtgärdsskript" in text and "log export" in text
    assert "not valid JSON" not in text  # not one refusal per page of the file


@pytest.mark.parametrize("content", [None, b"", b'{"do": "fly"}\n{"do": "land"}\n'])
def test_log_import_with_no_action_the_rules_accept_writes_nothing(content, log, tmp_path, capsys):
    source = log if content is None else tmp_path / "in.jsonl"
    if content is not None:
        source.write_bytes(content)
    target = tmp_path / "new" / "t.sqlite"
    assert main(["log", "import", str(source), "--db", str(target), "--lang", "en"]) == 2
    assert "not an action script" in said(capsys) if content is None else "nothing written" in said(capsys)
    assert not target.exists()


def test_a_missing_log_is_called_missing(tmp_path, capsys):
    assert main(["log", "check", str(tmp_path / "nope.sqlite"), "--lang", "en"]) == 2
    assert "no such file (a table's log was expected)" in said(capsys)
    assert main(["log", "check", str(tmp_path / "nope.sqlite")]) == 2
    assert "filen finns inte (ett bords logg väntades)" in said(capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "99999"],
        ["demo", "--port", "-1"],
        ["hub", "web", "ev.hub", "--port", "70000"],
    ],
)
def test_a_port_out_of_range_is_refused_by_its_option(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "en port är ett tal från 1 till 65535" in said(capsys)  # Swedish first (stop 70)


def test_serve_says_what_is_wrong_with_its_data_folder_host_and_certificate(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    assert main(["serve", "--data", str(a_file), "--port", "18097"]) == 2
    assert "är en fil; --data anger mappen" in said(capsys)  # is a file; --data names the folder
    assert main(["serve", "--data", str(tmp_path / "d"), "--host", "999.1.1.1", "--port", "18097"]) == 2
    assert "ange den här datorns adress eller namn som --host" in said(capsys)
    argv = ["serve", "--data", str(tmp_path / "d2"), "--port", "18097", "--certfile", str(a_file)]
    assert main([*argv, "--keyfile", str(a_file)]) == 2
    assert "är inte ett certifikat och dess privata nyckel i PEM" in said(capsys)
    assert not (tmp_path / "d2").exists()
    # a folder that cannot be made or written (stop 72: a traceback), in serve and demo alike
    for command in ("serve", "demo"):
        assert main([command, "--data", str(a_file / "d"), "--port", "18097"]) == 2, command
        out = said(capsys)
        assert f"kan inte ha bordets filer i {a_file / 'd'}: " in out and "Traceback" not in out, out


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--ruleset", "nosuch"], "--ruleset: okänt regelverk 'nosuch'"),  # unknown ruleset
        (["--players", "A,B"], "--players: sm2025 spelas av 3 till 4 spelare, inte 2"),
        (["--players", "A,A,B"], "--players: olika namn"),  # different names
        (["--players", "A,B", "--lang", "en"], "--players: sm2025 is played by 3 to 4 players, not 2"),
    ],
)
def test_run_refuses_a_table_the_rules_cannot_have_before_any_log_is_made(extra, words, tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    assert main(["run", "--virtual", "--bots", "--fast", "--max-actions", "5", "--db", str(db), *extra]) == 2
    assert words in said(capsys)
    assert not db.exists()


def test_rules_takes_a_ruleset_or_a_diff_not_both(capsys):
    assert main(["rules", "sm2019", "--diff", "sm2025", "shootout"]) == 2
    assert "inte båda" in said(capsys)  # not both


def test_setup_refuses_a_sheet_that_is_a_folder_before_writing_anything(tmp_path, capsys):
    (tmp_path / "sheets").mkdir()
    config = tmp_path / "t" / "table.toml"
    argv = ["setup", "--yes", "--config", str(config), "--sheet", str(tmp_path / "sheets")]
    assert main(argv) == 2  # what was given: nothing was tried
    text = said(capsys)
    assert "--sheet:" in text and "är en mapp" in text
    assert not config.parent.exists()


def test_output_cut_short_by_its_reader_is_no_traceback():
    """`chicago-table rules --json | head -1`: the reader closes the pipe; the command stops quietly."""
    p = subprocess.Popen([*CLI, "rules", "--json", "classic"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # before the command has written anything
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0 and "Traceback" not in err and "BrokenPipeError" not in err, err


@pytest.mark.parametrize(
    "content",
    [
        "\ufeffnamn;klubb\r\nÅsa;K1\r\nSvensson, Bo;K2\r\n".encode(),  # Excel's "CSV UTF-8", Swedish
        "Namn;Klubb\r\nÅsa;K1\r\nSvensson, Bo;K2\r\n".encode("cp1252"),  # Excel's "CSV", Swedish Windows
        'name,club\nÅsa,K1\n"Svensson, Bo",K2\n'.encode(),  # LibreOffice, by hand
    ],
)
def test_the_players_file_is_read_as_a_spreadsheet_saves_it(content, hub, tmp_path, capsys):
    players = tmp_path / "players.csv"
    players.write_bytes(content)
    assert main(["hub", "register", str(hub), "--csv", str(players)]) == 0
    said(capsys)
    from table_controller.tournament.hubstore import HubStore

    with HubStore.open(hub, readonly=True) as h:
        assert h.players() == {"Åsa": "K1", "Svensson, Bo": "K2"}
    from dashboard.scoresheet.head import read_players

    assert {n: p.club for n, p in read_players(players).items()} == {"Åsa": "K1", "Svensson, Bo": "K2"}


def test_a_players_line_with_no_name_is_named_by_its_line(hub, tmp_path, capsys):
    players = tmp_path / "players.csv"
    players.write_text("name,club\nÅsa,K1\n,K2\n", encoding="utf-8")
    assert main(["hub", "register", str(hub), "--csv", str(players)]) == 2
    assert "rad 3: inget namn före klubben 'K2'" in said(capsys)  # line 3: no name before the club
    assert main(["hub", "register", str(hub), "--csv", str(players), "--lang", "en"]) == 2
    assert "line 3: no name before the club 'K2'" in said(capsys)


def test_an_empty_file_is_no_hub_and_stays_empty(tmp_path, capsys):
    empty = tmp_path / "e.sqlite"
    empty.write_bytes(b"")
    assert main(["hub", "register", str(empty), "--player", "X"]) == 2
    assert "är en tom fil, ingen hubbfil" in said(capsys)  # is an empty file, not a hub file
    assert empty.read_bytes() == b""


@pytest.mark.parametrize(
    "argv",
    [
        ["deck", "register", "--port", "/dev/nonexistent-port", "--out", "{tmp}/d.json"],
        ["deck", "check", "{tmp}/d.json", "--port", "/dev/nonexistent-port", "--seconds", "3"],
    ],
)
def test_a_deck_command_on_a_port_that_is_not_there_says_so_at_once(argv, tmp_path, capsys):
    """It printed "[1/52] put 2S alone on the tray" and waited for ever (register), or blamed
    the deck for 52 missing cards (check)."""
    from table_controller.deck import virtual_deck

    virtual_deck().save(tmp_path / "d.json")
    before = digest(tmp_path / "d.json")
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    assert "ingen port '/dev/nonexistent-port'" in said(capsys)  # no port
    assert digest(tmp_path / "d.json") == before


def test_hub_web_on_a_port_in_use_says_so_before_printing_an_address(hub, capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["hub", "web", str(hub), "--host", "127.0.0.1", "--port", str(port)]) == 2
    text = said(capsys)
    assert "välj en annan --port" in text and "ställningen i" not in text  # choose another --port


def test_link_monitor_on_a_link_that_never_comes_up_exits_1(capsys):
    """A URL no transport knows (or any link that never comes up) printed "link offline" and
    exited 0, as a sound watch does."""
    assert main(["link", "monitor", "bogus://x", "--duration", "0.3", "--plain"]) == 1
    assert "kom aldrig upp" in said(capsys)  # never came up


def test_doctor_says_a_data_folder_that_is_a_file_is_a_file(tmp_path, capsys):
    """It blamed the folder's owner ("fix its owner (chown)") for a path that is a file."""
    from types import SimpleNamespace

    from table_controller.app.commands.doctor import Report, _data
    from table_controller.app.words import speaking

    a_file = tmp_path / "table-data"
    a_file.write_text("x")
    for lang, words in (("en", "is a file: [table] data in the configuration names a folder"), ("sv", "är en fil")):
        with speaking(lang):
            r = Report()
            _data(SimpleNamespace(table=SimpleNamespace(data=str(a_file))), r)
        assert r.failed == 1
        text = said(capsys)
        assert words in text and "chown" not in text


def test_one_file_named_for_two_outputs_is_refused(hub, log, tmp_path, capsys):
    both = tmp_path / "out.pdf"
    assert main(["hub", "export", str(hub), "--csv", str(both), "--pdf", str(both)]) == 2
    assert "anges för två av kommandots utdata" in said(capsys)  # named for two outputs
    assert main(["protocol", str(log), "-o", str(both), "--html", str(both)]) == 2
    assert "anges för två av kommandots utdata" in said(capsys)  # named for two outputs
    assert not both.exists()


def test_the_protocols_players_file_with_ids_registers_at_the_hub(hub, tmp_path, capsys):
    """The same file serves both (``protocol --players``: name,club,id); the hub keeps no id."""
    players = tmp_path / "players.csv"
    players.write_text("namn;klubb;id\nÅsa;K1;S-101\nBo;K2;S-202\n", encoding="utf-8")
    assert main(["hub", "register", str(hub), "--csv", str(players)]) == 0
    said(capsys)
    from table_controller.tournament.hubstore import HubStore

    with HubStore.open(hub, readonly=True) as h:
        assert h.players() == {"Åsa": "K1", "Bo": "K2"}
    players.write_text("Åsa;K1;S-101;x\n", encoding="utf-8")
    assert main(["hub", "register", str(hub), "--csv", str(players)]) == 2
    assert "rad 1: väntade namn,klubb[,id], fick 4 fält" in said(capsys)  # expected name,club[,id], got 4 fields


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["demo", "--pace", "-1"], "argument --pace: ett tal från 0 och uppåt, inte -1,0"),
        (["demo", "--pace", "-1", "--lang", "en"], "argument --pace: a number of 0 or more, not -1.0"),
        (["run", "--virtual", "--bots", "--max-actions", "-5"], "argument --max-actions: ett heltal från 1 och uppåt"),
        (["run", "--camera-fps", "-3", "--lang", "en"], "argument --camera-fps: a number above 0, not -3.0"),
        (["setup", "--camera-fps", "nan"], "argument --camera-fps: ett tal över 0, inte 'nan'"),
    ],
)
def test_a_number_out_of_its_range_is_refused_by_its_option(argv, words, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert words in said(capsys)


def test_a_hubs_file_given_as_a_table_log_is_named_as_the_hubs(hub, capsys):
    assert main(["log", "check", str(hub), "--lang", "en"]) == 2
    assert "is a tournament hub's file (chicago-table hub), not a table log" in said(capsys)
    assert main(["log", "check", str(hub)]) == 2
    assert "är en turneringshubbs fil (chicago-table hub), inte ett bords logg" in said(capsys)


def test_a_broken_picture_is_one_clear_line_without_opencvs_warning(tmp_path):
    """OpenCV printed "[ WARN:0@0.1] global grfmt_png.cpp:793 ... incomplete" before the error."""
    import cv2
    import numpy as np

    ok, png = cv2.imencode(".png", np.full((300, 400, 3), 200, np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_bytes(png.tobytes()[: len(png) // 2])
    r = subprocess.run([*CLI, "camera", "read", str(broken)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "ingen bild som går att avkoda" in r.stderr  # bad input: 2, as every command
    assert "WARN" not in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_command_says_its_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and said(capsys).startswith("chicago-table ")


def test_the_protocol_reads_a_script_as_replay_does(tmp_path, capsys):
    """A script saved with a byte-order mark first (Windows' Notepad) was "no table" to
    `protocol` while `replay` read it."""
    script = tmp_path / "s.jsonl"
    script.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["protocol", str(script), "-o", str(tmp_path / "s.pdf")]) == 0
    # "1 game", no rejected line in the script: said in Swedish by default
    assert said(capsys) == f"{tmp_path / 's.pdf'}: 1 omgång\n" and (tmp_path / "s.pdf").stat().st_size > 1000


def test_camera_read_annotate_into_a_file_is_refused(tmp_path, capsys):
    picture = tmp_path / "p.png"
    import cv2
    import numpy as np

    cv2.imwrite(str(picture), np.full((300, 400, 3), 200, np.uint8))
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    assert main(["camera", "read", str(picture), "--annotate", str(a_file)]) == 2
    assert "--annotate" in said(capsys) and a_file.read_text() == "x"


def test_a_config_naming_a_missing_file_says_so_once(tmp_path):
    from table_controller.app.config import ConfigError, load_config

    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\nvirtual = true\n[seat_controller]\nport = "x"\ndeck = "none.json"\n', encoding="utf-8")
    from table_controller.app.words import speaking

    with speaking("en"), pytest.raises(ConfigError) as err:
        load_config(cfg)
    assert "[seat_controller] deck must name a file that exists, not 'none.json'" in str(err.value)
    assert "no such file" not in str(err.value)


def test_a_witness_of_no_table_says_so(hub, log, tmp_path, capsys):
    """It asked "say which table this log is (--table ID): " with nothing after the colon."""
    witness = tmp_path / "w.json"
    assert main(["hub", "witness", str(hub), "-o", str(witness)]) == 0
    said(capsys)
    assert main(["log", "verify", str(log), "--witness", str(witness), "--lang", "en"]) == 2
    assert "the witness holds no table yet" in said(capsys)
    assert main(["log", "verify", str(log), "--witness", str(witness)]) == 2
    assert "vittnet har inget bord än" in said(capsys)


def test_every_hub_action_and_option_says_what_it_is():
    """The audit found the hub's actions with no description under their own --help, and
    --json, --seed, --csv, --pdf, --event and the positional hub file with no help."""
    import argparse

    from table_controller.app.commands import hub

    parser = argparse.ArgumentParser()
    hub.add_arguments(parser)
    actions = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        (name, option.dest)
        for name, sub in actions.choices.items()
        for option in sub._actions
        if not isinstance(option, argparse._HelpAction) and not option.help
    ]
    assert missing == []
    assert all(sub.description for sub in actions.choices.values())


def test_a_publisher_says_once_that_its_tables_log_is_not_there_yet(tmp_path, caplog):
    """`hub publish --db nope.sqlite` said only "publishing nope.sqlite ..." and waited: a
    mistyped --db looked like a table that had not started.  It waits still (the table may
    start after it), but says so, once."""
    import logging

    from table_controller.app.words import speaking
    from table_controller.tournament.publisher import TablePublisher

    pub = TablePublisher(tmp_path / "nope.sqlite", table="h1-t1", event="sm2026", host="127.0.0.1", port=1883)
    # in English: a `hub` command run in this process before leaves its operator's filter
    # (hub.Said, Swedish by default) on the root logger's handler, which words the record
    with caplog.at_level(logging.WARNING), speaking("en"):
        assert pub._last_seq() == 0 and pub._last_seq() == 0  # two polls
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "nope.sqlite" in said[0] and "waiting for the table to start" in said[0], said


def test_a_publisher_given_a_log_in_a_folder_that_is_not_there_says_so_and_stops(tmp_path, capsys):
    """A table's log not there yet is waited for (above); one in a folder that is not there
    never comes, so `hub publish` says so at once instead of waiting for ever (stop 72)."""
    db = tmp_path / "tabel7" / "table.sqlite"
    argv = ["hub", "publish", "--db", str(db), "--table", "h1-t1", "--event", "e", "--broker", "127.0.0.1:1"]
    assert main(argv) == 2
    assert f"--db {db}: det finns ingen mapp {db.parent}; ange bordets logg i dess datamapp" in said(capsys)
    assert not db.parent.exists()


def test_a_broker_port_out_of_range_is_refused(capsys):
    argv = ["hub", "publish", "--db", "t.sqlite", "--table", "h1-t1", "--event", "e", "--broker", "127.0.0.1:99999"]
    assert main(argv) == 2
    assert "--broker '127.0.0.1:99999': en port är ett tal från 1 till 65535, inte 99999" in said(capsys)


def test_replay_of_a_script_with_no_table_says_so_in_words(tmp_path, capsys):
    """It printed "Ruleset: None" (Python's None) for an empty script; --json keeps null."""
    script = tmp_path / "empty.jsonl"
    script.write_bytes(b"")
    assert main(["replay", str(script)]) == 0
    text = said(capsys)
    assert "Ruleset: none (no table: the first action must be 'table')" in text and "None" not in text
    assert main(["replay", str(script), "--json"]) == 0
    assert '"ruleset": null' in said(capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["log", "verify", "{log}", "--hub", "http://127.0.0.1:99999", "--lang", "en"],
        ["hub", "dashboard", "{hub}", "h1-t1", "http://127.0.0.1:99999", "--lang", "en"],
        ["hub", "dashboard", "{hub}", "h1-t1", "http://127.0.0.1:0", "--lang", "en"],
    ],
)
def test_a_web_address_with_a_port_out_of_range_is_refused_as_such(argv, log, hub, capsys):
    # before: "cannot fetch the witness ...: Connection refused", and a dashboard link kept
    assert main([a.format(log=log, hub=hub) for a in argv]) == 2
    assert "a port from 1 to 65535" in said(capsys)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["protocol", "{tmp}"], "en mapp, inte ett skript eller ett bords logg"),  # a folder, not a script
        (["protocol", "{tmp}/binary.jsonl", "--lang", "en"], "neither a script (UTF-8 text) nor a table's log"),
        (
            ["deck", "register", "--uids", "{tmp}/nope.txt", "--out", "{tmp}/d.json"],
            "nope.txt: filen eller mappen finns inte",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_named_without_pythons_errno(argv, words, tmp_path, capsys):
    # before: "[Errno 21] Is a directory: '...'", "[Errno 2] No such file or directory: ...",
    # "'utf-8' codec can't decode byte 0xff in position 0"
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00")
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    text = said(capsys)
    assert words in text and "Errno" not in text and "codec" not in text


@pytest.mark.parametrize("seconds", ["-1", "0"])
def test_doctor_refuses_no_time_to_answer_instead_of_blaming_the_cable(seconds, capsys):
    """Stop 72's audit: ``doctor --seconds -1`` was taken, and then said the seat controller did
    not answer in -1 s: "check the USB cable"."""
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--seconds", seconds])
    assert exit_.value.code == 2
    assert "--seconds: ett tal över 0" in said(capsys)


@pytest.mark.parametrize("command", ["serve", "demo"])
def test_a_broadcast_delay_out_of_range_is_refused_before_the_table_is_made(command, tmp_path, capsys):
    """Stop 72's audit: ``serve --broadcast-delay -5`` was refused only after it had made the
    table's folder, its log, its tokens and its broadcast store."""
    with pytest.raises(SystemExit) as exit_:
        main([command, "--data", str(tmp_path / "d"), "--broadcast-delay", "-5", "--port", "1"])
    assert exit_.value.code == 2
    assert "--broadcast-delay: sekunder från 0 till 86400" in said(capsys)
    assert not (tmp_path / "d").exists()


def test_a_token_file_a_logo_and_a_peer_are_refused_in_swedish(tmp_path, capsys):
    """Stop 72's audit: serve, demo and run said these in English inside a Swedish line
    ("cannot read the token file latin.jsonl: 'utf-8' codec can't decode byte 0xff ...",
    "nofile.png: cannot read the logo (No such file or directory)")."""
    from tests.ports import free_port

    port = str(free_port())
    latin = tmp_path / "latin.json"
    latin.write_bytes(b"\xff\xfe{}")
    assert main(["serve", "--data", str(tmp_path / "d"), "--tokens", str(latin), "--port", port]) == 2
    assert f"tokenfilen {latin} är inte den JSON som 'serve' skriver" in said(capsys)
    assert main(["serve", "--data", str(tmp_path / "d"), "--tokens", str(tmp_path), "--port", port]) == 2
    assert f"kan inte läsa tokenfilen {tmp_path}: det är en mapp, inte en fil" in said(capsys)
    nofile = tmp_path / "nofile.png"
    assert main(["demo", "--data", str(tmp_path / "e"), "--logo", str(nofile), "--port", port]) == 2
    assert f"{nofile}: kan inte läsa logotypen (filen eller mappen finns inte)" in said(capsys)
    assert main(["serve", "--data", str(tmp_path / "f"), "--peer", "notaurl", "--port", port]) == 2
    assert "--peer 'notaurl': ange ett annat bords webbsidor som http://HOST:PORT" in said(capsys)
