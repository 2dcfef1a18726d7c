"""The table's configuration file (issue 16 item 1): every key read and checked, relative
paths against the file's folder, flags over the file, and a bad value named with its key
and line, changing nothing (no traceback)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from table_controller.app.commands.run import add_arguments, overrides
from table_controller.app.config import (
    FLAGS,
    SECTIONS,
    ConfigError,
    config_from_mapping,
    dump_config,
    load_config,
)
from table_controller.app.words import speaking

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _english():
    """The configuration's errors here in English, as ``--lang en`` says them (Swedish, the
    default, in the tests that say so)."""
    with speaking("en"):
        yield


FULL = """\
# the table by the window
[table]
name = "Bord 7"
ruleset = "sm2019"
data = "data"
stuck_after = 45
shot_clocks = { play = 25, exchange = 40 }

[seat_controller]
port = "/dev/chicago-seat-controller"
deck = "deck.json"

[camera]
source = 0
calibration = "camera.json"

[dashboard]
host = "0.0.0.0"
port = 8443
tls_cert = "t.crt"
tls_key = "t.key"
broadcast_delay = 90
event_tokens = "/etc/chicago-table/tokens.json"
peers = ["http://table8.local:8080", "https://table9.local:8443/"]

[event]
name = "SM i Chicago 2026"
heat = "1"
logo = "logo.png"
round = "Kvartsfinal"
players = "players.csv"
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("deck.json", "camera.json", "t.crt", "t.key", "logo.png"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "players.csv").write_text("Anna,BK Spader,S-101\n", encoding="utf-8")
    (tmp_path / "table.toml").write_text(FULL)
    return tmp_path


def test_every_key_is_read_and_relative_paths_are_the_files_folders(folder):
    cfg = load_config(folder / "table.toml")
    assert (cfg.table.name, cfg.table.ruleset, cfg.table.virtual, cfg.table.stuck_after) == (
        "Bord 7",
        "sm2019",
        False,
        45.0,
    )
    assert cfg.table.shot_clocks == "exchange=40,play=25"  # D11's order; the others keep D11's
    assert cfg.table.data == folder / "data" and cfg.seat_controller.deck == folder / "deck.json"
    assert cfg.seat_controller.port == "/dev/chicago-seat-controller"
    assert cfg.camera is not None and cfg.camera.source == "0" and cfg.camera.calibration == folder / "camera.json"
    d = cfg.dashboard
    assert (d.host, d.port, d.broadcast_delay) == ("0.0.0.0", 8443, 90.0)
    assert d.tls_cert == folder / "t.crt" and d.tls_key == folder / "t.key"
    assert d.event_tokens == Path("/etc/chicago-table/tokens.json")
    assert d.peers == ("http://table8.local:8080", "https://table9.local:8443")


def test_the_camera_is_optional_and_defaults_fill_the_rest():
    cfg = config_from_mapping({"table": {"virtual": True}})
    assert cfg.camera is None and cfg.dashboard.port == 8080 and cfg.dashboard.host == "127.0.0.1"
    assert cfg.table.stuck_after == 120.0 and cfg.dashboard.broadcast_delay is None


def test_every_key_has_a_flag_of_run_and_a_flag_overrides_the_file(folder):
    keys = {(s, f) for s, cls in SECTIONS.items() for f in cls.__dataclass_fields__}
    assert set(FLAGS) == keys
    import argparse

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(
        [
            "--config",
            str(folder / "table.toml"),
            "--dashboard-port",
            "9000",
            "--name",
            "Bord 8",
            "--peer",
            "http://t2:8080",
            "--stuck-after",
            "10",
            "--shot-clocks",
            "play=15",
        ]
    )
    given = overrides(args)
    assert given == {
        ("dashboard", "port"): 9000,
        ("table", "name"): "Bord 8",
        ("dashboard", "peers"): ["http://t2:8080"],
        ("table", "stuck_after"): 10.0,
        ("table", "shot_clocks"): "play=15",
    }
    cfg = load_config(args.config, given)
    assert (cfg.dashboard.port, cfg.table.name, cfg.dashboard.peers) == (9000, "Bord 8", ("http://t2:8080",))
    assert cfg.table.shot_clocks == "play=15"  # the flag's clocks, not the file's
    assert cfg.table.ruleset == "sm2019"  # what no flag named stays the file's


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("port = 8443", 'port = "x"', "line 19: [dashboard] port must be a whole number from 1 to 65535, not 'x'"),
        ("port = 8443", "port = 70000", "line 19: [dashboard] port must be a whole number"),
        ('ruleset = "sm2019"', 'ruleset = "sm2099"', "line 4: [table] ruleset must be one of sm2025"),
        ("stuck_after = 45", "stuck_after = -1", "line 6: [table] stuck_after must be a number of seconds"),
        ("stuck_after = 45", "stuck_after = true", "line 6: [table] stuck_after must be a number"),
        (
            "play = 25",
            "spel = 25",
            "line 7: [table] shot_clocks must name clocks and seconds (no shot clock 'spel'; the clocks are "
            "exchange, chicago, play, quads), not {'spel': 25, 'exchange': 40}",
        ),
        ("play = 25", "play = 0", "line 7: [table] shot_clocks must name clocks and seconds (shot clock play: "),
        ("play = 25", 'play = "25"', "line 7: [table] shot_clocks must give each clock a number of seconds"),
        ("shot_clocks = {", "shot_clocks = [", "not valid TOML"),
        (
            'deck = "deck.json"',
            'deck = "nodeck.json"',
            "line 11: [seat_controller] deck must name a file that exists, not 'nodeck.json'",
        ),
        ('name = "Bord 7"', 'nmae = "Bord 7"', "line 3: [table] has no key 'nmae'"),
        ("[camera]", "[kamera]", "line 13: unknown section [kamera]"),
        ("peers = [", 'peers = ["ftp://x", ', "line 24: [dashboard] peers 'ftp://x' is not a table's address"),
        ('tls_key = "t.key"\n', "", "line 20: [dashboard] tls_cert and tls_key go together"),
        ('port = "/dev/chicago-seat-controller"\n', "", "line 9: [seat_controller] port is missing"),
        ('name = "Bord 7"', "name = ", "line 3, column 8: not valid TOML (Invalid value)"),
        ('logo = "logo.png"', 'logo = "nologo.png"', "line 29: [event] logo must name a file that exists"),
        ('heat = "1"', "heat = 1", "line 28: [event] heat must be a text of 1 to 200 characters"),
        ('round = "Kvartsfinal"', 'round = ""', "line 30: [event] round must be a text of 1 to 200 characters"),
        ('players = "players.csv"', 'players = "spelare.csv"', "line 31: [event] players must name a file that exists"),
    ],
)
def test_a_bad_value_is_named_with_its_key_and_line(folder, old, new, message):
    path = folder / "table.toml"
    path.write_text(FULL.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert f"{path}" in str(err.value) and message in str(err.value)


def test_the_broadcast_delay_has_one_limit_in_the_file_and_on_the_flag(folder):
    """table.toml refused a delay over an hour that --broadcast-delay and the server took (a
    day, 86400 s): one limit now (stop 73)."""
    path = folder / "table.toml"
    path.write_text(FULL.replace("broadcast_delay = 90", "broadcast_delay = 7200", 1))
    assert load_config(path).dashboard.broadcast_delay == 7200.0
    path.write_text(FULL.replace("broadcast_delay = 90", "broadcast_delay = 86401", 1))
    with pytest.raises(ConfigError, match="broadcast_delay must be a number of seconds from 0 to 86400"):
        load_config(path)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--broadcast-delay", "86400"]).broadcast_delay == 86400.0


def test_a_bad_flag_is_named_by_its_flag(folder):
    with pytest.raises(ConfigError, match=r"--dashboard-port \(\[dashboard\] port\) must be a whole number"):
        load_config(folder / "table.toml", {("dashboard", "port"): 0})
    with pytest.raises(ConfigError, match=r"--shot-clocks \(\[table\] shot_clocks\) .*no shot clock 'spel'"):
        load_config(folder / "table.toml", run_flags("--shot-clocks", "spel=3"))


def test_a_written_configuration_reads_back_the_same(folder):
    cfg = load_config(folder / "table.toml")
    (folder / "again.toml").write_text(dump_config(cfg))
    again = load_config(folder / "again.toml")
    assert again.table == cfg.table and again.dashboard == cfg.dashboard and again.camera == cfg.camera
    assert again.seat_controller == cfg.seat_controller and again.event == cfg.event
    assert cfg.event.name == "SM i Chicago 2026" and cfg.event.logo == folder / "logo.png"
    assert cfg.event.round == "Kvartsfinal" and cfg.event.players == folder / "players.csv"


def test_the_round_and_players_flags_override_the_file(folder, tmp_path_factory):
    other = tmp_path_factory.mktemp("elsewhere") / "lag.csv"
    other.write_text("Bo,Malmö\n", encoding="utf-8")
    cfg = load_config(folder / "table.toml", run_flags("--round", "Final", "--players-csv", str(other)))
    assert (cfg.event.round, cfg.event.players) == ("Final", other)
    with pytest.raises(ConfigError, match=r"--players-csv \(\[event\] players\) must name a file that exists"):
        load_config(folder / "table.toml", run_flags("--players-csv", str(folder / "none.csv")))


def run_flags(*argv: str) -> dict:
    """The (section, key) overrides of ``chicago-table run``'s own parser for ``argv``."""
    import argparse

    from table_controller.app.commands.run import add_arguments, overrides

    p = argparse.ArgumentParser()
    add_arguments(p)
    return overrides(p.parse_args(list(argv)))


def _run_config(path) -> subprocess.CompletedProcess:
    """``chicago-table run --config PATH`` in its own process, as a user starts it."""
    return subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "run", "--config", str(path)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_run_with_a_bad_players_file_names_it_and_its_line_and_starts_nothing(folder):
    (folder / "players.csv").write_text("Anna,BK Spader,S-101\nBo,Malmö,S-2,S-3\n", encoding="utf-8")
    path = folder / "table.toml"
    path.write_text(FULL.replace("[table]", "[table]\nvirtual = true", 1).replace("port = 8443", "port = 1"))
    out = _run_config(path)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out
    assert f"{folder / 'players.csv'}: line 2: expected name,club[,id], got 4 fields" in out.stderr
    assert not (folder / "data").exists()


def test_run_with_a_bad_configuration_says_why_in_swedish_and_starts_nothing(folder):
    path = folder / "table.toml"
    path.write_text(FULL.replace("port = 8443", "port = 'x'"))
    out = _run_config(path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "rad 19: [dashboard] port ska vara ett heltal från 1 till 65535, inte 'x'" in out.stderr, out.stderr
    assert not (folder / "data").exists()
    missing = _run_config(folder / "ingen.toml")  # the system's own words said too
    assert missing.returncode == 2 and "kan inte läsa konfigurationen: filen eller mappen finns inte" in missing.stderr
    assert "No such file" not in missing.stderr, missing.stderr


@pytest.mark.parametrize(
    "old, new, english, swedish",
    [
        ("[camera]", "[kamera]", "line 13: unknown section [kamera]", "rad 13: okänd sektion [kamera]"),
        (
            'name = "Bord 7"',
            'nmae = "Bord 7"',
            "line 3: [table] has no key 'nmae'",
            "rad 3: [table] har ingen nyckel 'nmae'",
        ),
        (
            'port = "/dev/chicago-seat-controller"\n',
            "",
            "line 9: [seat_controller] port is missing",
            "rad 9: [seat_controller] port saknas",
        ),
        (
            "stuck_after = 45",
            "stuck_after = -1",
            "must be a number of seconds from 1 to",
            "ska vara ett antal sekunder från 1 till",
        ),
        ('name = "Bord 7"', "name = ", "line 3, column 8: not valid TOML", "rad 3, kolumn 8: inte giltig TOML"),
    ],
)
def test_a_bad_configuration_is_said_in_the_language_spoken_swedish_first(folder, old, new, english, swedish):
    """The officials who set a table up read Swedish: the console says a configuration's
    problem in Swedish unless --lang en (the keys, sections and values as they are written)."""
    path = folder / "table.toml"
    path.write_text(FULL.replace(old, new, 1))
    for lang, words, other in (("sv", swedish, english), ("en", english, swedish)):
        with speaking(lang), pytest.raises(ConfigError) as err:
            load_config(path)
        assert words in str(err.value) and other not in str(err.value), str(err.value)


def test_a_camera_source_is_a_device_a_url_or_a_file_beside_the_config(folder):
    base = {"table": {"virtual": True}}
    for given, read in (
        (0, "0"),
        ("2", "2"),
        ("rtsp://cam.local/1", "rtsp://cam.local/1"),
        ("table.mp4", str(folder / "table.mp4")),
    ):
        cfg = config_from_mapping({**base, "camera": {"source": given}}, base=folder)
        assert cfg.camera is not None and cfg.camera.source == read


def test_the_demos_table_toml_carries_the_event_it_was_given(tmp_path):
    """The demo writes its table as a configuration (issue 16): the event's names, round
    and players go into its [event] section, so 'run --config' on it shows them too."""
    import argparse

    from table_controller.app.commands.demo import add_arguments, demo_config
    from table_controller.app.config import load_config

    (tmp_path / "players.csv").write_text("Anna,BK Kortet,17\nBo,SK Stick,4\n", encoding="utf-8")
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(
        ["--event-name", "SM i Chicago 2026", "--heat", "2", "--round", "Kvartsfinal"]
        + ["--players-csv", str(tmp_path / "players.csv"), "--shot-clocks", "play=12,quads=20"]
    )
    demo_config(args, tmp_path / "data")
    written = load_config(tmp_path / "data" / "table.toml")
    assert written.table.shot_clocks == "play=12,quads=20"  # the event's clocks (D11) too
    event = written.event
    assert (event.name, event.heat, event.round) == ("SM i Chicago 2026", "2", "Kvartsfinal")
    assert event.players == (tmp_path / "players.csv").resolve()
    plain = p.parse_args([])  # none given: no [event] section, as before
    demo_config(plain, tmp_path / "plain")
    assert "[event]" not in (tmp_path / "plain" / "table.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "content, english, swedish",
    [
        ("nope", "is no deck file: its JSON breaks off at line 1", "är ingen lekfil: dess JSON bryts på rad 1"),
        (
            "{}",
            "not a deck file (its format should be chicago-deck/1)",
            "ingen lekfil (formatet ska vara chicago-deck/1)",
        ),
        (
            '{"format": "chicago-deck/1", "cards": {"04AA": "1X"}}',
            "UID 04AA: '1X' is no card (such as 10S, QH or 7D)",
            "UID 04AA: '1X' är inget kort (som 10S, QH eller 7D)",
        ),
        (b"\xff\xfe{", "not UTF-8 text", "inte text i UTF-8"),
    ],
)
def test_a_bad_deck_file_is_said_in_the_language_spoken_swedish_first(folder, content, english, swedish):
    """The deck a table.toml names is read when the table starts; what is wrong with it is
    said in the console's language (stop 71: "deck.json is not JSON: Expecting value" stood
    in a Swedish line), the file named as written.  A file that is not there is the
    configuration's to say (``load_config``); ``deck_error_words``' doctest says it too."""
    from table_controller.app.service import load_deck

    deck = folder / "deck.json"
    deck.unlink()
    if isinstance(content, bytes):
        deck.write_bytes(content)
    else:
        deck.write_text(content, encoding="utf-8")
    cfg = load_config(folder / "table.toml")
    for lang, words, other in (("sv", swedish, english), ("en", english, swedish)):
        with speaking(lang), pytest.raises(ConfigError) as err:
            load_deck(cfg)
        said = str(err.value)
        assert words in said and other not in said and str(deck) in said, said
