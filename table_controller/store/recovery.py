"""Salvage: copy what is readable of a damaged log into a new file, and say exactly
what was lost.

    $ chicago-table log check table7.sqlite --salvage table7-saved.sqlite

The new file holds the longest sound beginning of the history: records 1..K without a
gap, each matching its checksum, ending at a whole transaction, whose actions replay to
their stored events.  A later record cannot be kept without the ones before it (state is
a fold), so readable records after the damage are listed and written to
``OUT.dropped.jsonl`` for the TL, never silently folded in.

Why the saved history stops where it does is worded (``reasons``: each a ``Phrase``, its
English with its template and params), so that ``log check`` says its report in the
console's language (``app.words.said_error``); ``reason`` is their English, as one line.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from table_controller.rules.engine import Engine
from table_controller.rules.errors import Phrase
from table_controller.rules.judge import judge

from . import schema
from .check import describe
from .errors import NotATableLog, StoreError
from .rebuild import fold
from .records import GENESIS, KINDS, digest
from .sqlite import DB_ERRORS, strict_text
from .transfer import write_records

_PROBE_PAST = 2000  # when max(seq) is unreadable, look this far past the last record found


@dataclass(frozen=True, slots=True)
class SalvageReport:
    source: str
    target: str
    kept: int  # records 1..kept are in the new file
    readable: int  # records that could be read at all
    lost_ranges: tuple[tuple[int, int], ...]  # seqs that could not be read
    dropped: tuple[int, ...]  # readable, but after the damage (in OUT.dropped.jsonl)
    reasons: tuple[Phrase, ...]  # why the history stops at `kept` (a console says each)
    state: dict[str, Any]  # game, deal, phase of the saved history

    @property
    def reason(self) -> str:
        """Why the history stops at ``kept``, in English: the reasons in one line."""
        return "; ".join(self.reasons)


def _readable_copy(source: Path, tmp: Path) -> Path:
    """A copy to read from (the damaged file itself is never touched).  SQLite refuses a
    file shorter than its header says, so a truncated copy is cut to whole pages and its
    header's page count set to what is there; the pages that remain can then be read."""
    copy = tmp / "salvage.sqlite"
    shutil.copyfile(source, copy)
    wal = Path(f"{source}-wal")
    if wal.exists():  # committed transactions not yet checkpointed live here
        shutil.copyfile(wal, tmp / "salvage.sqlite-wal")
    with open(copy, "r+b") as fh:
        header = fh.read(100)
        if len(header) < 100 or not header.startswith(schema.SQLITE_MAGIC):
            return copy
        size = struct.unpack(">H", header[16:18])[0]
        page = 65536 if size == 1 else size
        if page < 512 or page & (page - 1):  # no page size SQLite knows: the header is damaged too
            return copy
        pages = -(-os.path.getsize(copy) // page)
        if struct.unpack(">I", header[28:32])[0] != pages:
            fh.truncate(pages * page)
            fh.seek(28)
            fh.write(struct.pack(">I", pages))
    return copy


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None)
    conn.text_factory = strict_text
    return conn


def _read_rows(conn: sqlite3.Connection) -> tuple[dict[int, tuple], set[int], int, bool]:
    """Every row that can be read, by seq; the seqs that failed; the highest seq known;
    and whether that is surely the end of the log (False: the end itself is lost)."""
    rows: dict[int, tuple] = {}
    failed: set[int] = set()
    try:
        for row in conn.execute("SELECT seq, time, source, kind, txn, data, digest FROM records ORDER BY seq"):
            rows[row[0]] = row
        return rows, failed, max(rows, default=0), True
    except DB_ERRORS:
        pass  # a damaged page: fall back to one lookup per seq
    try:
        top = int(conn.execute("SELECT max(seq) FROM records").fetchone()[0] or 0)
    except DB_ERRORS:
        top = None
    seq, misses = 1, 0
    while (top is not None and seq <= top) or (top is None and misses < _PROBE_PAST):
        if seq in rows:  # read before the scan hit the damage
            seq, misses = seq + 1, 0
            continue
        try:
            row = conn.execute(
                "SELECT seq, time, source, kind, txn, data, digest FROM records WHERE seq = ?", (seq,)
            ).fetchone()
        except DB_ERRORS:
            row = None
        if row:
            rows[seq] = row
            misses = 0
        else:
            misses += 1
            failed.add(seq)
        seq += 1
    last = max(rows, default=0) if top is None else top
    return rows, {s for s in failed if s <= last}, last, top is not None


def salvage(source: str | os.PathLike, target: str | os.PathLike) -> SalvageReport:
    source, target = Path(source), Path(target)
    if not source.exists():
        raise StoreError("{path}: no such file", path=source)
    if target.exists():
        raise StoreError("{path} already exists; salvage writes a new file", path=target)
    if not target.absolute().parent.is_dir():  # a mistyped folder is not made (stop 72: /nonexist was)
        raise StoreError(
            "the folder {folder} does not exist; salvage writes a new file in a folder that is there",
            folder=target.parent,
        )
    with tempfile.TemporaryDirectory() as tmp:
        copy = _readable_copy(source, Path(tmp))
        try:
            conn = _connect(copy)
            try:
                rows, failed, last, end_known = _read_rows(conn)
            finally:
                conn.close()
        except DB_ERRORS as exc:
            raise NotATableLog(
                "{path}: nothing can be read ({error}); the file header is damaged or it is not a table log",
                path=source,
                error=exc,
            ) from None
    if not rows and not failed:
        raise NotATableLog("{path}: no records could be read", path=source)
    kept, reasons = _sound_prefix(rows, last, end_known)
    if not end_known:
        reasons.append(
            Phrase(
                "the end of the log cannot be found (a truncated file or a lost page): "
                "records after seq {last} may be lost and how many is unknown",
                last=last,
            )
        )
    items = [
        {"seq": r[0], "time": float(r[1]), "source": str(r[2]), "kind": r[3], "txn": r[4], "data": json.loads(r[5])}
        for r in (rows[s] for s in range(1, kept + 1))
    ]
    write_records(items, target)
    dropped = tuple(s for s in sorted(rows) if s > kept)
    if dropped:
        # owner-only, as the log is (0600): the dropped records hold dealt hands (stop 72: 0644)
        path = f"{target}.dropped.jsonl"
        with open(path, "w", encoding="utf-8", opener=lambda p, flags: os.open(p, flags, 0o600)) as fh:
            os.chmod(path, 0o600)  # a file there before keeps its mode otherwise
            for s in dropped:
                fh.write(dropped_line(rows[s]) + "\n")
    state = describe(fold([_as_record(i) for i in items], str(target))) if items else {}
    return SalvageReport(
        str(source), str(target), kept, len(rows), _ranges(sorted(failed)), dropped, tuple(reasons), state
    )


def dropped_line(row: tuple) -> str:
    """A record salvage could not keep, as a line of ``NEW.sqlite.dropped.jsonl``: its
    columns as read, a damaged page's bytes as hex.

        >>> json.loads(dropped_line((7, 1.5, "tl", "action", b"\\x00\\x8f", "{}", "ab")))["txn"]
        '008f'
    """
    keys = ("seq", "time", "source", "kind", "txn", "data")
    return json.dumps({k: v.hex() if isinstance(v, bytes) else v for k, v in zip(keys, row)}, ensure_ascii=False)


def _as_record(i: dict[str, Any]):
    from .records import Record

    return Record(i["seq"], i["time"], i["source"], i["kind"], i["txn"], i["data"], "")


def _sound_prefix(rows: dict[int, tuple], last: int, end_known: bool = True) -> tuple[int, list[Phrase]]:
    """Length of the longest sound beginning, and why it ends there (``end_known``: whether
    ``last`` is surely the log's last record)."""
    prev, good = GENESIS, 0
    engine = Engine()
    txn_first, txn_len = 1, 1  # the transaction being read: first seq, records it must have
    for seq in range(1, last + 1):
        row = rows.get(seq)
        if row is None:
            reason = Phrase("record {seq} cannot be read", seq=seq)
            break
        s, t, source, kind, txn, text, dig = row
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            reason = Phrase("record {seq} holds unreadable data", seq=seq)
            break
        if kind not in KINDS or not isinstance(data, dict) or digest(prev, s, float(t), source, kind, txn, text) != dig:
            reason = Phrase("record {seq} does not match its checksum", seq=seq)
            break
        if txn == seq:
            txn_first, txn_len = seq, 1
            if kind == "action":
                verdict = judge(engine, data)
                if not verdict.accepted:
                    reason = Phrase(
                        "record {seq}: the action is refused on replay ({reason})", seq=seq, reason=verdict.reason
                    )
                    break
                txn_len += len(verdict.events)
        prev, good = dig, seq
    else:
        reason = (
            Phrase("the end of the log: nothing was lost")
            if end_known
            else Phrase("no record after seq {last} could be found", last=last)
        )
    reasons = [reason]
    # An action is never kept without all its events: cut back to a whole transaction.
    whole = good - txn_first + 1 >= txn_len
    if not whole:
        reasons.append(
            Phrase("records {first}..{last} are an action without all its events, dropped", first=txn_first, last=good)
        )
    return (good if whole else txn_first - 1), reasons


def _ranges(seqs: list[int]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for s in seqs:
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        else:
            out.append((s, s))
    return tuple(out)
