"""``chicago-table doctor``: check a configured or running table and say what is wrong.

    chicago-table doctor --config /etc/chicago-table/table.toml

One line per check, ``ok``, ``FAIL`` (with what to do) or ``note``; the exit status is 1
when anything failed.  The configuration (``app/config.py``), the deck, the data folder
and its event log (``log check``'s test), the tokens file, the dashboard; then, when the
table is running (its dashboard answers with this table's TL token), the seat controller's
link, its readers and the camera as the service sees them (``/api/status``: the port is the
service's, never opened a second time); when it is not running, the port itself (a seat
controller answers, its readers report) and one frame of the camera.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ..argtypes import positive
from ..words import (
    add_lang,
    alert_word,
    clocks_words,
    os_error_words,
    phase_word,
    said_error,
    say,
    say_n,
    speaking,
    spoken,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config", default="table.toml", metavar="FILE", help=say("the table's configuration (default table.toml)")
    )
    p.add_argument(
        "--seconds",
        type=positive,  # stop 72: -1 was taken, and the technician sent to the USB cable
        default=10.0,
        help=say("how long the seat controller and the dashboard may take to answer (default 10)"),
    )
    add_lang(p)


class Report:
    """One line per check: ``ok``, ``FEL`` (FAIL) or ``obs`` (note), then what was found."""

    def __init__(self) -> None:
        self.failed = 0
        self.marks = {"ok": say("ok"), "fail": say("FAIL"), "note": say("note")}

    def _line(self, mark: str, text: str) -> None:
        print(f"{self.marks[mark]:<5} {text}", flush=True)

    def ok(self, text: str) -> None:
        self._line("ok", text)

    def fail(self, text: str) -> None:
        self.failed += 1
        self._line("fail", text)

    def note(self, text: str) -> None:
        self._line("note", text)


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _doctor(args)


def _doctor(args: argparse.Namespace) -> int:
    from table_controller.clocks import shot_clocks_in_force

    from ..config import ConfigError, load_config

    r = Report()
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        r.fail(say("the configuration: {error}", error=exc))
        if not Path(args.config).exists():  # nothing set up here yet: what makes one
            r.note(say("'chicago-table setup' sets a table up step by step and writes it"))
        return 1
    set_here = shot_clocks_in_force(cfg.table.shot_clocks)
    r.ok(
        say(
            "{config} loads: {name}, {ruleset}, shot clocks {clocks}",
            config=args.config,
            name=cfg.table.name,
            ruleset=cfg.table.ruleset,
            clocks=_clocks(set_here),
        )
    )
    _deck(cfg, r)
    _data(cfg, r)
    tokens = _tokens(cfg, r)
    status = _dashboard(cfg, tokens, args.seconds, r)
    if status is not None:
        _running(cfg, status, r)
    else:
        asyncio.run(_port(cfg, args.seconds, r))
        _camera(cfg, r)
    print(
        say("everything looks right")
        if not r.failed
        else say_n("{n} problem: see FAIL above", "{n} problems: see FAIL above", r.failed),
        flush=True,
    )
    return 1 if r.failed else 0


def _deck(cfg: Any, r: Report) -> None:
    from ..config import ConfigError
    from ..service import load_deck

    if cfg.table.virtual:
        r.ok(say("the virtual table's own deck"))
        return
    try:
        deck = load_deck(cfg)
    except ConfigError as exc:
        r.fail(say("{error}: register it again (chicago-table deck register, or setup)", error=exc))
        return
    r.ok(say("deck {deck}: {n} cards, no duplicates", deck=cfg.seat_controller.deck, n=len(deck.cards)))


def _data(cfg: Any, r: Report) -> None:
    from table_controller.store.check import check_file

    data = Path(cfg.table.data)
    if not data.exists():
        r.note(say("the data folder {data} does not exist yet: the first run makes it", data=data))
        return
    if not data.is_dir():
        r.fail(say("the data folder {data} is a file: [table] data in the configuration names a folder", data=data))
        return
    if not os.access(data, os.R_OK | os.W_OK | os.X_OK):
        r.fail(
            say("the data folder {data} is not readable and writable by this user: fix its owner (chown)", data=data)
        )
        return
    log = data / "table.sqlite"
    if not log.exists():
        r.note(say("no event log yet in {data}: a new table", data=data))
        return
    if not os.access(log, os.R_OK):
        r.fail(
            say(
                "the event log {log} is not readable by this user: fix its owner (chown) or run as the service's user",
                log=log,
            )
        )
        return
    report = check_file(log)
    if not report.ok:
        r.fail(
            say(
                "the event log {log} does not pass its check: {problems}. Keep a copy and see chicago-table log check {log}",
                log=log,
                problems="; ".join(said_error(p) for p in report.problems[:3]),  # each in the words spoken
            )
        )
        return
    where = report.summary.get("phase", "")
    if where:
        r.ok(
            say(
                "the event log {log}: {n} records, passes its check (at {phase})",
                log=log,
                n=report.last_seq,
                phase=phase_word(where),
            )
        )
    else:
        r.ok(say("the event log {log}: {n} records, passes its check", log=log, n=report.last_seq))


def _tokens(cfg: Any, r: Report) -> Any:
    from dashboard.errors import DashboardError
    from dashboard.tokens import RoleTokens

    path = cfg.dashboard.event_tokens or Path(cfg.table.data) / "tokens.json"
    if not path.exists():
        r.note(say("no tokens file {path} yet: the first run (or setup) makes it", path=path))
        return None
    try:
        tokens = RoleTokens.load_or_create(path)
    except (DashboardError, OSError) as exc:
        r.fail(say("the tokens file {path}: {error}", path=path, error=exc))
        return None
    r.ok(say("the tokens file {path}", path=path))
    return tokens


def _dashboard(cfg: Any, tokens: Any, seconds: float, r: Report) -> dict[str, Any] | None:
    """The running table's status, or None when its dashboard does not answer."""
    from ..web import port_problem

    d = cfg.dashboard
    host = "127.0.0.1" if d.host in ("0.0.0.0", "::", "localhost") else d.host
    scheme = "https" if d.tls_cert else "http"
    url = f"{scheme}://{host}:{d.port}/api/status"
    context = None
    if d.tls_cert:
        context = ssl.create_default_context(cafile=str(d.tls_cert))
        context.check_hostname = False  # our own certificate, asked for by address
    token = tokens.token("tl") if tokens is not None else ""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=seconds, context=context) as answer:
            status = json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        r.fail(
            say(
                "something answers on port {port} but not as this table (HTTP {code}): another table "
                "or program there, or its tokens file is not this one",
                port=d.port,
                code=exc.code,
            )
        )
        return None
    except (urllib.error.URLError, OSError, ValueError):
        problem = port_problem(d.host, d.port)
        if problem:
            r.fail(
                say(
                    "the dashboard's port {port}: {problem}; and nothing there answers as this table",
                    port=d.port,
                    problem=problem.split(";")[0],
                )
            )
        else:
            r.note(
                say(
                    "the table is not running (nothing answers on port {port}): chicago-table run --config ...",
                    port=d.port,
                )
            )
        return None
    if status.get("table") != cfg.table.name:
        r.fail(
            say(
                "the dashboard on port {port} is the table {other!r}, not {table!r}",
                port=d.port,
                other=status.get("table"),
                table=cfg.table.name,
            )
        )
        return None
    base = url.removesuffix("/api/status")
    r.ok(
        say(
            "the dashboard answers at {url}: {n} events, at {phase}",
            url=base,
            n=status["seq"],
            phase=phase_word(status["phase"]),
        )
    )
    return status


def _running(cfg: Any, status: dict[str, Any], r: Report) -> None:
    if cfg.table.virtual:
        r.ok(say("the virtual table runs inside the service"))
    elif status.get("link_online"):
        r.ok(say("the seat controller's link on {port} is up", port=cfg.seat_controller.port))
    else:
        r.fail(
            say(
                "the seat controller's link on {port} is down: check its USB cable; "
                "the table is played by hand until it is back",
                port=cfg.seat_controller.port,
            )
        )
    for pad in status.get("readers_offline", ()):
        r.fail(say("the reader of {pad} is offline: check its cable; that seat's cards are entered by hand", pad=pad))
    if cfg.camera is not None:
        if status.get("camera_online"):
            r.ok(say("the camera {source} delivers frames", source=cfg.camera.source))
        else:
            r.fail(
                say(
                    "the camera {source} is offline: check its cable; the table plays on the RFID "
                    "readers and the camera comes back by itself",
                    source=cfg.camera.source,
                )
            )
    if isinstance(status.get("shot_clocks"), dict):  # at a tournament the event's, from the hub's draw
        r.ok(say("the table runs the shot clocks {clocks}", clocks=_clocks(status["shot_clocks"])))
    # who is waited for, on what, as the table's views say it (a service before waiting_sv: its English)
    waiting = status.get("waiting_sv") if spoken() == "sv" else None
    if waiting or status.get("waiting"):
        r.note(say("the table waits: {what}", what=waiting or status["waiting"]))
    others = [k for k in status.get("alerts", ()) if k not in ("camera_offline", "link_offline", "reader_offline")]
    if others:
        r.note(say("open alerts for the TL: {alerts}", alerts=", ".join(alert_word(k) for k in others)))


async def _port(cfg: Any, seconds: float, r: Report) -> None:
    from firmware_bridge import SeatControllerClient
    from firmware_bridge.selftest import Bench, Options, SelfTest

    if cfg.table.virtual:
        r.ok(say("the virtual table: no seat controller to check"))
        return
    port = str(cfg.seat_controller.port)
    if "://" not in port and not os.path.exists(port):
        r.fail(
            say(
                "no port {port}: is the seat controller plugged in (a USB data cable)? The udev rule "
                "(hardware/deploy/99-chicago-seat-controller.rules) names it; ls /dev/chicago-* shows it",
                port=port,
            )
        )
        return
    try:
        async with SeatControllerClient(port) as client:
            results = await SelfTest(client, Bench(), Options(checks=("link", "readers"), connect_s=seconds)).run()
    except OSError as exc:
        r.fail(
            say(
                "cannot open {port}: {error} (another program holds it? this user in group dialout?)",
                port=port,
                error=os_error_words(exc),
            )
        )
        return
    for check in results:
        (r.ok if check.ok else r.fail)(f"{check.item}: {check.text}")


def _camera(cfg: Any, r: Report) -> None:
    if cfg.camera is None:
        r.note(say("no camera configured: the table plays on the RFID readers alone"))
        return
    try:
        from vision.calibration import Calibration
        from vision.errors import VisionError
        from vision.worker import open_frames
    except ImportError as exc:  # pragma: no cover - OpenCV missing
        r.fail(say("the camera: the vision part is not installed ({error})", error=exc))
        return
    c = cfg.camera
    try:
        frames = open_frames(c.source)
        try:
            frame = frames.read()
        finally:
            frames.close()
    except (VisionError, OSError) as exc:
        r.fail(say("the camera {source}: {error}", source=c.source, error=exc))
        return
    if frame is None:
        r.fail(say("the camera {source} gave no frame", source=c.source))
        return
    w, h = frame.shape[1], frame.shape[0]
    if c.calibration is None:
        r.note(
            say(
                "the camera {source} gives {w}x{h} frames; no calibration (calibrated on its first frame)",
                source=c.source,
                w=w,
                h=h,
            )
        )
        return
    try:
        cal = Calibration.load(str(c.calibration))
    except (VisionError, OSError, ValueError) as exc:
        r.fail(say("the camera's calibration {path}: {error}", path=c.calibration, error=exc))
        return
    cw, ch = cal.image_size
    if (cw, ch) != (w, h):
        r.fail(
            say(
                "the camera gives {w}x{h} frames but {path} was made for {cw}x{ch}: "
                "calibrate again (chicago-table camera calibrate)",
                w=w,
                h=h,
                path=c.calibration,
                cw=cw,
                ch=ch,
            )
        )
    else:
        r.ok(say("the camera {source} gives a frame of the calibrated size {w}x{h}", source=c.source, w=w, h=h))


def _clocks(limits: dict[str, float]) -> str:
    """Shot clocks as the TL checks them against the event's (D11), in seconds, in words."""
    return f"({clocks_words(limits)})"
