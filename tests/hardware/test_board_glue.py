"""The board glue (hardware/firmware/hal_pico.py) run under MicroPython and CPython on
simulated Pico parts (issue 22): board.json picks each pad's reader, an MFRC522 and
PN5180s (with their BUSY lines) are read over machine.SPI stand-ins wired to the
register-level simulations, and buttons, LEDs, buzzer, service jumper and device id
go through machine/neopixel stand-ins (tests/hardware/micropython/board/)."""

from __future__ import annotations

import random

import pytest

from hardware.virtual import virtual_uid

from .interpreters import run_board_check

CARDS = [virtual_uid(c) for c in ("AS", "KS", "QS")]
TAGS = ["E00401%010X" % random.Random(3).getrandbits(40) for _ in range(1)] + [
    "E00401%010X" % (0x1000 * i + 0x77) for i in range(1, 7)
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    cpython = run_board_check(tmp_path_factory.mktemp("cpython"), False, CARDS, TAGS)
    micropython = run_board_check(tmp_path_factory.mktemp("micropython"), True, CARDS, TAGS)
    return cpython.splitlines(), micropython.splitlines()


def test_the_board_glue_does_the_same_on_micropython(outputs):
    cpython, micropython = outputs
    assert micropython == cpython


def test_board_json_picks_each_pads_reader_and_known_timings(outputs):
    lines = outputs[1]
    assert "kinds seat1=mfrc522 seat2=pn5180 seat3=mfrc522 seat4=nfc9 tray=pn5180" in lines
    assert "overrides gone_ms=900 no_such_field=3" in lines  # a text value is not a timing
    assert "config gone_ms=900 scan_ms=20" in lines  # unknown names change nothing
    assert lines.count("bad config: bad-board-json") == 2 and "no config: mfrc522" in lines


def test_each_reader_kind_reads_its_tags_and_failures_are_words(outputs):
    lines = outputs[1]
    for attempt in (1, 2):
        assert f"scan {attempt} seat1 {','.join(sorted(CARDS))}" in lines
        assert f"scan {attempt} seat2 {TAGS[0]}" in lines
        assert f"scan {attempt} tray {','.join(sorted(TAGS))}" in lines  # a stack of 7, whole
        assert f"scan {attempt} seat3 ERR no-mfrc522" in lines
        assert f"scan {attempt} seat4 ERR reader-kind-nfc9" in lines
    assert "violations seat2=0 tray=0" in lines


def test_console_parts_and_identity(outputs):
    lines = outputs[1]
    assert "held next,time:seat3" in lines
    assert "pixels 0,0,0 70,0,0 0,0,0 0,0,70" in lines
    assert "buzzer 1 0" in lines
    assert "service False" in lines and "service jumper True" in lines
    assert "id SC-032B2A21" in lines
