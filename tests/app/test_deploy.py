"""The Pi deployment (issue 16 item 5), tested: the install script puts the user, udev
rule, configuration, data folder and unit in place (under a DESTDIR: this machine's own
system is left alone); ``systemd-analyze verify`` passes on the unit it installs; and
the unit's exact command line, paths pointed at a temporary folder, runs a table against
the virtual table over a real pseudo-terminal, is SIGKILLed mid-deal, and comes back as
the same table on the dashboard, its clocks paused until the dealer presses pause."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from hardware.virtual import NoiseModel, VirtualTable
from table_controller.app.config import load_config
from table_controller.deck import virtual_deck
from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot
from table_controller.sim.translate import Translator, make_move
from tests.ports import free_port as _free_port
from tests.ports import wait_listening

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "hardware" / "deploy"
UNIT = DEPLOY / "chicago-table.service"
COMMAND = "/opt/chicago-table/.venv/bin/chicago-table run --config /etc/chicago-table/table.toml"


def install(destdir: Path, prefix: Path | str = "/opt/chicago-table") -> str:
    out = subprocess.run(
        ["sh", str(DEPLOY / "install.sh")],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "DESTDIR": str(destdir), "PREFIX": str(prefix), "CHICAGO_NO_VENV": "1"},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def exec_start(unit: Path) -> list[str]:
    lines = [ln for ln in unit.read_text().splitlines() if ln.startswith("ExecStart=")]
    assert len(lines) == 1
    return shlex.split(lines[0].removeprefix("ExecStart="))


def test_the_unit_runs_the_tables_configuration():
    assert shlex.join(exec_start(UNIT)) == COMMAND
    text = UNIT.read_text()
    for line in (
        "User=chicago",
        "SupplementaryGroups=dialout",
        "StateDirectory=chicago-table",
        "ConfigurationDirectory=chicago-table",
        "WorkingDirectory=/var/lib/chicago-table",
        "Restart=on-failure",
    ):
        assert line in text.splitlines(), line


def test_the_install_script_puts_everything_in_its_place_and_keeps_the_clubs_config(tmp_path):
    said = install(tmp_path)
    conf, data = tmp_path / "etc/chicago-table", tmp_path / "var/lib/chicago-table"
    unit = tmp_path / "etc/systemd/system/chicago-table.service"
    rule = tmp_path / "etc/udev/rules.d/99-chicago-seat-controller.rules"
    assert unit.read_text() == UNIT.read_text()  # PREFIX /opt/chicago-table: as shipped
    assert rule.read_bytes() == (DEPLOY / rule.name).read_bytes()
    assert (conf / "table.toml").read_text() == (DEPLOY / "table.toml").read_text()
    assert (conf / "table.toml").stat().st_mode & 0o777 == 0o640 and conf.stat().st_mode & 0o777 == 0o750
    assert data.is_dir() and data.stat().st_mode & 0o777 == 0o700  # the log holds every hand
    for step in (
        "usermod -a -G dialout chicago",
        "udevadm control --reload",
        "chown chicago:chicago",
        f"chgrp chicago {conf}",
        "systemctl daemon-reload",
        "systemctl enable chicago-table.service",
    ):
        assert f"would run: {step}" in said, step
    # the shipped configuration reads, once the deck is registered, and names the unit's folders
    virtual_deck().save(conf / "deck.json")
    cfg = load_config(conf / "table.toml")
    assert cfg.table.data == Path("/var/lib/chicago-table") and cfg.seat_controller.deck == conf / "deck.json"
    assert cfg.seat_controller.port == "/dev/chicago-seat-controller" and not cfg.table.virtual
    # run again (an update): the club's edits stay
    (conf / "table.toml").write_text((conf / "table.toml").read_text().replace("Bord 1", "Bord 9"))
    assert "kept" in install(tmp_path)
    assert 'name = "Bord 9"' in (conf / "table.toml").read_text()


@pytest.mark.skipif(
    not shutil.which("systemd-analyze"),
    reason="systemd-analyze is not installed here (command -v systemd-analyze finds nothing)",
)
def test_systemd_analyze_verifies_the_installed_unit(tmp_path):
    # PREFIX: this checkout, whose venv exists, so even the ExecStart check has nothing to say
    install(tmp_path, prefix=ROOT)
    unit = tmp_path / "etc/systemd/system/chicago-table.service"
    assert exec_start(unit)[0] == str(ROOT / ".venv/bin/chicago-table")
    out = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], check=False, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and not (out.stdout + out.stderr).strip(), out.stdout + out.stderr


@pytest.mark.skipif(
    not shutil.which("systemd-analyze"),
    reason="systemd-analyze is not installed here (command -v systemd-analyze finds nothing)",
)
def test_systemd_analyze_verifies_the_publisher_unit_beside_it(tmp_path):
    """The tournament's publisher unit (issue 20, README "A tournament"), copied by hand next
    to the table's: it verifies, and runs 'hub publish' on the table's log with its key."""
    text = (DEPLOY / "chicago-table-publish.service").read_text()
    argv = exec_start_lines(text)
    assert argv[:3] == ["/opt/chicago-table/.venv/bin/chicago-table", "hub", "publish"]
    assert argv[argv.index("--db") + 1] == "/var/lib/chicago-table/table.sqlite"
    assert argv[argv.index("--key") + 1] == "/etc/chicago-table/table.key"  # where setup makes it
    unit = tmp_path / "chicago-table-publish.service"
    unit.write_text(text.replace("/opt/chicago-table/.venv", str(ROOT / ".venv")))  # a venv that exists
    out = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], check=False, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and not (out.stdout + out.stderr).strip(), out.stdout + out.stderr


def exec_start_lines(text: str) -> list[str]:
    """ExecStart= with its continuation lines, split as systemd does (no shell)."""
    joined = text.replace("\\\n", " ")
    (line,) = [ln for ln in joined.splitlines() if ln.startswith("ExecStart=")]
    return shlex.split(line.removeprefix("ExecStart="))


@pytest.mark.slow  # about 2 minutes: pip installs the controller and its dependencies
def test_the_install_script_makes_a_virtualenv_whose_command_the_unit_runs(tmp_path):
    out = subprocess.run(
        ["sh", str(DEPLOY / "install.sh")],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "DESTDIR": str(tmp_path), "PREFIX": "/opt/chicago-table"},
        timeout=1200,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    command = tmp_path / "opt/chicago-table/.venv/bin/chicago-table"
    unit = tmp_path / "etc/systemd/system/chicago-table.service"
    assert exec_start(unit)[0] == "/opt/chicago-table/.venv/bin/chicago-table"
    helped = subprocess.run([str(command), "run", "--help"], check=False, capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and "--config FILE" in helped.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("[dashboard]\nport = 0\n")
    refused = subprocess.run(
        [str(command), "run", "--config", str(bad)], check=False, capture_output=True, text=True, timeout=120
    )
    assert refused.returncode == 2 and "rad 2: [dashboard] port ska vara ett heltal" in refused.stderr


# --- the unit's command line, killed mid-deal and started again ------------------------------


class Service:
    """The unit's ExecStart in a subprocess (its own session, as systemd gives it)."""

    def __init__(self, argv: list[str], cwd: Path, port: int, log: Path) -> None:
        self.argv, self.cwd, self.port, self.log = argv, cwd, port, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "a") as out:
            self.proc = subprocess.Popen(
                self.argv, cwd=self.cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_listening(self.port, self.proc, self.log.read_text, what="the installed service's dashboard")

    def kill(self) -> None:
        assert self.proc is not None and self.proc.poll() is None, self.log.read_text()
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(30)


def tl_state(port: int, token: str, until=lambda m: True, timeout: float = 60.0) -> dict:
    """The TL's stream: the first state message that satisfies ``until``."""
    seen = None
    deadline = time.monotonic() + timeout
    with connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=10) as ws:
        while time.monotonic() < deadline:
            try:
                m = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                break
            if m.get("type") == "state":
                seen = m
                if until(m):
                    return m
    pytest.fail(f"the TL's view never showed what was waited for; last: {json.dumps(seen)[:2000]}")


@pytest.mark.realtime  # the virtual table's firmware thread and the service run on the wall clock
def test_the_units_command_runs_a_table_that_a_sigkill_does_not_lose(tmp_path):
    root = tmp_path / "root"
    install(root, prefix=ROOT)
    conf, data = root / "etc/chicago-table", root / "var/lib/chicago-table"
    virtual_deck().save(conf / "deck.json")
    port = _free_port()
    with VirtualTable(noise=NoiseModel.clean(), seed=5) as table:
        # the shipped configuration, its paths pointed at the temporary root and the pty
        text = (conf / "table.toml").read_text()
        for old, new in (
            ('"/var/lib/chicago-table"', f'"{data}"'),
            ('"/dev/chicago-seat-controller"', f'"{table.port}"'),
            ('host = "0.0.0.0"', 'host = "127.0.0.1"'),
            ("port = 8080", f"port = {port}"),
            ('ruleset = "sm2025"', 'ruleset = "sm2019"'),
        ):
            assert old in text
            text = text.replace(old, new)
        (conf / "table.toml").write_text(text)
        argv = [
            a.replace("/etc/chicago-table", str(conf))
            for a in exec_start(root / "etc/systemd/system/chicago-table.service")
        ]
        assert argv[1:] == ["run", "--config", str(conf / "table.toml")]
        service = Service(argv, data, port, tmp_path / "service.log")
        service.start()
        try:
            token = json.loads((data / "tokens.json").read_text())["tl"]
            assert tl_state(port, token)["table"] == "Bord 1"
            # the TL starts the table and draws the seats on the dashboard ...
            engine, bot, translator = Engine(), RandomBot(5, ruleset="sm2019"), Translator()
            for _ in range(2):
                action = bot.next_action(engine)
                body = action.to_dict()
                if body["do"] == "table":
                    assert body.pop("ruleset") == "sm2019"  # the TL names none: the configured one
                r = httpx.post(
                    f"http://127.0.0.1:{port}/api/action",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=30,
                )
                assert r.status_code == 200, r.text
                engine.apply(action)
            # ... and the dealer deals on the pads: the service senses the deal
            deal = bot.next_action(engine)
            before = Translator.before(engine)
            engine.apply(deal)
            steps = translator.plan(deal, before, engine)
            cut = steps.index(("sync",))
            for step in steps[:cut]:
                make_move(table, step)
            dealt = tl_state(port, token, lambda m: m["state"]["phase"] == "exchange_1")
            for step in steps[cut:]:
                make_move(table, step)  # the players take their hands up
            assert dealt["state"]["clocks"]["running"] and not dealt["state"]["clocks"]["paused"]
            assert dealt["state"]["ruleset"] == "sm2019"

            service.kill()  # mid-deal: the exchange's shot clocks running
            service.start()

            again = tl_state(port, token)
            for key in ("seq", "table"):
                assert again[key] == dealt[key], key
            for key in ("phase", "game", "deal", "button", "to_act", "players"):
                assert again["state"][key] == dealt["state"][key], key
            assert again["state"]["clocks"]["paused"]  # until the dealer resumes
            table.press("pause")  # the dealer resumes on the console
            resumed = tl_state(port, token, lambda m: not m["state"]["clocks"]["paused"])
            assert resumed["state"]["phase"] == "exchange_1" and resumed["state"]["clocks"]["running"]
        finally:
            service.stop()
    assert "Traceback" not in (tmp_path / "service.log").read_text()
