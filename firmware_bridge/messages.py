"""Typed messages of the seat-controller protocol, on top of ``codec`` frames.

    >>> report = from_frame(Frame(3, "PAD", (("pad", "seat1"), ("uids", "04A1B2C3,04D4E5F6"))))
    >>> report.pad, sorted(report.uids)
    ('seat1', ['04A1B2C3', '04D4E5F6'])

``from_frame`` returns ``None`` for a frame whose type or fields do not fit version 1
(the caller counts it as malformed); it never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from table_controller.sensor_events import PADS

from .codec import SEQ_MOD, Frame, encode_frame

SEATS = PADS[:4]
COLOURS = ("off", "green", "yellow", "red", "blue", "white")
# ISO 14443A UIDs of 4, 7 or 10 bytes (MFRC522), ISO 15693 UIDs of 8 bytes (PN5180)
_UID = re.compile(r"[0-9A-F]{8}(?:[0-9A-F]{6})?(?:[0-9A-F]{6})?|[0-9A-F]{16}")


# --- device to host -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    proto: int
    firmware: str
    device_id: str
    pads: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int
    rx_bad: int


@dataclass(frozen=True, slots=True)
class PadReport:
    pad: str
    uids: frozenset[str]


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    name: str


@dataclass(frozen=True, slots=True)
class ReaderReport:
    pad: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Ack:
    cmd: int


@dataclass(frozen=True, slots=True)
class Nak:
    cmd: int
    error: str


DeviceMessage = Hello | Heartbeat | PadReport | ButtonEvent | ReaderReport | Ack | Nak


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() and len(text) <= 10 else None


def from_frame(frame: Frame) -> DeviceMessage | None:
    f = dict(frame.fields)
    kind = frame.kind
    if kind == "PAD":
        pad, uids = f.get("pad"), f.get("uids")
        if pad not in PADS or uids is None:
            return None
        found = frozenset(uids.split(",")) if uids else frozenset()
        if not all(_UID.fullmatch(u) for u in found):
            return None
        return PadReport(pad, found)
    if kind == "HB":
        up, bad = _int(f.get("up")), _int(f.get("rxbad", "0"))
        return None if up is None or bad is None else Heartbeat(up, bad)
    if kind == "ACK":
        cmd = _int(f.get("cmd"))
        return None if cmd is None else Ack(cmd)
    if kind == "NAK":
        cmd = _int(f.get("cmd"))
        return None if cmd is None else Nak(cmd, f.get("err", ""))
    if kind == "BTN":
        name = f.get("name")
        return ButtonEvent(name) if name else None
    if kind == "RDR":
        pad, ok = f.get("pad"), f.get("ok")
        if pad not in PADS or ok not in ("0", "1"):
            return None
        return ReaderReport(pad, ok == "1", f.get("detail", ""))
    if kind == "HELLO":
        proto, pads = _int(f.get("proto")), f.get("pads", "")
        if proto is None or not f.get("id"):
            return None
        return Hello(proto, f.get("fw", ""), f["id"], tuple(p for p in pads.split(",") if p))
    return None


# --- host to device ------------------------------------------------------------------
def encode_sync(seq: int) -> bytes:
    return encode_frame(seq, "SYNC")


def encode_ping(seq: int) -> bytes:
    return encode_frame(seq, "PING")


def encode_led(seq: int, seat: str, colour: str, blink: bool) -> bytes:
    return encode_frame(seq, "LED", (("seat", seat), ("colour", colour), ("blink", "1" if blink else "0")))


def encode_resend(seq: int, seqs: list[int]) -> bytes:
    """Ask the device for frames the host missed again (PROTOCOL.md, ``RESEND``)."""
    return encode_frame(seq, "RESEND", (("seqs", ",".join(str(s % SEQ_MOD) for s in seqs)),))


def encode_buzz(seq: int, ms: int) -> bytes:
    return encode_frame(seq, "BUZZ", (("ms", str(ms)),))
