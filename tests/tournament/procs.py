"""The hub and the tables' publishers as real processes (the CLI), so a test can kill
one with SIGKILL and start it again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "table_controller.app.cli"]


class Proc:
    def __init__(self, args: list[str], log: Path):
        self.args, self.log = args, log
        self.p: subprocess.Popen | None = None

    def start(self) -> Proc:
        with open(self.log, "ab") as log:  # the child has its own copy of the descriptor
            self.p = subprocess.Popen(CLI + self.args, stdout=subprocess.DEVNULL, stderr=log)
        return self

    def kill(self) -> None:
        if self.p and self.p.poll() is None:
            os.kill(self.p.pid, signal.SIGKILL)
            self.p.wait(10)

    def stop(self) -> None:
        if self.p and self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


def hub_proc(hub: Path, port: int, folder: Path) -> Proc:
    return Proc(["hub", "serve", str(hub), "--broker", f"127.0.0.1:{port}"], folder / "hub.log")


def publisher_proc(db: Path, table: str, port: int, folder: Path, event: str = "sm2026") -> Proc:
    return Proc(
        [
            "hub",
            "publish",
            "--db",
            str(db),
            "--table",
            table,
            "--event",
            event,
            "--broker",
            f"127.0.0.1:{port}",
            "--batch",
            "100",
            "--stall",
            "1",
        ],
        folder / f"{table}.log",
    )


def wait_exit(proc: Proc, timeout: float = 600.0) -> int:
    """The process's exit code (a table that plays to its end, or to --max-actions)."""
    assert proc.p is not None
    return proc.p.wait(timeout)


def web_proc(hub: Path, port: int, folder: Path, tokens: Path | None = None) -> Proc:
    args = ["hub", "web", str(hub), "--port", str(port)]
    return Proc(args + (["--tokens", str(tokens)] if tokens else []), folder / "web.log")


def table_proc(db: Path, table: str, seed: int, hub_url: str, folder: Path, actions: int | None = None) -> Proc:
    """A live virtual table with bots in simulated time, seated from the hub's draw:
    ``actions`` more actions (resuming the log), or to the table's end when None."""
    args = ["run", "--virtual", "--bots", "--fast", "--db", str(db), "--seed", str(seed)]
    args += ["--hub", hub_url, "--table-id", table]
    args += ["--until-done"] if actions is None else ["--max-actions", str(actions)]
    return Proc(args, folder / f"{table}.run.log")
