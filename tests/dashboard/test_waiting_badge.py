"""A stuck table in the browser (issue 16 item 4): the connection badge of every view
says who the table waits for ("Väntar på givaren: giv 1") instead of "live", and the TL's
hall says it on the table's panel.  The service is ``chicago-table run --virtual`` with
the smallest ``--stuck-after``; the stuck logic itself is tested in simulated time
(tests/live/test_stuck.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.ports import wait_listening

from .harness import ROOT, free_port

pytestmark = pytest.mark.browser


@pytest.fixture
def stuck_service(tmp_path: Path):
    port, data = free_port(), tmp_path / "data"
    cmd = [
        sys.executable,
        "-m",
        "table_controller.app.cli",
        "run",
        "--virtual",
        "--data",
        str(data),
        "--dashboard-port",
        str(port),
        "--stuck-after",
        "1",
    ]
    with open(tmp_path / "service.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_listening(port, proc, (tmp_path / "service.log").read_text, what="the table service")
        yield port, json.loads((data / "tokens.json").read_text())
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)


def test_every_views_badge_says_who_the_stuck_table_waits_for(stuck_service, chromium):
    port, tokens = stuck_service
    base = f"http://127.0.0.1:{port}"
    pages = {}
    for role in ("public", "revisor", "dealer", "tl"):
        pages[role] = chromium.new_page()
        pages[role].goto(f"{base}/{role}?token={tokens[role]}")
        # nothing to wait for yet (the hall's screens hide a "live" badge: only news is shown)
        pages[role].wait_for_selector("#conn[data-state=live]", state="attached")
    english = chromium.new_page()
    english.goto(f"{base}/public?token={tokens['public']}&lang=en")
    hall = chromium.new_page()
    hall.goto(f"{base}/hall?token={tokens['tl']}")
    for body in (
        {"do": "table", "players": ["Anna", "Bo", "Cilla"]},
        {"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Bo"},
    ):
        r = httpx.post(f"{base}/api/action", json=body, headers={"Authorization": f"Bearer {tokens['tl']}"}, timeout=30)
        assert r.status_code == 200, r.text
    for role, page in pages.items():
        page.wait_for_selector("#conn[data-state=waiting]", timeout=60_000)  # visible on every view
        assert page.inner_text("#conn") == "Väntar på givaren: giv 1", role
    english.wait_for_selector("#conn[data-state=waiting]", timeout=60_000)
    assert english.inner_text("#conn") == "Waiting for the dealer: deal 1"
    hall.wait_for_selector(".tag.waiting", timeout=60_000)
    assert hall.inner_text(".tag.waiting") == "Väntar på givaren: giv 1"
