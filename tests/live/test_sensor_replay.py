"""Issue 6: "replaying the raw sensor log through sensing gives the same game".

Bots play a few deals through the virtual table (real firmware logic, the serial bridge,
noisy readers; in simulated time); the live loop writes a real SQLite file.  Then
only that file: its sensor records go through a fresh sensing machine and engine (no
table, no serial line, no clock) and must give the same actions and the same document."""

from __future__ import annotations

import json
import subprocess
import sys

from hardware.virtual.simtime import run_simulated
from table_controller.live.sensor_replay import SensorReplay, replay_sensor_log, replay_sensors
from table_controller.rules.actions import parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.replay import replay_document
from table_controller.sim.virtual import bots_on_virtual_table
from table_controller.store import SQLiteStore, TableRecorder
from table_controller.store.check import check_file


def test_the_sensor_log_replays_to_the_same_game(ram_path):
    db = ram_path / "table.sqlite"
    log, _ = TableRecorder.resume(db)
    try:
        live, shadow, driver = run_simulated(
            bots_on_virtual_table(seed=4, log=log, noise="rough", max_actions=90, fast=True)
        )
    finally:
        log.close()
    live_doc = replay_document(live.engine)
    assert len(live.accepted) >= 90 and len(live.engine.state.games[0].deals) >= 2

    with SQLiteStore.open(db, readonly=True) as store:
        records = store.read()
    sensed = [r for r in records if r.kind == "sensor"]
    observations = [r for r in sensed if r.data["type"] not in ("sensing_start", "tick")]
    assert len(observations) > 200  # every raw observation is on disk
    # no commit of its own per observation: they ride along with other records, several to
    # a commit (counted over the commits that hold observations: a table at the board's
    # own pace sends fewer observations per action than the quick firmware did)
    commits = {r.txn for r in observations}
    assert len(commits) < len(observations) / 3
    # the log is sound: every action still stored with exactly its events
    assert check_file(db).ok

    engine, doc, replay = replay_sensor_log(db)
    assert [(s, a.to_dict()) for s, a in replay.accepted] == [(s, a.to_dict()) for s, a in live.accepted]
    assert doc == live_doc
    assert replay.observations == len(observations)
    # the sensed actions came out of sensing again, not out of the log
    assert sum(1 for s, _ in replay.accepted if s == "sensing") > 60
    assert replay_sensors(db)[1] == live_doc

    out = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "log", "replay-sensors", str(db), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == live_doc


def test_a_log_cut_between_two_commits_of_one_observation_replays_to_what_was_committed():
    """One observation can make sensing propose two actions, each committed on its own; a
    process killed between the two commits leaves the first only (CI caught this as a
    resumed table whose replay stuck in game 1).  The replay takes back the proposal no
    logged action confirms, at a restart and at the log's end, so it replays to what the
    log holds, never to what died with the process."""
    log = TableRecorder.in_memory()
    live, _, _ = run_simulated(bots_on_virtual_table(seed=3, log=log, max_actions=120, fast=True))
    records = log.records()
    # two sensing actions committed back to back: nothing sensed between them
    kinds = [(r.kind, r.source) for r in records if r.kind in ("action", "sensor")]
    pairs = [i for i in range(1, len(kinds)) if kinds[i] == kinds[i - 1] == ("action", "sensing")]
    assert pairs, "no observation gave two actions in these 120"
    second = [r for r in records if r.kind in ("action", "sensor")][pairs[0]]
    cut = [r for r in records if r.seq < second.seq]  # the process died before this commit

    committed = Engine()
    for r in cut:
        if r.kind == "action":
            committed.apply(parse_action(r.data))
    for restart in (False, True):  # at the log's end; at a restart (the next process's start)
        replay = SensorReplay()
        for r in cut:
            replay.record(r.kind, dict(r.data), r.source)
        if restart:
            start = next(r for r in records if r.kind == "sensor" and r.data["type"] == "sensing_start")
            replay.record("sensor", dict(start.data), "sensing")
        else:
            replay.finish()
        assert replay_document(replay.engine) == replay_document(committed)
        assert len(replay.accepted) == sum(r.kind == "action" for r in cut)
    # and the whole log still replays whole: every proposal confirmed, nothing taken back
    replay = SensorReplay()
    for r in records:
        replay.record(r.kind, dict(r.data), r.source)
    replay.finish()
    assert replay_document(replay.engine) == replay_document(live.engine)


def test_replay_sensors_refuses_a_missing_or_foreign_file_without_a_traceback(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 50)
    for path in (tmp_path / "none.sqlite", junk):
        out = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "log", "replay-sensors", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2 and "Traceback" not in out.stderr and str(path.name) in out.stderr


async def test_a_whole_table_on_simulated_pads_replays_with_its_ticks():
    """A whole table (Chicago answers, quad choices entered by hand) on simulated pads
    with a fake clock: the stored ticks (time that moved sensing between observations)
    and the hand-entered actions sit in the log where they happened."""
    import asyncio
    import contextlib

    from table_controller.live import LiveTable
    from table_controller.live.sensor_replay import SensorReplay
    from table_controller.sim.bots import RandomBot
    from table_controller.sim.driver import TableDriver
    from table_controller.store import TableRecorder
    from tests.sensing.world import PadWorld

    world = PadWorld()
    log = TableRecorder.in_memory()
    live = LiveTable(log, world.deck, sensors=world, clock=world.clock, tick_s=0.005)
    world.on_time = live.tick  # the fake clock's time reaches sensing by a tick, however slow the machine
    task = asyncio.create_task(live.run())
    try:
        shadow = await TableDriver(live, world, sync_timeout=5).play(RandomBot(3).next_action)
    finally:
        await live.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
    assert shadow.phase == "table_over"
    types = [r.data.get("type") for r in log.records("sensor")]
    assert "tick" in types and types[0] == "sensing_start"
    replay = SensorReplay()
    for r in log.records():
        replay.record(r.kind, dict(r.data), r.source)
    assert [(s, a.to_dict()) for s, a in replay.accepted] == [(s, a.to_dict()) for s, a in live.accepted]
    assert replay_document(replay.engine) == replay_document(live.engine)
    assert {s for s, _ in replay.accepted} >= {"sensing", "revisor"}


def test_a_take_back_sensing_made_before_stop_67_replays_as_it_was_played_r26(tmp_path):
    """Sensing took a revoked card back when it left the pad until stop 67; it no longer
    does, so a log of those days held a sensed take-back that the replay's sensing never
    proposes: the replay dropped it, played on without it, and `log replay-sensors` said
    "the same game" (it compared the replay document, which leaves the deal being played
    out).  The logged take-back is applied as it was, and the command compares the events too."""
    import asyncio

    from table_controller.clocks import FakeClock
    from table_controller.deck import virtual_deck
    from table_controller.live import LiveTable
    from table_controller.sensor_events import PadContents
    from table_controller.store.rebuild import resume

    hands = {
        "Anna": ["AS", "KS", "QS", "3H", "5D"],
        "Bo": ["2S", "4C", "4D", "8C", "TD"],  # the 4C on a spade lead is a revoke
        "Cilla": ["3C", "5C", "7C", "9C", "JD"],
        "Dan": ["3D", "6D", "8D", "2H", "7H"],
    }
    db = tmp_path / "table.sqlite"

    async def play() -> None:
        clock, deck = FakeClock(100.0), virtual_deck()
        uid = {c.code: u for u, c in deck.cards.items()}
        log, _ = TableRecorder.resume(db)
        live = LiveTable(log, deck, clock=clock, record_sensors=True)

        async def pad(p: str, cards: list[str]) -> None:
            await live.feed(PadContents(clock.now(), p, frozenset(uid[c] for c in cards)))
            for _ in range(20):
                clock.advance(0.05)
                await live.tick()

        try:
            for a in (
                {"do": "table", "ruleset": "sm2025", "players": list(hands)},
                {"do": "game", "seats": list(hands), "button": "Dan"},
                {"do": "deal", "hands": hands},
                *[{"do": "discard", "player": p, "cards": []} for _ in range(3) for p in hands],
            ):
                await live.submit(parse_action(a), "tl")
            await pad("seat1", ["AS"])
            await pad("seat2", ["4C"])
            await pad("seat2", [])
            await live.submit(parse_action({"do": "retract", "player": "Bo"}), "sensing")  # as sensing did
            await pad("seat2", ["2S"])
            await pad("seat3", ["3C"])
            await pad("seat4", ["3D"])
        finally:
            log.close()

    asyncio.run(play())
    engine, _, replay = replay_sensor_log(db)
    stored = [e.to_dict() for e in resume(db)[0].events]
    assert [e.to_dict() for e in engine.events] == stored
    assert [a.to_dict()["do"] for _, a in replay.accepted][-5:] == ["play", "retract", "play", "play", "play"]
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "log", "replay-sensors", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and "samma spel som det lagrade" in r.stderr, r.stderr  # Swedish first


def test_a_log_from_before_the_camera_waited_for_the_reader_replays_as_it_was_sensed():
    """Since stop 73 the camera fills in a play the reader missed only after
    ``camera_wait_s``; a log of the days before filled it in at once and holds no tick at
    that moment, so its sensing is started again as it was (no wait), and a newer log's
    start is taken as it says."""
    from table_controller.deck import virtual_deck
    from table_controller.live.table import SENSING_OPTIONS, SENSING_START

    start = {"type": SENSING_START, "deck": virtual_deck().to_dict(), "rfid": True}
    before = {k: 1.0 for k in SENSING_OPTIONS if k not in ("camera_wait_s", "late_press_s")}
    replay = SensorReplay()
    replay.record("sensor", {**start, "options": before}, "live")
    assert replay.sensing.camera_wait_s == 0.0
    replay.record("sensor", {**start, "options": {**before, "camera_wait_s": 2.0}}, "live")
    assert replay.sensing.camera_wait_s == 2.0
