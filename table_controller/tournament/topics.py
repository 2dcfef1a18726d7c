"""The hub protocol's topics and payloads, version 2 (TOPICS.md beside this file).

    >>> records_topic("sm2026", "h1-t3")
    'chicago/v2/sm2026/tables/h1-t3/records'
    >>> recs = [Record(1, 0.0, "table", "action", 1, {"do": "table", "players": ["Anna", "Bo"]}, "3b54")]
    >>> parse_records(records_payload("h1-t3", recs))["table"]
    'h1-t3'
    >>> parse_records(b'{"v": 2, "table": "h1-t3", "records": []}')
    Traceback (most recent call last):
    table_controller.tournament.topics.PayloadError: records: 'records' must be a non-empty list

Pure: no I/O.  Every payload is a JSON object with ``"v": 2``; a payload that does not
parse raises :class:`PayloadError` (the hub logs and drops it, never crashes on it).
"""

from __future__ import annotations

import json
import math
import re
import socket
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

from ..store.records import KINDS, Record

VERSION = 2
ROOT = f"chicago/v{VERSION}"

_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # no '/', '+', '#': one topic level


# Small messages and their acks go out at once: with Nagle's algorithm on, a hub's PUBACK
# followed by its own ack waits for the broker's delayed TCP ack (40 ms a message).
SOCKET_OPTIONS = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)


class PayloadError(ValueError):
    """A message that is not a valid payload of this version."""


def check_id(value: object, what: str = "id") -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise PayloadError(f"{what} {value!r}: use 1-40 letters, digits, '-' or '_'")
    return value


# --- topics ---------------------------------------------------------------------------


def records_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/tables/{check_id(table, 'table')}/records"


def status_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/tables/{check_id(table, 'table')}/status"


def head_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/tables/{check_id(table, 'table')}/head"


def clocks_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/tables/{check_id(table, 'table')}/clocks"


def ack_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/hub/ack/{check_id(table, 'table')}"


def draw_topic(event: str, table: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/hub/draw/{check_id(table, 'table')}"


def standings_topic(event: str) -> str:
    return f"{ROOT}/{check_id(event, 'event')}/hub/standings"


def table_filter(event: str, what: str) -> str:
    """The hub's subscription to one kind of table message: ``.../tables/+/records``."""
    return f"{ROOT}/{check_id(event, 'event')}/tables/+/{what}"


def table_of(topic: str) -> str:
    """The table id in a ``.../tables/ID/...`` or ``.../hub/ack/ID`` topic."""
    parts = topic.split("/")
    if len(parts) >= 5 and parts[3] == "tables":
        return check_id(parts[4], "table")
    if len(parts) >= 6 and parts[3] == "hub":
        return check_id(parts[5], "table")
    raise PayloadError(f"topic {topic!r} names no table")


# --- payloads -------------------------------------------------------------------------


def _dump(obj: Mapping[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _load(payload: bytes | str | bytearray, kind: str) -> dict[str, Any]:
    try:
        obj = json.loads(payload)
    except (TypeError, ValueError, UnicodeDecodeError):
        raise PayloadError(f"{kind}: not JSON") from None
    if not isinstance(obj, dict):
        raise PayloadError(f"{kind}: not a JSON object")
    if obj.get("v") != VERSION:
        raise PayloadError(f"{kind}: version {obj.get('v')!r}, this program reads {VERSION}")
    return obj


def record_dict(r: Record) -> dict[str, Any]:
    return {**r.to_dict(), "digest": r.digest}


def records_payload(table: str, records: Iterable[Record]) -> bytes:
    return _dump({"v": VERSION, "table": table, "records": [record_dict(r) for r in records]})


def parse_records(payload: bytes | str) -> dict[str, Any]:
    """``{"table": id, "records": [Record, ...]}``; consecutive seqs, each field typed."""
    obj = _load(payload, "records")
    table = check_id(obj.get("table"), "table")
    raw = obj.get("records")
    if not isinstance(raw, list) or not raw:
        raise PayloadError("records: 'records' must be a non-empty list")
    out: list[Record] = []
    for r in raw:
        if not isinstance(r, dict):
            raise PayloadError("records: each record must be an object")
        seq, t, txn = r.get("seq"), r.get("time"), r.get("txn")
        if not _int(seq) or seq < 1 or not _int(txn) or not 1 <= txn <= seq:
            raise PayloadError(f"records: bad seq/txn {seq!r}/{txn!r}")
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
            raise PayloadError(f"records: record {seq}: bad time")
        if r.get("kind") not in KINDS or not isinstance(r.get("source"), str) or not r.get("source"):
            raise PayloadError(f"records: record {seq}: bad kind or source")
        if not isinstance(r.get("data"), dict) or not isinstance(r.get("digest"), str):
            raise PayloadError(f"records: record {seq}: bad data or digest")
        if out and seq != out[-1].seq + 1:
            raise PayloadError("records: the seqs of one message must be consecutive")
        out.append(Record(seq, float(t), r["source"], r["kind"], txn, r["data"], r["digest"]))
    return {"table": table, "records": out}


def ack_payload(table: str, have: int, digest: str) -> bytes:
    return _dump({"v": VERSION, "table": table, "have": have, "digest": digest})


def parse_ack(payload: bytes | str) -> dict[str, Any]:
    obj = _load(payload, "ack")
    check_id(obj.get("table"), "table")
    if not _int(obj.get("have")) or obj["have"] < 0:
        raise PayloadError("ack: 'have' must be a whole number >= 0")
    return obj


def status_payload(table: str, online: bool, last_seq: int | None = None) -> bytes:
    return _dump({"v": VERSION, "table": table, "online": online, "last_seq": last_seq})


def parse_status(payload: bytes | str) -> dict[str, Any]:
    obj = _load(payload, "status")
    check_id(obj.get("table"), "table")
    if not isinstance(obj.get("online"), bool):
        raise PayloadError("status: 'online' must be true or false")
    return obj


CLOCK_KINDS = ("exchange", "chicago", "play", "quads")


def clocks_payload(
    table: str, seq: int, age: float, paused: bool, running: Mapping[str, Mapping[str, Any]], moved: bool
) -> bytes:
    """The table's shot clocks as its log last holds them (a "clock" record, ``seq``):
    who is waited for, on which clock, seconds left then; ``age``: seconds since that
    snapshot by the table's own clock; ``moved``: an action came after it (the turn
    moved on, the new clocks are not in the log yet).  Names and seconds, never a card.

    >>> parse_clocks(clocks_payload("h1-t3", 88, 0.4, False, {"Bo": {"clock": "play", "remaining": 12.5}}, False))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'v': 2, 'table': 'h1-t3', 'seq': 88, 'age': 0.4, 'paused': False,
     'running': {'Bo': {'clock': 'play', 'remaining': 12.5}}, 'moved': False}
    """
    return _dump(
        {
            "v": VERSION,
            "table": table,
            "seq": seq,
            "age": round(float(age), 3),
            "paused": paused,
            "running": {p: {"clock": r["clock"], "remaining": float(r["remaining"])} for p, r in running.items()},
            "moved": moved,
        }
    )


def parse_clocks(payload: bytes | str) -> dict[str, Any]:
    obj = _load(payload, "clocks")
    check_id(obj.get("table"), "table")
    if not _int(obj.get("seq")) or obj["seq"] < 1:
        raise PayloadError("clocks: 'seq' must be a whole number >= 1")
    if not isinstance(obj.get("paused"), bool) or not isinstance(obj.get("moved"), bool):
        raise PayloadError("clocks: 'paused' and 'moved' must be true or false")
    if not _seconds(obj.get("age")):
        raise PayloadError("clocks: 'age' must be seconds >= 0")
    running = obj.get("running")
    if not isinstance(running, dict) or len(running) > 4:
        raise PayloadError("clocks: 'running' must map at most 4 players to their clocks")
    for p, r in running.items():
        if (
            not isinstance(p, str)
            or not 1 <= len(p) <= 60
            or not isinstance(r, dict)
            or set(r) != {"clock", "remaining"}
            or r["clock"] not in CLOCK_KINDS
            or not _seconds(r["remaining"])
        ):
            raise PayloadError("clocks: each running clock is {clock, remaining}")
    return {k: obj[k] for k in ("v", "table", "seq", "age", "paused", "running", "moved")}


def _seconds(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= 86400


def json_payload(obj: Mapping[str, Any]) -> bytes:
    """Any other message (draw, standings, head): the object with ``"v": 2``."""
    return _dump({"v": VERSION, **obj})


def parse_json(payload: bytes | str, kind: str) -> dict[str, Any]:
    return _load(payload, kind)


def _int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)
