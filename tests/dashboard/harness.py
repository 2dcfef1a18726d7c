"""Test harness: a real dashboard server in its own process and Debian's chromium.

The server is ``chicago-table demo`` (bots through the engine) or ``serve``, started as a
subprocess on a free port with its own data folder, so a test can kill and restart it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from table_controller.rules.actions import parse_action
from table_controller.rules.engine import Engine
from table_controller.store import SQLiteStore, read_actions
from table_controller.views import snapshot
from tests.ports import free_port, wait_listening

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "table_controller.app.cli"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CARD_RE = re.compile(r'"([2-9TJQKA][SHDC])"')
PRETTY_RE = re.compile(r"(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])")
SUIT_OF = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
# cards_in_text ported to the page (the same two regexes), run by a MutationObserver on every
# change of the DOM: window.__cards.states holds [seq, history's seq, the cards in the whole
# outerHTML while the page showed that pair] for every pair it showed, and .kept some whole
# outerHTMLs with the cards the port found in each (every 40th scan and the last), so a test
# can check the port against cards_in_text.  The observer is called once the page's script
# has returned: a state is scanned as rendered, never half done.
CARD_RECORDER_JS = r"""
(() => {
  const CARD = /"([2-9TJQKA][SHDC])"/g, PRETTY = /(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])/g;
  const SUIT = { "\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C" };
  const rec = (window.__cards = { states: [], kept: [], last: null, scans: 0 });
  let key = null, cards = null;
  function scan() {
    const seq = Number(document.body?.dataset.seq ?? -99);
    const hseq = Number(document.querySelector("#history")?.dataset.seq ?? -99);
    const html = document.documentElement.outerHTML, found = new Set();
    for (const m of html.matchAll(CARD)) found.add(m[1]);
    for (const m of html.matchAll(PRETTY)) found.add((m[1] === "10" ? "T" : m[1]) + SUIT[m[2]]);
    if (key !== seq + "/" + hseq) {
      key = seq + "/" + hseq; cards = new Set();
      rec.states.push([seq, hseq, cards]);
    }
    for (const c of found) cards.add(c);
    rec.last = [html, [...found]];
    if (rec.scans++ % 40 === 0) rec.kept.push(rec.last);
  }
  new MutationObserver(scan).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window.__cardsTaken = () => ({
    states: rec.states.map(([s, h, c]) => [s, h, [...c]]), kept: [...rec.kept, rec.last], scans: rec.scans });
})();
"""


class Server:
    """``chicago-table demo`` (or ``serve``) in a subprocess; restartable on the same data."""

    def __init__(
        self,
        data: Path,
        command: str = "demo",
        pace: float = 0.05,
        delay: float = 2.0,
        seed: int = 1,
        extra: tuple[str, ...] = (),
        direct: bool = True,
        port: int | None = None,
        cli: list[str] | None = None,
        env: dict[str, str] | None = None,
    ):
        self.data = Path(data)
        self.command = command
        self.pace, self.delay, self.seed, self.extra, self.direct = pace, delay, seed, extra, direct
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None
        self.cli, self.env = cli or CLI, env

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        args = self.cli + [self.command, "--port", str(self.port), "--data", str(self.data)]
        if self.delay is not None:
            args += ["--broadcast-delay", str(self.delay)]
        if self.command == "demo":
            args += ["--pace", str(self.pace), "--seed", str(self.seed)] + (["--direct"] if self.direct else [])
        args += list(self.extra)
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env={**os.environ, **self.env} if self.env else None,
        )
        proc = self.proc
        wait_listening(self.port, proc, lambda: proc.stdout.read() if proc.poll() is not None else "", 30)
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)  # a crash, not a polite shutdown
            self.proc.wait(10)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def tokens_file(self) -> Path:
        args = self.extra
        return Path(args[args.index("--tokens") + 1]) if "--tokens" in args else self.data / "tokens.json"

    @property
    def name(self) -> str:
        args = self.extra
        return (
            args[args.index("--name") + 1] if "--name" in args else "Demobord" if self.command == "demo" else "Bord 1"
        )

    def token(self, role: str) -> str:
        """``role``'s token as this table's links carry it (a seat's: this table's own)."""
        from dashboard.tokens import SEATS, seat_token, table_salt

        secret = json.loads(self.tokens_file.read_text())[role]
        return seat_token(secret, self.name, table_salt(self.data)) if role in SEATS else secret

    def first_message(self, role: str) -> dict:
        """The first message ``role``'s stream sends: the table as that role sees it now."""
        from websockets.sync.client import connect

        with connect(f"{self.ws_base}/ws?token={self.token(role)}", open_timeout=5, max_size=None) as ws:
            return json.loads(ws.recv(timeout=5))

    def url(self, view: str, role: str | None = None) -> str:
        return f"{self.base}/{view}?token={self.token(role or view)}"

    def actions(self) -> list[dict]:
        """The accepted actions in the table's event log (read-only, while it runs)."""
        path = self.data / "table.sqlite"
        return read_actions(path) if path.exists() else []

    def head(self, seq: int | None = None) -> dict:
        """The log's chain head: its last record's seq and digest, or those of record ``seq``
        (read-only, while it runs)."""
        with SQLiteStore.open(self.data / "table.sqlite", readonly=True, check=False) as store:
            at = store.last_seq() if seq is None else seq
            rec = store.read(at, at)
        return {"seq": rec[0].seq, "digest": rec[0].digest} if rec else {}

    def audit(self) -> list[dict]:
        with SQLiteStore.open(self.data / "table.sqlite", readonly=True, check=False) as store:
            return [{"who": r.data["who"], **r.data} for r in store.read(kinds=["audit"])]


FACE_UP = {"open_card_shown": "card", "card_played": "card", "trick_won": "card", "dealer_erred": "cards"}


def face_up_cards(event) -> set[str]:
    """The cards ``event`` shows face up to everyone (none for most events)."""
    key = FACE_UP.get(event.type)
    if not key:
        return set()
    v = getattr(event, key)
    return {c.code for c in (v if isinstance(v, tuple) else (v,))}


def public_cards_by_seq(actions: list[dict]) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
    """For every seq the table passed through: (cards shown face up to everyone in the
    current deal so far, cards still hidden in hands or face-down discards)."""
    engine = Engine()
    public: dict[int, set[str]] = {0: set()}
    hidden: dict[int, set[str]] = {0: set()}
    shown: set[str] = set()
    for a in actions:
        for e in engine.apply(parse_action(a)):
            if e.type == "deal_started":
                shown = set()
            shown |= face_up_cards(e)
        snap = snapshot(engine)
        hid: set[str] = set()
        for p in snap["players"]:
            hid.update(p["hand"] or ())
            hid.update(p["placed"] or ())
        public[snap["seq"]] = set(shown)
        hidden[snap["seq"]] = hid - shown
    return public, hidden


def cards_in_text(text: str) -> set[str]:
    """Card codes in a JSON text (as JSON strings) and shown cards (A\u2660) in page text."""
    found = set(CARD_RE.findall(text))
    found.update(("T" if r == "10" else r) + SUIT_OF[s] for r, s in PRETTY_RE.findall(text))
    return found


class Devices:
    """Debian's chromium, with every page on a device of its own: a window of its own (a
    browser context), as the Revisor's tablet, the dealer's screen and the TL's laptop are at
    a real table.  Pages opened as tabs of one window are background tabs but one, and
    chromium runs a background tab's animation frames about once a second, so each click
    (Playwright waits for two frames to see the element stand still) took up to 2 s."""

    def __init__(self, playwright) -> None:
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

    def new_page(self, motion: bool = False):
        """A page in a window of its own.  Its device asks for reduced motion (the views then
        draw no animation, dashboard/static/style.css) unless ``motion``: the tests of the
        animations ask for it; the rest spare chromium repainting them at a fast table's pace."""
        ctx = self.browser.new_context(
            viewport={"width": 1280, "height": 900}, reduced_motion="no-preference" if motion else "reduce"
        )
        page = ctx.new_page()
        page.on("close", lambda _page: ctx.close())
        return page

    def close(self) -> None:
        self.browser.close()


def launch_chromium(playwright) -> Devices:
    return Devices(playwright)


class StalledClient:
    """A WebSocket client that completes the handshake and then reads nothing (a tablet
    whose Wi-Fi froze): the server's socket buffers fill and its sends block."""

    def __init__(self, host: str, port: int, path: str):
        import base64

        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        self.sock.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)  # byte by byte: read the handshake and nothing more
        assert head.startswith(b"HTTP/1.1 101"), head

    def read_all(self, until=None, quiet: float = 3.0) -> list[str]:
        """What the server sent, as text messages: up to the first message for which
        ``until(text)`` holds (a condition, waited for up to 60 s), or without ``until``
        everything until ``quiet`` s of silence."""
        self.sock.settimeout(quiet if until is None else 60.0)
        data, out, i = b"", [], 0
        while True:
            try:
                chunk = self.sock.recv(1 << 20)
            except TimeoutError:
                if until is None:
                    break
                raise
            if not chunk:
                break
            data += chunk
            while True:  # the whole frames received so far
                if i + 2 > len(data):
                    break
                opcode, n, j = data[i] & 0x0F, data[i + 1] & 0x7F, i + 2
                if n == 126:
                    n, j = int.from_bytes(data[j : j + 2], "big"), j + 2
                elif n == 127:
                    n, j = int.from_bytes(data[j : j + 8], "big"), j + 8
                if j + n > len(data):
                    break
                if opcode == 1:
                    out.append(data[j : j + n].decode())
                i = j + n
            if until is not None and out and until(out[-1]):
                break
        return out

    def close(self) -> None:
        self.sock.close()
