"""``chicago-table setup`` and ``doctor`` saying what is wrong, in words, with nothing
written (issue 16 item 2).  The whole way through, on the virtual seat controller:
tests/app/test_real_table.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "chicago-table"), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.realtime
def test_setup_with_no_seat_controller_says_so_and_writes_nothing(tmp_path):
    silent = tmp_path / "ttySILENT"  # a port that is there and never answers (a plain file)
    silent.write_bytes(b"")
    r = _run("setup", "--yes", "--port", str(silent), "--connect-seconds", "1", cwd=tmp_path)
    assert r.returncode == 1
    # in Swedish, as officials read it (English: --lang en, test_doctor_on_a_stopped_table_...)
    assert "ingen platsstyrning svarade på" in r.stderr and "kontrollera kabeln" in r.stderr
    assert not (tmp_path / "table.toml").exists() and not (tmp_path / "table-data").exists()


def test_setup_with_a_port_that_is_not_there_says_so_at_once(tmp_path):
    """A mistyped --port is said at once, not after --connect-seconds of waiting on nothing
    (stop 72): 1,000 s given, and the test's own timeout is 120 s."""
    gone = tmp_path / "ttyNOTHING"
    r = _run("setup", "--yes", "--port", str(gone), "--connect-seconds", "1000", cwd=tmp_path)
    assert r.returncode == 1
    assert f"det finns ingen port {gone}: kontrollera namnet" in r.stderr, r.stderr
    assert not (tmp_path / "table.toml").exists() and not (tmp_path / "table-data").exists()


def test_setup_checks_the_flags_before_the_hardware(tmp_path):
    # exit status 2 for what was given, as every command says bad input; 1 when a step failed
    r = _run("setup", "--yes", "--ruleset", "poker", "--port", "/dev/null", cwd=tmp_path)
    assert (
        r.returncode == 2 and "[table] ruleset ska vara en av sm2025" in r.stderr
    )  # Swedish first, the values as written
    r = _run("setup", "--yes", "--dashboard-port", "70000", "--port", "/dev/null", cwd=tmp_path)
    assert r.returncode == 2 and "[dashboard] port ska vara ett heltal från 1 till 65535" in r.stderr
    r = _run("setup", "--yes", "--shot-clocks", "spel=20", "--port", "/dev/null", cwd=tmp_path)
    said = "[table] shot_clocks ska ange klockor och sekunder (ingen betänketid 'spel'; klockorna är exchange, chicago"
    assert r.returncode == 2 and said in r.stderr, r.stderr  # the clock's problem in the same words (stop 70)
    assert not (tmp_path / "table.toml").exists()


def test_setup_keeps_an_existing_configuration_unless_forced(tmp_path):
    (tmp_path / "table.toml").write_text("# the club's own\n")
    r = _run("setup", "--yes", "--port", "/dev/null", cwd=tmp_path)
    assert r.returncode == 2 and "finns: ange --force för att ersätta den" in r.stderr
    assert (tmp_path / "table.toml").read_text() == "# the club's own\n"


def test_doctor_names_a_bad_key_and_its_line(tmp_path):
    (tmp_path / "table.toml").write_text('[table]\nname = "Bord 2"\nvirtual = true\n\n[dashboard]\nport = "x"\n')
    r = _run("doctor", "--config", "table.toml", cwd=tmp_path)
    assert r.returncode == 1
    assert "FEL   konfigurationen: table.toml, rad 6: [dashboard] port ska vara ett heltal" in r.stdout


def test_doctor_where_nothing_is_set_up_says_what_sets_a_table_up(tmp_path):
    r = _run("doctor", cwd=tmp_path)  # no table.toml here
    assert r.returncode == 1
    assert "FEL   konfigurationen: table.toml: kan inte läsa konfigurationen: filen eller mappen finns inte" in r.stdout
    assert "obs   'chicago-table setup' ställer in ett bord steg för steg" in r.stdout, r.stdout
    (tmp_path / "table.toml").write_text("[tabel]\n")  # a file there, wrong: no hint to start over
    assert "chicago-table setup" not in _run("doctor", cwd=tmp_path).stdout


def test_doctor_on_a_stopped_table_finds_what_is_missing(tmp_path):
    from table_controller.deck import virtual_deck

    virtual_deck().save(str(tmp_path / "deck.json"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "table.sqlite").write_bytes(b"not a database at all" * 10)
    (tmp_path / "table.toml").write_text(
        '[table]\nname = "Bord 2"\ndata = "data"\nshot_clocks = { play = 30 }\n\n[seat_controller]\nport = "/dev/chicago-nothing-here"\n'
        'deck = "deck.json"\n\n[dashboard]\nhost = "127.0.0.1"\nport = 1\n'
    )
    r = _run("doctor", "--config", "table.toml", "--seconds", "1", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 1, r.stdout
    assert (
        "ok    table.toml loads: Bord 2, sm2025, shot clocks "
        "(exchange 30 s, Chicago question 10 s, play 30 s, four of a kind 15 s)" in r.stdout
    )
    assert "ok    deck " in r.stdout and "52 cards" in r.stdout
    assert "FAIL  the event log " in r.stdout and "does not pass its check" in r.stdout
    assert "FAIL  no port /dev/chicago-nothing-here: is the seat controller plugged in" in r.stdout
    assert "note  no camera configured" in r.stdout
    assert r.stdout.rstrip().endswith("2 problems: see FAIL above")


@pytest.mark.realtime
def test_setup_asks_step_by_step_and_registers_the_deck_on_the_tray(tmp_path):
    """Interactive: the answers typed in, the deck laid card by card on the virtual table's
    tray as the progress lines ask (a real pty; the test is the person at the table)."""
    import re

    from hardware.virtual import VirtualTable

    answers = ["Bord 9", "sm2019", str(tmp_path / "data"), "127.0.0.1", "8099"]
    with VirtualTable() as table:
        answers += [table.port, "bricka", "ingen"]  # asked in Swedish, answered so
        proc = subprocess.Popen(
            [str(BIN / "chicago-table"), "setup", "--config", str(tmp_path / "table.toml")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n".join(answers) + "\n")
        proc.stdin.flush()
        seen, lines, laid = [], [], None
        for line in proc.stdout:
            lines.append(line)
            asked = re.search(r"\[(\d+)/52\] lägg (\w\w) ", line)  # put 2S ... alone on the tray
            if asked:
                seen.append(int(asked.group(1)))
                laid = asked.group(2)
                table.put(laid, "tray")
            elif "ta bort det från brickan" in line and laid:  # take it off the tray
                table.remove(laid)
        assert proc.wait(60) == 0, "".join(lines)
    out = "".join(lines)
    assert seen == list(range(1, 53))  # the progress, card by card
    assert "lek " in out and "(registrerad nu): 52 kort" in out
    assert "leken stämmer: 52 kort, inga dubbletter" in out  # the deck's check in Swedish too
    text = (tmp_path / "table.toml").read_text()
    assert 'name = "Bord 9"' in text and 'ruleset = "sm2019"' in text and "[camera]" not in text
    from table_controller.deck import Deck, virtual_deck

    assert Deck.load(str(tmp_path / "deck.json")).cards == virtual_deck().cards


@pytest.mark.realtime
def test_setup_calibrates_the_camera_and_doctor_checks_its_frame(tmp_path):
    import cv2

    from hardware.virtual import VirtualTable
    from vision.scene import Scene, random_scene, render

    frames = tmp_path / "frames"
    frames.mkdir()
    pose = random_scene(41, 0.3, fill=0.0)
    cv2.imwrite(str(frames / "f0.png"), render(Scene((), pose.corners, 0.3, 9200, "blue"), supersample=1))
    uids = subprocess.run(
        [sys.executable, "-m", "hardware.virtual", "--print-uids"], capture_output=True, text=True, timeout=60
    )
    (tmp_path / "uids.txt").write_text(uids.stdout)
    with VirtualTable() as table:
        r = _run(
            "setup", "--yes", "--port", table.port, "--deck-uids", "uids.txt", "--camera", str(frames),
            "--host", "127.0.0.1", "--dashboard-port", "8097", "--shot-clocks", "play=25", "--lang", "en", cwd=tmp_path,
        )  # fmt: skip
        assert r.returncode == 0, r.stdout + r.stderr
        assert "calibrated from markers" in r.stdout and (tmp_path / "camera.json").exists()
        assert (tmp_path / "camera.png").exists()  # the pads drawn on the frame, to check by eye
        text = (tmp_path / "table.toml").read_text()
        assert "[camera]" in text and f'source = "{frames}"' in text
        assert 'shot_clocks = "play=25"' in text  # the event's clocks (D11), as given
        doctor = _run("doctor", "--config", "table.toml", "--lang", "en", cwd=tmp_path)
    assert doctor.returncode == 0, doctor.stdout
    assert f"ok    the camera {frames} gives a frame of the calibrated size" in doctor.stdout


@pytest.mark.realtime
def test_setup_makes_the_tables_signing_key_once_and_keeps_it(tmp_path):
    """Issue 20 item 4: a key per table created at setup; its public key printed for the
    hub; a second setup (``--force``) keeps it, since the hub holds its public key."""
    import re

    from hardware.virtual import VirtualTable
    from hardware.virtual.deck import INLAYS, virtual_uid
    from table_controller.rules.cards import FULL_DECK
    from table_controller.tournament.signing import load_key, public_hex, signed_head, verify_head

    (tmp_path / "uids.txt").write_text("".join(virtual_uid(c.code, inlay=INLAYS["mfrc522"]) + "\n" for c in FULL_DECK))
    with VirtualTable() as table:
        flags = ["setup", "--yes", "--config", "table.toml", "--port", table.port, "--deck-uids", "uids.txt"]
        flags += ["--host", "127.0.0.1", "--dashboard-port", "8099", "--lang", "en"]
        first = _run(*flags, cwd=tmp_path)
        assert first.returncode == 0, first.stdout + first.stderr
        key = tmp_path / "table.key"
        assert key.stat().st_mode & 0o777 == 0o600  # the table's secret: owner only
        public = public_hex(load_key(key))
        assert f"{key}: a new signing key for this table" in first.stdout
        assert f"chicago-table hub key HUBFILE TABLE {public}" in first.stdout
        pem = key.read_bytes()
        again = _run(*flags, "--force", cwd=tmp_path)
        assert again.returncode == 0, again.stdout + again.stderr
    assert key.read_bytes() == pem and f"{key}: kept" in again.stdout
    assert re.search(rf"its public key: {public}\n", again.stdout)
    # the key signs a head the printed public key verifies (what the hub does)
    verify_head(public, signed_head(load_key(key), "sm2026", "h1-t1", 7, "ab" * 32))
    # a file that is not a key is named, and setup stops before writing the configuration
    (tmp_path / "other.key").write_text("not a key\n")
    (tmp_path / "table.toml").unlink()
    with VirtualTable() as table:
        # (the deck registered before is given: stop 72, setup no longer writes over a deck.json)
        bad = _run(*flags[:5], table.port, "--deck", "deck.json", *flags[8:], "--key", "other.key", cwd=tmp_path)
    assert bad.returncode == 1 and "other.key: not a table key" in bad.stderr
    assert "move it away for a new key" in bad.stderr and not (tmp_path / "table.toml").exists()


@pytest.mark.realtime
def test_setup_finds_the_board_by_the_udev_rules_name_without_a_port(tmp_path, monkeypatch):
    """Issue 16 item 2, "finds the board": with no ``--port``, setup tries the udev rule's
    name (a symlink, as udev makes it; here to the virtual board's pty), then every USB
    serial port, and says in words when there is none."""
    import argparse
    import asyncio

    from hardware.virtual import VirtualTable
    from table_controller.app.commands import setup

    args = argparse.Namespace(port=None, yes=True, connect_seconds=20)
    with VirtualTable() as table:
        link = tmp_path / "chicago-seat-controller"
        link.symlink_to(table.port)
        monkeypatch.setattr(setup, "UDEV_NAME", str(link))
        assert setup.candidate_ports()[0] == str(link)
        assert asyncio.run(setup._find_seat_controller(args, None)) == str(link)
    link.unlink()  # unplugged: no udev name
    if not setup.candidate_ports():  # a machine with no USB serial port (CI): the words
        with pytest.raises(setup.SetupFailed, match=r"ingen platsstyrning hittad: ingen .*chicago-seat-controller"):
            asyncio.run(setup._find_seat_controller(args, None))


def test_doctor_words_a_running_tables_clocks_wait_and_alerts_in_the_language_it_speaks(capsys):
    """It said "bordet väntar: Waiting for Anna: exchange 1", "öppna larm för TL: two_pads,
    stuck" and "exchange 30 s, chicago 10 s": the waiting text of the language spoken, an
    alert's kind and a clock's name in words, as the table's pages say them."""
    from types import SimpleNamespace

    from table_controller.app.commands import doctor
    from table_controller.app.words import speaking

    cfg = SimpleNamespace(table=SimpleNamespace(virtual=True), camera=None)
    status = {
        "shot_clocks": {"exchange": 30.0, "chicago": 10.0, "play": 25.0, "quads": 15.0},
        "waiting": "Waiting for Anna: exchange 1",
        "waiting_sv": "Väntar på Anna: byte 1",
        "alerts": ["camera_offline", "stuck", "two_pads", "tl_called", "something_new"],
    }
    said = {}
    for lang in ("sv", "en"):
        with speaking(lang):
            doctor._running(cfg, status, doctor.Report())
        said[lang] = capsys.readouterr().out.splitlines()
    assert said["sv"][1:] == [
        "ok    bordet kör betänketiderna (byte 30 s, Chicagofrågan 10 s, spel 25 s, fyrtal 15 s)",
        "obs   bordet väntar: Väntar på Anna: byte 1",
        "obs   öppna larm för TL: bordet står still, ett kort läst på två plattor, TL kallad, something_new",
    ]
    assert said["en"][1:] == [
        "ok    the table runs the shot clocks (exchange 30 s, Chicago question 10 s, play 25 s, four of a kind 15 s)",
        "note  the table waits: Waiting for Anna: exchange 1",
        "note  open alerts for the TL: the table is stuck, a card read on two pads, TL called, something_new",
    ]


@pytest.mark.realtime
def test_doctor_on_a_running_stuck_table_says_who_it_waits_for_in_swedish(tmp_path):
    """The waiting text comes from the running table's /api/status in both languages."""
    import json
    import os
    import signal

    import httpx

    from tests.ports import free_port, wait_listening
    from tests.tournament.broker import wait_until

    port = free_port()
    (tmp_path / "table.toml").write_text(
        f'[table]\nname = "Bord 5"\ndata = "data"\nvirtual = true\nstuck_after = 1\n\n'
        f'[dashboard]\nhost = "127.0.0.1"\nport = {port}\n'
    )
    with open(tmp_path / "service.log", "w") as log:
        service = subprocess.Popen(
            [str(BIN / "chicago-table"), "run", "--config", "table.toml"],
            cwd=tmp_path,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_listening(port, service, (tmp_path / "service.log").read_text, what="the table service")
        tl = {"Authorization": f"Bearer {json.loads((tmp_path / 'data' / 'tokens.json').read_text())['tl']}"}
        for body in (
            {"do": "table", "players": ["Anna", "Bo", "Cilla"]},
            {"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Bo"},
        ):
            r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=body, headers=tl, timeout=30)
            assert r.status_code == 200, r.text
        url = f"http://127.0.0.1:{port}/api/status"

        def waiting() -> dict | None:
            status = httpx.get(url, headers=tl, timeout=30).json()
            return status if status["waiting"] else None

        # the stuck watch says it once nothing happens for a second
        status = wait_until(waiting, 60, "the table's stuck watch")
        assert (status["waiting_sv"], status["waiting"]) == (
            "Väntar på givaren: giv 1",
            "Waiting for the dealer: deal 1",
        )
        sv = _run("doctor", "--config", "table.toml", cwd=tmp_path)
        en = _run("doctor", "--config", "table.toml", "--lang", "en", cwd=tmp_path)
    finally:
        os.killpg(service.pid, signal.SIGTERM)
        service.wait(30)
    assert sv.returncode == 0 and en.returncode == 0, sv.stdout + en.stdout
    assert "obs   bordet väntar: Väntar på givaren: giv 1\n" in sv.stdout
    assert "note  the table waits: Waiting for the dealer: deal 1\n" in en.stdout
    assert "obs   öppna larm för TL: bordet står still\n" in sv.stdout  # the stuck table's alert, in words


def test_setup_refuses_a_folder_as_its_configuration_and_never_writes_over_a_deck(tmp_path):
    """Stop 72's audit: ``setup --config FOLDER`` wrote the deck, the key and the tokens and
    then failed with a traceback at step 6; and a deck.json already in the folder (another
    table's, or one kept) was written over without a word. Both are refused before anything
    is written, saying what to give instead."""
    (tmp_path / "conf").mkdir()
    flags = ["setup", "--yes", "--port", "/dev/chicago-nothing-here", "--deck-uids", "uids.txt"]
    r = _run(*flags, "--config", "conf", cwd=tmp_path)
    assert r.returncode == 2 and f"{tmp_path / 'conf'} är en mapp: ange konfigurationsfilens namn" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conf"] and not any((tmp_path / "conf").iterdir())
    deck = tmp_path / "deck.json"
    deck.write_text('{"format": "chicago-deck/1", "name": "bord 2"}\n')
    r = _run(*flags, "--config", "table8.toml", cwd=tmp_path)
    assert r.returncode == 2 and f"{deck} finns: ange den med --deck {deck}" in r.stderr, r.stderr
    assert deck.read_text() == '{"format": "chicago-deck/1", "name": "bord 2"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["conf", "deck.json"]
