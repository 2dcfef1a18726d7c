"""The seat-controller firmware under MicroPython itself (issue 22, part 1).

Each scenario of tests/hardware/scenarios.py (placements, stacks through the real MFRC522
driver, presses, host commands and heartbeats, host lost, reader faults, a damaged
byte stream) is replayed by the same driver under CPython and under MicroPython's
WebAssembly port; the two transcripts (every frame byte, CRC, LED and buzzer change,
scan, driver sleep, each with the board's time) must be identical.  Each transcript is
then checked for what the scenario is about, so the test also fails when both
interpreters agree on something wrong.
"""

from __future__ import annotations

import json
import re

import pytest

from firmware_bridge.codec import FrameDecoder
from firmware_bridge.messages import Ack, ButtonEvent, Heartbeat, Hello, Nak, PadReport, ReaderReport, from_frame
from hardware.firmware_build import MICROPYTHON_RELEASE

from . import scenarios
from .interpreters import REPLAY, micropython_version, run_cpython, run_micropython
from .scenarios import CARDS, LONG_UID, SHORT_UID


def test_the_interpreter_is_micropython_of_the_release_the_firmware_is_built_for():
    assert micropython_version() == f"{MICROPYTHON_RELEASE} micropython"
    pinned = json.loads((REPLAY / "package.json").read_text())["dependencies"]
    assert pinned == {"@micropython/micropython-webassembly-pyscript": MICROPYTHON_RELEASE}


def _unescape(text: str) -> bytes:
    return re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), text).encode("latin-1")


class Transcript:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.end = self.lines[-1]
        decoder = FrameDecoder()
        self.msgs: list[tuple[int, object]] = []
        for line in self.lines:
            t, what, rest = (line.split(" ", 2) + [""])[:3]
            if what == "TX":
                frames = decoder.feed(_unescape(rest))
                assert len(frames) == 1, line
                self.msgs.append((int(t), from_frame(frames[0])))
        assert decoder.stats.dropped == 0, decoder.stats

    def of(self, kind, **match) -> list[tuple[int, object]]:
        return [
            (t, m) for t, m in self.msgs if isinstance(m, kind) and all(getattr(m, k) == v for k, v in match.items())
        ]

    def lines_of(self, what: str) -> list[list[str]]:
        return [ln.split(" ") for ln in self.lines if ln.split(" ")[1:2] == [what]]

    def pad_sets(self, pad: str) -> list[frozenset]:
        """The distinct sets a pad was reported with, in order."""
        out: list[frozenset] = []
        for _, m in self.of(PadReport, pad=pad):
            if not out or out[-1] != m.uids:
                out.append(m.uids)
        return out


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory):
    cache: dict[str, tuple[str, str]] = {}

    def get(name: str) -> tuple[str, str]:
        if name not in cache:
            tmp = tmp_path_factory.mktemp(name)
            scenario = scenarios.ALL[name]()
            cache[name] = (run_cpython(scenario, tmp), run_micropython(scenario, tmp))
        return cache[name]

    return get


@pytest.mark.parametrize("name", list(scenarios.ALL))
def test_micropython_writes_the_same_bytes_as_cpython(transcripts, name):
    cpython, micropython = transcripts(name)
    a, b = cpython.splitlines(), micropython.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"{name}: line {i + 1} differs\n  CPython:     {x}\n  MicroPython: {y}"
    assert len(a) == len(b), f"{name}: {len(a)} lines on CPython, {len(b)} on MicroPython"
    assert a[-1].startswith("END")


def board(transcripts, name) -> Transcript:
    return Transcript(transcripts(name)[1])  # what MicroPython wrote (the same bytes)


def test_placements_report_whole_sets_through_flicker(transcripts):
    tr = board(transcripts, "placements")
    a, b, c, d = CARDS["AS"], CARDS["KS"], CARDS["QS"], CARDS["JS"]
    assert tr.msgs[0][1] == Hello(1, "0.1.0", "SC-REPLAY", ("seat1", "seat2", "seat3", "seat4", "tray"))
    assert tr.pad_sets("seat2") == [frozenset(), frozenset({a, b}), frozenset()]  # flicker unseen
    assert tr.pad_sets("seat3") == [frozenset(), frozenset({d}), frozenset({a, d})]
    assert tr.pad_sets("seat1")[-1] == {c} and tr.pad_sets("tray")[-1] == frozenset()
    gone = next(t for t, m in tr.of(PadReport, pad="seat2") if not m.uids and t > 2000)
    last_seen = max(int(s[0]) for s in tr.lines_of("SCAN") if s[2] == "seat2" and s[3:] != [""] and int(s[0]) < gone)
    assert 300 <= gone - last_seen < 320  # gone_ms after the last sight


def test_stacks_read_two_per_scan_are_reported_whole_by_the_real_driver(transcripts):
    tr = board(transcripts, "stacks")
    stack5 = frozenset(CARDS[c] for c in ("AS", "KS", "QS", "JS", "TS"))
    tray_scans = [s[3].split(",") for s in tr.lines_of("SCAN") if s[2] == "tray" and len(s) > 3 and s[3]]
    assert max(len(s) for s in tray_scans) == 2  # the chip's stack limit held
    assert stack5 in tr.pad_sets("tray")  # the debouncer's union
    assert tr.pad_sets("tray")[-1] == frozenset(CARDS[c] for c in ("AS", "KS", "QS"))
    assert frozenset({SHORT_UID, LONG_UID, CARDS["8H"]}) in tr.pad_sets("seat1")  # 4, 10, 7 bytes
    assert tr.pad_sets("seat3") == [frozenset(), frozenset({CARDS["9S"]}), frozenset()]
    assert tr.pad_sets("seat4")[-1] == frozenset(CARDS[c] for c in ("2C", "7D", "9S", "8H"))
    # every scan resets the field: 2 ms off, 3 ms on, on the board's clock
    sleeps = [int(s[3]) for s in tr.lines_of("SLEEP") if s[2] == "tray"]
    assert sleeps[0] == 50 and set(sleeps[1:]) == {2, 3}


def test_pn5180_pads_read_stacks_of_5_and_10_whole_in_every_scan(transcripts):
    tr = board(transcripts, "pn5180_stacks")
    tags = scenarios.pn5180_stacks()["tags"]
    scans = {
        pad: [s[3].split(",") if s[3:] != [""] else [] for s in tr.lines_of("SCAN") if s[2] == pad]
        for pad in ("tray", "seat3")
    }
    assert all(sorted(s) == sorted(tags[:5]) for s in scans["tray"][:10])  # 1000..1250 ms
    assert sorted(scans["tray"][-1]) == sorted(tags[:2])
    assert sorted(scans["seat3"][-1]) == sorted(tags[2:12])  # 10 at once
    assert frozenset(tags[:5]) in tr.pad_sets("tray") and tr.pad_sets("tray")[-1] == frozenset(tags[:2])
    assert tr.pad_sets("seat3")[-1] == frozenset(tags[2:12])
    assert tr.pad_sets("seat2") == [frozenset(), frozenset(tags[5:6]), frozenset()]
    # the MFRC522 pad beside them still needs the debouncer's union (two per scan)
    assert frozenset(CARDS[c] for c in ("AS", "KS", "QS")) in tr.pad_sets("seat1")
    assert all(v.endswith(":0") for v in tr.end.split("spi=")[1].split(","))  # BUSY always kept


def test_presses_are_debounced_and_simultaneous_ones_go_out_in_name_order(transcripts):
    tr = board(transcripts, "presses")
    names = [m.name for _, m in tr.of(ButtonEvent)]
    assert names == ["next", "declined", "time:seat2", "tl", "time", "time:seat1", "time:seat4"]


def test_commands_heartbeats_and_damaged_host_frames(transcripts):
    tr = board(transcripts, "commands")
    assert [m.uptime_ms for _, m in tr.of(Heartbeat)] == list(range(500, 2001, 500))
    assert [m.rx_bad for _, m in tr.of(Heartbeat)][-1] == 2  # bad CRC and a cut frame
    acks = [m.cmd for _, m in tr.of(Ack)]
    naks = [(m.cmd, m.error) for _, m in tr.of(Nak)]
    assert acks == [100, 101, 101, 108, 110, 111, 100, 112, 113]
    assert naks == [
        (102, "bad-seat"),
        (103, "bad-colour"),
        (104, "bad-field"),
        (105, "bad-field"),
        (106, "bad-field"),
        (107, "unknown"),
    ]
    buzz = [(int(t), on) for t, _, on in tr.lines_of("BUZ")]
    assert buzz == [(1150, "1"), (1270, "0"), (2200, "1"), (2230, "0"), (2400, "1"), (2600, "0")]
    seat1 = [(int(t), c) for t, _, seat, c in tr.lines_of("LED") if seat == "seat1"]
    assert seat1[:3] == [(1000, "off"), (1100, "yellow"), (1250, "off")]  # blinking, 250 ms
    assert [c for t, c in seat1 if t >= 2300] == [] and seat1[-1][1] == "off"  # LED off: no more
    assert ["2200", "LED", "seat3", "green"] not in tr.lines_of("LED")  # unchanged by SYNC
    assert len(tr.of(Hello)) == 2 and {m.pad for t, m in tr.of(PadReport) if t == 2200} == set(scenarios.PADS)


def test_leds_go_dark_5_s_after_the_last_host_frame(transcripts):
    tr = board(transcripts, "host_lost")
    changes = [(int(t), seat, c) for t, _, seat, c in tr.lines_of("LED") if int(t) > 1000]
    assert (1100, "seat3", "green") in changes
    last_ping = 4000
    assert [x for x in changes if x[1] == "seat3"][-1] == (last_ping + 5000, "seat3", "off")
    assert all(c == "off" or t < last_ping + 5000 for t, _, c in changes)


def test_reader_faults_are_reported_in_the_same_words(transcripts):
    tr = board(transcripts, "reader_faults")
    offline = [(m.pad, m.detail) for _, m in tr.of(ReaderReport, ok=False)]
    assert ("seat4", "spi-timeout") in offline and ("tray", "errno-110") in offline
    assert ("seat3", "errno-5") in offline and ("seat4", "OSError") in offline
    assert {m.pad for _, m in tr.of(ReaderReport, ok=True)} == {"seat3", "seat4", "tray"}
    assert "maxgap=1501" in tr.end  # the hung reader stopped the watchdog's feeding


def test_decoder_reads_a_damaged_stream_as_the_host_decoder_does(transcripts):
    scenario = scenarios.decode()
    lines = transcripts("decode")[1].splitlines()
    host = FrameDecoder()
    expected = []
    for chunk in scenario["chunks"]:
        for f in host.feed(bytes.fromhex(chunk)):
            expected.append(
                f"FRAME {f.seq} {f.kind} " + " ".join(f"{k}={v}" for k, v in sorted(dict(f.fields).items()))
            )
    frames = [ln for ln in lines if ln.startswith("FRAME")]
    assert frames == expected and len(frames) > 200
    enc = [ln for ln in lines if ln.startswith("ENC")]
    assert enc[0] == "ENC $0 HELLO proto=1 fw=0.1.0 id=SC-1A2B3C4D pads=seat1,seat2,seat3,seat4,tray*228B7B21\\x0d\\x0a"
    assert enc[1] == "ENC $5 ACK cmd=42*5826C63F\\x0d\\x0a"  # PROTOCOL.md's check frames
    assert enc[3].startswith("ENC $3 HB")


def test_random_boards_decode_cleanly_and_count_their_frames(transcripts):
    # twelve random mixes of readers, timings, reader faults, presses and damaged host
    # frames (scenarios.random_boards): the same bytes on both interpreters (above), and
    # every frame the board wrote is well formed and numbered from 0 in each run
    text = transcripts("random_boards")[1]
    runs = text.split("SCENARIO ")[1:]
    assert len(runs) == 12
    for run in runs:
        tr = Transcript(run.split("\n", 1)[1])
        assert isinstance(tr.msgs[0][1], Hello)
        seqs = [int(ln.split(" ")[2][1:]) for ln in tr.lines if ln.split(" ")[1:2] == ["TX"]]
        assert seqs == list(range(len(seqs))) and f"sent={len(seqs)}" in tr.end
