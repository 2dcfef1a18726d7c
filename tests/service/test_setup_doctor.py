"""``chicago-table setup`` and ``doctor`` saying what is wrong, in words, with nothing
written (issue 16 item 2).  The whole way through, on the virtual seat controller:
tests/service/test_real_table.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "chicago-table"), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_setup_with_no_seat_controller_says_so_and_writes_nothing(tmp_path):
    r = _run("setup", "--yes", "--port", str(tmp_path / "ttyNOTHING"), "--connect-seconds", "1", cwd=tmp_path)
    assert r.returncode == 1
    assert "no seat controller answered on" in r.stderr and "check the cable" in r.stderr
    assert not (tmp_path / "table.toml").exists() and not (tmp_path / "table-data").exists()


def test_setup_checks_the_flags_before_the_hardware(tmp_path):
    r = _run("setup", "--yes", "--ruleset", "poker", "--port", "/dev/null", cwd=tmp_path)
    assert r.returncode == 1 and "[table] ruleset must be one of sm2025" in r.stderr
    r = _run("setup", "--yes", "--dashboard-port", "70000", "--port", "/dev/null", cwd=tmp_path)
    assert r.returncode == 1 and "[dashboard] port must be a whole number from 1 to 65535" in r.stderr
    assert not (tmp_path / "table.toml").exists()


def test_setup_keeps_an_existing_configuration_unless_forced(tmp_path):
    (tmp_path / "table.toml").write_text("# the club's own\n")
    r = _run("setup", "--yes", "--port", "/dev/null", cwd=tmp_path)
    assert r.returncode == 1 and "exists: give --force to replace it" in r.stderr
    assert (tmp_path / "table.toml").read_text() == "# the club's own\n"


def test_doctor_names_a_bad_key_and_its_line(tmp_path):
    (tmp_path / "table.toml").write_text('[table]\nname = "Bord 2"\nvirtual = true\n\n[dashboard]\nport = "x"\n')
    r = _run("doctor", "--config", "table.toml", cwd=tmp_path)
    assert r.returncode == 1
    assert "FAIL  the configuration: table.toml, line 6: [dashboard] port must be a whole number" in r.stdout


def test_doctor_on_a_stopped_table_finds_what_is_missing(tmp_path):
    from table_controller.deck import virtual_deck

    virtual_deck().save(str(tmp_path / "deck.json"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "table.sqlite").write_bytes(b"not a database at all" * 10)
    (tmp_path / "table.toml").write_text(
        '[table]\nname = "Bord 2"\ndata = "data"\n\n[seat_controller]\nport = "/dev/chicago-nothing-here"\n'
        'deck = "deck.json"\n\n[dashboard]\nhost = "127.0.0.1"\nport = 1\n'
    )
    r = _run("doctor", "--config", "table.toml", "--seconds", "1", cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert "ok    table.toml loads: Bord 2, sm2025" in r.stdout
    assert "ok    deck " in r.stdout and "52 cards" in r.stdout
    assert "FAIL  the event log " in r.stdout and "does not pass its check" in r.stdout
    assert "FAIL  no port /dev/chicago-nothing-here: is the seat controller plugged in" in r.stdout
    assert "note  no camera configured" in r.stdout
    assert r.stdout.rstrip().endswith("2 problem(s): see FAIL above")
