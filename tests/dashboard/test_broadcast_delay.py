"""The broadcast delay runs on a monotonic clock held on the server (issue 13, item 3).

A wall-clock step (an NTP step of +1 h or -1 h on a Pi without a real-time clock) changes
nothing; a restart, even after a kill and with the monotonic clock started again, holds every
frame at least for the rest of its delay.  Time here is fake and moved by the test.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.delay import CHECKPOINT_EVERY, BroadcastDelay
from table_controller.app.table_files import open_table
from table_controller.sim.bots import RandomBot

ROOT = Path(__file__).resolve().parents[2]


class FakeClock:
    def __init__(self, t: float):
        self.t = t

    def __call__(self) -> float:
        return self.t


def _drain(client) -> list[str]:
    out = []
    while not client.queue.empty():
        out.append(client.queue.get_nowait())
    return out


def test_a_wall_clock_step_either_way_releases_nothing_d13(tmp_path, monkeypatch):
    """NTP steps the wall clock +1 h, then -1 h below where it started: the broadcast shows
    what it showed, and releases each frame when the monotonic clock says so."""
    wall, mono = FakeClock(1_700_000_000.0), FakeClock(50.0)
    monkeypatch.setattr(time, "time", wall)  # any wall-clock reading in the process steps too

    async def run():
        hub, _ = open_table(tmp_path, delay=20, clock=wall, monotonic=mono)
        bc = hub.connect("broadcast")
        bot = RandomBot(5)
        pushed: dict[int, float] = {}
        for _ in range(12):
            await hub.submit_local(bot.next_action(hub.engine))
            pushed[hub.seq] = mono.t
            mono.t += 0.5
            wall.t += 0.5
        assert [json.loads(t)["seq"] for t in _drain(bc)] == [-1]  # the start position
        for step in (3600.0, -7200.0, 3600.0 * 24 * 365):
            wall.t += step
            hub.release_due()
            assert _drain(bc) == [] and json.loads(hub.current_text("broadcast"))["seq"] == -1, step
        # the monotonic clock alone releases them, each 20 s after it was pushed
        first = min(pushed)
        mono.t = pushed[first] + 20 - 0.01
        hub.release_due()
        assert _drain(bc) == []
        mono.t = pushed[first] + 20
        hub.release_due()
        assert [json.loads(t)["seq"] for t in _drain(bc)] == [first]
        wall.t -= 3600  # and a step back does not take it back
        hub.release_due()
        assert _drain(bc) == [] and json.loads(hub.current_text("broadcast"))["seq"] == first
        mono.t = max(pushed.values()) + 20
        hub.release_due()
        assert [json.loads(t)["seq"] for t in _drain(bc)] == [hub.seq]
        hub.log.close()
        hub.delay.close()

    asyncio.run(run())


CHILD = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from dashboard.delay import BroadcastDelay

    class Clock:  # the server's monotonic clock, moved by the test
        t = 1234.5
        def __call__(self):
            return self.t

    clock = Clock()
    d = BroadcastDelay(Path(sys.argv[1]), "start", delay=float(sys.argv[2]), clock=clock)
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["do"] == "push":
            d.push(cmd["seq"], "frame %d" % cmd["seq"])
        else:
            clock.t += cmd["seconds"]
            d.due(None)  # what the broadcast loop does: it writes the checkpoints
        print("ok", flush=True)
""")


@pytest.mark.parametrize("tail", [0.0, 0.6])
def test_a_killed_server_holds_every_frame_for_the_rest_of_its_delay_d13(tmp_path, tail):
    """A real process pushes frames into a real broadcast.sqlite and is killed (SIGKILL);
    a fresh one, its monotonic clock started again at 0, shows no frame before the delay
    it still owed, and no later than one checkpoint interval after.  ``tail``: seconds
    between the last checkpoint and the kill."""
    path, delay = tmp_path / "broadcast.sqlite", 10.0
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(delay)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )

    def send(**cmd) -> None:
        child.stdin.write(json.dumps(cmd) + "\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "ok"

    t, pushed = 0.0, {}
    for seq, wait in ((1, 3.0), (2, 4.5), (3, 2.2), (4, 1.5)):
        send(do="push", seq=seq)
        pushed[seq] = t
        send(do="advance", seconds=wait)
        t += wait
    if tail:
        send(do="advance", seconds=tail)  # under a second: no checkpoint after this
        t += tail
    os.kill(child.pid, signal.SIGKILL)  # a crash, not a polite close
    child.wait(10)
    owed = {seq: at + delay - t for seq, at in pushed.items()}  # what each still owed at the kill
    assert owed[1] < 0 < owed[2]  # one frame already due, three still held

    mono = FakeClock(0.0)  # the machine rebooted: its monotonic clock starts again
    d = BroadcastDelay(path, "start", clock=mono)
    assert d.delay == delay
    shown = {}
    while mono.t < delay + 2:
        seq = d.due(None).seq
        if seq not in shown:
            shown[seq] = mono.t
        mono.t = round(mono.t + 0.05, 6)
    d.close()
    assert 1 in shown and shown[1] <= tail  # due before the kill: shown at once (or as the checkpoint said)
    for seq in (2, 3, 4):
        assert owed[seq] - 1e-9 <= shown[seq] <= owed[seq] + tail + 0.05 + 1e-9, (seq, shown[seq], owed[seq])
    assert tail < CHECKPOINT_EVERY


def test_a_new_delay_given_at_a_restart_applies_to_the_queued_frames(tmp_path):
    mono = FakeClock(10.0)
    d = BroadcastDelay(tmp_path / "b.sqlite", "start", delay=30, clock=mono)
    d.push(1, "one")
    mono.t += 10
    d.close()  # owes 20 s
    mono = FakeClock(0.0)
    d = BroadcastDelay(tmp_path / "b.sqlite", "start", delay=60, clock=mono)  # 30 s longer
    mono.t = 49.9
    assert d.due(None).seq == -1
    mono.t = 50.0
    assert d.due(None).seq == 1
    d.close()


def test_frames_of_the_old_wall_clock_format_are_never_shown_early(tmp_path):
    """A broadcast.sqlite written by the wall-clock version: its frames' times mean nothing on
    the monotonic clock, so they go; the hub queues the current state a whole delay from now."""
    data = tmp_path / "t"

    async def play():
        hub, _ = open_table(data, delay=0, monotonic=FakeClock(0.0))
        bot = RandomBot(2)
        for _ in range(20):
            await hub.submit_local(bot.next_action(hub.engine))
        hub.log.close()
        hub.delay.close()
        return hub.seq

    seq = asyncio.run(play())
    (data / "broadcast.sqlite").unlink()
    db = sqlite3.connect(data / "broadcast.sqlite")
    db.execute("CREATE TABLE frames (seq INTEGER PRIMARY KEY, at REAL NOT NULL, body TEXT NOT NULL)")
    db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO settings VALUES ('delay', '30.0')")
    db.execute('INSERT INTO frames VALUES (?, 0.0, \'{"hands": "long due by the wall clock"}\')', (seq,))
    db.commit()
    db.close()
    mono = FakeClock(0.0)
    hub, _ = open_table(data, monotonic=mono)
    assert hub.delay.delay == 30
    assert json.loads(hub.current_text("broadcast"))["seq"] == -1
    mono.t = 30
    assert json.loads(hub.current_text("broadcast"))["seq"] == seq
    hub.log.close()
    hub.delay.close()


STEPS = st.lists(
    st.one_of(
        st.just(("push",)),
        st.tuples(st.just("wait"), st.floats(0.0, 4.0)),
        st.tuples(st.sampled_from(["crash", "restart"]), st.floats(-1e6, 1e6)),
    ),
    max_size=40,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(delay=st.sampled_from([0.0, 0.5, 3.0, 10.0]), steps=STEPS)
def test_no_frame_is_shown_before_the_server_has_run_its_delay_d13(tmp_path_factory, delay, steps):
    """Any schedule of pushes, waits, crashes (no last checkpoint) and restarts, each with the
    monotonic clock starting anywhere: the frame on show was pushed at least ``delay`` seconds
    of server run time ago, and is late by at most a checkpoint interval per crash."""
    path = tmp_path_factory.mktemp("b") / "broadcast.sqlite"
    mono = FakeClock(0.0)
    d = BroadcastDelay(path, "start", delay=delay, clock=mono)
    run, pushed, crashes, seq, shown = 0.0, {}, 0, 0, -1
    for step in steps:
        if step[0] == "push":
            seq += 1
            d.push(seq, f"frame {seq}")
            pushed[seq] = run
        elif step[0] == "wait":
            mono.t += step[1]
            run += step[1]
        else:
            if step[0] == "crash":
                d._db.close()  # gone without its last checkpoint
                crashes += 1
            else:
                d.close()
            mono = FakeClock(step[1])
            d = BroadcastDelay(path, "start", clock=mono)
        f = d.due(None)
        if f.seq >= 0:
            assert run - pushed[f.seq] >= delay - 1e-6, (f.seq, run - pushed[f.seq])  # never early
            assert f.text == f"frame {f.seq}"
        assert f.seq >= shown  # never back to an older frame
        shown = f.seq
        owed_by_now = [s for s, at in pushed.items() if run - at >= delay + crashes * CHECKPOINT_EVERY + 1e-6]
        assert f.seq >= max(owed_by_now, default=-1)  # and never held past a checkpoint per crash
    d.close()
