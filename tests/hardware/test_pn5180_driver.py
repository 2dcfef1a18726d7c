"""The board's PN5180 driver (hardware/firmware/pn5180.py: ISO 15693 inventory with 16
slots and mask anticollision, SPI with the BUSY line) against the register-level
simulation of the chip and a stack of tags (hardware/virtual/pn5180_chip.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.firmware.pn5180 import PN5180, ReaderError
from hardware.virtual.pn5180_chip import SimBusy, SimNSS, SimSPI, SimulatedPN5180, Tag


def icode_uid(serial: int) -> str:
    return "E00401%010X" % (serial & 0xFFFFFFFFFF)  # NXP (04), ICODE SLIX (01)


def reader_with(uids, **chip_options):
    chip = SimulatedPN5180([Tag(u) for u in uids], **chip_options)
    sleeps: list[int] = []
    reader = PN5180(SimSPI(chip), SimNSS(chip), SimBusy(chip), sleep=sleeps.append)
    return reader, chip


def scan_clean(reader, chip):
    found = reader.scan()
    assert chip.violations == [], chip.violations  # BUSY and framing kept every time
    return found


def test_an_empty_pad_costs_one_exchange():
    reader, chip = reader_with([])
    assert scan_clean(reader, chip) == [] and reader.exchanges == 1


def test_a_lone_tag_answers_the_one_slot_inventory():
    uid = icode_uid(0x1234567890)
    reader, chip = reader_with([uid])
    assert scan_clean(reader, chip) == [uid] and reader.exchanges == 1


def test_a_stack_of_5_reads_whole_in_one_scan():
    uids = [icode_uid(random.Random(5).getrandbits(40) + i * 0x3D) for i in range(5)]
    reader, chip = reader_with(uids)
    assert sorted(scan_clean(reader, chip)) == sorted(uids)
    assert sorted(scan_clean(reader, chip)) == sorted(uids)  # and again: no tag left quiet


def test_a_stack_of_10_with_colliding_slots_reads_whole():
    rng = random.Random(1)
    uids = [icode_uid(rng.getrandbits(40)) for _ in range(10)]
    reader, chip = reader_with(uids)
    assert sorted(scan_clean(reader, chip)) == sorted(uids)
    assert reader.exchanges > 1 + 16  # collisions were resolved by mask


def test_a_full_discard_tray_reads_every_tag():
    # the tray holds every discard of a deal and the open cards: far more than 16 tags
    from hardware.virtual.deck import virtual_uid
    from table_controller.rules.cards import FULL_DECK

    uids = [virtual_uid(c.code, inlay="iso15693") for c in FULL_DECK[:45]]
    reader, chip = reader_with(uids)
    assert sorted(scan_clean(reader, chip)) == sorted(uids)


def test_tags_differing_only_in_the_top_bits_are_told_apart():
    # every mask round up to 60 bits collides; the last one separates them
    a, b = "1004010000000000", "E004010000000000"
    reader, chip = reader_with([a, b])
    assert sorted(scan_clean(reader, chip)) == [a, b]


def test_a_bus_without_a_chip_is_a_reader_error():
    class Dead:
        def write(self, data):
            pass

        def read(self, n, write=0):
            return b"\xff" * n

    class Low:
        def value(self, v=None):
            return 0

    with pytest.raises(ReaderError, match="no-pn5180"):
        PN5180(Dead(), Low(), Low(), sleep=lambda ms: None)


def test_a_slow_busy_line_is_waited_for_and_a_stuck_one_is_an_error():
    uid = icode_uid(7)
    reader, chip = reader_with([uid], busy_reads=500)
    assert scan_clean(reader, chip) == [uid]
    chip.busy_reads = 10**9  # a hung chip: BUSY stays high after the next frame
    with pytest.raises(ReaderError, match="pn5180-busy"):
        reader.scan()


def test_the_simulation_catches_a_frame_started_while_busy():
    chip = SimulatedPN5180([])
    nss = SimNSS(chip)
    nss.value(0)
    SimSPI(chip).write(b"\x16\x00")
    nss.value(1)  # BUSY is high now
    nss.value(0)
    assert chip.violations == ["frame started while BUSY was high"]


UIDS = st.one_of(
    st.integers(0, 2**40 - 1).map(icode_uid),
    # shared low bits: many rounds of mask anticollision
    st.integers(0, 255).map(lambda n: "%02X%014X" % (n, 0x2A5A5A5A5A5A5)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(UIDS, unique=True, max_size=10))
def test_any_stack_of_up_to_10_tags_is_read_exactly(uids):
    reader, chip = reader_with(uids)
    assert sorted(scan_clean(reader, chip)) == sorted(uids)
