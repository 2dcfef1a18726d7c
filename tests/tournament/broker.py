"""A real Mosquitto broker for the tests: a free loopback port, a temp config, a real
process we can kill and start again on the same port."""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from tests.ports import free_port, listening

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def wait_until(cond, timeout: float = 30.0, what: str = "condition", step: float = 0.02):
    """Poll a condition (never a fixed sleep); fail with what was awaited."""
    end = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)


class Broker:
    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        users: dict[str, str] | None = None,
        acl: str | None = None,
        tls: tuple[Path, Path] | None = None,
    ):
        self.folder = Path(folder)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.conf = self.folder / "mosquitto.conf"
        # persistence off: a restart loses every queued message, the worst case the
        # tables' resend-from-the-ack must cover (broker acks are not durable)
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"max_queued_messages 0\nset_tcp_nodelay true\nlog_dest file {self.folder / 'mosquitto.log'}\n"
            # as root, mosquitto would switch to user 'mosquitto', who cannot read
            # the test's private folder (its log, password and ACL files)
            f"user {getpass.getuser()}\n" + (f"certfile {tls[0]}\nkeyfile {tls[1]}\n" if tls else "")
            # a TLS listener (certificate, key): the hall's network sees no password, no record
        )
        if users:  # an event's broker: a user per table and for the hub, topics by ACL (TOPICS.md)
            pw = self.folder / "passwords"
            pw.write_text("")
            for user, password in users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pw), user, password], check=True, capture_output=True)
            text = self.conf.read_text().replace("allow_anonymous true", "allow_anonymous false")
            text += f"password_file {pw}\n"
            if acl:
                (self.folder / "acl").write_text(acl)
                text += f"acl_file {self.folder / 'acl'}\n"
            self.conf.write_text(text)

    def start(self) -> Broker:
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_until(self._listening, 20, f"mosquitto on port {self.port}")
        return self

    def _listening(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(
                f"mosquitto exited with {self.proc.returncode}: "
                f"{(self.folder / 'mosquitto.log').read_text(errors='replace')[-2000:]}"
            )
        return listening(self.port)

    def kill(self) -> None:
        """SIGKILL: no goodbye to any client, every in-flight message gone."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


async def until(cond, timeout: float = 60.0, what: str = "condition", step: float = 0.02):
    """Async: poll a condition while the loop runs the publishers and the hub."""
    import asyncio

    end = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(step)
