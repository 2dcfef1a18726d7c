"""Benchmark of the path a user feels (issue 16 item 6): a card laid on a pad until the
TL's screen shows it.

The table service runs as it does on the Pi, in its own process (``chicago-table run
--config``), against the virtual seat controller on a real pseudo-terminal (the real
firmware logic and framing, here in the bench's process), with its camera process reading
30 frames a second beside it.  Bots play whole deals through the virtual table (the
dealer deals, players exchange and play on the pads, ``sim.translate``); the TL's
WebSocket client sees every change.  For every card played (one card laid on a pad is
one action) three times are taken:

- laid: the card lands on the virtual pad;
- reported: the firmware writes the pad report that first holds it to the pty (its
  confirm scans, ``confirm_reads`` x ``scan_ms``, and debounce lie before this);
- on screen: the TL's WebSocket message with that action's ``seq`` is read.

``card_to_screen`` is reported -> on screen: the pty, the bridge, sensing, the rules, the
durable log (SQLite commit), the view model, the role filter and the WebSocket.  The
firmware's part (laid -> reported) is printed separately.

Cards are laid at a player's pace: a card of a trick at least ``--pace`` seconds (default
0.5, a brisk player) after the one before it.  A view is sent at most 10 states a second
(``--send-rate``, ``dashboard/routes/stream.py``), the newest, and a state that comes within
100 ms of the one sent before it waits for that slot.  At ``--pace 0`` the bots lay each card
as soon as the screen shows the one before it, 25 or so a second, faster than any hand: then
the slot, not the path, is what is measured (about 68 ms a card; stop 69's row in the README).

The camera reads rendered frames of face-down cards spread on five pads (the full
per-pad recognition each frame, in its own process, its readings sent to the service's
sensing); its pads are named cam1..cam5 (a renamed calibration) so that what it sees,
which is not the virtual table, neither confirms nor contradicts the readers.

    .venv/bin/python tests/bench/latency.py [--plays 500] [--seed 3] [--pace 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the vision package, not tests/bench/vision.py

import cv2
import httpx
from websockets.asyncio.client import connect

from firmware_bridge.codec import FrameDecoder
from firmware_bridge.messages import PadReport, from_frame
from hardware.firmware.controller import Config
from hardware.virtual import NoiseModel, VirtualTable
from table_controller.deck import virtual_deck
from table_controller.live.facts import pads_of
from table_controller.rules.actions import Play
from table_controller.sim.bots import RandomBot
from table_controller.sim.driver import TableDriver, VirtualHands
from vision.calibration import calibrate
from vision.scene import Placement, Scene, random_scene, render

ROOT = Path(__file__).resolve().parents[2]
PADS = ("seat1", "seat2", "seat3", "seat4", "tray")


class Wire:
    """The firmware's pad reports as it writes them to the pty, with the time."""

    def __init__(self, table: VirtualTable) -> None:
        self.decoder = FrameDecoder()
        self.reported: dict[str, frozenset[str]] = {}
        self.sent: list[tuple[float, str, frozenset[str]]] = []
        port = table.pty
        assert port is not None
        write = port.write

        def timed_write(data: bytes) -> None:
            write(data)
            t = time.perf_counter()
            for frame in self.decoder.feed(data):
                msg = from_frame(frame)
                if isinstance(msg, PadReport):
                    self.reported[msg.pad] = msg.uids
                    self.sent.append((t, msg.pad, msg.uids))

        port.write = timed_write  # type: ignore[method-assign]

    def first_report(self, after: float, pad: str, uid: str) -> float | None:
        """When the first report of ``pad`` holding ``uid`` after ``after`` was written."""
        i = bisect.bisect_left(self.sent, after, key=lambda s: s[0])
        return next((t for t, p, uids in self.sent[i:] if p == pad and uid in uids), None)


class TimedHands(VirtualHands):
    """The hands note when each card was laid."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.laid: dict[str, float] = {}

    def put(self, code: str, pad: str) -> None:
        self.laid[code] = time.perf_counter()
        super().put(code, pad)


class RemoteTable:
    """The running service as the driver sees it: the TL's stream and the TL's entries."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token
        self.seq = 0
        self.arrived: dict[int, float] = {}
        self.alerts: list[SimpleNamespace] = []
        self._changed = asyncio.Event()
        self.http = httpx.AsyncClient(timeout=30)
        # The driver counts actions; the views count the engine's events (``seq``).  The
        # shadow engine folds the same events: the n-th action is seen once ``seq``
        # reaches the shadow's seq after it.
        self.driver: TableDriver | None = None
        self.after: dict[int, int] = {0: 0}

    def target(self, n: int) -> int:
        if self.driver is None:
            return n
        if n >= len(self.driver.played):
            return int(self.driver.shadow.state.seq)
        return self.after.get(n, 0)

    @property
    def accepted(self) -> range:
        return range(max((n for n, s in self.after.items() if s <= self.seq), default=0))

    async def follow(self) -> None:
        url = self.base.replace("http", "ws") + f"/ws?token={self.token}"
        async with connect(url, max_size=None) as ws:
            async for raw in ws:
                t = time.perf_counter()
                m = json.loads(raw)
                if m.get("type") != "state":
                    continue
                for s in range(self.seq + 1, m["seq"] + 1):
                    self.arrived.setdefault(s, t)
                self.seq = max(self.seq, m["seq"])
                self.alerts = [
                    SimpleNamespace(id=a.get("id"), kind=a.get("kind"), text=a.get("text")) for a in m.get("alerts", ())
                ]
                self._changed.set()

    async def wait_accepted(self, n: int, timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        n = self.target(n)
        while self.seq < n:
            left = end - loop.time()
            if left <= 0:
                return False
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                return self.seq >= n
        return True

    async def submit(self, action, source: str = "revisor") -> None:
        r = await self.http.post(
            f"{self.base}/api/action", json=action.to_dict(), headers={"Authorization": f"Bearer {self.token}"}
        )
        r.raise_for_status()


def camera_files(folder: Path) -> tuple[Path, Path]:
    """Rendered frames of face-down cards on every pad, and a calibration whose pads are
    named cam1..cam5."""
    frames = folder / "frames"
    frames.mkdir()
    pose = random_scene(41, 0.3, fill=0.0)
    frame = None
    # one scene, three renderings (noise, blur, light differ): every frame is recognised
    # afresh, and the readings stay the same unless recognition flickers, as a camera over
    # a still table; the worker sends each pad again once a second
    cards = tuple(Placement(pad, None, 30 + 20 * k, 16) for pad in PADS for k in range(1 + PADS.index(pad) % 3))
    for i in range(3):
        frame = render(Scene(cards, pose.corners, 0.3, 9300 + i, "blue"), supersample=1)
        cv2.imwrite(str(frames / f"frame{i}.png"), frame)
    assert frame is not None
    cal = calibrate(frame).to_dict()
    for n, pad in enumerate(cal["layout"]["pads"], 1):
        pad["name"] = f"cam{n}"
    path = folder / "camera.json"
    path.write_text(json.dumps(cal))
    return frames, path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    table: VirtualTable,
    wire: Wire,
    base: str,
    token: str,
    plays: int,
    seed: int,
    camera_pid: int | None,
    pace: float,
):
    remote = RemoteTable(base, token)
    follow = asyncio.create_task(remote.follow())
    await remote.wait_accepted(0, 10)
    # people pause between picking cards up and laying some down: longer than the board's
    # "gone" (300 ms) and sensing's linger (0.5 s in the service) together, or a card put
    # back down counts as never gone
    hands = TimedHands(table, lambda pad: wire.reported.get(pad, frozenset()), pause_s=1.0)
    driver = TableDriver(remote, hands, sync_timeout=30)  # type: ignore[arg-type]
    remote.driver = driver
    bot = RandomBot(seed, ("Anna", "Bo", "Cilla", "Dan"))
    to_screen: list[float] = []
    confirm: list[float] = []
    cam_cpu0, t0 = (cpu_seconds(camera_pid) if camera_pid else 0.0), time.monotonic()
    try:
        while len(to_screen) < plays:
            action = bot.next_action(driver.shadow)
            if action is None:
                print("  the table is over", flush=True)
                break
            before = len(driver.played)
            if isinstance(action, Play) and pace:
                await asyncio.sleep(pace)  # a player's hand, not a bot's: the next card comes later
            await driver.step(action)
            remote.after[len(driver.played)] = int(driver.shadow.state.seq)
            if os.environ.get("LATENCY_DEBUG"):
                print(f"    {len(driver.played)} played, seq {remote.seq}: {action.to_dict()}", flush=True)
            if not isinstance(action, Play) or len(driver.played) == before:
                continue
            seq = int(driver.shadow.state.seq)
            laid = hands.laid[action.card.code]
            pad = pads_of(driver.shadow.state.game.seats)[action.player]
            reported = wire.first_report(laid, pad, table.deck.uid(action.card.code))
            shown = remote.arrived.get(seq)
            if reported is None or shown is None:
                continue
            to_screen.append((shown - reported) * 1000)
            confirm.append((reported - laid) * 1000)
            if len(to_screen) % 50 == 0:
                print(f"  {len(to_screen)}/{plays} cards played", flush=True)
    finally:
        follow.cancel()
        await remote.http.aclose()
    cam_load = ((cpu_seconds(camera_pid) - cam_cpu0) if camera_pid else 0.0) / (time.monotonic() - t0)
    return to_screen, confirm, cam_load, len(driver.played)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--plays", type=int, default=500)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--no-camera", action="store_true", help="the same without the camera process (a comparison)")
    p.add_argument(
        "--pace",
        type=float,
        default=0.5,
        help="seconds at the least between one card of a trick and the next (default 0.5, a brisk player; "
        "0: as fast as the screen shows them, where the view's 10 states a second set the pace)",
    )
    args = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="latency-"))
    frames, calibration = camera_files(work)
    virtual_deck().save(str(work / "deck.json"))
    port = free_port()
    # the board's own timing (hardware/firmware/controller.py Config: 2 confirm scans of
    # 20 ms, a card gone after 300 ms unseen), clean reads
    with VirtualTable(noise=NoiseModel.clean(), seed=args.seed, config=Config()) as table:
        wire = Wire(table)
        cfg = work / "table.toml"
        camera = f'[camera]\nsource = "{frames}"\ncalibration = "{calibration}"\nfps = {args.fps}\n\n'
        cfg.write_text(
            f'[table]\nname = "Latency"\ndata = "{work / "data"}"\nstuck_after = 3600\n\n'
            f'[seat_controller]\nport = "{table.port}"\ndeck = "{work / "deck.json"}"\n\n'
            + ("" if args.no_camera else camera)
            + f'[dashboard]\nhost = "127.0.0.1"\nport = {port}\nbroadcast_delay = 0\n'
        )
        log = open(work / "service.log", "w")  # noqa: SIM115 - the child keeps it
        service = subprocess.Popen(
            [sys.executable, "-m", "table_controller.app.cli", "run", "--config", str(cfg)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                assert service.poll() is None, (work / "service.log").read_text()
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    assert time.monotonic() < deadline, "the service did not start"
                    time.sleep(0.05)
            token = json.loads((work / "data" / "tokens.json").read_text())["tl"]
            # the camera's line, in the words spoken ("in its own process (pid N)")
            started = re.search(r"\(pid (\d+)\)", (work / "service.log").read_text())
            assert started or args.no_camera, (work / "service.log").read_text()
            camera_pid = int(started.group(1)) if started else None
            print(f"service pid {service.pid}, camera pid {camera_pid} at {args.fps:g} fps; {work}", flush=True)
            to_screen, confirm, cam_load, actions = asyncio.run(
                measure(table, wire, f"http://127.0.0.1:{port}", token, args.plays, args.seed, camera_pid, args.pace)
            )
        finally:
            os.killpg(service.pid, signal.SIGTERM)
            service.wait(30)
            log.close()
    cuts = statistics.quantiles(to_screen, n=100, method="inclusive")
    p50, p99 = statistics.median(to_screen), cuts[98]
    c50, c99 = statistics.median(confirm), statistics.quantiles(confirm, n=100, method="inclusive")[98]
    fw = table.config
    print(
        f"card reported by the firmware -> TL's screen: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(to_screen):.1f} ms "
        f"over {len(to_screen)} cards played ({actions} actions in all), a card of a trick {args.pace:g} s after the one before"
    )
    print(
        f"the firmware's part, card laid -> first report ({fw.confirm_reads} confirm scans of {fw.scan_ms} ms): "
        f"p50 {c50:.1f} ms, p99 {c99:.1f} ms"
    )
    load = os.getloadavg()[0]
    camera_line = "none (--no-camera)" if args.no_camera else f"{args.fps:g} fps, {cam_load * 100:.0f}% of a core"
    print(f"camera process beside it: {camera_line}; machine load average {load:.1f} on {os.cpu_count()} cores")
    print(
        json.dumps(
            {
                "card_to_screen_p50_ms": round(p50, 1),
                "card_to_screen_p99_ms": round(p99, 1),
                "card_to_screen_max_ms": round(max(to_screen), 1),
                "firmware_confirm_p50_ms": round(c50, 1),
                "firmware_confirm_p99_ms": round(c99, 1),
                "placements": len(to_screen),
                "pace_s": args.pace,
                "camera_fps": 0 if args.no_camera else args.fps,
                "camera_core_share": round(cam_load, 2),
                "load_avg_1m": round(load, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
