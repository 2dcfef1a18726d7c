"""The frame codec (firmware_bridge/codec.py) and its agreement with the firmware's
own encoder/decoder (hardware/firmware/wire.py); hypothesis fuzzing of the decoder."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codec import MAX_FRAME, Frame, FrameDecoder, encode_frame
from firmware_bridge.messages import Hello, PadReport, from_frame
from hardware.firmware import wire

KINDS = st.sampled_from(["PAD", "HB", "BTN", "ACK", "NAK", "RDR", "HELLO", "LED"])
# the characters a key and a value may hold ([a-z0-9_]{1,8}, [A-Za-z0-9._,:/-]{0,30}); st.text
# draws them five times faster than st.from_regex did (the damage test: 18 -> 3.5 s of CPU)
KEYS = st.text(string.ascii_lowercase + string.digits + "_", min_size=1, max_size=8)
VALUES = st.text(string.ascii_letters + string.digits + "._,:/-", max_size=30)
FRAMES = st.builds(Frame, st.integers(0, 65535), KINDS, st.lists(st.tuples(KEYS, VALUES), max_size=6).map(tuple))


def enc(f: Frame) -> bytes:
    return encode_frame(f.seq, f.kind, f.fields)


def decode_all(data: bytes, chunk: int = 0) -> tuple[list[Frame], FrameDecoder]:
    dec = FrameDecoder()
    if not chunk:
        return dec.feed(data), dec
    out = []
    for i in range(0, len(data), chunk):
        out += dec.feed(data[i : i + chunk])
    return out, dec


# --- round trips -------------------------------------------------------------------------
@given(st.lists(FRAMES, max_size=20), st.integers(0, 50))
def test_valid_frames_round_trip_in_any_chunking(frames, chunk):
    got, dec = decode_all(b"".join(enc(f) for f in frames), chunk)
    assert got == frames
    assert dec.stats.dropped == 0 and dec.stats.garbage_bytes == 0


@given(FRAMES)
def test_firmware_and_bridge_encode_the_same_bytes(frame):
    assert wire.encode(frame.seq, frame.kind, frame.fields) == enc(frame)


@given(st.lists(FRAMES, max_size=10), st.binary(max_size=40))
def test_firmware_decoder_reads_what_the_bridge_writes(frames, noise):
    dec = wire.Decoder()
    got = dec.feed(noise.replace(b"$", b"") + b"".join(enc(f) for f in frames))
    assert got == [(f.seq, f.kind, dict(f.fields)) for f in frames]
    assert dec.bad == 0


def test_frames_read_by_a_person():
    assert encode_frame(17, "PAD", (("pad", "seat2"), ("uids", "04A1B2C3D4E5F6"))).startswith(
        b"$17 PAD pad=seat2 uids=04A1B2C3D4E5F6*"
    )


@pytest.mark.parametrize(
    "kind, fields",
    [
        ("pad", ()),
        ("PAD", (("Pad", "x"),)),
        ("PAD", (("pad", "a b"),)),
        ("PAD", (("pad", "x*y"),)),
        ("PAD", (("uids", "A" * 2000),)),
    ],
)
def test_encoder_refuses_what_the_protocol_cannot_carry(kind, fields):
    with pytest.raises(ValueError):
        encode_frame(1, kind, fields)


# --- damage --------------------------------------------------------------------------------
GOOD = [Frame(i, "PAD", (("pad", "seat1"), ("uids", "04AABBCCDDEEFF"))) for i in range(5)]


def test_garbage_between_frames_is_counted_not_raised():
    got, dec = decode_all(b"\x00\xffhello" + enc(GOOD[0]) + b"\r\n\n***" + enc(GOOD[1]))
    assert got == GOOD[:2]
    assert dec.stats.garbage_bytes == 7 + 6


def test_a_frame_cut_in_the_middle_loses_only_itself():
    data = enc(GOOD[0])[:15] + enc(GOOD[1])
    got, dec = decode_all(data, chunk=4)
    assert got == [GOOD[1]] and dec.stats.cut == 1


def test_a_flipped_byte_fails_the_crc():
    bad = bytearray(enc(GOOD[0]))
    bad[10] ^= 0x04
    got, dec = decode_all(bytes(bad) + enc(GOOD[1]))
    assert got == [GOOD[1]] and dec.stats.bad_crc == 1


def test_an_endless_frame_is_dropped_and_the_next_one_read():
    got, dec = decode_all(b"$1 PAD " + b"x" * (3 * MAX_FRAME) + enc(GOOD[2]), chunk=100)
    assert got == [GOOD[2]] and dec.stats.oversized == 1


@given(st.binary(max_size=3000), st.integers(1, 64))
def test_random_bytes_never_raise(data, chunk):
    got, dec = decode_all(data, chunk)
    for frame in got:  # whatever came out is a well-formed frame
        from_frame(frame)
    assert dec.stats.frames == len(got)


@st.composite
def damaged_streams(draw):
    before = draw(st.lists(FRAMES, max_size=5))
    victim = enc(draw(FRAMES))
    damage = draw(st.sampled_from(["cut", "garbage", "flip", "dup", "drop"]))
    if damage == "cut":
        victim = victim[: draw(st.integers(0, len(victim) - 1))]
    elif damage == "garbage":
        at = draw(st.integers(0, len(victim)))
        victim = victim[:at] + draw(st.binary(min_size=1, max_size=200)) + victim[at:]
    elif damage == "flip":
        at = draw(st.integers(0, len(victim) - 1))
        b = bytearray(victim)
        b[at] ^= 1 << draw(st.integers(0, 7))
        victim = bytes(b)
    elif damage == "dup":
        at = draw(st.integers(0, len(victim) - 1))
        victim = victim[: at + 1] + victim[at:]
    else:
        at = draw(st.integers(0, len(victim) - 1))
        victim = victim[:at] + victim[at + 1 :]
    after = draw(st.lists(FRAMES, min_size=1, max_size=5))
    return before, victim, after


@settings(max_examples=400)
@given(damaged_streams(), st.integers(0, 40))
def test_every_valid_frame_after_the_damage_is_recovered(stream, chunk):
    before, victim, after = stream
    data = b"".join(map(enc, before)) + victim + b"".join(map(enc, after))
    got, _ = decode_all(data, chunk)
    assert got[: len(before)] == before
    assert got[-len(after) :] == after  # nothing after the damage is lost
    assert len(got) <= len(before) + 1 + len(after)


# --- messages --------------------------------------------------------------------------------
def test_messages_from_frames():
    pad = from_frame(Frame(1, "PAD", (("pad", "tray"), ("uids", ""))))
    assert pad == PadReport("tray", frozenset())
    hello = from_frame(Frame(0, "HELLO", (("proto", "1"), ("fw", "0.1.0"), ("id", "SC-1"), ("pads", "seat1,tray"))))
    assert hello == Hello(1, "0.1.0", "SC-1", ("seat1", "tray"))


@pytest.mark.parametrize(
    "uid", ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566778899", "E004015A3C2B1D0F"]
)  # the last: ISO 15693 (a PN5180 pad)
def test_uids_of_every_inlay_kind_are_read(uid):
    assert from_frame(Frame(1, "PAD", (("pad", "tray"), ("uids", uid)))) == PadReport("tray", frozenset({uid}))


@pytest.mark.parametrize(
    "frame",
    [
        Frame(1, "PAD", (("pad", "seat9"), ("uids", ""))),
        Frame(1, "PAD", (("pad", "seat1"), ("uids", "04ZZ"))),
        Frame(1, "PAD", (("pad", "seat1"), ("uids", "E004015A3C2B1D0F1"))),  # 17 digits
        Frame(1, "PAD", (("pad", "seat1"), ("uids", "E004015A3C"))),  # 10 digits
        Frame(1, "PAD", (("pad", "seat1"),)),
        Frame(1, "HB", (("up", "-1"),)),
        Frame(1, "ACK", ()),
        Frame(1, "RDR", (("pad", "seat1"), ("ok", "yes"))),
        Frame(1, "HELLO", (("proto", "x"), ("id", "a"))),
        Frame(1, "WHAT", ()),
    ],
)
def test_frames_that_do_not_fit_version_1_are_not_messages(frame):
    assert from_frame(frame) is None


def test_the_examples_in_protocol_md_are_valid_frames():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "hardware" / "PROTOCOL.md").read_text()
    complete = re.findall(r"\$[^`$*]*\*[0-9A-F]{8}", re.sub(r"\s*\n\s*", " ", text))
    assert len(complete) >= 4
    got = FrameDecoder().feed("\r\n".join(complete).encode() + b"\r\n")
    assert len(got) == len(complete)
