"""Ports for the tests' own servers: a free one, and waiting (on a condition, never a fixed
time) until a started process listens on it."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable


def free_port() -> int:
    """A TCP port on localhost that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts a connection on ``port`` now."""
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_listening(
    port: int,
    proc: subprocess.Popen | None = None,
    output: Callable[[], str] = lambda: "",
    timeout: float = 60.0,
    what: str = "the server",
) -> None:
    """Poll until ``port`` accepts a connection.  Fails at once, with ``output()``, when
    ``proc`` has exited; fails after ``timeout`` s (a ceiling for a loaded machine, not a
    wait: a listening server returns at once)."""
    deadline = time.monotonic() + timeout
    while not listening(port):
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"{what} exited with {proc.returncode} before it listened on {port}:\n{output()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not listen on {port} within {timeout:.0f} s:\n{output()}")
        time.sleep(0.05)
