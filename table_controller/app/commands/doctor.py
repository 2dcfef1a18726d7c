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


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", default="table.toml", metavar="FILE", help="the table's configuration")
    p.add_argument(
        "--seconds", type=float, default=10.0, help="how long the seat controller and the dashboard may take to answer"
    )


class Report:
    def __init__(self) -> None:
        self.failed = 0

    def ok(self, text: str) -> None:
        print(f"ok    {text}", flush=True)

    def fail(self, text: str) -> None:
        self.failed += 1
        print(f"FAIL  {text}", flush=True)

    def note(self, text: str) -> None:
        print(f"note  {text}", flush=True)


def main(args: argparse.Namespace) -> int:
    from table_controller.clocks import shot_clocks_in_force

    from ..config import ConfigError, load_config

    r = Report()
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        r.fail(f"the configuration: {exc}")
        return 1
    set_here = shot_clocks_in_force(cfg.table.shot_clocks)
    r.ok(f"{args.config} loads: {cfg.table.name}, {cfg.table.ruleset}, shot clocks {_clocks(set_here)}")
    _deck(cfg, r)
    _data(cfg, r)
    tokens = _tokens(cfg, r)
    status = _dashboard(cfg, tokens, args.seconds, r)
    if status is not None:
        _running(cfg, status, r)
    else:
        asyncio.run(_port(cfg, args.seconds, r))
        _camera(cfg, r)
    print(("everything looks right" if not r.failed else f"{r.failed} problem(s): see FAIL above"), flush=True)
    return 1 if r.failed else 0


def _deck(cfg: Any, r: Report) -> None:
    from ..config import ConfigError
    from ..service import load_deck

    if cfg.table.virtual:
        r.ok("the virtual table's own deck")
        return
    try:
        deck = load_deck(cfg)
    except ConfigError as exc:
        r.fail(f"{exc}: register it again (chicago-table deck register, or setup)")
        return
    r.ok(f"deck {cfg.seat_controller.deck}: {len(deck.cards)} cards, no duplicates")


def _data(cfg: Any, r: Report) -> None:
    from table_controller.store.check import check_file

    data = Path(cfg.table.data)
    if not data.exists():
        r.note(f"the data folder {data} does not exist yet: the first run makes it")
        return
    if not data.is_dir():
        r.fail(f"the data folder {data} is a file: [table] data in the configuration names a folder")
        return
    if not os.access(data, os.R_OK | os.W_OK | os.X_OK):
        r.fail(f"the data folder {data} is not readable and writable by this user: fix its owner (chown)")
        return
    log = data / "table.sqlite"
    if not log.exists():
        r.note(f"no event log yet in {data}: a new table")
        return
    if not os.access(log, os.R_OK):
        r.fail(f"the event log {log} is not readable by this user: fix its owner (chown) or run as the service's user")
        return
    report = check_file(log)
    if not report.ok:
        r.fail(
            f"the event log {log} does not pass its check: {'; '.join(report.problems[:3])}. "
            f"Keep a copy and see chicago-table log check {log}"
        )
        return
    where = report.summary.get("phase", "")
    r.ok(f"the event log {log}: {report.last_seq} records, passes its check{f' (at {where})' if where else ''}")


def _tokens(cfg: Any, r: Report) -> Any:
    from dashboard.errors import DashboardError
    from dashboard.tokens import RoleTokens

    path = cfg.dashboard.event_tokens or Path(cfg.table.data) / "tokens.json"
    if not path.exists():
        r.note(f"no tokens file {path} yet: the first run (or setup) makes it")
        return None
    try:
        tokens = RoleTokens.load_or_create(path)
    except (DashboardError, OSError) as exc:
        r.fail(f"the tokens file {path}: {exc}")
        return None
    r.ok(f"the tokens file {path}")
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
            f"something answers on port {d.port} but not as this table (HTTP {exc.code}): another table "
            "or program there, or its tokens file is not this one"
        )
        return None
    except (urllib.error.URLError, OSError, ValueError):
        problem = port_problem(d.host, d.port)
        if problem:
            r.fail(f"the dashboard's port {d.port}: {problem.split(';')[0]}; and nothing there answers as this table")
        else:
            r.note(f"the table is not running (nothing answers on port {d.port}): chicago-table run --config ...")
        return None
    if status.get("table") != cfg.table.name:
        r.fail(f"the dashboard on port {d.port} is the table {status.get('table')!r}, not {cfg.table.name!r}")
        return None
    r.ok(f"the dashboard answers at {scheme}://{host}:{d.port}: {status['seq']} events, at {status['phase']}")
    return status


def _running(cfg: Any, status: dict[str, Any], r: Report) -> None:
    if cfg.table.virtual:
        r.ok("the virtual table runs inside the service")
    elif status.get("link_online"):
        r.ok(f"the seat controller's link on {cfg.seat_controller.port} is up")
    else:
        r.fail(
            f"the seat controller's link on {cfg.seat_controller.port} is down: check its USB cable; "
            "the table is played by hand until it is back"
        )
    for pad in status.get("readers_offline", ()):
        r.fail(f"the reader of {pad} is offline: check its cable; that seat's cards are entered by hand")
    if cfg.camera is not None:
        if status.get("camera_online"):
            r.ok(f"the camera {cfg.camera.source} delivers frames")
        else:
            r.fail(
                f"the camera {cfg.camera.source} is offline: check its cable; the table plays on the RFID "
                "readers and the camera comes back by itself"
            )
    if isinstance(status.get("shot_clocks"), dict):  # at a tournament the event's, from the hub's draw
        r.ok(f"the table runs the shot clocks {_clocks(status['shot_clocks'])}")
    if status.get("waiting"):
        r.note(f"the table waits: {status['waiting']}")
    others = [k for k in status.get("alerts", ()) if k not in ("camera_offline", "link_offline", "reader_offline")]
    if others:
        r.note(f"open alerts for the TL: {', '.join(others)}")


async def _port(cfg: Any, seconds: float, r: Report) -> None:
    from firmware_bridge import SeatControllerClient
    from firmware_bridge.selftest import Bench, Options, SelfTest

    if cfg.table.virtual:
        r.ok("the virtual table: no seat controller to check")
        return
    port = str(cfg.seat_controller.port)
    if "://" not in port and not os.path.exists(port):
        r.fail(
            f"no port {port}: is the seat controller plugged in (a USB data cable)? The udev rule "
            "(hardware/deploy/99-chicago-seat-controller.rules) names it; ls /dev/chicago-* shows it"
        )
        return
    try:
        async with SeatControllerClient(port) as client:
            results = await SelfTest(client, Bench(), Options(checks=("link", "readers"), connect_s=seconds)).run()
    except OSError as exc:
        r.fail(f"cannot open {port}: {exc.strerror or exc} (another program holds it? this user in group dialout?)")
        return
    for check in results:
        (r.ok if check.ok else r.fail)(f"{check.item}: {check.text}")


def _camera(cfg: Any, r: Report) -> None:
    if cfg.camera is None:
        r.note("no camera configured: the table plays on the RFID readers alone")
        return
    try:
        from vision.calibration import Calibration
        from vision.errors import VisionError
        from vision.worker import open_frames
    except ImportError as exc:  # pragma: no cover - OpenCV missing
        r.fail(f"the camera: the vision part is not installed ({exc})")
        return
    c = cfg.camera
    try:
        frames = open_frames(c.source)
        try:
            frame = frames.read()
        finally:
            frames.close()
    except (VisionError, OSError) as exc:
        r.fail(f"the camera {c.source}: {exc}")
        return
    if frame is None:
        r.fail(f"the camera {c.source} gave no frame")
        return
    size = (frame.shape[1], frame.shape[0])
    if c.calibration is None:
        r.note(
            f"the camera {c.source} gives {size[0]}x{size[1]} frames; no calibration (calibrated on its first frame)"
        )
        return
    try:
        cal = Calibration.load(str(c.calibration))
    except (VisionError, OSError, ValueError) as exc:
        r.fail(f"the camera's calibration {c.calibration}: {exc}")
        return
    if tuple(cal.image_size) != size:
        r.fail(
            f"the camera gives {size[0]}x{size[1]} frames but {c.calibration} was made for "
            f"{cal.image_size[0]}x{cal.image_size[1]}: calibrate again (chicago-table camera calibrate)"
        )
    else:
        r.ok(f"the camera {c.source} gives a frame of the calibrated size {size[0]}x{size[1]}")


def _clocks(limits: dict[str, float]) -> str:
    """Shot clocks as the TL checks them against the event's (D11), in seconds."""
    from table_controller.clocks import shot_clocks_words

    return f"({shot_clocks_words(limits)})"
