"""The TL's hall: every table of the event on one page, each through its own server's TL
stream with the event's shared token (issue 8: "TL view: every table's state, the alert queue")."""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request

import pytest

from dashboard.errors import DashboardError
from dashboard.hall import peer_base, peer_bases

from .harness import CLI, ROOT, free_port

pytestmark = pytest.mark.browser


def test_peer_addresses_are_checked():
    assert peer_base("http://table2.local:8080/") == "http://table2.local:8080"
    assert peer_base(" https://10.0.0.7 ") == "https://10.0.0.7"
    assert peer_bases(["http://a:1", "http://a:1/", "http://b:2"]) == ("http://a:1", "http://b:2")
    for bad in ("table2:8080", "ftp://a:1", "http://a:1/tl?token=x", "http://", "http://a:99999"):
        with pytest.raises(DashboardError):
            peer_base(bad)


def test_serve_refuses_a_bad_peer_with_a_clear_message(tmp_path):
    r = subprocess.run(
        CLI + ["serve", "--data", str(tmp_path / "t"), "--port", str(free_port()), "--peer", "table2:8080"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert "http://HOST:PORT" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "t").exists()  # nothing created on a bad command line


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_hall_shows_every_table_live_and_a_table_that_is_down(make_server, chromium, tmp_path):
    tokens = tmp_path / "event-tokens.json"
    port1 = free_port()
    # the tables name each other (README): table 2 takes table 1's hall page as an origin
    second = make_server(
        pace=0.05, seed=2, extra=("--tokens", str(tokens), "--name", "Table 2", "--peer", f"http://127.0.0.1:{port1}")
    )
    dead = f"http://127.0.0.1:{free_port()}"  # a table whose Pi is off
    first = make_server(
        pace=0.05,
        seed=1,
        port=port1,
        extra=("--tokens", str(tokens), "--name", "Table 1", "--peer", second.base, "--peer", dead),
    )
    tl = json.loads(tokens.read_text())["tl"]
    # the hall is the TL's alone
    assert _get(f"{first.base}/hall?token={json.loads(tokens.read_text())['revisor']}")[0] == 403
    assert _get(f"{first.base}/api/tables")[0] == 401
    status, body = _get(f"{first.base}/api/tables?token={tl}")
    assert status == 200
    assert [t["base"] for t in json.loads(body)["tables"]] == ["", second.base, dead]

    page = chromium.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    assert page.goto(f"{first.base}/hall?token={tl}").status == 200
    here = page.locator('.hall-table[data-base="here"]')
    there = page.locator(f'.hall-table[data-base="{second.base}"]')
    gone = page.locator(f'.hall-table[data-base="{dead}"]')
    page.wait_for_function("() => document.body.dataset.live === '2'", timeout=30000)
    assert here.get_attribute("data-table") == "Table 1" and there.get_attribute("data-table") == "Table 2"
    assert gone.get_attribute("data-state") == "offline"
    # both panels follow their own table live
    seq = int(there.get_attribute("data-seq"))
    page.wait_for_function(
        f"() => Number(document.querySelector('.hall-table[data-base=\"{second.base}\"]').dataset.seq) > {seq}",
        timeout=20000,
    )
    assert here.locator("[data-player]").count() >= 3 and there.locator("[data-player]").count() >= 3

    # a rejected entry at table 2 lands in the hall's alert queue
    rev2 = json.loads(tokens.read_text())["revisor"]
    req = urllib.request.Request(
        f"{second.base}/api/action?token={rev2}",
        method="POST",
        data=json.dumps({"do": "discard", "player": "Nobody", "cards": []}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(req, timeout=10)
    page.wait_for_function(
        f"() => Number(document.querySelector('.hall-table[data-base=\"{second.base}\"]').dataset.alerts) >= 1",
        timeout=20000,
    )
    assert "avvisad" in there.locator(".hall-alerts").inner_text()  # Swedish by default (issue 18)
    # every alert's label is a word, never its kind's code ("two_pads", "engine_failed")
    labels = page.evaluate(
        "() => [{id: 's3', kind: 'two_pads'}, {id: 's4', kind: 'stuck'}, {id: 5, kind: 'engine_failed'},"
        " {id: 6, kind: 'log_failed'}, {id: 7, kind: 'something_new'}].map(a => hallAlert(a).firstChild.textContent)"
    )
    assert labels == ["avläsning", "avläsning", "ej bedömd", "loggen skrevs inte", "larm"]
    # Swedish's genitive in the pages too: "Visa Lars hand", "Visa Bos hand"
    shown = page.evaluate(
        "['Lars', 'Bo'].map(p => t(\"Show {player}'s hand to the TL? This is logged.\", {player: p}))"
    )
    assert shown == ["Visa Lars hand för TL? Det loggas.", "Visa Bos hand för TL? Det loggas."]

    # table 2 crashes: its panel goes offline, table 1 plays on; back up, it is live again
    second.stop()
    page.wait_for_function(
        f"() => document.querySelector('.hall-table[data-base=\"{second.base}\"]').dataset.state === 'offline'",
        timeout=20000,
    )
    seq = int(here.get_attribute("data-seq"))
    page.wait_for_function(
        f"() => Number(document.querySelector('.hall-table[data-base=\"here\"]').dataset.seq) > {seq}", timeout=20000
    )
    second.start()
    page.wait_for_function(
        f"() => document.querySelector('.hall-table[data-base=\"{second.base}\"]').dataset.state === 'live'",
        timeout=30000,
    )
    assert errors == []
    page.close()


@pytest.mark.parametrize("failure", ["busy", "cut-off", "dropped"])
def test_the_hall_asks_for_its_tables_again_when_the_first_answer_fails(make_server, chromium, failure):
    """The hall asks its server once for the event's tables.  An answer that failed (a busy
    server, a body cut off, a dropped connection) left the page empty for good; it is
    asked again until it comes whole, and says so meanwhile, in Swedish (stop 68)."""
    s = make_server(pace=5.0, delay=0)
    page = chromium.new_page()
    failed: list[str] = []
    failing = [True]

    def fails_until_seen(route) -> None:
        if not failing[0]:
            route.continue_()
            return
        failed.append(route.request.url)
        if failure == "dropped":
            route.abort()
        else:
            status, body = (503, '{"error": "busy"}') if failure == "busy" else (200, '{"tables": [{"ba')
            route.fulfill(status=status, body=body, content_type="application/json")

    page.route("**/api/tables?*", fails_until_seen)
    page.goto(s.url("hall", "tl"))
    page.wait_for_selector("#error", state="visible", timeout=30_000)
    assert page.inner_text("#error") == "tävlingens bord kom inte: frågar igen"
    failing[0] = False
    page.wait_for_selector('.hall-table[data-base="here"]', timeout=30_000)
    assert len(failed) >= 1 and page.locator(".hall-table").count() == 1
    assert page.locator("#error").is_hidden()
    page.close()


# The panels' boxes, their players' type and whether any holds more than it shows
HALL_BOXES_JS = """() => ({
  panels: [...document.querySelectorAll('.hall-table')].map(e => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, cut: e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 }; }),
  names: [...document.querySelectorAll('.hall-players .pname')].map(e => parseFloat(getComputedStyle(e).fontSize)),
  scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth })"""


@pytest.mark.parametrize(("width", "height", "least_px"), [(1920, 1080, 28), (1280, 720, 18)])
def test_the_hall_fills_its_screen_in_type_read_from_afar(make_server, chromium, width, height, least_px):
    """The hall on a 1920x1080 TV (and a 1280x720 one, the TL's laptop): the tables' panels
    reach the bottom of the screen, the players' names in type read from across the hall,
    nothing cut off and nothing to scroll (stop 74: panels of 360 px in 16 px type filled the
    top of the screen and left its lower two thirds empty)."""
    s = make_server(pace=0.05, delay=0, extra=("--peer", f"http://127.0.0.1:{free_port()}"))  # a table that is down
    page = chromium.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.goto(s.url("hall", "tl"))
    page.wait_for_function(
        "() => document.body.dataset.live === '1' && document.querySelectorAll('.hall-players .pname').length === 4",
        timeout=30_000,
    )
    seen = page.evaluate(HALL_BOXES_JS)
    assert len(seen["panels"]) == 2
    assert max(p["bottom"] for p in seen["panels"]) >= 0.9 * height, seen  # the lower part is the tables'
    assert all(p["left"] >= 0 and p["right"] <= width and p["bottom"] <= height for p in seen["panels"]), seen
    assert not any(p["cut"] for p in seen["panels"]) and not seen["scrolls"], seen
    assert min(seen["names"]) >= least_px, seen
    (ROOT / "build" / "screenshots").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ROOT / "build" / "screenshots" / f"hall-tl-{width}x{height}.png"))
    page.close()
