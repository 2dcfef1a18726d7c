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

That whole witness is the TL's, kept as the hub's file is: the chain is unkeyed, so
the digests of two records in a row let anyone try every value of the second (its
time is shared with its transaction's public records, a face-down card is one of 52)
until its digest matches, and learn a face-down card received or placed (stop 63).
The hub's web server (``hub web``, no token) gives the public witness instead
(``public_witness``): only the digest of each finished deal's last record (a deal,
a game or the table ended), and the table's signed heads at those records.  Between two
of them lies a whole deal of records, each with its own time, so no single record can
be tried; an altered record is still found, at the first deal's end after it.

What the verdict says (its problems and notes, a ``Phrase`` each) and the errors raised (a
``HubError`` each) are worded: their English (``to_dict``, ``--json``) with their template
and params, so that ``log verify`` says them in the console's language too.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..rules import events as ev
from ..rules.errors import Phrase
from ..store.records import GENESIS, Record, digest
from ..store.schema import SQLITE_MAGIC
from ..store.sqlite import has_sidecars, tidy_sidecars
from .hubstore import HubError, HubStore
from .signing import BadSignature, verify_head

WITNESS_VERSION = 1  # every record's digest: the TL's (``export_witness``)
PUBLIC_WITNESS_VERSION = 2  # each finished deal's last digest: anyone's (``public_witness``)
# a transaction holding one of these ends a deal
ENDS = (ev.DealEnded.type, ev.GameEnded.type, ev.TableEnded.type)


def deal_ends(records: list[Record]) -> list[tuple[int, str]]:
    """(seq, digest) of the last record of each transaction of ``records`` (a table's
    log, as far as it is held) in which a deal, a game or the table ended.  A deal's or a
    game's only once a later transaction is held: a copy may end inside a transaction,
    and a record after the one shown (its digest shown later) is then not shown too.

    >>> from table_controller.store.records import Record
    >>> r = lambda seq, txn, kind, kind_of: Record(seq, 0.0, "table", kind, txn, {"type": kind_of}, f"d{seq}")
    >>> log = [r(1, 1, "action", "play"), r(2, 1, "event", "deal_ended"), r(3, 1, "event", "phase_entered")]
    >>> deal_ends(log)
    []
    >>> deal_ends(log + [r(4, 4, "action", "deal")])
    [(3, 'd3')]
    """
    out: list[tuple[int, str]] = []
    txn, ended, last = None, None, None
    for rec in records:
        if rec.txn != txn:
            if ended is not None and last is not None:
                out.append((last.seq, last.digest))
            txn, ended = rec.txn, None
        if rec.kind == "event" and rec.data.get("type") in ENDS:
            ended = rec.data["type"]
        last = rec
    if ended == ev.TableEnded.type and last is not None:  # nothing follows the table's end
        out.append((last.seq, last.digest))
    return out


def public_witness(hub: HubStore) -> dict[str, Any]:
    """What anyone may hold of the witness (``hub web``'s ``/api/witness``): per table its
    public key, each finished deal's last digest (``deal_ends``) and the heads the table
    signed at those records; not every record's digest (the module's doc says why)."""
    event = hub.event_id()
    tables = {}
    for tid in hub.heads():
        ends = deal_ends(hub.records(tid))
        at = {seq for seq, _ in ends}
        tables[tid] = {
            "public_key": hub.key(tid),
            "deal_ends": [[seq, dg] for seq, dg in ends],
            "heads": [h for h in hub.signed_heads(tid) if h["seq"] in at],
        }
    return {"witness": PUBLIC_WITNESS_VERSION, "event": event, "tables": tables}


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
        raise HubError("cannot read the witness {path}: {error}", path=path, error=exc) from None
    if head.startswith(SQLITE_MAGIC):
        with HubStore.open(path, readonly=True) as hub:
            return export_witness(hub)
    try:
        w = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise HubError("{path} is neither a witness export nor a hub file", path=path) from None
    if not _is_witness(w):
        raise HubError(
            "{path}: not a witness (version {version} or {public})",
            path=path,
            version=WITNESS_VERSION,
            public=PUBLIC_WITNESS_VERSION,
        )
    return w


def _is_witness(w: Any) -> bool:
    return (
        isinstance(w, dict)
        and w.get("witness") in (WITNESS_VERSION, PUBLIC_WITNESS_VERSION)
        and isinstance(w.get("tables"), dict)
    )


def fetch_witness(url: str, table: str | None, timeout: float = 10.0) -> dict[str, Any]:
    """The witness from a hub's web server (``chicago-table hub web``): ``URL/api/witness``."""
    import urllib.error
    import urllib.request
    from urllib.parse import urlencode, urlsplit

    from .hubstore import web_address

    parts = urlsplit(url)
    if not web_address(parts):
        raise HubError("--hub {url!r}: give the hub's web address, http://HOST:PORT (a port from 1 to 65535)", url=url)
    full = url.rstrip("/") + "/api/witness" + (f"?{urlencode({'table': table})}" if table else "")
    try:
        with urllib.request.urlopen(full, timeout=timeout) as r:
            w = json.loads(r.read())
    except urllib.error.HTTPError as exc:
        try:
            why = json.loads(exc.read()).get("error")
        except ValueError:
            why = None
        raise HubError(
            "the hub at {url} answered {code}: {why}", url=url, code=exc.code, why=why or exc.reason
        ) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise HubError(
            "cannot fetch the witness from {url}: {error}", url=url, error=getattr(exc, "reason", exc)
        ) from None
    if not _is_witness(w):
        raise HubError("{url} did not answer with a witness", url=url)
    return w


@dataclass
class Verdict:
    path: str
    table: str
    records: int = 0
    witnessed: int = 0
    first_bad: int | None = None
    bad_from: int | None = None  # the first record that may be the altered one (a deal's end: its deal)
    every: bool = True  # the witness holds every record's digest (the TL's), not the deals' ends
    problems: list[str] = field(default_factory=list)  # each a Phrase: its English, worded
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
            "bad_from": self.bad_from,
            "witnessed_records": "every" if self.every else "deal_ends",
            "problems": self.problems,
            "notes": self.notes,
        }


def _rows(path: Path) -> list[tuple]:
    if not path.is_file():
        raise HubError("{path}: no such file (a table's log was expected)", path=path)
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    tidy = not has_sidecars(path)
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise HubError("{path}: cannot open ({error})", path=path, error=exc) from None
    try:
        conn.text_factory = lambda b: b.decode("utf-8", "replace")
        return conn.execute("SELECT seq, time, source, kind, txn, data, digest FROM records ORDER BY seq").fetchall()
    except sqlite3.Error as exc:
        raise HubError("{path}: not a readable table log ({error})", path=path, error=exc) from None
    finally:
        conn.close()
        if tidy:
            tidy_sidecars(path)


def _pick_table(rows: list[tuple], witness: dict[str, Any], table: str | None) -> str:
    tables = witness["tables"]
    if table is not None:
        if table not in tables:
            if not tables:
                raise HubError("the witness holds nothing of table {table!r} (it has none)", table=table)
            raise HubError(
                "the witness holds nothing of table {table!r} (it has {tables})", table=table, tables=", ".join(tables)
            )
        return table
    if len(tables) == 1:
        return next(iter(tables))
    if not tables:
        raise HubError("the witness holds no table yet (the hub has had no record of any table's log)")
    mine = {row[0]: row[6] for row in rows}
    match = [t for t, w in tables.items() if (first := _first_known(w)) and mine.get(first[0]) == first[1]]
    if len(match) != 1:
        raise HubError("say which table this log is (--table ID): {tables}", tables=", ".join(tables))
    return match[0]


def _first_known(w: dict[str, Any]) -> tuple[int, str] | None:
    """The first (seq, digest) a table's witness holds, without reading the rest."""
    if "digests" in w:
        return (1, w["digests"][0]) if w["digests"] else None
    ends = w.get("deal_ends") or []
    return (int(ends[0][0]), ends[0][1]) if ends else None


def _known(w: dict[str, Any]) -> dict[int, str]:
    """A table's witnessed digests by seq: every record's (the TL's witness) or each
    finished deal's last (the public one)."""
    if "digests" in w:
        return {k: dg for k, dg in enumerate(w["digests"], start=1)}
    return {int(seq): dg for seq, dg in w.get("deal_ends") or []}


def verify_log(path: str | os.PathLike, witness: dict[str, Any], table: str | None = None) -> Verdict:
    path = Path(path)
    rows = _rows(path)
    tid = _pick_table(rows, witness, table)
    w = witness["tables"][tid]
    known = _known(w)
    every = "digests" in w
    have = max(known, default=0)
    v = Verdict(str(path), tid, len(rows), len(known), every=every)

    def bad(seq: int, what: Phrase, since: int | None = None) -> None:
        if v.first_bad is None:
            v.first_bad, v.bad_from = seq, seq if since is None else since
            v.problems.append(what)

    prev, checked = GENESIS, 0
    for k, (seq, t, source, kind, txn, data, dg) in enumerate(rows, start=1):
        if seq != k:
            bad(k, Phrase("record {seq} is missing (the log jumps to {next})", seq=k, next=seq))
            break
        if digest(prev, seq, t, source, kind, txn, data) != dg:
            bad(k, Phrase("record {seq} was altered: it does not match its own chain", seq=k))
            break
        if k in known and dg != known[k]:
            if every:
                bad(
                    k,
                    Phrase("record {seq} differs from the record the hub witnessed (altered, chain recomputed)", seq=k),
                )
            else:
                bad(
                    k,
                    Phrase(
                        "a record from {first} to {seq} differs from what the hub witnessed (altered, chain "
                        "recomputed; the hub's public witness holds each deal's end, record {seq} ends one: the "
                        "hub's own file, --witness HUB, names the record)",
                        first=checked + 1,
                        seq=k,
                    ),
                    checked + 1,
                )
            break
        if k in known:
            checked = k
        prev = dg
    if v.first_bad is None and len(rows) < have:
        v.first_bad = v.bad_from = len(rows) + 1
        v.problems.append(
            Phrase(
                "the log is behind the witness: it ends at record {last}, the hub witnessed {have} "
                "(records {first}..{have} are missing: a copy without its -wal?)",
                last=len(rows),
                have=have,
                first=len(rows) + 1,
            )
            if every
            else Phrase(
                "the log is behind the witness: it ends at record {last}, the hub witnessed records up to {have} "
                "(records {first}..{have} are missing: a copy without its -wal?)",
                last=len(rows),
                have=have,
                first=len(rows) + 1,
            )
        )
    event = witness.get("event")
    public = w.get("public_key")
    heads = w.get("heads") or []
    if public:
        for h in heads:
            try:
                verify_head(public, {**h, "event": event, "table": tid})
            except BadSignature as exc:
                v.problems.append(Phrase("witness: {error}", error=exc))
                continue
            if h["seq"] in known and known[h["seq"]] != h["digest"]:
                v.problems.append(
                    Phrase("witness: the signed head at record {seq} differs from the hub's copy", seq=h["seq"])
                )
        if heads:
            last = heads[-1]
            v.notes.append(
                Phrase("last signed head: record {seq}, digest {digest}", seq=last["seq"], digest=last["digest"])
            )
    else:
        v.notes.append(Phrase("no key registered for this table: the record digests are checked, no signature"))
    if not every:
        v.notes.append(
            Phrase(
                "the hub's public witness: checked at each finished deal's end ({n} of them, up to record {have})",
                n=len(known),
                have=have,
            )
        )
    if v.ok and len(rows) > have:
        v.notes.append(
            Phrase(
                "records {first}..{last} are newer than the witness (not checked yet)", first=have + 1, last=len(rows)
            )
        )
    return v
