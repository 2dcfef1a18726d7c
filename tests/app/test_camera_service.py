"""The camera in the running service (issue 16 item 3): recognition in its own process;
killed, the table plays on with the readers and the TL is told (``camera_offline``); the
service starts it again by itself and the alert ends."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import cv2
import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot
from vision.scene import Placement, Scene, random_scene, render

from ..dashboard.harness import launch_chromium
from .test_service import Service, _free_port, _stream


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out |= {int(x) for x in f.read().split()}
    return out


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _kinds(m: dict) -> set[str]:
    return {a.get("kind") for a in m.get("alerts", ())}


@pytest.mark.realtime
def test_a_killed_camera_leaves_the_table_playing_with_an_alert_until_it_is_back(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    pose = random_scene(41, 0.3, fill=0.0)
    scene = Scene((Placement("seat1", "AS", 30, 16),), pose.corners, 0.3, 9001, "blue")
    cv2.imwrite(str(frames / "f0.png"), render(scene, supersample=1))
    port, data = _free_port(), tmp_path / "data"
    cmd = [sys.executable, "-m", "table_controller.app.cli", "run", "--virtual", "--data", str(data)]
    cmd += ["--dashboard-port", str(port), "--camera", str(frames), "--camera-fps", "10"]
    service = Service(cmd, port, tmp_path / "service.log")
    service.start()
    try:
        # "camera ...: in its own process (pid N) at 10 fps", Swedish first
        m = re.search(r"kameran .*: i en egen process \(pid (\d+)\) med 10 bilder/s", service.log.read_text())
        assert m, service.log.read_text()
        camera_pid = int(m.group(1))
        assert camera_pid != service.proc.pid
        tokens = json.loads((data / "tokens.json").read_text())
        tl = {"Authorization": f"Bearer {tokens['tl']}"}
        _stream(port, tokens["tl"], lambda m: m.get("type") == "state")

        os.kill(camera_pid, signal.SIGKILL)  # the camera's process dies
        down = _stream(port, tokens["tl"], lambda m: "camera_offline" in _kinds(m))
        (alert,) = [a for a in down["alerts"] if a["kind"] == "camera_offline"]
        assert alert["text"] == "The camera is offline: the table plays on with the RFID readers"
        assert "link_offline" not in _kinds(down)
        # the table plays on: what is entered is accepted while the camera is away
        engine, bot = Engine(), RandomBot(8, ("Anna", "Bo", "Cilla"))
        for _ in range(2):
            action = bot.next_action(engine)
            r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=action.to_dict(), headers=tl, timeout=30)
            assert r.status_code == 200, r.text
            engine.apply(action)
        # the service starts the camera again by itself: its frames end the alert
        back = _stream(port, tokens["tl"], lambda m: m["seq"] >= 2 and "camera_offline" not in _kinds(m))
        assert back["state"]["phase"] != "table_start"
        children = _children(service.proc.pid)
        assert camera_pid not in children and children  # the new camera process

        # unplugged: the frames' folder goes away; the TL's page says so in Swedish, and
        # the alert goes when the frames are back
        frames.rename(tmp_path / "unplugged")
        with sync_playwright() as p:
            browser = launch_chromium(p)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/tl?token={tokens['tl']}")
            alert = page.locator('li[data-kind="camera_offline"]')
            expect(alert).to_contain_text("kameran ur drift", timeout=30_000)
            expect(alert).to_contain_text("Kameran är ur drift: bordet spelar vidare med RFID-läsarna")
            page.screenshot(path=str(tmp_path / "tl-camera-offline.png"))
            if os.environ.get("CHICAGO_SHOTS"):  # a picture to look at
                page.screenshot(path=os.environ["CHICAGO_SHOTS"])
            (tmp_path / "unplugged").rename(frames)
            expect(alert).to_have_count(0, timeout=30_000)
            browser.close()
    finally:
        code = service.signal(signal.SIGTERM)
    assert code == 0, service.log.read_text()
    assert "Traceback" not in service.log.read_text()
    # a clean stop leaves no camera process behind (multiprocessing's resource tracker
    # ends when it reads the service's end of its pipe close: waited for, not slept)
    deadline = time.monotonic() + 30
    while [p for p in children if _running(p)]:
        assert time.monotonic() < deadline, [Path(f"/proc/{p}/cmdline").read_bytes() for p in children if _running(p)]
        time.sleep(0.05)
