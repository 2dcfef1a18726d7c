"""Raw sensor observations in the log ("sensor" records), so that replaying them through
sensing rebuilds the same game (wiring that replay is sensing's job, issue 5).

    >>> from table_controller.sensor_events import PadContents
    >>> from table_controller.store import SQLiteStore
    >>> store = SQLiteStore.open("t.sqlite", create=True)
    >>> _ = store.append_one("sensor", sensor_to_dict(PadContents(3.5, "seat1", frozenset({"04a1"}))), "rfid")
    >>> [e for _, e in sensor_events(store)]
    [PadContents(at=3.5, pad='seat1', uids=frozenset({'04a1'}), source='rfid')]

The record keeps the event's type name and fields as JSON (sets sorted, tuples as lists).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any, cast

from table_controller import sensor_events as fb

from .base import EventStore
from .errors import RecordError

SENSOR_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (fb.PadContents, fb.CameraPad, fb.ButtonPressed, fb.ReaderStatus, fb.LinkStatus)
}


def sensor_to_dict(event: Any) -> dict[str, Any]:
    name = type(event).__name__
    if SENSOR_TYPES.get(name) is not type(event):
        raise RecordError("not a sensor event: {event!r}", event=event)
    out: dict[str, Any] = {"type": name}
    for f in fields(cast(Any, event)):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, fb.CardSighting):
        return {"card": v.card, "confidence": v.confidence}
    if isinstance(v, frozenset):
        return sorted(v)
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def sensor_from_dict(d: Mapping[str, Any]) -> Any:
    cls = SENSOR_TYPES.get(d.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise RecordError("not a stored sensor event: {record!r}", record=dict(d))
    kwargs = {}
    try:
        for f in fields(cls):
            if f.name not in d:
                continue
            v = d[f.name]
            if f.name == "uids":
                v = frozenset(v)
            elif f.name == "face_up":
                v = tuple(fb.CardSighting(x["card"], x["confidence"]) for x in v)
            elif f.name == "pads":
                v = tuple(v)
            kwargs[f.name] = v
        return cls(**kwargs)
    except (TypeError, KeyError) as exc:
        raise RecordError("unreadable sensor event {record!r}: {error}", record=dict(d), error=exc) from None


def sensor_events(store: EventStore, first: int = 1, last: int | None = None) -> Iterator[tuple[int, Any]]:
    """(seq, sensor event) for every stored observation in first..last, oldest first;
    records that are not bridge events (another sensor's own shape) are skipped."""
    for r in store.read(first, last, kinds=["sensor"]):
        if r.data.get("type") in SENSOR_TYPES:
            yield r.seq, sensor_from_dict(r.data)
