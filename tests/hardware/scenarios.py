"""Scenarios for the seat-controller firmware as data, for replaying them on both
interpreters (tests/hardware/micropython/replay.py under CPython and under MicroPython).

A scenario is a JSON object: the readers per pad (``list``: the pad returns what the
scenario says; ``chip``: the real MFRC522 driver over the simulated chip, a stack read
``stack_limit`` cards per field reset), a Config, an end time and timed events.  All
randomness (flicker, garbage, cut frames) is drawn here, on CPython, so both
interpreters replay exactly the same inputs.
"""

from __future__ import annotations

import random

from firmware_bridge.codec import encode_frame
from hardware.firmware.controller import PADS
from hardware.virtual import virtual_uid

CARDS = {code: virtual_uid(code) for code in ("AS", "KS", "QS", "JS", "TS", "9S", "8H", "7D", "2C")}
SHORT_UID = "DEADBEEF"  # a 4-byte UID (MIFARE Classic)
LONG_UID = "04112233445566778899"  # a 10-byte UID: three cascade levels


def _host(seq: int, kind: str, *fields: tuple[str, str]) -> str:
    return encode_frame(seq, kind, tuple(fields)).hex()


def _list_readers() -> list:
    return [[pad, {"kind": "list"}] for pad in PADS]


def placements() -> dict:
    """Cards land, flicker, are picked up and placed again on list readers."""
    rng = random.Random(11)
    a, b, c, d = CARDS["AS"], CARDS["KS"], CARDS["QS"], CARDS["JS"]
    events: list = [[1100, "uids", "seat2", [a, b]], [1500, "uids", "tray", [c]]]
    t = 1600
    while t < 2600:  # seat2's reader flickers for a second
        seen = [u for u in (a, b) if rng.random() > 0.3]
        events.append([t, "uids", "seat2", seen])
        t += rng.choice((7, 13, 20, 41))
    events += [
        [2600, "uids", "seat2", [a, b]],
        [2900, "uids", "seat2", []],  # picked up
        [3300, "uids", "seat3", [d]],
        [3400, "uids", "seat3", [d, a]],
        [3600, "uids", "tray", []],
        [3650, "uids", "seat1", [c]],
    ]
    return {
        "kind": "board",
        "name": "placements",
        "readers": _list_readers(),
        "config": {},
        "end_ms": 4500,
        "events": events,
    }


def stacks() -> dict:
    """Real MFRC522 driver, simulated chips: stacks read two cards per field reset."""
    stack5 = [CARDS[c] for c in ("AS", "KS", "QS", "JS", "TS")]
    readers = [[pad, {"kind": "chip", "stack_limit": 2, "seed": 7 + i}] for i, pad in enumerate(PADS)]
    events = [
        [1000, "field", "tray", stack5],
        [1000, "field", "seat1", [SHORT_UID, LONG_UID, CARDS["8H"]]],
        [1200, "field", "seat3", [CARDS["9S"]]],
        [2200, "field", "seat3", []],
        [2300, "field", "tray", stack5[:3]],
        [2300, "field", "seat4", [CARDS["2C"], CARDS["7D"], CARDS["9S"], CARDS["8H"]]],
    ]
    return {"kind": "board", "name": "stacks", "readers": readers, "config": {}, "end_ms": 3400, "events": events}


def presses() -> dict:
    """Console buttons with contact bounce, two pressed at once, one held long."""
    events: list = []
    t = 1050
    for _ in range(3):  # bounce: 3 ms down, 2 ms up
        events += [[t, "held", ["next"]], [t + 3, "held", []]]
        t += 5
    events += [
        [t, "held", ["next"]],
        [t + 200, "held", []],
        [1500, "held", ["pause"]],
        [1510, "held", []],  # too short
        [1700, "held", ["time:seat2", "declined", "tl"]],  # at once
        [1760, "held", ["time:seat2"]],
        [2400, "held", []],
        [2500, "held", ["time:seat4", "time:seat1", "time"]],
        [2600, "held", []],
    ]
    return {
        "kind": "board",
        "name": "presses",
        "readers": _list_readers(),
        "config": {},
        "end_ms": 2800,
        "events": events,
    }


def commands() -> dict:
    """Heartbeats and every host command: LED (blinking), BUZZ, a resend, refusals,
    SYNC, PING, and corrupt bytes between and inside frames."""
    events = [
        [1100, "host", _host(100, "LED", ("seat", "seat1"), ("colour", "yellow"), ("blink", "1"))],
        [1150, "host", _host(101, "BUZZ", ("ms", "120"))],
        [1400, "host", _host(101, "BUZZ", ("ms", "120"))],  # a resend
        [
            1500,
            "host",
            _host(102, "LED", ("seat", "seat9"), ("colour", "red"))
            + _host(103, "LED", ("seat", "seat2"), ("colour", "pink"))
            + _host(104, "LED", ("seat", "seat2"), ("colour", "red"), ("blink", "7"))
            + _host(105, "BUZZ", ("ms", "99999"))
            + _host(106, "BUZZ", ("ms", "0x10"))
            + _host(107, "FROB"),
        ],
        [
            1600,
            "host",
            (b"\x00\xff\xfe garbage $12 LED seat=seat1*00000000\r\n").hex()
            + _host(108, "LED", ("seat", "seat3"), ("colour", "green"), ("blink", "0"), ("future", "x")),
        ],
        [1700, "host", _host(109, "LED", ("seat", "seat4"), ("colour", "blue"))[:30]],  # cut short...
        [1701, "host", _host(110, "PING")],  # ...by the next start
        [2000, "uids", "seat2", [CARDS["AS"]]],
        [2200, "host", _host(111, "SYNC") + _host(100, "BUZZ", ("ms", "30"))],  # seqs forgotten
        [2300, "host", _host(112, "LED", ("seat", "seat1"), ("colour", "off"))],
        [2400, "host", _host(113, "BUZZ")],  # default 200 ms
    ]
    return {
        "kind": "board",
        "name": "commands",
        "readers": _list_readers(),
        "config": {},
        "end_ms": 3100,
        "events": events,
    }


def host_lost() -> dict:
    """The host pings, then falls silent: after 5 s every LED goes dark."""
    events = [
        [1100, "host", _host(1, "LED", ("seat", "seat3"), ("colour", "green"))],
        [1100, "host", _host(2, "LED", ("seat", "seat1"), ("colour", "red"), ("blink", "1"))],
    ]
    events += [[t, "host", _host(3 + i, "PING")] for i, t in enumerate(range(2000, 4001, 1000))]
    return {
        "kind": "board",
        "name": "host_lost",
        "readers": _list_readers(),
        "config": {},
        "end_ms": 9500,
        "step_ms": 2,
        "events": events,
    }


def reader_faults() -> dict:
    """Readers fail with a text, with an errno, and one hangs the loop (watchdog)."""
    events = [
        [1100, "error", "seat4", "spi timeout"],
        [1300, "error", "seat4", None],
        [1400, "error", "tray", 110],
        [1700, "error", "tray", None],
        [1800, "uids", "seat1", [CARDS["AS"]]],
        [1800, "error", "seat3", [5, "bus error"]],
        [1900, "error", "seat3", None],
        [1800, "error", "seat4", []],
        [1950, "error", "seat4", None],
        [2000, "stall", "seat2", 1500],
        [2001, "stall", "seat2", 0],
    ]
    return {
        "kind": "board",
        "name": "reader_faults",
        "readers": _list_readers(),
        "config": {"reader_fail_limit": 3},
        "end_ms": 4200,
        "events": events,
    }


def decode() -> dict:
    """The frame decoder on a damaged byte stream, and the encoder on chosen frames."""
    rng = random.Random(5)
    kinds = [
        ("PAD", (("pad", "seat2"), ("uids", CARDS["AS"] + "," + CARDS["KS"]))),
        ("LED", (("seat", "seat1"), ("colour", "red"), ("blink", "1"))),
        ("HB", (("up", "123456"), ("rxbad", "0"))),
        ("SYNC", ()),
        ("BTN", (("name", "time:seat2"),)),
    ]
    stream = bytearray()
    for seq in range(300):
        kind, fields = rng.choice(kinds)
        frame = bytearray(encode_frame(seq * 7 % 65536, kind, fields))
        roll = rng.random()
        if roll < 0.08:
            frame[rng.randrange(len(frame))] ^= 1 << rng.randrange(8)  # a flipped bit
        elif roll < 0.12:
            frame = frame[: rng.randrange(1, len(frame))]  # cut short
        elif roll < 0.15:
            frame = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20))) + frame
        elif roll < 0.17:
            frame = b"$" + b"A" * 1100 + b"\r\n"  # oversized
        elif roll < 0.19:
            frame = frame.replace(b"\r\n", b"\n")  # bare LF
        stream += frame
    chunks, i = [], 0
    while i < len(stream):
        n = rng.choice((1, 3, 17, 64, 200))
        chunks.append(bytes(stream[i : i + n]).hex())
        i += n
    encode = [
        [
            0,
            "HELLO",
            [["proto", "1"], ["fw", "0.1.0"], ["id", "SC-1A2B3C4D"], ["pads", "seat1,seat2,seat3,seat4,tray"]],
        ],
        [5, "ACK", [["cmd", "42"]]],
        [65535, "PAD", [["pad", "tray"], ["uids", ""]]],
        [65536 + 3, "HB", [["up", "0"], ["rxbad", "0"]]],
    ]
    return {"kind": "decode", "name": "decode", "chunks": chunks, "encode": encode}


ALL = {f.__name__: f for f in (placements, stacks, presses, commands, host_lost, reader_faults, decode)}


def pn5180_stacks() -> dict:
    """Real PN5180 driver, simulated chips with BUSY lines: stacks of 5 and 10 ISO 15693
    tags read whole in every scan; MFRC522 pads beside them."""
    rng = random.Random(22)
    tags = ["E00401%010X" % rng.getrandbits(40) for _ in range(12)]
    readers = [
        ["seat1", {"kind": "chip", "stack_limit": 2, "seed": 3}],
        ["seat2", {"kind": "pn5180"}],
        ["seat3", {"kind": "pn5180", "busy_reads": 40}],
        ["seat4", {"kind": "list"}],
        ["tray", {"kind": "pn5180"}],
    ]
    events = [
        [1000, "field", "tray", tags[:5]],
        [1000, "field", "seat2", tags[5:6]],
        [1000, "field", "seat1", [CARDS["AS"], CARDS["KS"], CARDS["QS"]]],
        [1300, "field", "seat3", tags[2:12]],
        [1500, "field", "tray", tags[:2]],
        [1700, "field", "seat2", []],
    ]
    return {
        "kind": "board",
        "name": "pn5180_stacks",
        "readers": readers,
        "config": {},
        "end_ms": 2000,
        "events": events,
        "tags": tags,
    }


def _random_board(rng: random.Random, name: str) -> dict:
    """Any mix of readers, timings and inputs: the firmware must decide alike everywhere."""
    kinds = ["list", "list", "list", "chip", "pn5180"]
    readers = [
        [pad, {"kind": rng.choice(kinds), "stack_limit": rng.choice((0, 1, 2)), "seed": rng.randrange(1, 99)}]
        for pad in PADS
        if rng.random() < 0.9
    ]
    config = {
        "confirm_reads": rng.randint(1, 3),
        "gone_ms": rng.randint(30, 400),
        "scan_ms": rng.randint(3, 40),
        "repeat_ms": rng.randint(80, 700),
        "heartbeat_ms": rng.randint(80, 700),
        "host_lost_ms": rng.randint(200, 2000),
        "button_ms": rng.randint(3, 40),
        "blink_ms": rng.randint(30, 300),
        "reader_fail_limit": rng.randint(1, 4),
    }
    end = rng.randint(1300, 2200)
    cards = list(CARDS.values()) + [SHORT_UID, LONG_UID]
    tags = ["E00401%010X" % rng.getrandbits(40) for _ in range(8)]
    events: list = []
    seq = rng.randrange(65536)
    for _ in range(rng.randint(10, 40)):
        t = rng.randint(1000, end)
        pad, spec = rng.choice(readers) if readers else (None, None)
        roll = rng.random()
        if pad and spec["kind"] == "list" and roll < 0.3:
            what = rng.random()
            if what < 0.6:
                events.append([t, "uids", pad, rng.sample(cards, rng.randint(0, 5))])
            elif what < 0.8:
                events.append([t, "error", pad, rng.choice(["spi timeout", 110, [5, "x y"], [], None, None])])
            else:
                events.append([t, "stall", pad, rng.choice([0, 0, 30, 250])])
        elif pad and roll < 0.3:
            pool = tags if spec["kind"] == "pn5180" else cards
            events.append([t, "field", pad, rng.sample(pool, rng.randint(0, 6 if spec["kind"] == "pn5180" else 3))])
        elif roll < 0.55:
            events.append(
                [
                    t,
                    "held",
                    rng.sample(
                        ["next", "declined", "time", "tl", "pause", "time:seat1", "time:seat4"], rng.randint(0, 3)
                    ),
                ]
            )
        else:
            kind, fields = rng.choice(
                [
                    (
                        "LED",
                        (
                            ("seat", rng.choice(["seat1", "seat3", "seat9"])),
                            ("colour", rng.choice(["red", "blue", "off", "pink"])),
                            ("blink", rng.choice("01")),
                        ),
                    ),
                    ("BUZZ", (("ms", str(rng.choice([1, 50, 2000, 2001, 0]))),)),
                    ("PING", ()),
                    ("SYNC", ()),
                    ("NOPE", ()),
                ]
            )
            if rng.random() < 0.2:
                seq = max(0, seq - 1)  # a resend
            frame = bytearray(encode_frame(seq % 65536, kind, fields))
            seq += 1
            if rng.random() < 0.15:
                frame[rng.randrange(len(frame))] ^= 1 << rng.randrange(8)
            if rng.random() < 0.1:
                frame = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + frame
            events.append([t, "host", bytes(frame).hex()])
    events.sort(key=lambda e: e[0])
    return {"kind": "board", "name": name, "readers": readers, "config": config, "end_ms": end, "events": events}


def random_boards(seed: int = 22, count: int = 12) -> dict:
    rng = random.Random(seed)
    return {
        "kind": "many",
        "name": f"random_boards_{seed}",
        "scenarios": [_random_board(rng, f"random-{seed}-{i}") for i in range(count)],
    }


ALL[pn5180_stacks.__name__] = pn5180_stacks
ALL["random_boards"] = random_boards
