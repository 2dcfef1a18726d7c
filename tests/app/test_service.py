"""``chicago-table run`` as one service on a real server (issue 16 items 1 and 4): the
virtual table, the dashboard, and a stuck table seen on every view.  The stuck-table
logic itself runs in simulated time in tests/live/test_stuck.py; here the service wires
it to the dashboard, on the wall clock with the smallest ``--stuck-after``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot
from tests.ports import free_port as _free_port
from tests.ports import wait_listening

ROOT = Path(__file__).resolve().parents[2]


def _stream(port: int, token: str, until, timeout: float = 60.0) -> dict:
    last = None
    deadline = time.monotonic() + timeout
    with connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=10) as ws:
        while time.monotonic() < deadline:
            try:
                m = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            except TimeoutError:
                break
            last = m
            if until(m):
                return m
    pytest.fail(f"not seen in {timeout} s; last message: {json.dumps(last)[:1500]}")


class Service:
    def __init__(self, cmd: list[str], port: int, log: Path) -> None:
        self.cmd, self.port, self.log = cmd, port, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "a") as log:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                self.cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_listening(self.port, self.proc, self.log.read_text, what="the table service")

    def signal(self, sig: int) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
        return self.proc.wait(30)


@pytest.mark.realtime
def test_a_stuck_table_is_told_to_the_tl_and_shown_on_every_view_and_a_restart_resumes_it(tmp_path):
    port, data = _free_port(), tmp_path / "data"
    cmd = [
        sys.executable,
        "-m",
        "table_controller.app.cli",
        "run",
        "--virtual",
        "--data",
        str(data),
        "--name",
        "Bord 3",
        "--dashboard-port",
        str(port),
        "--stuck-after",
        "1",
        "--shot-clocks",
        "exchange=45",
    ]
    service = Service(cmd, port, tmp_path / "service.log")
    service.start()
    try:
        tokens = json.loads((data / "tokens.json").read_text())
        tl = {"Authorization": f"Bearer {tokens['tl']}"}
        # no table yet: nobody is waited for, however long nothing happens
        first = _stream(port, tokens["tl"], lambda m: m.get("type") == "state")
        assert first["table"] == "Bord 3" and first["state"].get("waiting") is None
        engine, bot = Engine(), RandomBot(8, ("Anna", "Bo", "Cilla"))
        for _ in range(2):
            action = bot.next_action(engine)
            r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=action.to_dict(), headers=tl, timeout=30)
            assert r.status_code == 200, r.text
            engine.apply(action)
        # the dealer is to deal, and nothing happens: the TL's alert, Swedish first
        m = _stream(port, tokens["tl"], lambda m: any(a.get("kind") == "stuck" for a in m.get("alerts", ())))
        alert = next(a for a in m["alerts"] if a["kind"] == "stuck")
        assert alert["text"].startswith("Väntar på givaren: giv 1 (inget hänt på ")
        assert "/ Waiting for the dealer: deal 1" in alert["text"]
        # and every view says who the table waits for instead of "live"
        for role in ("tl", "revisor", "public", "dealer"):
            seen = _stream(port, tokens[role], lambda m: (m.get("state") or {}).get("waiting") is not None)
            assert seen["state"]["waiting"]["text_sv"] == "Väntar på givaren: giv 1", role
            assert seen["state"]["waiting"]["text"] == "Waiting for the dealer: deal 1", role
        # the TL enters the deal by hand; the table waits for the first player's exchange
        deal = bot.next_action(engine)
        r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=deal.to_dict(), headers=tl, timeout=30)
        assert r.status_code == 200, r.text
        dealt = _stream(port, tokens["tl"], lambda m: m["state"]["phase"] == "exchange_1")
        limits = dealt["state"]["clocks"]["limits"]  # the event's exchange clock (D11), the rest D11's
        assert limits == {"exchange": 45.0, "chicago": 10.0, "play": 20.0, "quads": 15.0}

        assert service.signal(signal.SIGKILL) == -signal.SIGKILL
        service.start()  # the same command: the same table, its cards laid out again
        again = _stream(port, tokens["tl"], lambda m: m.get("type") == "state")
        assert again["seq"] == dealt["seq"]
        for key in ("phase", "players", "to_act", "game", "deal"):
            assert again["state"][key] == dealt["state"][key], key
        assert again["state"]["clocks"]["paused"] and again["state"].get("waiting") is None
        # the stuck alert of before the kill ended with its step: it does not come back as open
        assert not [x for x in again.get("alerts", ()) if "Väntar" in x["text"] or "giv 1" in x["text"]], again[
            "alerts"
        ]
        # the virtual table: its cards laid out as 3 logged actions left them
        assert "det virtuella bordet: korten ligger där 3 loggade åtgärder lämnade dem" in service.log.read_text()
    finally:
        code = service.signal(signal.SIGTERM)
    assert code == 0, service.log.read_text()  # SIGTERM: a clean stop
    assert "Traceback" not in service.log.read_text()


@pytest.mark.realtime
def test_every_dashboard_key_of_the_config_file_reaches_the_running_table(tmp_path):
    """TLS files, broadcast delay, the event's shared tokens file and the peers, all from
    the file (paths beside it); a flag overrides the file's port."""
    if not shutil.which("openssl"):
        pytest.skip("needs the openssl command to make a test certificate")
    folder = tmp_path / "etc"
    folder.mkdir()
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(folder / "t.key"),
            "-out",
            str(folder / "t.crt"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    port = _free_port()
    (folder / "table.toml").write_text("""
[table]
name = "Bord 4"
data = "../data"
virtual = true

[dashboard]
host = "127.0.0.1"
port = 1
tls_cert = "t.crt"
tls_key = "t.key"
broadcast_delay = 7.5
event_tokens = "event-tokens.json"
peers = ["http://bord5.local:8080"]
""")
    cmd = [
        sys.executable,
        "-m",
        "table_controller.app.cli",
        "run",
        "--config",
        str(folder / "table.toml"),
        "--dashboard-port",
        str(port),
    ]
    service = Service(cmd, port, tmp_path / "service.log")
    service.start()
    try:
        tokens = json.loads((folder / "event-tokens.json").read_text())  # the event's file, beside the config
        assert not (tmp_path / "data" / "tokens.json").exists()
        ctx = ssl.create_default_context(cafile=str(folder / "t.crt"))
        base = f"https://127.0.0.1:{port}"
        tables = httpx.get(f"{base}/api/tables", params={"token": tokens["tl"]}, verify=ctx, timeout=30).json()
        assert tables["tables"] == [{"base": "", "name": "Bord 4"}, {"base": "http://bord5.local:8080"}]
        assert httpx.get(f"{base}/tl", verify=ctx, timeout=30).status_code == 401  # no token, no page
        with pytest.raises(httpx.HTTPError):  # plain HTTP on the TLS port gets nothing
            httpx.get(f"http://127.0.0.1:{port}/tl", params={"token": tokens["tl"]}, timeout=5)
        said = service.log.read_text()
        assert (
            "sändningsfördröjning 7,5 s" in said and "Vyer:" in said
        )  # broadcast delay (a decimal comma), Views: Swedish first
        assert "/hall?token=... (2 bord)" in said  # this table and its peer
        assert (tmp_path / "data" / "table.sqlite").exists()
    finally:
        assert service.signal(signal.SIGTERM) == 0, service.log.read_text()
