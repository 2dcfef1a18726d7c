"""Shot clocks on every view (issue 18 item 5): whoever is to act has a running clock on the
Revisor's tablet, the TL's console, the dealer's screen, the hall screen and the broadcast
overlay, and every one of them shows the expiry when the time has run out (RULES.md §10,
D12: in trick play the clock shows overtime).  The views count down from the server's
figure in every frame, so the test lets a real clock run out once, with the five views
open: the event's own trick-play clock of 2 s (``--shot-clocks``, D11: "configurable per
event"), which every view shows before it runs."""

from __future__ import annotations

import re

import httpx
import pytest

from .harness import Server
from .test_audience import ACTIONS, CHICAGO, CHICAGO_END, HALL, SHOTS, write_log

pytestmark = pytest.mark.browser

# a deal in its trick play after the Chicago was said: the next action is a card played
FIRST_TRICK = next(i for i in range(CHICAGO, CHICAGO_END) if ACTIONS[i]["do"] == "play")
TO_PLAY = ACTIONS[FIRST_TRICK]["player"]
VIEWS = {  # view: (the clock of the player to act, its expiry as the view shows it)
    "revisor": (f'.acting[data-player="{TO_PLAY}"] .clock[data-clock="play"]', "speltid: tiden är ute"),
    "tl": (f'tr.acting[data-player="{TO_PLAY}"] .clock[data-clock="play"]', "speltid: tiden är ute"),
    "dealer": (f'.acting[data-player="{TO_PLAY}"] .clock[data-clock="play"]', "speltid: tiden är ute"),
    "public": (f'.acting[data-player="{TO_PLAY}"] .aclock', "utspel 0 s"),
    "broadcast": (f'.seat.acting[data-player="{TO_PLAY}"] .aclock', "utspel 0 s"),
}


def test_every_view_shows_the_clock_of_whoever_is_to_act_and_its_expiry_d12(tmp_path, chromium):
    data = tmp_path / "t"
    write_log(data, FIRST_TRICK)
    s = Server(data, command="serve", delay=0.5, extra=("--shot-clocks", "play=2")).start()
    pages = {}
    try:
        for view, (clock, _) in VIEWS.items():  # all five open at once: one wait for the expiry
            page = chromium.new_page()
            page.set_viewport_size(HALL if view in ("public", "broadcast") else {"width": 1280, "height": 800})
            page.js_errors = []
            page.on("pageerror", lambda e, page=page: page.js_errors.append(str(e)))
            page.goto(s.url(view))
            page.wait_for_selector(clock, timeout=30_000)
            running = page.locator(clock).evaluate("el => [el.textContent, el.classList.contains('over')]")
            assert running[0].endswith(" s") and "ute" not in running[0] and not running[1], (view, running)
            assert re.search(r"(^|\D)2 s$", running[0]), (view, running)  # the event's 2 s, not D11's 20
            deadline = "data-deadline" if view in ("revisor", "tl", "dealer") else "data-until"
            assert page.locator(clock).get_attribute(deadline) is None, view  # paused: it stands still
            pages[view] = page
        # a table started again from its log waits paused for the TL; play goes on
        r = httpx.post(f"{s.base}/api/resume", params={"token": s.token("tl")}, json={"reason": "bordet igång"})
        assert r.status_code == 200, r.text
        for view, (clock, expired) in VIEWS.items():  # the 2 s of trick play run out (D11, D12)
            page = pages[view]
            page.bring_to_front()
            try:
                page.wait_for_function(
                    f"() => document.querySelector({clock!r})?.classList.contains('over')", timeout=60_000
                )
            except Exception:
                page.screenshot(path=str(SHOTS / f"failed-clock-{view}.png"))
                raise AssertionError((view, page.locator(".acting").all_inner_texts())) from None
            assert page.locator(clock).inner_text() == expired, view
            if view in ("tl", "revisor"):  # D12: the TL is alerted (the Revisor sees it too), card-free
                alert = page.locator('li.alert[data-kind="overtime"]')
                alert.wait_for(timeout=10_000)
                assert f"{TO_PLAY}s speltid har gått ut (D12)" in alert.inner_text(), view
                assert alert.locator(".evidence-show, .correct-open").count() == 0, view  # no pad to read
            page.screenshot(path=str(SHOTS / f"clock-expired-{view}.png"))
            assert page.js_errors == [], (view, page.js_errors)
    finally:
        for page in pages.values():
            page.close()
        s.stop()
