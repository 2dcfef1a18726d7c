"""The recorder: an action and its events are stored together, durably, before they are
returned; a restart rebuilds the same table with its shot clocks paused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table_controller.rules import actions as act
from table_controller.rules.engine import IllegalAction
from table_controller.rules.replay import replay_document, replay_lines
from table_controller.sim.bots import RandomBot
from table_controller.store import ClockSnapshotError, RecordError, SQLiteStore, StoreBusy, StoreClosed, StoreNotFound
from table_controller.store.rebuild import rebuild, resume
from table_controller.store.recorder import TableRecorder
from table_controller.store.snapshots import ClockSnapshot

from .helpers import record_bot_table

START = act.TableStart(("Anna", "Bo", "Cilla", "Dan"))
GAME = act.GameStart(("Anna", "Bo", "Cilla", "Dan"), "Dan")


@pytest.fixture
def recorder(tmp_path):
    r = TableRecorder(SQLiteStore.open(tmp_path / "t.sqlite", create=True))
    yield r
    r.store.close()


def test_an_action_and_its_events_are_one_transaction(recorder):
    events = recorder.apply(START, source="revisor")
    events += recorder.apply(GAME, source="revisor")
    stored = recorder.store.read()
    assert [r.kind for r in stored] == ["action", "event", "action", "event"]
    assert stored[0].data == START.to_dict() and stored[0].source == "revisor"
    assert [r.data for r in stored if r.kind == "event"] == [e.to_dict() for e in events]
    assert stored[1].txn == stored[0].seq and stored[3].txn == stored[2].seq


def test_events_are_on_disk_when_apply_returns(tmp_path, recorder):
    recorder.apply(START)
    with SQLiteStore.open(tmp_path / "t.sqlite", readonly=True) as other:  # another connection sees them
        assert [r.kind for r in other.read()] == ["action", "event"]


def test_a_rejected_action_is_stored_and_changes_nothing(recorder):
    recorder.apply(START)
    before = recorder.engine.state.to_dict()
    with pytest.raises(IllegalAction, match="no game"):
        recorder.apply(act.Adjust("Anna", 5, "typo"), source="tl:Eva")
    assert recorder.engine.state.to_dict() == before
    last = recorder.store.read()[-1]
    assert last.kind == "rejected" and last.source == "tl:Eva"
    assert last.data == {
        "action": {"do": "adjust", "player": "Anna", "points": 5, "reason": "typo"},
        "reason": "no game is in progress: start one with 'game'",
    }
    assert rebuild(recorder.store).state.to_dict() == before


def test_when_the_log_refuses_the_write_the_table_does_not_move(tmp_path, recorder):
    recorder.apply(START)
    before = recorder.engine.state.to_dict()
    with SQLiteStore.open(tmp_path / "t.sqlite") as other:
        other.conn.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        recorder.store.close()
        recorder.store = SQLiteStore.open(tmp_path / "t.sqlite", timeout=0.05)
        with pytest.raises(StoreBusy):
            recorder.apply(GAME)
        other.conn.execute("ROLLBACK")
    assert recorder.engine.state.to_dict() == before
    assert len(recorder.engine.events) == 1
    assert recorder.apply(GAME)[0].type == "game_started"  # and it goes on once the log is back


def test_a_closed_log_is_an_error_not_a_silent_loss(recorder):
    recorder.apply(START)
    recorder.store.close()
    with pytest.raises(StoreClosed):
        recorder.apply(GAME)
    assert recorder.engine.phase == "game_start"


def test_sensor_alert_and_audit_records(recorder):
    recorder.record_sensor({"pad": "seat2", "uids": ["04aa"]}, "rfid")
    recorder.alert("card seen twice", pad="seat2")
    recorder.audit("tl:Eva", "reveal_hand", player="Bo")
    with pytest.raises(RecordError):
        recorder.audit("", "reveal_hand")
    stored = recorder.store.read()
    assert [(r.kind, r.source) for r in stored] == [("sensor", "rfid"), ("alert", "sensing"), ("audit", "tl:Eva")]
    assert stored[2].data == {"who": "tl:Eva", "what": "reveal_hand", "player": "Bo"}
    assert [r.seq for r in recorder.store.read(kinds=["sensor"])] == [1]


def test_resume_rebuilds_the_table_mid_deal(tmp_path):
    p = tmp_path / "t.sqlite"
    live = record_bot_table(p, seed=5, actions=120)
    engine, clocks = resume(p)
    assert engine.state.to_dict() == live.engine.state.to_dict()
    assert engine.phase == live.engine.phase and engine.to_act() == live.engine.to_act()
    assert [e.to_dict() for e in engine.events] == [e.to_dict() for e in live.engine.events]
    # and equals the replay of the stored actions
    with SQLiteStore.open(p, readonly=True) as s:
        lines = [json.dumps(r.data) for r in s.read(kinds=["action"])]
    replayed, doc = replay_lines(lines)
    assert not doc["rejected"]
    assert replayed.state.to_dict() == engine.state.to_dict()


def test_a_resumed_table_plays_on_in_the_same_file(tmp_path):
    p = tmp_path / "t.sqlite"
    record_bot_table(p, seed=9, actions=80)
    recorder = TableRecorder(SQLiteStore.open(p))
    bot = RandomBot(99)
    for _ in range(40):
        recorder.apply(bot.next_action(recorder.engine))
    recorder.store.close()
    engine, _ = resume(p)
    assert engine.state.to_dict() == recorder.engine.state.to_dict()


def test_shot_clocks_resume_paused_with_their_remaining_time(recorder, tmp_path):
    recorder.apply(START)
    recorder.record_clock(ClockSnapshot({"Anna": 20.0, "Bo": 30.0}, paused=False))
    recorder.apply(GAME)
    recorder.record_clock(ClockSnapshot({"Anna": 7.25, "Bo": 30.0}, paused=False, extra={"running": "exchange"}))
    _, clocks = resume(tmp_path / "t.sqlite")
    assert clocks.remaining == {"Anna": 7.25, "Bo": 30.0}
    assert clocks.paused is True  # until the dealer resumes
    assert clocks.extra == {"running": "exchange"}
    assert clocks.seq == recorder.store.last_seq()


def test_no_clock_snapshot_resumes_as_none(recorder, tmp_path):
    recorder.apply(START)
    assert resume(tmp_path / "t.sqlite")[1] is None


@pytest.mark.parametrize(
    "bad",
    [
        {"remaining": {"Anna": -1}, "paused": False},
        {"remaining": {"Anna": "x"}, "paused": False},
        {"remaining": {}, "paused": "no"},
        {"paused": True},
        ["remaining"],
    ],
)
def test_a_malformed_clock_snapshot_is_refused(bad):
    with pytest.raises(ClockSnapshotError):
        ClockSnapshot.from_dict(bad)


def test_recorder_resume_opens_the_file_for_play_with_clocks_paused(tmp_path):
    p = tmp_path / "t.sqlite"
    live = record_bot_table(p, seed=4, actions=60)
    recorder, clocks = TableRecorder.resume(p)
    try:
        assert recorder.engine.state.to_dict() == live.engine.state.to_dict()
        assert clocks is not None and clocks.paused
        before = recorder.store.last_seq()
        recorder.apply(RandomBot(1).next_action(recorder.engine))
        assert recorder.last_records[0].seq == before + 1
    finally:
        recorder.store.close()
    new, clocks = TableRecorder.resume(tmp_path / "new.sqlite")
    assert new.engine.phase == "game_start" and clocks is None
    new.store.close()
    with pytest.raises(StoreNotFound):
        TableRecorder.resume(tmp_path / "absent.sqlite", create=False)


EXAMPLES = Path(__file__).resolve().parents[2] / "table_controller" / "examples"


@pytest.mark.parametrize("script", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_the_one_writer_keeps_the_same_log_in_memory_as_on_disk(tmp_path, script):
    """One store path: every example script through the recorder over SQLite and over
    memory gives the same records (seq, txn, kind, data, source), with held sensor records
    and refusals (an ill-formed line, an illegal action) among them; and the same replay
    document as the script itself."""
    lines = [ln for ln in (EXAMPLES / script).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    disk = TableRecorder(SQLiteStore.open(tmp_path / "t.sqlite", create=True))
    memory = TableRecorder.in_memory()
    for n, line in enumerate(lines):
        for rec in (disk, memory):
            rec.sense({"type": "tick", "at": float(n)}, "clock")
            rec.submit(json.loads(line), "revisor")
            if n == 3:
                rec.submit({"do": ["play"]}, "revisor")  # no action at all
                rec.submit({"do": "table", "players": ["A", "B"]}, "revisor")  # refused by the rules
    disk.flush_sensors()
    memory.flush_sensors()

    def shape(r):
        return [(x.seq, x.txn, x.kind, json.dumps(x.data, sort_keys=True), x.source) for x in r.records()]

    assert shape(disk) == shape(memory)
    assert {"rejected", "sensor", "action", "event"} <= {x.kind for x in memory.records()}
    expected = replay_lines(lines)[1]
    assert replay_document(memory.engine) == {**expected, "rejected": []}
    disk.close()
