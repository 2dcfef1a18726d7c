"""The event's name, heat and logo from the configuration (issue 19 item 1: "event name and
logo from the config"): on the broadcast overlay, the hall screen, the phone view and the
protocol PDF; a bad logo stops the start with a clear error.  Screenshots go to
build/screenshots/ (branding-*.png) to be looked at."""

from __future__ import annotations

import io
import subprocess
import sys

import cv2
import httpx
import numpy as np
import pytest
from pypdf import PdfReader

from dashboard.branding import LOGO_LIMIT, load_branding
from dashboard.errors import DashboardError

from .harness import ROOT, Server
from .test_audience import GAMES, HALL, PHONE, SHOTS, check, open_view, write_log

EVENT, HEAT = "SM i Chicago 2026", "Semifinal"


def make_logo(path, size=(90, 240)) -> bytes:
    """A wide two-colour logo with a mark in it: what a club would hand in."""
    img = np.full((*size, 3), (40, 30, 160), np.uint8)
    cv2.circle(img, (size[0] // 2, size[0] // 2), size[0] // 3, (60, 210, 250), -1)
    cv2.putText(img, "SM", (size[0], int(size[0] * 0.7)), cv2.FONT_HERSHEY_DUPLEX, 1.8, (255, 255, 255), 3)
    ok, data = cv2.imencode(".png", img)
    assert ok
    path.write_bytes(data.tobytes())
    return data.tobytes()


def test_a_logo_must_be_a_png_or_jpeg_of_bounded_size(tmp_path):
    logo = tmp_path / "logo.png"
    data = make_logo(logo)
    b = load_branding(EVENT, HEAT, logo)
    assert (b.event, b.heat, b.logo, b.logo_media_type) == (EVENT, HEAT, data, "image/png")
    ok, jpeg = cv2.imencode(".jpg", np.zeros((10, 10, 3), np.uint8))
    (tmp_path / "logo.jpg").write_bytes(jpeg.tobytes())
    assert load_branding(logo=tmp_path / "logo.jpg").logo_media_type == "image/jpeg"
    (tmp_path / "logo.svg").write_text("<svg/>")
    with pytest.raises(DashboardError, match="must be a PNG or JPEG image"):
        load_branding(logo=tmp_path / "logo.svg")
    (tmp_path / "big.png").write_bytes(data[:16] + bytes(LOGO_LIMIT))
    with pytest.raises(DashboardError, match="at most 512 kB"):
        load_branding(logo=tmp_path / "big.png")
    with pytest.raises(DashboardError, match="cannot read the logo"):
        load_branding(logo=tmp_path / "none.png")
    with pytest.raises(DashboardError, match="event name must be a line"):
        load_branding("SM\n2026")


def test_serve_with_a_bad_logo_says_why_and_starts_nothing(tmp_path):
    (tmp_path / "logo.gif").write_bytes(b"GIF89a" + bytes(20))
    out = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "serve", "--data", str(tmp_path / "d")]
        + ["--port", "1", "--logo", str(tmp_path / "logo.gif")],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2, out
    assert "logotypen måste vara en PNG- eller JPEG-bild" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.browser
def test_event_name_and_logo_on_the_overlay_the_hall_the_phone_and_the_protocol(tmp_path, chromium):
    logo = tmp_path / "logo.png"
    make_logo(logo)
    data = tmp_path / "table"
    write_log(data, GAMES[0] + 1)
    s = Server(data, command="serve", delay=0.5, extra=("--event-name", EVENT, "--heat", HEAT, "--logo", str(logo)))
    s.start()
    try:
        pages = {
            "branding-overlay": (open_view(chromium, s, "broadcast", HALL), "#strip"),
            "branding-hall": (open_view(chromium, s, "public", HALL), "#aud-head"),
            "branding-phone": (open_view(chromium, s, "public", PHONE), "#aud-head"),
        }
        for name, (page, where) in pages.items():
            page.wait_for_selector(f"{where} #brand img.logo")
            # the image came from the server and was decoded (not a broken-image icon)
            page.wait_for_function("() => document.querySelector('#brand img.logo').naturalWidth === 240")
            assert EVENT in page.inner_text(where), name
            box = page.locator("#brand img.logo").bounding_box()
            assert box and box["height"] >= 20 and box["width"] <= 200, (name, box)
            check(page, name, overlay=name.endswith("overlay"))
        # the logo is public, but like every page's file it needs a role's token
        assert httpx.get(f"{s.base}/api/logo", timeout=10).status_code == 401
        got = httpx.get(f"{s.base}/api/logo?token={s.token('public')}", timeout=10)
        assert got.status_code == 200 and got.headers["content-type"] == "image/png"
        assert got.content == logo.read_bytes()
        # the protocol's header: the event, the heat, the logo
        pdf = httpx.get(f"{s.base}/api/protocol.pdf?token={s.token('tl')}", timeout=30)
        assert pdf.status_code == 200
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / "branding-protocol.pdf").write_bytes(pdf.content)
        first = PdfReader(io.BytesIO(pdf.content)).pages[0]
        text = first.extract_text()
        assert EVENT in text and HEAT in text, text[:300]
        assert len(first.images) == 1
    finally:
        s.stop()


def test_without_an_event_the_views_show_no_brand_and_no_logo_is_served(tmp_path, chromium):
    data = tmp_path / "table"
    write_log(data, GAMES[0] + 1)
    s = Server(data, command="serve", delay=0.5).start()
    try:
        page = open_view(chromium, s, "public", PHONE)
        assert page.locator("#brand").count() == 0
        assert httpx.get(f"{s.base}/api/logo?token={s.token('public')}", timeout=10).status_code == 404
    finally:
        s.stop()
