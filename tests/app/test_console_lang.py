"""The commands that start and run a table (``run``, ``serve``, ``demo``) speak Swedish
first, English with ``--lang en`` (table_controller/app/words.py), as ``setup``,
``doctor`` and ``hub`` do: what an official reads at the table, from the start banner to a
refused option.  Names, addresses and paths stay as they are."""

from __future__ import annotations

import signal
import socket
import sys

import pytest

from table_controller.app.cli import main
from table_controller.app.words import speaking
from tests.app.test_service import Service
from tests.ports import free_port


def said(capsys) -> str:
    out = capsys.readouterr()
    return out.out + out.err


@pytest.mark.parametrize(
    ("argv", "sv", "en"),
    [
        (["run"], "ange var bordet finns: --config FILE", "say where the table is: --config FILE"),
        (["run", "--virtual", "--until-done"], "--until-done kräver --bots", "--until-done needs --bots"),
        (
            ["run", "--data", "d", "--json"],
            "--json gäller datorspelarnas bord utan --config",
            "--json is for the bots' table",
        ),
        (
            ["run", "--virtual", "--name", "x"],
            "--name gäller bordet som tjänst",
            "--name is for the table as a service",
        ),
        (
            ["demo", "--port", "{port}", "--manual-chicago"],
            "--manual-chicago kräver --direct",
            "--manual-chicago needs --direct",
        ),
    ],
)
def test_a_refused_option_is_said_in_swedish_unless_asked_for_english(argv, sv, en, capsys):
    argv = [a.format(port=free_port()) for a in argv]
    assert main(argv) == 2
    text = said(capsys)
    assert text.startswith(f"chicago-table {argv[0]}: {sv}"), text
    assert main([*argv, "--lang", "en"]) == 2
    text = said(capsys)
    assert text.startswith(f"chicago-table {argv[0]}: {en}"), text


def test_a_port_in_use_is_said_in_the_words_spoken_with_the_systems_reason_in_them_too():
    from table_controller.app.web import port_problem

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with speaking("sv"):
            sv = port_problem("127.0.0.1", port)
        with speaking("en"):
            en = port_problem("127.0.0.1", port)
    # the system's reason in the same words (stop 70: it was "Address already in use" in both)
    assert sv == f"kan inte lyssna på 127.0.0.1:{port} (adressen används redan); välj en annan --port"
    assert en == f"cannot listen on 127.0.0.1:{port} (the address is in use already); choose another --port"


@pytest.mark.realtime
def test_serve_and_run_say_their_start_in_swedish_unless_asked_for_english(tmp_path):
    """serve's banner in Swedish by default; run's (the table as a service on the virtual
    table) in English with --lang en; the views' names and URLs as they are in both."""
    cli = [sys.executable, "-m", "table_controller.app.cli"]
    port = free_port()
    serve = Service([*cli, "serve", "--data", str(tmp_path / "s"), "--port", str(port)], port, tmp_path / "serve.log")
    serve.start()
    try:
        sv = serve.log.read_text()
    finally:
        serve.signal(signal.SIGTERM)  # serve ends as uvicorn does on it
    assert sv.startswith("Bord 1: 0 händelser; sändningsfördröjning 60 s. Vyer:\n"), sv
    assert f"  tl         TL:s översikt          http://localhost:{port}/tl?token=...\n" in sv  # who it is for
    assert f"  public     resultattavlan         http://localhost:{port}/public?token=...\n" in sv
    assert f"  (rollänkarna finns i {tmp_path / 's' / 'tokens.json'}; --show-tokens skriver ut dem)" in sv
    assert "events" not in sv and "Views" not in sv

    port = free_port()
    data = tmp_path / "r"
    argv = ["run", "--virtual", "--data", str(data), "--dashboard-port", str(port), "--lang", "en"]
    run = Service([*cli, *argv], port, tmp_path / "run.log")
    run.start()
    try:
        en = run.log.read_text()
    finally:
        assert run.signal(signal.SIGTERM) == 0, run.log.read_text()
    first, views, *_ = en.splitlines()
    assert first.startswith("Bord 1: the virtual table on "), en
    assert first.endswith(f"; data in {data}; 0 events; broadcast delay 60 s."), en
    assert views == "Views:"
    assert f"  dealer     the dealer's screen    http://localhost:{port}/dealer?token=...\n" in en
    assert f"  (tokens in {data / 'tokens.json'}; --show-tokens prints them)" in en
