# Frame encoding and decoding for the seat controller (PROTOCOL.md, version 1).
# MicroPython and CPython: no dataclasses, no typing, only binascii from the stdlib.
# The Pi side has its own decoder (firmware_bridge/codec.py); tests run the two
# against each other, so a misreading of PROTOCOL.md on either side shows up.

import binascii

PROTO = 1
MAX_FRAME = 1024
SEQ_MOD = 65536

_START = 36  # "$"
_LF = 10
_CR = 13


def crc_text(body):
    return "%08X" % (binascii.crc32(body) & 0xFFFFFFFF)


def encode(seq, kind, fields=()):
    """One frame as bytes: ``encode(3, "PAD", (("pad", "seat1"), ("uids", "")))``."""
    parts = [str(seq % SEQ_MOD), kind]
    for key, value in fields:
        parts.append(key + "=" + value)
    body = " ".join(parts).encode()
    return b"$" + body + b"*" + crc_text(body).encode() + b"\r\n"


def _parse(body):
    # body: the bytes between "$" and "\n" (the "\r" already stripped)
    star = body.rfind(b"*")
    if star < 0 or len(body) - star != 9:
        return None
    payload = body[:star]
    if crc_text(payload).encode() != body[star + 1 :]:
        return None
    for b in payload:
        if b < 32 or b > 126 or b == 42:
            return None
    words = payload.decode().split(" ")
    if len(words) < 2 or not words[0].isdigit() or not words[1].isalpha():
        return None
    seq = int(words[0])
    if seq >= SEQ_MOD:
        return None
    fields = {}
    for word in words[2:]:
        eq = word.find("=")
        if eq <= 0:
            return None
        fields[word[:eq]] = word[eq + 1 :]
    return seq, words[1], fields


class Decoder:
    """Bytes in, ``(seq, type, fields)`` tuples out; bad frames are counted, never raised."""

    def __init__(self):
        self._buf = bytearray()
        self._in_frame = False
        self.bad = 0

    def feed(self, data):
        out = []
        for b in data:
            if b == _START:
                if self._in_frame:
                    self.bad += 1  # a frame cut short by the next start
                self._buf = bytearray()
                self._in_frame = True
            elif not self._in_frame:
                continue
            elif b == _LF:
                self._in_frame = False
                body = bytes(self._buf)
                if body.endswith(b"\r"):
                    body = body[:-1]
                frame = _parse(body)
                if frame is None:
                    self.bad += 1
                else:
                    out.append(frame)
            elif len(self._buf) >= MAX_FRAME:
                self._in_frame = False
                self.bad += 1
            else:
                self._buf.append(b)
        return out
