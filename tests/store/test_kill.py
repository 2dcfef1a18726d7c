"""Power cuts: a real process plays bot games into a real file and is SIGKILLed at
random moments (60 times across the cases).  After each kill the table restarts from the
file: the state equals the replay of the log, and every record the process reported as
stored is there, with the kind it reported.  The writers are forked from a parent that has
imported the table controller once (tests/store/bot_writer.py --serve): a kill "mid-startup"
lands in opening, migrating and rebuilding the file rather than in Python's imports."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from table_controller.rules.replay import replay_lines
from table_controller.store import SQLiteStore
from table_controller.store.check import check_file
from table_controller.store.rebuild import resume

WRITER = Path(__file__).with_name("bot_writer.py")
KILLS_PER_CASE = 12


@pytest.fixture
def writers() -> Iterator[socket.socket]:
    """The writers' parent (bot_writer.py --serve): each writer is a real process, forked
    from one that has already imported the table controller, and really SIGKILLed."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server = subprocess.Popen(
        [sys.executable, "-u", str(WRITER), "--serve", str(theirs.fileno())], pass_fds=[theirs.fileno()]
    )
    theirs.close()
    ours.settimeout(30)
    try:
        yield ours
    finally:
        ours.close()  # the server kills a writer still running and ends
        try:
            assert server.wait(timeout=30) == 0
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


def _ask(writers: socket.socket, *request: object) -> str:
    writers.send(json.dumps(request).encode())
    return writers.recv(64).decode()


def _run_and_kill(writers: socket.socket, path: Path, seed: int, delay: float) -> tuple[list[tuple[int, str]], bool]:
    """Start a writer, SIGKILL it ``delay`` seconds after it is ready (or at once when
    negative: mid-startup); returns the (seq, kind) it reported and whether it finished."""
    writers.send(json.dumps(["start", str(path), seed]).encode())
    _, fds, _, _ = socket.recv_fds(writers, 64, 2)
    # unbuffered: readline() takes the first line only, readall() the rest
    with open(fds[0], "rb", buffering=0) as stdout, open(fds[1], "rb", buffering=0) as stderr:
        returncode = None
        try:
            if delay < 0:
                time.sleep(-delay)
            else:
                first = stdout.readline()  # "ready ..." once the file is open and rebuilt
                assert first.startswith(b"ready") or _ask(writers, "poll") == "ended", first
                time.sleep(delay)
            returncode = int(_ask(writers, "kill"))
            out, err = stdout.readall(), stderr.readall()
        finally:
            if returncode is None:
                _ask(writers, "kill")
    text = out.decode()
    finished = "\nover\n" in "\n" + text
    assert returncode in (-signal.SIGKILL, 0), err.decode()[-2000:]
    assert finished or returncode == -signal.SIGKILL
    stored = []
    for line in text.split("\n")[:-1]:  # the last piece may be a line cut by the kill
        if line.startswith("stored "):
            _, seq, kind = line.split()
            stored.append((int(seq), kind))
    return stored, finished


def _check_after_restart(path: Path, reported: dict[int, str]) -> None:
    if not reported and (not path.exists() or path.stat().st_size == 0):
        return  # killed before the first record: nothing was acknowledged
    engine, clocks = resume(path)
    with SQLiteStore.open(path, readonly=True) as store:
        records = store.read()  # checks: no gaps, chain intact
    by_seq = {r.seq: r.kind for r in records}
    missing = [s for s in reported if s not in by_seq]
    assert not missing, f"reported as stored but not in the log: {missing[:10]}"
    assert all(by_seq[s] == k for s, k in reported.items())
    replayed, doc = replay_lines([json.dumps(r.data) for r in records if r.kind == "action"])
    assert not doc["rejected"]
    assert replayed.state.to_dict() == engine.state.to_dict()
    if any(r.kind == "clock" for r in records):
        assert clocks is not None and clocks.paused
    report = check_file(path)
    assert report.ok, report.problems


@pytest.mark.parametrize("case", range(5))
def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path, case, writers):
    rng = random.Random(1000 + case)
    path = tmp_path / "table.sqlite"
    reported: dict[int, str] = {}
    kills = 0
    tables = 0
    mid_play = 0  # kills after the run had stored something: the interesting ones
    while kills < KILLS_PER_CASE:
        # mostly mid-play; sometimes mid-startup (opening, migrating, rebuilding)
        delay = -rng.uniform(0.0, 0.25) if rng.random() < 0.15 else rng.uniform(0.0, 0.35)
        stored, finished = _run_and_kill(writers, path, rng.randrange(1 << 30), delay)
        for seq, kind in stored:
            assert reported.setdefault(seq, kind) == kind, f"seq {seq} reported twice with different kinds"
        _check_after_restart(path, reported)
        if finished:  # the table is over: the next one gets a new file
            tables += 1
            path = tmp_path / f"table{tables}.sqlite"
            reported = {}
        else:
            kills += 1
            mid_play += bool(stored)
    assert kills == KILLS_PER_CASE
    assert mid_play >= KILLS_PER_CASE // 2, "the writer was mostly killed before storing anything"
