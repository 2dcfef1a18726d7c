"""Prove a table's log whole and unaltered against the hub's witness (issue 20, item 4).

    >>> from table_controller.rules.actions import TableStart
    >>> from table_controller.store import SQLiteStore, TableRecorder
    >>> from table_controller.tournament.event import create_event, draw_first_heat, register
    >>> hub = HubStore.open("sm2026.hub.sqlite", create=True)
    >>> create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025")
    >>> register(hub, [("Anna", ""), ("Bo", ""), ("Cilla", "")])
    >>> _ = draw_first_heat(hub, seed="8d1f")
    >>> _ = TableRecorder(SQLiteStore.open("h1-t1.sqlite", create=True)).apply(TableStart(("Anna", "Bo", "Cilla")))
    >>> with SQLiteStore.open("h1-t1.sqlite", readonly=True) as log:
    ...     _ = hub.ingest("h1-t1", log.read())            # what the hub took over MQTT
    >>> w = load_witness("sm2026.hub.sqlite")              # or its exported witness JSON
    >>> report = verify_log("h1-t1.sqlite", w, table="h1-t1")
    >>> report.ok, report.first_bad                        # an edited record is named here
    (True, None)

The witness holds, per table, the digest of every record the hub took and the heads the
table signed with its key.  The log is read raw (nothing trusted): its own chain is
recomputed from the first record, every digest is compared with the witness's, and
the signed heads are checked with the table's public key.  Editing any record and
recomputing the (unkeyed) chain changes that record's digest, so the first record that
differs from the witness is named; a copy that lacks records the witness holds (a
``table.sqlite`` copied without its ``-wal``) is reported as behind the witness.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..store.records import GENESIS, digest
from .hubstore import HubError, HubStore
from .signing import BadSignature, verify_head

WITNESS_VERSION = 1


def export_witness(hub: HubStore) -> dict[str, Any]:
    event = hub.event_id()
    tables = {}
    for tid, (have, _) in hub.heads().items():
        tables[tid] = {
            "public_key": hub.key(tid),
            "have": have,
            "digests": [r.digest for r in hub.records(tid)],
            "heads": hub.signed_heads(tid),
        }
    return {"witness": WITNESS_VERSION, "event": event, "tables": tables}


def load_witness(path: str | os.PathLike) -> dict[str, Any]:
    """An exported witness (JSON) or the hub's SQLite file itself."""
    path = Path(path)
    try:
        head = path.read_bytes()[:16]
    except OSError as exc:
        raise HubError(f"cannot read the witness {path}: {exc.strerror}") from None
    if head.startswith(b"SQLite format 3"):
        with HubStore.open(path, readonly=True) as hub:
            return export_witness(hub)
    try:
        w = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise HubError(f"{path} is neither a witness export nor a hub file") from None
    if not isinstance(w, dict) or w.get("witness") != WITNESS_VERSION or not isinstance(w.get("tables"), dict):
        raise HubError(f"{path}: not a version {WITNESS_VERSION} witness")
    return w


def fetch_witness(url: str, table: str | None, timeout: float = 10.0) -> dict[str, Any]:
    """The witness from a hub's web server (``chicago-table hub web``): ``URL/api/witness``."""
    import urllib.error
    import urllib.request
    from urllib.parse import urlencode, urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HubError(f"--hub {url!r}: give the hub's web address, http://HOST:PORT")
    full = url.rstrip("/") + "/api/witness" + (f"?{urlencode({'table': table})}" if table else "")
    try:
        with urllib.request.urlopen(full, timeout=timeout) as r:
            w = json.loads(r.read())
    except urllib.error.HTTPError as exc:
        try:
            why = json.loads(exc.read()).get("error")
        except ValueError:
            why = None
        raise HubError(f"the hub at {url} answered {exc.code}: {why or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise HubError(f"cannot fetch the witness from {url}: {getattr(exc, 'reason', exc)}") from None
    if not isinstance(w, dict) or w.get("witness") != WITNESS_VERSION or not isinstance(w.get("tables"), dict):
        raise HubError(f"{url} did not answer with a version {WITNESS_VERSION} witness")
    return w


@dataclass
class Verdict:
    path: str
    table: str
    records: int = 0
    witnessed: int = 0
    first_bad: int | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "table": self.table,
            "ok": self.ok,
            "records": self.records,
            "witnessed": self.witnessed,
            "first_bad": self.first_bad,
            "problems": self.problems,
            "notes": self.notes,
        }


def _rows(path: Path) -> list[tuple]:
    if not path.is_file():
        raise HubError(f"{path}: no such table log")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise HubError(f"{path}: cannot open ({exc})") from None
    try:
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
        return conn.execute("SELECT seq, time, source, kind, txn, data, digest FROM records ORDER BY seq").fetchall()
    except sqlite3.Error as exc:
        raise HubError(f"{path}: not a readable table log ({exc})") from None
    finally:
        conn.close()


def _pick_table(rows: list[tuple], witness: dict[str, Any], table: str | None) -> str:
    tables = witness["tables"]
    if table is not None:
        if table not in tables:
            raise HubError(f"the witness holds nothing of table {table!r} (it has {', '.join(tables) or 'none'})")
        return table
    if len(tables) == 1:
        return next(iter(tables))
    first = rows[0][6] if rows else None
    match = [t for t, w in tables.items() if w["digests"][:1] == [first]]
    if len(match) != 1:
        raise HubError("say which table this log is (--table ID): " + ", ".join(tables))
    return match[0]


def verify_log(path: str | os.PathLike, witness: dict[str, Any], table: str | None = None) -> Verdict:
    path = Path(path)
    rows = _rows(path)
    tid = _pick_table(rows, witness, table)
    w = witness["tables"][tid]
    known: list[str] = w["digests"]
    v = Verdict(str(path), tid, len(rows), len(known))

    def bad(seq: int, what: str) -> None:
        if v.first_bad is None:
            v.first_bad = seq
            v.problems.append(what)

    prev = GENESIS
    for k, (seq, t, source, kind, txn, data, dg) in enumerate(rows, start=1):
        if seq != k:
            bad(k, f"record {k} is missing (the log jumps to {seq})")
            break
        if digest(prev, seq, t, source, kind, txn, data) != dg:
            bad(k, f"record {k} was altered: it does not match its own chain")
            break
        if k <= len(known) and dg != known[k - 1]:
            bad(k, f"record {k} differs from the record the hub witnessed (altered, chain recomputed)")
            break
        prev = dg
    if v.first_bad is None and len(rows) < len(known):
        v.first_bad = len(rows) + 1
        v.problems.append(
            f"the log is behind the witness: it ends at record {len(rows)}, the hub witnessed "
            f"{len(known)} (records {len(rows) + 1}..{len(known)} are missing: a copy without its -wal?)"
        )
    event = witness.get("event")
    public = w.get("public_key")
    heads = w.get("heads") or []
    if public:
        for h in heads:
            try:
                verify_head(public, {**h, "event": event, "table": tid})
            except BadSignature as exc:
                v.problems.append(f"witness: {exc}")
                continue
            if h["seq"] <= len(known) and known[h["seq"] - 1] != h["digest"]:
                v.problems.append(f"witness: the signed head at record {h['seq']} differs from the hub's copy")
        if heads:
            last = heads[-1]
            v.notes.append(f"last signed head: record {last['seq']}, digest {last['digest']}")
    else:
        v.notes.append("no key registered for this table: the record digests are checked, no signature")
    if v.ok and len(rows) > len(known):
        v.notes.append(f"records {len(known) + 1}..{len(rows)} are newer than the witness (not checked yet)")
    return v
