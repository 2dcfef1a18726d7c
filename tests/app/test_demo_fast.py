"""``chicago-table demo --fast`` (issue 15): the bots play a whole table on the virtual
table in simulated time, the dashboard served and streaming all along; when the table is
over the dashboard stays up at an ordinary pace until Ctrl-C, and the table's log is a
finished table that passes ``log check``.

The demo is the real command in its own process; the test waits on what it says and
sends (conditions), never on a clock."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from table_controller.app.config import load_config
from table_controller.rules.replay import replay_lines
from table_controller.store import read_actions
from tests.dashboard.harness import free_port
from tests.ports import wait_listening

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "table_controller.app.cli"]


def test_demo_fast_plays_a_whole_table_in_simulated_time_with_its_dashboard_served(tmp_path):
    data, port = tmp_path / "demo", free_port()
    proc, out = _start_demo("--fast", "--seed", "3", "--pace", "0.02", data=data, port=port)  # once it listens
    assert proc.stdout is not None
    try:
        assert "i simulerad tid" in out[0], "".join(out)  # in simulated time: Swedish first
        tokens = json.loads((data / "tokens.json").read_text())
        base = f"127.0.0.1:{port}"
        # the public view's stream while the bots play: it follows the table to its end
        phases = []
        with connect(f"ws://{base}/ws?token={tokens['public']}", open_timeout=60, max_size=None) as ws:
            while not phases or phases[-1] != "table_over":
                phases.append(json.loads(ws.recv(timeout=300))["state"]["phase"])
        assert len(phases) > 20 and {"tricks", "game_over"} <= set(phases)
        for line in proc.stdout:
            out.append(line)
            if line.startswith(("Bordet är klart.", "Botarna har stannat")):
                break
        assert out[-1].startswith("Bordet är klart."), "".join(out)  # the table is over
        # the table is over and the dashboard still serves, now on the wall clock
        r = httpx.get(f"http://{base}/api/history", params={"token": tokens["tl"]}, timeout=60)
        assert r.status_code == 200 and r.json()["seq"] > 0
        seq = r.json()["seq"]
        with connect(f"ws://{base}/ws?token={tokens['public']}", open_timeout=60) as ws:
            assert json.loads(ws.recv(timeout=60))["state"]["phase"] == "table_over"
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        rest, _ = proc.communicate(timeout=120)
        out.append(rest)
    assert proc.returncode == 0, "".join(out)

    check = subprocess.run([*CLI, "log", "check", str(data / "table.sqlite")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    _, doc = replay_lines(json.dumps(a) for a in read_actions(data / "table.sqlite"))
    assert doc["table"]["finished"] and doc["rejected"] == []

    # the demo is the service with a generated configuration (issue 16 item 1): 'run
    # --config' on the demo's table.toml serves the same table, without the bots
    cfg = load_config(data / "table.toml")
    assert cfg.table.virtual and cfg.table.data == data.resolve() and cfg.dashboard.port == port
    run = subprocess.Popen(
        [*CLI, "run", "--config", str(data / "table.toml")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_listening(port, run, lambda: "", what="run --config on the demo's table.toml")
        r = httpx.get(f"http://{base}/api/history", params={"token": tokens["tl"]}, timeout=60)
        assert r.status_code == 200 and r.json()["seq"] == seq
    finally:
        run.send_signal(signal.SIGTERM)
        said, _ = run.communicate(timeout=120)
    assert run.returncode == 0, said
    assert "det virtuella bordet på " in said and "Traceback" not in said  # the virtual table on


def _spawned_children(pid: int) -> list[int]:
    """The children of ``pid`` that multiprocessing spawned (the broadcast's analysis)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"multiprocessing" in cmd:
            out.append(int(d.name))
    return out


def _start_demo(*argv: str, data: Path, port: int) -> tuple[subprocess.Popen, list[str]]:
    """``chicago-table demo`` in a session of its own (a terminal's group), once it listens:
    its process and the lines it said until then (the views, the protocol last)."""
    proc = subprocess.Popen(
        [*CLI, "demo", *argv, "--port", str(port), "--data", str(data)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    out: list[str] = []
    try:
        for line in proc.stdout:
            out.append(line)
            if line.strip().startswith("protocol"):
                break
        wait_listening(port, proc, lambda: "".join(out), what="the demo")
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return proc, out


def _ctrl_c(proc: subprocess.Popen) -> str:
    """Ctrl-C in the terminal (the whole group); what the demo said after, through the same
    reader (communicate() reads the pipe itself and would lose what the reader has buffered)."""
    assert proc.stdout is not None
    os.killpg(proc.pid, signal.SIGINT)
    rest = proc.stdout.read()
    proc.wait(timeout=120)
    return rest


def test_ctrl_c_in_the_terminal_stops_the_demo_and_its_analysis_child_cleanly(tmp_path):
    """A terminal's Ctrl-C reaches every process of its group, the broadcast's analysis child
    too (it starts once an overlay watches): it printed a KeyboardInterrupt traceback as the
    demo stopped (stop 70's run-through).  Now the demo stops in words and says where its
    table stays."""
    data, port = tmp_path / "demo", free_port()
    proc, out = _start_demo("--seed", "3", "--pace", "0.1", data=data, port=port)
    try:
        tokens = json.loads((data / "tokens.json").read_text())
        with connect(f"ws://127.0.0.1:{port}/ws?token={tokens['broadcast']}", open_timeout=60, max_size=None) as ws:
            deadline = time.monotonic() + 180  # a bound on a condition, not a wait
            while not _spawned_children(proc.pid):  # the overlay watches: the analysis starts
                assert time.monotonic() < deadline, "no analysis child started: " + "".join(out)
                try:
                    ws.recv(timeout=5)
                except TimeoutError:
                    pass
        rest = _ctrl_c(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    said = "".join(out) + rest
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    assert proc.returncode == 0, said
    assert f"Demon stoppad; bordet finns kvar i {data}" in said, said


def _lan_address() -> str | None:
    """This machine's address on its network, if it has one (no packet is sent)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.255", 9))  # a documentation address: only the route is looked up
            addr = s.getsockname()[0]
        except OSError:
            return None
    return None if addr.startswith("127.") else addr


def test_the_demo_serves_the_tablets_on_the_network_with_host_and_says_what_that_costs(tmp_path):
    """--host 0.0.0.0: the views open from another device on the network (stop 70's run-through:
    the demo listened on this computer only, so an official could not try it on a tablet), and
    it warns, as serve does, that the tokens cross the network in plain text."""
    data, port = tmp_path / "demo", free_port()
    proc, out = _start_demo("--direct", "--host", "0.0.0.0", data=data, port=port)
    try:
        tokens = json.loads((data / "tokens.json").read_text())
        lan = _lan_address()
        if lan is not None:  # from the network, as a tablet asks
            r = httpx.get(f"http://{lan}:{port}/public", params={"token": tokens["public"]}, timeout=60)
            assert r.status_code == 200, r.text
    finally:
        rest = _ctrl_c(proc)  # the warning, said before it listened, may sit in the reader's buffer
    said = "".join(out) + rest
    assert "VARNING: lyssnar på 0.0.0.0 utan TLS" in said, said
    assert proc.returncode == 0 and "Traceback" not in said, said
