"""``chicago-table run --hub URL --table-id ID``: the table plays the hub's seat draw
(players, heat, every game's seats and button, r7) read from the real hub's web server,
or from an exported draw file; bad input is a clear error and writes nothing."""

from __future__ import annotations

import json
import subprocess

import httpx
import pytest

from table_controller.rules import actions as act
from table_controller.rules.engine import Engine
from table_controller.sim.bots import DrawnBot
from table_controller.store import SQLiteStore
from tests.ports import listening

from .broker import free_port, wait_until
from .procs import CLI, Proc, web_proc
from .test_publish import make_hub


@pytest.fixture(scope="module")
def hub_web(tmp_path_factory):
    """One hub web server for the module (issue 15: a start is about 0.8 s of CPU): the
    tables only read its draw, so no test sees what another did."""
    folder = tmp_path_factory.mktemp("hub")
    hub_db = folder / "hub.sqlite"
    drawn = make_hub(hub_db, seed="run-draw", shot_clocks="play=25")  # the event's clocks (D11)
    port = free_port()
    web = web_proc(hub_db, port, folder).start()
    url = f"http://127.0.0.1:{port}"

    def up():
        try:
            return httpx.get(url + "/api/standings", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    wait_until(up, 30, "the hub's web server")
    yield url, drawn
    web.stop()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + ["run", *args], capture_output=True, text=True, timeout=300)


def run_drawn(db, hub: str, table: str, *flags: str) -> subprocess.CompletedProcess:
    """The bots' table in simulated time on ``db``, seated by ``hub``'s draw of ``table``."""
    return run("--virtual", "--bots", "--fast", *flags, "--db", str(db), "--hub", hub, "--table-id", table)


def actions(db) -> list[dict]:
    with SQLiteStore.open(db, readonly=True) as s:
        return [r.data for r in s.read(kinds=["action"])]


def test_a_table_plays_the_hubs_draw_read_from_the_hub__r7(hub_web, tmp_path):
    url, drawn = hub_web
    t = drawn[1]
    db = tmp_path / "t.sqlite"
    r = run_drawn(db, url, t["table"], "--max-actions", "30", "--seed", "3")
    assert r.returncode == 0, r.stderr
    acts = actions(db)
    start, game = acts[0], next(a for a in acts if a["do"] == "game")
    assert start["do"] == "table" and start["players"] == t["players"] and start["options"] == {"heat": 1}
    assert (game["seats"], game["button"]) == (t["games"][0]["seats"], t["games"][0]["button"])
    # resumed with another table's draw: refused, the log unchanged
    before = len(actions(db))
    r = run_drawn(db, url, drawn[0]["table"])
    assert r.returncode == 2 and "hubben lottade" in r.stderr and len(actions(db)) == before  # the hub drew


def test_a_table_resumes_as_drawn_while_the_hubs_web_server_is_down__r7(hub_web, tmp_path):
    """The draw is kept beside the log whenever the hub gives it, so a table that resumes its
    log while the hub's web server is down plays on as drawn (README: a hub that is down
    costs the table nothing).  Stop 71's audit: the restart failed, "cannot read the draw
    from the hub ... Connection refused"."""
    url, drawn = hub_web
    t = drawn[2]
    db = tmp_path / "t.sqlite"
    first = run_drawn(db, url, t["table"], "--max-actions", "40", "--seed", "5")
    assert first.returncode == 0, first.stderr
    assert json.loads((tmp_path / "t.sqlite.draw.json").read_text())["players"] == t["players"]
    before = len(actions(db))
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    again = run_drawn(db, down, t["table"], "--max-actions", "400", "--seed", "5")
    assert again.returncode == 0, again.stderr
    assert "bordet spelar lottningen som sparats i" in again.stderr and str(db) in again.stderr, again.stderr
    acts = actions(db)
    assert len(acts) > before and acts[0]["players"] == t["players"]
    games = [a for a in acts if a["do"] == "game"]
    assert [(g["seats"], g["button"]) for g in games] == [(d["seats"], d["button"]) for d in t["games"][: len(games)]]
    fresh = run_drawn(tmp_path / "new.sqlite", down, t["table"])
    assert fresh.returncode == 2 and "cannot read the draw from the hub" in fresh.stderr  # nothing kept: refused
    assert not (tmp_path / "new.sqlite").exists()


def test_an_exported_draw_file_works_too__r7(hub_web, tmp_path):
    _, drawn = hub_web
    path = tmp_path / "heat1.json"
    path.write_text(json.dumps({"heat": 1, "seed": "run-draw", "tables": drawn}))
    db = tmp_path / "t.sqlite"
    r = run(
        *"--virtual --bots --fast --max-actions 10 --seed 4".split(),
        "--db",
        str(db),
        "--hub",
        str(path),
        "--table-id",
        "h1-t3",
    )
    assert r.returncode == 0, r.stderr
    assert actions(db)[0]["players"] == drawn[2]["players"]


def test_a_table_runs_the_events_shot_clocks_and_refuses_clocks_of_its_own_d11(hub_web, tmp_path):
    """D11: the shot clocks are the event's: the hub sets them once (``hub create
    --shot-clocks``) and every table's draw carries them; a table set to others is refused in
    words before anything is written."""
    _, drawn = hub_web
    assert all(t["shot_clocks"] == "play=25" for t in drawn)
    path = tmp_path / "heat1.json"
    path.write_text(json.dumps({"heat": 1, "seed": "run-draw", "tables": drawn}))
    db = tmp_path / "t.sqlite"
    draw = ["--hub", str(path), "--table-id", "h1-t3"]
    r = run("--virtual", "--bots", "--fast", "--db", str(db), *draw, "--shot-clocks", "play=20")
    assert r.returncode == 2 and "this table's shot clocks (play=20) are not the event's (play=25" in r.stderr
    assert not db.exists()
    same = run(*"--virtual --bots --fast --max-actions 5".split(), "--db", str(db), *draw, "--shot-clocks", "play=25")
    assert same.returncode == 0, same.stderr  # the event's own clocks, given again: no conflict
    bad = [{**t, "shot_clocks": "spel=25"} for t in drawn]
    path.write_text(json.dumps({"heat": 1, "seed": "run-draw", "tables": bad}))
    r = run("--virtual", "--bots", "--fast", "--db", str(tmp_path / "u.sqlite"), *draw)
    assert r.returncode == 2 and "bad 'shot_clocks' (no shot clock 'spel'" in r.stderr


def test_no_draw_is_a_clear_error_and_writes_nothing(hub_web, tmp_path):
    url, _ = hub_web
    db = tmp_path / "t.sqlite"
    cases = [
        (["--hub", url, "--table-id", "h1-t9"], "has not drawn a table 'h1-t9'"),
        (["--hub", url, "--table-id", "h1/t1"], "table 'h1/t1'"),
        (["--hub", url], "anges tillsammans"),  # go together
        (["--hub", url, "--table-id", "h1-t1", "--players", "A,B,C"], "hubbens lottning anger spelarna"),
        (["--hub", str(tmp_path / "none.json"), "--table-id", "h1-t1"], "cannot read the draw file"),
        (["--hub", "http://127.0.0.1:1", "--table-id", "h1-t1"], "cannot read the draw from the hub"),
    ]
    for extra, why in cases:
        r = run("--virtual", "--bots", "--fast", "--db", str(db), *extra)
        assert r.returncode == 2 and why in r.stderr, (extra, r.stderr)
        assert not db.exists()


def test_the_bots_wait_for_the_hubs_sarspel_seats__r11():
    """A tied table: the hub draws the särspel's seats once it has the tied game; the
    bots read the draw again until they are there (no wall clock: the sleep is counted)."""
    players = ["Anna", "Bo", "Cilla"]
    draw = {"table": "h1-t1", "players": players, "ruleset": "sm2025", "options": {"heat": 1}, "games": []}
    # the next game of this bare engine is game 1 (at a real tie it is game 4)
    sarspel = {"game": 1, "seats": ["Bo", "Anna"], "button": "Anna", "playoff": True}
    calls = []

    def refresh():
        calls.append(1)
        return {**draw, "games": [sarspel] if len(calls) >= 3 else []}

    slept = []
    bot = DrawnBot(1, draw, refresh=refresh, sleep=slept.append, poll_s=0.5)
    engine = Engine()
    engine.apply(bot.next_action(engine))
    engine.state.playoff_players = ("Anna", "Bo")  # as the engine leaves a tie after game 3 (r11)
    a = bot.next_action(engine)
    assert isinstance(a, act.GameStart) and (list(a.seats), a.button) == (sarspel["seats"], "Anna")
    assert len(calls) == 3 and sum(slept) == 1.5
    warned = []
    lone = DrawnBot(1, draw, refresh=lambda: draw, sleep=slept.append, wait_s=2, poll_s=0.5, warn=warned.append)
    a = lone.next_action(engine)
    assert isinstance(a, act.GameStart) and sorted(a.seats) == ["Anna", "Bo"] and "the bots seat them" in warned[-1]


@pytest.mark.browser
@pytest.mark.realtime  # a table service on the wall clock, its Revisor page in chromium
def test_a_table_service_starts_as_drawn_and_the_revisor_gets_the_drawn_seats__r7(hub_web, tmp_path):
    """``run --config`` with ``[hub]``: the log starts with the drawn players and heat; the
    Revisor's new-game form shows the hub's seats and button, one tap starts the game."""
    from playwright.sync_api import sync_playwright

    from tests.dashboard.harness import launch_chromium

    url, drawn = hub_web
    t = drawn[0]
    port = free_port()
    conf = tmp_path / "table.toml"
    conf.write_text(
        f'[table]\nname = "Bord 1"\ndata = "data"\nvirtual = true\n\n'
        f'[dashboard]\nport = {port}\nevent_tokens = "tokens.json"\n\n'
        f'[hub]\ndraw = "{url}"\ntable_id = "{t["table"]}"\n'
    )
    svc = Proc(["run", "--config", str(conf)], tmp_path / "service.log").start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: listening(port) or svc.p.poll() is not None, 60, "the table's dashboard")
        assert svc.p.poll() is None, (tmp_path / "service.log").read_text()
        tokens = json.loads((tmp_path / "tokens.json").read_text())
        assert httpx.get(base + "/api/draw", params={"token": tokens["public"]}).status_code == 403
        got = httpx.get(base + "/api/draw", params={"token": tokens["revisor"]}).json()
        assert got["players"] == t["players"] and got["games"] == t["games"]
        status = httpx.get(base + "/api/status", headers={"Authorization": f"Bearer {tokens['tl']}"}).json()
        assert status["shot_clocks"] == {"exchange": 30, "chicago": 10, "play": 25, "quads": 15}  # the event's
        db = tmp_path / "data" / "table.sqlite"
        start = actions(db)[0]
        assert start["do"] == "table" and start["players"] == t["players"] and start["options"]["heat"] == 1
        kept = json.loads((tmp_path / "data" / f"draw-{t['table']}.json").read_text())  # a resume needs no hub
        assert kept["players"] == t["players"] and kept["games"] == t["games"]
        g1 = t["games"][0]
        with sync_playwright() as p:
            ctx = launch_chromium(p)
            page = ctx.new_page()
            page.goto(base + "/revisor?token=" + tokens["revisor"])
            page.wait_for_selector("#game-start[data-drawn='1']")
            seats = page.locator(".seat-pick").evaluate_all("ss => ss.map(s => s.value)")
            assert seats == g1["seats"] and page.input_value("#button-pick") == g1["button"]
            assert "lottade" in page.inner_text("#drawn-note")  # Swedish first
            page.click("#game-submit")
            wait_until(lambda: any(a["do"] == "game" for a in actions(db)), 30, "the game action in the log")
            ctx.close()
        game = next(a for a in actions(db) if a["do"] == "game")
        assert (game["seats"], game["button"]) == (g1["seats"], g1["button"])
    finally:
        svc.stop()
    # the same data folder configured for another drawn table: refused, the log unchanged
    before = actions(db)
    conf.write_text(conf.read_text().replace(f'table_id = "{t["table"]}"', f'table_id = "{drawn[1]["table"]}"'))
    r = subprocess.run(CLI + ["run", "--config", str(conf)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "ge bordet en ny datamapp ([table] data)" in r.stderr, r.stderr  # a new folder
    assert actions(db) == before
    # a table set to shot clocks other than the event's (D11): refused in words, the log unchanged
    own = conf.read_text().replace(f'table_id = "{drawn[1]["table"]}"', f'table_id = "{t["table"]}"')
    conf.write_text(own.replace("virtual = true\n", "virtual = true\nshot_clocks = { play = 20 }\n"))  # its own table
    r = subprocess.run(CLI + ["run", "--config", str(conf)], capture_output=True, text=True, timeout=120)
    assert (
        r.returncode == 2 and "[table] shot_clocks: this table's shot clocks (play=20) are not the event's" in r.stderr
    )
    assert actions(db) == before
