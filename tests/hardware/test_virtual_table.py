"""The virtual table's own API: deck UIDs, physical moves, scripts, noise, bad input."""

from __future__ import annotations

import os
import random
import time

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.codec import FrameDecoder
from firmware_bridge.messages import Hello, PadReport, from_frame
from hardware.errors import VirtualTableError
from hardware.virtual import Move, NoiseModel, VirtualDeck, VirtualTable, parse_moves, virtual_uid
from table_controller.rules.cards import FULL_DECK


def test_every_card_has_a_stable_distinct_uid():
    deck = VirtualDeck.standard()
    assert len(set(deck.uids.values())) == 52 == len(deck.uids)
    assert set(deck.uids) == {c.code for c in FULL_DECK}
    assert deck.uid("as") == virtual_uid("AS") == VirtualDeck.standard().uid("AS")
    assert all(len(u) == 14 and u.startswith("04") for u in deck.uids.values())
    assert deck.code(deck.uid("TD")) == "TD"
    assert VirtualDeck.standard(salt="spare").uid("AS") != deck.uid("AS")


def test_moves_keep_each_card_in_one_place(table):
    table.deal("seat1", ["AS", "KS"])
    assert table.on_pad("seat1") == ["AS", "KS"]
    table.pick_up("seat1")
    assert table.where("AS") == "hand:seat1" and table.on_pad("seat1") == []
    table.put("AS", "seat1")  # placed from the hand
    table.to_tray("AS")
    assert table.on_pad("seat1") == [] and table.on_pad("tray") == ["AS"]
    assert table.pick_up("tray") == ["AS"] and table.where("AS") == "stub"


@pytest.mark.parametrize(
    "move",
    [
        lambda t: t.put("ZZ", "seat1"),
        lambda t: t.put("AS", "seat9"),
        lambda t: t.press("dance"),
        lambda t: t.move_button("tray"),
        lambda t: t.remove("AS", to="floor"),
        lambda t: t.deal("seat2", ["AS", "XX"]),
        lambda t: t.pick_up("hand"),
    ],
)
def test_impossible_moves_raise_and_change_nothing(table, move):
    before = {c: table.where(c) for c in table.deck.uids}
    with pytest.raises(VirtualTableError):
        move(table)
    assert {c: table.where(c) for c in table.deck.uids} == before


def test_a_script_of_moves():
    moves = parse_moves("""
        deal seat2 AS KS   # the deal
        pickup seat2
        put AS seat2
        button seat3
        press next
        wait 0
    """)
    assert moves[0] == Move("deal", ("seat2", "AS", "KS"))
    assert str(moves[2]) == "put AS seat2"
    with VirtualTable() as table:
        table.run_script(moves)
        assert table.on_pad("seat2") == ["AS"] and table.where("KS") == "hand:seat2"


@pytest.mark.parametrize("line", ["fly AS", "put AS", "wait soon", "wait 999", "pickup"])
def test_bad_script_lines_are_refused_before_any_move(line):
    with pytest.raises(VirtualTableError):
        parse_moves(["put AS seat1", line])


@given(st.text(max_size=40))
def test_script_parser_never_raises_anything_but_its_own_error(line):
    try:
        parse_moves([line])
    except VirtualTableError:
        pass


@pytest.mark.parametrize("bad", [dict(flicker=1.5), dict(dup_byte=-0.1), dict(stack_limit=-1)])
def test_bad_noise_is_refused(bad):
    with pytest.raises(VirtualTableError):
        NoiseModel(**bad)


def read_messages(port, done, limit_s=30.0):
    """What the board sends, read until ``done(messages, decoder)`` holds: a condition, not
    a time (a busy machine only makes it later); ``limit_s`` only ends a test that fails."""
    with serial.Serial(port, 115200, timeout=0.05) as s:
        dec, end, out = FrameDecoder(), time.monotonic() + limit_s, []
        while not done(out, dec) and time.monotonic() < end:
            out += [from_frame(f) for f in dec.feed(s.read(4096))]
        return out, dec


@pytest.mark.realtime
def test_the_port_speaks_the_protocol_to_plain_pyserial(table):
    table.put("5H", "seat4")
    want = PadReport("seat4", frozenset({table.deck.uid("5H")}))
    with serial.Serial(table.port, 115200, timeout=0.05) as s:
        s.write(b"$0 SYNC*%08X\r\n" % __import__("binascii").crc32(b"0 SYNC"))
        dec, msgs, end = FrameDecoder(), [], time.monotonic() + 5
        while not (any(isinstance(m, Hello) for m in msgs) and want in msgs) and time.monotonic() < end:
            msgs += [from_frame(f) for f in dec.feed(s.read(4096))]  # until both came (or 5 s)
    assert any(isinstance(m, Hello) for m in msgs)
    assert want in msgs


@pytest.mark.realtime
def test_a_stack_limited_reader_still_reports_the_whole_stack():
    with VirtualTable(noise=NoiseModel(stack_limit=2, flicker=0.1), seed=5) as table:
        table.deal("seat1", ["2H", "3H", "4H", "5H", "6H"])
        want = {table.deck.uid(c) for c in ("2H", "3H", "4H", "5H", "6H")}

        def seat1(msgs):
            return [m.uids for m in msgs if isinstance(m, PadReport) and m.pad == "seat1"]

        def whole_and_more(msgs, _):  # the whole stack, then three more messages (heartbeats)
            first = next((i for i, m in enumerate(msgs) if isinstance(m, PadReport) and m.uids == want), None)
            return first is not None and len(msgs) > first + 3

        msgs, _ = read_messages(table.port, whole_and_more)
    reports = seat1(msgs)
    # two tags a scan at most, the whole stack reported all the same, and it stays whole
    assert want in reports and all(r == want for r in reports[reports.index(want) :])


@pytest.mark.realtime
def test_corrupt_bytes_reach_the_host_as_counted_drops():
    with VirtualTable(noise=NoiseModel(corrupt_byte=0.02, dup_byte=0.01), seed=9) as table:
        _, dec = read_messages(table.port, lambda _, d: d.stats.dropped > 0 and d.stats.frames > 0)
    assert dec.stats.dropped > 0 and dec.stats.frames > 0


@pytest.mark.realtime
def test_unplug_removes_the_port_and_replug_restores_it(table):
    first = os.path.realpath(table.port)
    table.unplug()
    assert not os.path.exists(table.port) and not table.plugged_in
    table.replug()
    assert os.path.exists(table.port) and table.boots == 2
    msgs, _ = read_messages(table.port, lambda m, _: bool(m))
    assert msgs  # heartbeats and reports from the rebooted board
    assert os.path.realpath(table.port).startswith("/dev/pts/") and first.startswith("/dev/pts/")


def test_the_virtual_reader_models_each_chips_stack_behaviour():
    # issue 22: an MFRC522 sees a stack a few cards per scan, a PN5180 reads it whole
    from hardware.virtual.devices import VirtualReader

    cards = ("AS", "KS", "QS", "JS", "TS")
    stack = [virtual_uid(c) for c in cards]
    tags = [virtual_uid(c, inlay="iso15693") for c in cards]  # E004...: ICODE inlays
    noise = NoiseModel(stack_limit=2)
    mfrc = VirtualReader(lambda: list(stack), noise, random.Random(1), "mfrc522")
    field = list(tags)
    pn = VirtualReader(lambda: list(field), noise, random.Random(1), "pn5180")
    assert all(len(mfrc.scan()) == 2 for _ in range(20))
    assert all(sorted(pn.scan()) == sorted(tags) for _ in range(20))  # the real driver, whole
    once = pn._pn5180.driver.exchanges
    assert once >= 17 and pn._pn5180.chip.violations == []  # ...run once: the field did not change
    field.pop()
    assert sorted(pn.scan()) == sorted(tags[:-1]) and pn._pn5180.driver.exchanges > once


def test_the_table_puts_the_chosen_reader_under_every_pad():
    for reader, digits in (("pn5180", 16), ("mfrc522", 14), (None, 14)):
        table = VirtualTable(autostart=False, **({"reader": reader} if reader else {}))
        assert {r.kind for r in table.readers.values()} == {reader or "mfrc522"}
        assert {len(u) for u in table.deck.uids.values()} == {digits} == {len(table.button_uid)}
        table.close()


def test_a_pn5180_table_refuses_a_deck_it_could_not_read():
    with pytest.raises(VirtualTableError, match="ISO 15693"):
        VirtualTable(deck=VirtualDeck.standard(), reader="pn5180", autostart=False)


@pytest.mark.parametrize("reader", ["mfrc", "", "PN5180"])
def test_an_unknown_reader_is_a_clear_error(reader):
    with pytest.raises(VirtualTableError, match="reader"):
        VirtualTable(reader=reader, autostart=False)
