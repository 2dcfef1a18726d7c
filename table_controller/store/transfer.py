"""Export a table's log as JSONL, and import such an export into a new table file.

The export is an action script of REPLAY.md: each accepted action is a plain JSON line,
so ``chicago-table replay EXPORT`` runs it as is.  Everything else travels in comment
lines, which replay skips::

    # chicago-table log export 1: table7.sqlite, 412 records
    # action {"seq": 1, "time": 1732.5, "source": "revisor", "txn": 1}
    {"do": "table", "players": ["Anna", "Bo", "Cilla", "Dan"], "ruleset": "sm2025"}
    # event {"seq": 2, "time": 1732.5, "source": "engine", "txn": 1, "kind": "event", "data": {...}}
    # clock {"seq": 3, ...}

Import re-applies the actions and insists that they cause exactly the exported events; a
plain action script without the comment lines also imports (its events are computed).
The new file is written beside the target and renamed only when complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

from table_controller.rules.actions import load_line, parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.errors import ActionError
from table_controller.rules.judge import judge

from .errors import ExportError, StoreError
from .records import KINDS, NewRecord, Record
from .sqlite import SQLiteStore

HEADER = "# chicago-table log export 1"


def export_lines(records: Sequence[Record], name: str = "") -> Iterator[str]:
    yield f"{HEADER}: {name}, {len(records)} records"
    for r in records:
        if r.kind == "action":
            meta = {"seq": r.seq, "time": r.time, "source": r.source, "txn": r.txn}
            yield "# action " + json.dumps(meta, ensure_ascii=False)
            yield json.dumps(r.data, ensure_ascii=False)
        else:
            yield f"# {r.kind} " + json.dumps(r.to_dict(), ensure_ascii=False)


def parse_export(lines: Iterable[str]) -> list[dict[str, Any]]:
    """The records of an export (seq/time/source/txn may be None for a plain script)."""
    out: list[dict[str, Any]] = []
    meta: dict[str, Any] | None = None
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            word, _, rest = text[1:].strip().partition(" ")
            if word not in KINDS:
                continue  # the header or a note
            obj = _json(rest, n)
            if word == "action":
                meta = obj
                continue
            if not isinstance(obj, dict) or obj.get("kind") != word or not isinstance(obj.get("data"), dict):
                raise ExportError("line {n}: a '# {kind}' line must carry the record as exported", n=n, kind=word)
            out.append(_rec(obj, word, obj["data"], n))
            continue
        try:
            data = load_line(text)
            why = "not an action: "
            parse_action(data)
        except ActionError as exc:
            why = "" if str(exc).startswith("not valid JSON") else why
            if meta is not None:  # an exported action is one the table accepted: doctored
                if why:
                    raise ExportError("line {n}: not an action: {error}", n=n, error=exc) from None
                raise ExportError("line {n}: {error}", n=n, error=exc) from None
            # A plain script: like `replay`, the line is listed as rejected (issue 13)
            out.append(_rec({}, "rejected", {"action": _excerpt(text), "reason": f"{why}{exc}"}, n))
            continue
        out.append(_rec(meta or {}, "action", data, n))
        meta = None
    if meta is not None:
        raise ExportError("the export ends with an action's comment line but not the action itself")
    return out


def _json(text: str, n: int) -> Any:
    try:
        return load_line(text)
    except ActionError as exc:
        raise ExportError("line {n}: {error}", n=n, error=exc) from None


def _excerpt(text: str, limit: int = 200) -> str:
    """What a rejected line said, kept short (the reason says what was wrong with it)."""
    return text if len(text) <= limit else text[:limit] + "..."


def _rec(meta: Any, kind: str, data: dict, n: int) -> dict[str, Any]:
    if not isinstance(meta, dict):
        raise ExportError("line {n}: the record's header must be a JSON object", n=n)
    t = meta.get("time")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool)):
        raise ExportError("line {n}: 'time' must be a number", n=n)
    return {
        "seq": meta.get("seq"),
        "time": t,
        "source": meta.get("source") or "import",
        "txn": meta.get("txn"),
        "kind": kind,
        "data": data,
        "line": n,
    }


def import_export(
    lines: Iterable[str], target: str | os.PathLike, rejected: list[tuple[int, str]] | None = None
) -> int:
    """Write the export into a NEW table file; returns the number of records.  Nothing is
    written unless the whole export checks out.  A plain action script's lines that are
    no action or that the rules refuse are stored as "rejected" records, as ``replay``
    lists them; ``rejected`` (when given) receives their (line number, reason)."""
    items = parse_export(lines)
    with_meta = [i for i in items if i["seq"] is not None]
    if with_meta and len(with_meta) != len(items):
        raise ExportError("the export mixes records with and without their '# action' header lines")
    if with_meta:
        _check_events(items)
    else:
        items = _derive_events(items)
        if not any(i["kind"] == "action" for i in items):
            # an empty file, a binary one, a script of lines all refused: no table to make
            if items:
                raise ExportError(
                    "no action that the rules accept (the first must be 'table'); nothing written: {n} line(s) refused",
                    n=len(items),
                )
            raise ExportError("no action that the rules accept (the first must be 'table'); nothing written")
        if rejected is not None:
            rejected += [
                (i["line"], str(i["data"].get("reason", "")))
                for i in items
                if i["kind"] == "rejected" and i.get("line") is not None
            ]
    return write_records(items, target)


def _check_events(items: list[dict[str, Any]]) -> None:
    for k, it in enumerate(items, start=1):
        if it["seq"] != k:
            raise ExportError(
                "line {n}: record seq {seq}, expected {expected} (records missing or out of order)",
                n=it["line"],
                seq=it["seq"],
                expected=k,
            )
    engine = Engine()
    for _txn, grouped in groupby(items, key=lambda i: i["txn"]):
        group = list(grouped)
        if group[0]["kind"] != "action":
            if any(i["kind"] == "event" for i in group):
                raise ExportError("line {n}: an event exported without its action", n=group[0]["line"])
            continue
        verdict = judge(engine, group[0]["data"])
        if not verdict.accepted:
            raise ExportError("line {n}: the action is refused: {reason}", n=group[0]["line"], reason=verdict.reason)
        caused = [e.to_dict() for e in verdict.events]
        stored = [i["data"] for i in group[1:] if i["kind"] == "event"]
        if json.loads(json.dumps(caused)) != stored:
            raise ExportError("line {n}: the exported events differ from those the action causes", n=group[0]["line"])


def _derive_events(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A plain action script: number the records and compute each action's events."""
    engine = Engine()
    out: list[dict[str, Any]] = []
    for it in items:
        seq = len(out) + 1
        if it["kind"] != "action":  # a rejected line (see parse_export), a note, an alert
            out.append({**it, "seq": seq, "txn": seq})
            continue
        verdict = judge(engine, it["data"])
        if not verdict.accepted:
            out.append(
                {
                    **it,
                    "seq": seq,
                    "txn": seq,
                    "kind": "rejected",
                    "data": {"action": it["data"], "reason": verdict.reason},
                }
            )
            continue
        out.append({**it, "seq": seq, "txn": seq})
        out += [
            {**it, "seq": seq + k, "txn": seq, "kind": "event", "source": "engine", "data": e.to_dict()}
            for k, e in enumerate(verdict.events, start=1)
        ]
    return out


def write_records(items: Sequence[dict[str, Any]], target: str | os.PathLike) -> int:
    """Append records (dicts with seq, time, source, txn, kind, data) to a new file,
    transaction by transaction as they were; atomic: a temp file renamed at the end."""
    target = Path(target)
    if target.exists():
        raise ExportError("{path} already exists; import writes a new table file only", path=target)
    tmp = target.with_name(target.name + ".importing")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)
    try:
        groups = [list(g) for _, g in groupby(items, key=lambda i: i["txn"] if i["txn"] is not None else object())]
        with SQLiteStore.open(tmp, create=True) as store:
            stored = store.append_batches(
                [[NewRecord(i["kind"], i["data"], i["source"], i["time"]) for i in g] for g in groups]
            )
            for item, rec in zip(items, stored):
                if (item["seq"], item["txn"]) not in ((None, None), (rec.seq, rec.txn)):
                    raise ExportError(
                        "record {seq} would be stored as {stored} (txn {txn})",
                        seq=item["seq"],
                        stored=rec.seq,
                        txn=rec.txn,
                    )
        os.replace(tmp, target)
    except (StoreError, OSError):
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)
        raise
    return len(items)
