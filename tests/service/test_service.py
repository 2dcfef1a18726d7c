"""``chicago-table run`` as one service on a real server (issue 16 items 1 and 4): the
virtual table, the dashboard, and a stuck table seen on every view.  The stuck-table
logic itself runs in simulated time in tests/live/test_stuck.py; here the service wires
it to the dashboard, on the wall clock with the smallest ``--stuck-after``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


@pytest.mark.realtime
def test_a_stuck_table_is_told_to_the_tl_and_shown_on_every_view(tmp_path):
    port, data = _free_port(), tmp_path / "data"
    cmd = [sys.executable, "-m", "table_controller.app.cli", "run", "--virtual", "--data", str(data),
           "--name", "Bord 3", "--dashboard-port", str(port), "--stuck-after", "1"]
    with open(tmp_path / "service.log", "w") as log:  # the child keeps its own descriptor
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:  # the dashboard answers
            assert proc.poll() is None, (tmp_path / "service.log").read_text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        tokens = json.loads((data / "tokens.json").read_text())
        tl = {"Authorization": f"Bearer {tokens['tl']}"}
        # no table yet: nobody is waited for, however long nothing happens
        first = _stream(port, tokens["tl"], lambda m: m.get("type") == "state")
        assert first["table"] == "Bord 3" and first["state"].get("waiting") is None
        for body in ({"do": "table", "players": ["Anna", "Bo", "Cilla"]},
                     {"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Bo"}):
            r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=body, headers=tl, timeout=30)
            assert r.status_code == 200, r.text
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
        assert (data / "table.sqlite").exists()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
    assert proc.returncode == 0, (tmp_path / "service.log").read_text()  # SIGTERM: a clean stop
    assert "Traceback" not in (tmp_path / "service.log").read_text()
