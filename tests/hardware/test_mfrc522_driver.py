"""The board's MFRC522 driver (hardware/firmware/mfrc522.py) against a register-level
simulation of the chip and of ISO 14443A cards (mfrc522_sim.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.firmware.mfrc522 import MFRC522, ReaderError
from hardware.virtual import virtual_uid

from .mfrc522_sim import Card, SimPin, SimSPI, SimulatedMFRC522, crc_a


def reader_with(uids):
    chip = SimulatedMFRC522([Card(u) for u in uids])
    return MFRC522(SimSPI(chip), SimPin()), chip


def test_crc_a_matches_the_iso_14443_example():
    # ISO/IEC 14443-3 Annex B: CRC_A of 0x00 0x00 is 0x1EA0, sent low byte first
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"


def test_an_empty_field_reads_nothing():
    reader, _ = reader_with([])
    assert reader.scan() == []


@pytest.mark.parametrize("uid", ["04A1B2C3D4E5F6", "DEADBEEF", "04112233445566778899"])
def test_one_card_of_each_uid_length(uid):
    reader, _ = reader_with([uid])
    assert reader.scan() == [uid]


def test_several_cards_are_all_found_through_anticollision():
    uids = [virtual_uid(c) for c in ("AS", "KS", "QS", "JS", "TS")]
    reader, chip = reader_with(uids)
    assert sorted(reader.scan()) == sorted(uids)
    assert sorted(reader.scan()) == sorted(uids)  # the field reset wakes the halted cards


def test_cards_differing_only_in_the_last_bit():
    a, b = "04000000000000", "04000000000080"  # BCC differs as well: a late collision
    reader, _ = reader_with([a, b])
    assert sorted(reader.scan()) == [a, b]


def test_no_chip_on_the_bus_is_a_reader_error():
    class Dead:
        def write(self, data):
            pass

        def read(self, n):
            return b"\x00" * n

    with pytest.raises(ReaderError):
        MFRC522(Dead(), SimPin())


UIDS = st.one_of(
    st.sampled_from([virtual_uid(str(i)) for i in range(40)]),  # 7 bytes, shared 04 prefix
    st.binary(min_size=4, max_size=4).filter(lambda b: b[0] != 0x88).map(lambda b: b.hex().upper()),
    st.binary(min_size=10, max_size=10).map(lambda b: b.hex().upper()),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(UIDS, unique=True, max_size=8))
def test_any_set_of_up_to_8_cards_is_read_exactly(uids):
    reader, _ = reader_with(uids)
    assert sorted(reader.scan()) == sorted(uids)


def test_a_cascade_tag_byte_at_the_last_level_is_part_of_the_uid():
    # found by hypothesis in CI: byte 6 of a 10-byte UID may be 0x88; only the SAK's cascade
    # bit says whether another level follows
    uid = "00000000000088000000"
    reader, _ = reader_with([uid, "04A1B2C3D4E5F6"])
    assert sorted(reader.scan()) == sorted([uid, "04A1B2C3D4E5F6"])
