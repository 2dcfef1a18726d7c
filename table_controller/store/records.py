"""Records: one entry of a table's log.

    >>> NewRecord("alert", {"text": "card seen twice"}, source="sensing").kind
    'alert'

Every record has a sequence number (1, 2, 3, ... without gaps), a wall-clock time, a
source (who or what produced it) and a kind; ``data`` is a JSON object whose shape
depends on the kind.  ``txn`` is the sequence number of the first record of the
transaction it was appended in, so an action and the events it caused share one
``txn``.  ``digest`` chains every record to the one before it, so a changed, missing
or reordered record is found even where SQLite itself sees nothing wrong.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RecordError

# action:   an accepted REPLAY.md action dict          event:  a domain event dict
# sensor:   a raw sensor observation                   alert:  something for the TL
# audit:    who did what (TL decisions, hand reveals)  clock:  a shot-clock snapshot
# rejected: {"action": dict, "reason": str}, an action the rules refused
KINDS = ("action", "event", "sensor", "alert", "audit", "clock", "rejected")

GENESIS = "0" * 32  # the "previous digest" of record 1


@dataclass(frozen=True, slots=True)
class NewRecord:
    """A record to append; the store gives it its seq, txn and digest."""

    kind: str
    data: Mapping[str, Any]
    source: str = "table"
    time: float | None = None  # None: the store's clock at append time


@dataclass(frozen=True, slots=True)
class Record:
    seq: int
    time: float
    source: str
    kind: str
    txn: int
    data: Mapping[str, Any]
    digest: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "source": self.source,
            "kind": self.kind,
            "txn": self.txn,
            "data": self.data,
        }


def encode_data(data: Any) -> str:
    """The canonical JSON text of a record's data (sorted keys: the digest depends on it)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record's data must be a JSON object, not {kind}", kind=type(data).__name__)
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RecordError("a record's data must be plain JSON: {error}", error=exc) from None
    except RecursionError:
        raise RecordError("a record's data is nested too deeply") from None


def check_new(rec: NewRecord) -> str:
    """Validate a record before it is stored; returns its data's JSON text."""
    if rec.kind not in KINDS:
        raise RecordError("unknown record kind {kind!r}; kinds: {kinds}", kind=rec.kind, kinds=", ".join(KINDS))
    if not isinstance(rec.source, str) or not rec.source:
        raise RecordError("a record's source must be non-empty text (who or what produced it)")
    if rec.time is not None and (
        not isinstance(rec.time, (int, float)) or isinstance(rec.time, bool) or not math.isfinite(rec.time)
    ):
        raise RecordError("a record's time must be a finite number of seconds, not {time!r}", time=rec.time)
    return encode_data(rec.data)


def digest(prev: str, seq: int, time: float, source: str, kind: str, txn: int, data_json: str) -> str:
    text = f"{prev}|{seq}|{float(time)!r}|{source}|{kind}|{txn}|{data_json}"
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
