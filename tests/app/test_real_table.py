"""README "Run a real table", the quick way, as a new user does it (issue 16's first
"Done when"): the virtual seat controller on a pseudo-terminal in its own process, one
``chicago-table setup`` from flags, one ``chicago-table run --config``, every view live
(each role's page and its WebSocket), the join sheet's QR codes read back from the
printed page, ``doctor`` content, and the protocol printable (a PDF)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import cv2
import httpx
import pytest

from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot

from .test_service import Service, _free_port, _stream

BIN = Path(sys.executable).parent
ROLES = ("tl", "revisor", "public", "broadcast", "dealer")


def _chicago_table(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "chicago-table"), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _qr_codes(pdf: Path, want: int) -> set[str]:
    """The QR codes on the printed page, read by OpenCV as a phone would: from renderings
    at 150, 220 and 300 dpi (pdfplumber's), until ``want`` codes are read (a detector that
    misses a code at one scale reads it at another, like a phone moved closer)."""
    import numpy as np
    import pdfplumber

    found: set[str] = set()
    with pdfplumber.open(pdf) as doc:
        for dpi, detector in (
            (150, cv2.QRCodeDetectorAruco()),
            (220, cv2.QRCodeDetector()),
            (300, cv2.QRCodeDetectorAruco()),
        ):
            page = np.ascontiguousarray(
                np.array(doc.pages[0].to_image(resolution=dpi).original.convert("RGB"))[:, :, ::-1]
            )
            ok, texts, points, _ = detector.detectAndDecodeMulti(page)
            for text, quad in zip(texts if ok else (), points if ok else (), strict=False):
                if text:
                    found.add(text)
                    cv2.fillConvexPoly(page, quad.astype(np.int32), (255, 255, 255))  # read: out of the way
            for _ in range(want):  # what the multi-reader missed, one code at a time
                text, quad, _ = detector.detectAndDecode(page)
                if quad is None:
                    break
                found |= {text} if text else set()
                cv2.fillConvexPoly(page, quad.reshape(-1, 2).astype(np.int32), (255, 255, 255))
            if len(found) >= want:
                break
    return found


@pytest.mark.realtime
def test_a_new_user_sets_up_and_runs_a_real_table_from_the_readme(tmp_path):
    club = tmp_path / "club"
    club.mkdir()
    # 1. the virtual seat controller on a pseudo-terminal, as a board on a USB port
    seat_controller = subprocess.Popen(
        [sys.executable, "-m", "hardware.virtual", "--idle"],
        cwd=club,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    service = None
    try:
        assert seat_controller.stdout is not None
        pty = seat_controller.stdout.readline().strip()
        assert Path(pty).exists(), pty
        uids = subprocess.run(
            [sys.executable, "-m", "hardware.virtual", "--print-uids"], capture_output=True, text=True, timeout=60
        )
        (club / "deck-uids.txt").write_text(uids.stdout)
        port = _free_port()

        # 2. one setup, from flags
        setup = _chicago_table(
            "setup",
            "--yes",
            "--config",
            "table.toml",
            "--name",
            "Bord 7",
            "--port",
            pty,
            "--deck-uids",
            "deck-uids.txt",
            "--host",
            "127.0.0.1",
            "--dashboard-port",
            str(port),
            "--broadcast-delay",
            "1",  # the broadcast shows the table a second late (60 s by default)
            cwd=club,
        )
        assert setup.returncode == 0, setup.stdout + setup.stderr
        out = setup.stdout
        assert f"hittade platsstyrningen på {pty}: SC-VIRTUAL" in out  # Swedish first, as officials read it
        for pad in ("seat1", "seat2", "seat3", "seat4", "tray"):
            assert f"PASS  reader {pad}: answers" in out
        assert "registrerade 52 av 52 kort från deck-uids.txt" in out
        tokens = json.loads((club / "table-data" / "tokens.json").read_text())
        base = f"http://localhost:{port}"
        urls = {
            "tl": f"{base}/tl?token={tokens['tl']}",
            "revisor": f"{base}/revisor?token={tokens['revisor']}",
            "public": f"{base}/public?token={tokens['public']}",
            "broadcast": f"{base}/broadcast?token={tokens['broadcast']}",
            "dealer": f"{base}/dealer?token={tokens['dealer']}",
            "protocol": f"{base}/protocol?token={tokens['revisor']}",
        }
        for url in urls.values():
            assert url in out  # each view's address, with its QR code, on the terminal
        assert f"{urls['tl']}  (inte på det utskrivna bladet: visar dolda kort / not on the printed sheet" in out
        assert out.count("▀▀▀▀▀▀▀▀▀▀") >= len(urls)
        # the sheet to tape under the table: the codes of the views without hidden cards
        sheet = club / "table-join.pdf"
        assert _qr_codes(sheet, want=4) == {urls[v] for v in ("revisor", "public", "dealer", "protocol")}

        # 3. one run, from the configuration setup wrote
        service = Service(
            [str(BIN / "chicago-table"), "run", "--config", str(club / "table.toml")], port, tmp_path / "run.log"
        )
        service.start()
        doctor = _chicago_table("doctor", "--config", "table.toml", cwd=club)
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        assert f"ok    förbindelsen till platsstyrningen på {pty} är uppe" in doctor.stdout
        assert (
            "ok    bordet kör betänketiderna (byte 30 s, Chicagofrågan 10 s, spel 20 s, fyrtal 15 s)" in doctor.stdout
        )

        # 4. every view live: its page, and its stream follows what the TL enters
        for role in ROLES:
            page = httpx.get(urls[role].replace("localhost", "127.0.0.1"), timeout=30)
            assert page.status_code == 200 and "<html" in page.text.lower(), role
        first = _stream(port, tokens["tl"], lambda m: m.get("type") == "state")
        assert first["table"] == "Bord 7"
        engine, bot = Engine(), RandomBot(3, ("Anna", "Bo", "Cilla", "Dan"))
        tl = {"Authorization": f"Bearer {tokens['tl']}"}
        for _ in range(2):  # the table and its first game's seats
            action = bot.next_action(engine)
            r = httpx.post(f"http://127.0.0.1:{port}/api/action", json=action.to_dict(), headers=tl, timeout=30)
            assert r.status_code == 200, r.text
            engine.apply(action)
        for role in ROLES:
            seen = _stream(port, tokens[role], lambda m: m.get("seq", 0) >= first["seq"] + 2)
            assert seen["table"] == "Bord 7", role

        # 5. the protocol, printable
        pdf = httpx.get(f"http://127.0.0.1:{port}/api/protocol.pdf", params={"token": tokens["revisor"]}, timeout=60)
        assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
        assert pdf.content.startswith(b"%PDF-")
        (tmp_path / "protocol.pdf").write_bytes(pdf.content)
        text = subprocess.run(
            ["pdftotext", str(tmp_path / "protocol.pdf"), "-"], capture_output=True, text=True, timeout=60
        ).stdout
        assert "Bord 7" in text and "Anna" in text
    finally:
        code = service.signal(signal.SIGTERM) if service is not None else 0
        os.killpg(seat_controller.pid, signal.SIGTERM)  # whatever happened above
        seat_controller.wait(30)
    assert service is not None and code == 0, service.log.read_text() if service else ""
    assert "Traceback" not in service.log.read_text()
