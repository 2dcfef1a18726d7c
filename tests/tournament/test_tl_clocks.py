"""The TL's event screen shows every table's running shot clocks (issue 20, item 3):
whose turn, on which clock, seconds left, fed from what the tables publish (their
logs' clock records, sent on ``tables/TABLE/clocks``) through a real Mosquitto to
``hub serve``, shown by ``hub web`` and rendered by Debian's chromium at 1280x800 and
1920x1080.  Names and seconds only: no card reaches the screen."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
from pathlib import Path

import httpx
import pytest

from table_controller.clocks import FakeClock, ShotClocks, waiting_clocks
from table_controller.tournament import topics
from table_controller.tournament.event import create_event, draw_first_heat, register
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.publisher import TablePublisher
from table_controller.tournament.service import HubService
from tests.dashboard.harness import cards_in_text, launch_chromium

from .broker import free_port, wait_until
from .procs import web_proc
from .tables import RecordedTable, play_as_drawn
from .test_publish import running

NAMES = [
    "Anna Berg", "Bo Ek", "Cilla Ström", "Dan Lind", "Eva Holm", "Filip Sjö", "Gun Dahl", "Hans Vik",
    "Ida Fors", "Jonas Hed", "Karin Ås", "Leif Mo", "Maja Ros", "Nils Ek", "Olle Berg", "Pia Lund",
    "Rut Alm", "Sven Torp", "Tea Falk", "Ulf Rask", "Vera Kvist", "Walter Nord", "Yvonne Ek", "Åke Björk",
]  # fmt: skip


def until_phase(rt: RecordedTable, want) -> None:
    while not want(rt.engine):
        assert not rt.finished, "the table ended before the wanted moment"
        rt.play(1)


def hold_clocks(rt: RecordedTable, used: float, paused: bool = False) -> dict:
    """A clock record as the live table stores it (``ShotClocks.snapshot``), ``used``
    seconds into the turn of whoever the table waits for now."""
    e = rt.engine
    d = e.state.deal
    fake = FakeClock()
    clocks = ShotClocks(clock=fake)
    clocks.sync(waiting_clocks(e.phase, e.to_act(), d.placed if d else (), "turn"))
    fake.advance(used)
    if paused:
        clocks.pause()
    snap = clocks.snapshot()
    rt.store.append_one("clock", snap, "clocks")
    return snap


@pytest.fixture
def event(tmp_path):
    hub_db = tmp_path / "hub.sqlite"
    with HubStore.open(hub_db, create=True) as hub:
        create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025", "quads=20")  # the event's (D11)
        register(hub, [(n, f"Klubb {k % 5}") for k, n in enumerate(NAMES)])
        draw_first_heat(hub, seed="clocks")
        drawn = hub.tables(1)
    assert len(drawn) == 6
    tables = [
        RecordedTable(tmp_path / f"{t['table']}.sqlite", play_as_drawn(t, seed=40 + k)) for k, t in enumerate(drawn)
    ]
    tables[0].play()  # finished
    exchanging, tricks, overtime, paused = tables[1:5]
    until_phase(exchanging, lambda e: e.phase.startswith("exchange") and len(e.to_act()) >= 3)
    snaps = {drawn[1]["table"]: hold_clocks(exchanging, 8.0)}
    tricks.play(150)
    until_phase(tricks, lambda e: e.phase == "tricks")
    tricks.store.append_one(
        "alert", {"id": 3, "kind": "two_pads", "text": "QS read on pads 2 and 4", "pad": "seat2", "state": "raised"},
        "sensing",
    )  # fmt: skip
    snaps[drawn[2]["table"]] = hold_clocks(tricks, 14.0)
    overtime.play(400)
    until_phase(overtime, lambda e: e.phase == "tricks")
    snaps[drawn[3]["table"]] = hold_clocks(overtime, 26.0)  # a trick-play clock run out (D12): overtime
    paused.play(250)
    until_phase(paused, lambda e: e.phase == "chicago" or e.phase.startswith("exchange"))
    snaps[drawn[4]["table"]] = hold_clocks(paused, 4.0, paused=True)
    # tables[5]: not started
    yield hub_db, drawn, tables, snaps
    for t in tables:
        t.close()


def clocks_at_hub(hub_db) -> dict[str, int]:
    with HubStore.open(hub_db, readonly=True) as h:
        return {t: c["seq"] for t, c in h.clocks().items()}


def heads(hub_db) -> dict[str, int]:
    with HubStore.open(hub_db, readonly=True) as h:
        return {t: s for t, (s, _) in h.heads().items()}


class Feed:
    """The hub service and every table's publisher on their own loop in a thread, for as
    long as the test looks at the screen (a live event, where the tables keep sending)."""

    def __init__(self, hub_db, port: int, tables, drawn):
        self.hub = HubService(hub_db, port=port, standings_every=0.1)
        self.pubs = [
            TablePublisher(t.path, table=d["table"], event="sm2026", port=port)
            for t, d in zip(tables, drawn)
            if t.store is not None
        ]
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._run(),), daemon=True)

    async def _run(self):
        async with running(self.hub, *self.pubs) as stop:
            await self.stop.wait()
            stop.set()

    def __enter__(self) -> Feed:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
        self.loop.close()


def fresh_clocks(tables, drawn, snaps, hub_db) -> None:
    """Each table with a running clock stores its snapshot again (a live table does so
    about once a second); wait until the hub has taken every one."""
    want = {}
    for t, d in zip(tables, drawn):
        if d["table"] in snaps:
            want[d["table"]] = t.store.append_one("clock", snaps[d["table"]], "clocks").seq
    wait_until(
        lambda: all(clocks_at_hub(hub_db).get(k, 0) >= v for k, v in want.items()), 30, "fresh clocks at the hub"
    )


@pytest.mark.browser
@pytest.mark.realtime  # the screen's own countdown runs on the wall clock
def test_the_tables_clocks_reach_the_tl_screen_counting_down(broker, event, tmp_path):
    hub_db, drawn, tables, snaps = event
    port = free_port()
    web = web_proc(hub_db, port, tmp_path, tokens=tmp_path / "tokens.json").start()
    base = f"http://127.0.0.1:{port}"
    with Feed(hub_db, broker.port, tables, drawn):
        wait_until(lambda: set(clocks_at_hub(hub_db)) >= set(snaps), 30, "the clocks at the hub")
        live = [(t, d["table"]) for t, d in zip(tables, drawn) if t.store is not None]
        wait_until(lambda: all(heads(hub_db).get(tid) == t.last_seq() for t, tid in live), 60, "every record")
        with HubStore.open(hub_db, readonly=True) as h:
            stored = h.clocks()
        for tid, snap in snaps.items():
            c = stored[tid]
            assert c["paused"] == snap["paused"] and not c["moved"]
            assert {p: r["remaining"] for p, r in c["running"].items()} == snap["remaining"]
            assert {p: r["clock"] for p, r in c["running"].items()} == snap["extra"]["kinds"]
        assert drawn[0]["table"] not in stored  # a finished table that held no clock sends none
        try:
            wait_until(lambda: _up(base), 30, "the hub's web server")
            tl = json.loads((tmp_path / "tokens.json").read_text())["tl"]
            fresh_clocks(tables, drawn, snaps, hub_db)
            r = httpx.get(base + "/api/tl", params={"token": tl})
            doc = r.json()
            assert not cards_in_text(r.text)  # the sensing alert's card stays in the log
            by = {t["table"]: t for t in doc["heats"][0]["tables"]}
            ex = by[drawn[1]["table"]]["clocks"]
            assert len(ex["running"]) >= 3 and not ex["stale"]
            assert all(r["clock"] == "exchange" and r["remaining"] <= 22 for r in ex["running"].values())
            (over,) = by[drawn[3]["table"]]["clocks"]["running"].values()
            assert over["clock"] == "play" and over["remaining"] <= 0  # overtime
            held = by[drawn[4]["table"]]["clocks"]
            assert held["paused"]
            assert {p: r["remaining"] for p, r in held["running"].items()} == snaps[drawn[4]["table"]]["remaining"]
            assert by[drawn[0]["table"]]["finished"] and by[drawn[0]["table"]]["clocks"] is None
            assert by[drawn[5]["table"]]["clocks"] is None
            assert doc["shot_clocks"] == {"exchange": 30, "chicago": 10, "play": 20, "quads": 20}  # the event's
            assert "clocks" not in httpx.get(base + "/api/standings").text  # the TL's, not the hall's
            assert httpx.get(base + "/api/tl", params={"token": "x"}).status_code == 403
            _screens(base, tl, drawn, snaps, tmp_path, lambda: fresh_clocks(tables, drawn, snaps, hub_db))
        finally:
            web.stop()


def _up(base: str) -> bool:
    try:
        return httpx.get(base + "/api/standings", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _screens(base, tl, drawn, snaps, folder: Path, fresh) -> None:
    from playwright.sync_api import sync_playwright

    keep = os.environ.get("SCREENSHOTS")  # a folder to keep the pictures in (the README's)
    with sync_playwright() as p:
        ctx = launch_chromium(p)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for w, h in ((1280, 800), (1920, 1080)):
            page.set_viewport_size({"width": w, "height": h})
            fresh()
            page.goto(base + "/tl?token=" + tl)
            page.wait_for_selector("body[data-loaded='1']")
            for tid, snap in snaps.items():
                chips = page.locator(f"[data-table='{tid}'] .clk[data-player]")
                assert sorted(chips.evaluate_all("cs => cs.map(c => c.dataset.player)")) == sorted(snap["remaining"])
            paused = page.locator(f"[data-table='{drawn[4]['table']}'] .clk.paused[data-player]").first
            assert paused.is_visible()
            over = page.locator(f"[data-table='{drawn[3]['table']}'] .clk.over").first
            assert over.locator(".s").inner_text().startswith("-")  # "-6 s": overtime
            # the running clocks count down on the screen between the hub's answers
            chip = page.locator(f"[data-table='{drawn[1]['table']}'] .clk[data-player]").first
            first = chip.locator(".s").inner_text()
            page.wait_for_function(
                "([sel, t]) => document.querySelector(sel).textContent !== t",
                arg=[f"[data-table='{drawn[1]['table']}'] .clk[data-player] .s", first],
                timeout=10_000,
            )
            assert page.locator("[data-table]").first.get_attribute("data-table") == drawn[2]["table"]  # alert first
            assert page.inner_text("#event-clocks") == (
                "betänketider / shot clocks (D11): byte / exchange 30 s · chicago? 10 s · spel / play 20 s · "
                "fyrtal / quads 20 s"
            )
            text = page.inner_text("body")
            assert not cards_in_text(text) and "QS" not in text
            # Swedish first, worded as the table's own pages word it; the English under it
            alert = page.locator(f"[data-table='{drawn[2]['table']}'] .alerts li")
            assert alert.inner_text().splitlines() == [
                "avläsning Ett kort läst på två plattor vid platta 2",
                "sensing: A card read on two pads at pad 2",
            ]
            assert "two_pads" not in text
            # nothing cut off or overlapping: every card lies inside the window's width
            boxes = page.locator("[data-table]").evaluate_all(
                "ts => ts.map(t => { const r = t.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })"
            )
            assert all(left >= 0 and right <= w for left, right, _, _ in boxes)
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], "two tables overlap"
            shot = folder / f"tl-clocks-{w}x{h}.png"
            page.screenshot(path=str(shot))
            if keep:
                shutil.copy(shot, Path(keep) / shot.name)
        # the hall's public standings say a game as RULES.md does ("omgång"), never "parti"
        page.goto(base + "/")
        page.wait_for_selector("body[data-loaded='1']")
        hall = page.inner_text("body")
        assert "omgång 1 · giv" in hall and "parti" not in hall
        shot = folder / f"hall-standings-{w}x{h}.png"
        page.screenshot(path=str(shot))
        if keep:
            shutil.copy(shot, Path(keep) / shot.name)
        assert errors == []
        ctx.close()


def test_a_clocks_message_is_checked():
    ok = topics.clocks_payload("h1-t1", 5, 0.2, False, {"Bo": {"clock": "play", "remaining": 3.0}}, False)
    assert topics.parse_clocks(ok)["running"] == {"Bo": {"clock": "play", "remaining": 3.0}}
    bad = [
        {"running": {"Bo": {"clock": "nap", "remaining": 3}}},
        {"running": {"Bo": {"clock": "play", "remaining": -1}}},
        {"running": {"Bo": {"clock": "play", "remaining": 3, "card": "QS"}}},
        {"running": {f"P{i}": {"clock": "play", "remaining": 1} for i in range(5)}},
        {"age": float("inf")},
        {"seq": 0},
        {"paused": "no"},
        {"v": 1},
    ]
    base = json.loads(ok)
    for change in bad:
        with pytest.raises(topics.PayloadError):
            topics.parse_clocks(json.dumps({**base, **change}) if "age" not in change else _inf(base))


def _inf(base):
    return json.dumps(base).replace('"age": 0.2', '"age": 1e999')
