"""Bytes <-> frames of the seat-controller protocol (hardware/PROTOCOL.md, version 1).

    >>> data = encode_frame(5, "BTN", (("name", "next"),))
    >>> data
    b'$5 BTN name=next*8A3AEA07\\r\\n'
    >>> FrameDecoder().feed(b"noise" + data)[0].get("name")
    'next'

The decoder never raises on input: garbage, cut frames, bad CRCs, oversized and
malformed frames are counted in ``DecoderStats`` and skipped; it resynchronises on the
next ``$``.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

PROTO = 1
MAX_FRAME = 1024
SEQ_MOD = 65536

_PAYLOAD = re.compile(rb"(\d{1,5}) ([A-Z]+)((?: [a-z0-9_]+=[A-Za-z0-9._,:/-]*)*)")
_KEY = re.compile(r"[a-z0-9_]+")
_VALUE = re.compile(r"[A-Za-z0-9._,:/-]*")


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    kind: str
    fields: tuple[tuple[str, str], ...] = ()

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return default


@dataclass(slots=True)
class DecoderStats:
    frames: int = 0
    garbage_bytes: int = 0
    bad_crc: int = 0
    malformed: int = 0
    oversized: int = 0
    cut: int = 0

    @property
    def dropped(self) -> int:
        return self.bad_crc + self.malformed + self.oversized + self.cut


def encode_frame(seq: int, kind: str, fields: tuple[tuple[str, str], ...] = ()) -> bytes:
    """Raise ``ValueError`` for a type, key or value the protocol cannot carry."""
    if not kind.isalpha() or not kind.isupper():
        raise ValueError(f"frame type {kind!r}: upper-case letters only")
    parts = [str(seq % SEQ_MOD), kind]
    for key, value in fields:
        if not _KEY.fullmatch(key) or not _VALUE.fullmatch(value):
            raise ValueError(f"field {key}={value!r}: keys [a-z0-9_], values [A-Za-z0-9._,:/-]")
        parts.append(f"{key}={value}")
    body = " ".join(parts).encode()
    if len(body) + 12 > MAX_FRAME:
        raise ValueError(f"frame of {len(body) + 12} bytes; at most {MAX_FRAME}")
    return b"$%s*%08X\r\n" % (body, binascii.crc32(body))


class FrameDecoder:
    def __init__(self) -> None:
        self._buf = b""
        self.stats = DecoderStats()

    def feed(self, data: bytes) -> list[Frame]:
        buf = self._buf + bytes(data) if self._buf else bytes(data)
        out: list[Frame] = []
        stats = self.stats
        pos = 0
        while True:
            start = buf.find(b"$", pos)
            if start < 0:
                stats.garbage_bytes += len(buf) - pos
                buf = b""
                break
            stats.garbage_bytes += start - pos
            end = buf.find(b"\n", start)
            if end < 0:
                inner = buf.rfind(b"$", start + 1)
                if inner > 0:  # frames cut short before the one still arriving
                    stats.cut += buf.count(b"$", start, inner)
                    start = inner
                if len(buf) - start > MAX_FRAME:
                    stats.oversized += 1
                    stats.garbage_bytes += len(buf) - start - MAX_FRAME
                    buf = b""
                else:
                    buf = buf[start:]
                break
            inner = buf.rfind(b"$", start + 1, end)
            if inner > 0:
                stats.cut += buf.count(b"$", start, inner)
                start = inner
            pos = end + 1
            if end - start > MAX_FRAME:
                stats.oversized += 1
                continue
            frame = self._parse(buf[start + 1 : end])
            if frame is not None:
                out.append(frame)
        self._buf = buf
        return out

    def _parse(self, body: bytes) -> Frame | None:
        if body.endswith(b"\r"):
            body = body[:-1]
        star = len(body) - 9
        if star < 0 or body[star] != 42:  # "*"
            self.stats.malformed += 1
            return None
        payload = body[:star]
        if b"%08X" % binascii.crc32(payload) != body[star + 1 :]:
            self.stats.bad_crc += 1
            return None
        m = _PAYLOAD.fullmatch(payload)
        if m is None or int(m.group(1)) >= SEQ_MOD:
            self.stats.malformed += 1
            return None
        rest = m.group(3).decode()
        fields = tuple(tuple(w.split("=", 1)) for w in rest[1:].split(" ")) if rest else ()
        self.stats.frames += 1
        return Frame(int(m.group(1)), m.group(2).decode(), fields)
