"""``log check``: is this file a sound table log, and what does it hold?

Checks, in order: SQLite's full integrity_check, the schema, the record chain (no gaps,
no changed record), the transactions (each action stored with exactly its events), and
that replaying the stored actions through a fresh engine gives the stored events and
the same state as folding them.  Every problem is listed; nothing is repaired here
(see :mod:`.recovery`).

The problems are English text (``to_dict``, ``--json``: what programs read), each a
``Phrase`` that keeps its template and params, so that a console says them in its own
language too (``doctor``: ``app.words.said_error``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules.engine import Engine
from table_controller.rules.errors import Phrase
from table_controller.rules.judge import judge

from .errors import StoreError
from .rebuild import fold, last_clock
from .records import KINDS, Record
from .sqlite import DB_ERRORS, SQLiteStore


@dataclass(frozen=True, slots=True)
class CheckReport:
    path: str
    problems: tuple[str, ...]
    counts: dict[str, int] = field(default_factory=dict)
    last_seq: int = 0
    schema_version: int = 0
    summary: dict[str, Any] = field(default_factory=dict)  # game, deal, phase, scores, clocks

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "ok": self.ok,
            "problems": list(self.problems),
            "counts": self.counts,
            "last_seq": self.last_seq,
            "schema_version": self.schema_version,
            "summary": self.summary,
        }


def check_file(path: str | os.PathLike) -> CheckReport:
    try:
        store = SQLiteStore.open(path, readonly=True)
    except StoreError as exc:
        return CheckReport(str(path), (Phrase.of(exc),))
    with store:
        problems: list[str] = []
        try:
            rows = store.conn.execute("PRAGMA integrity_check(20)").fetchall()
            if [r[0] for r in rows] != ["ok"]:
                problems += [Phrase("integrity: {problem}", problem=r[0]) for r in rows]
        except DB_ERRORS as exc:
            problems.append(Phrase("integrity check failed: {error}", error=exc))
        try:
            records = store.read()
            last = store.last_seq()
            version = store.schema_version()
        except StoreError as exc:
            return CheckReport(str(path), tuple(problems + [Phrase.of(exc)]))
        if len(records) != last:
            problems.append(Phrase("{n} record(s) missing before seq {last}", n=last - len(records), last=last))
        return check_records(str(path), records, problems, version)


def check_records(
    path: str, records: Sequence[Record], problems: list[str] | None = None, version: int = 0
) -> CheckReport:
    problems = list(problems or [])
    counts = {k: 0 for k in KINDS} | dict(Counter(r.kind for r in records))
    problems += transaction_problems(records)
    summary: dict[str, Any] = {}
    try:
        folded = fold(records, path)
    except StoreError as exc:
        problems.append(Phrase.of(exc))
        folded = None
    replayed, replay_problems = replay_actions(records)
    problems += replay_problems
    if folded is not None:
        if [e.to_dict() for e in replayed.events] != [e.to_dict() for e in folded.events]:
            problems.append(
                Phrase(
                    "the stored events differ from those the stored actions cause now "
                    "(a different engine version, or a damaged log)"
                )
            )
        elif replayed.state.to_dict() != folded.state.to_dict():
            problems.append(Phrase("the state folded from the events differs from the replay of the actions"))
        summary = describe(folded)
    clocks = None
    try:
        clocks = last_clock(records)
    except StoreError as exc:
        problems.append(Phrase.of(exc))
    if clocks is not None:
        summary["clocks"] = {"seq": clocks.seq, "remaining": dict(clocks.remaining), "paused": clocks.paused}
    return CheckReport(path, tuple(problems), counts, records[-1].seq if records else 0, version, summary)


def transaction_problems(records: Sequence[Record]) -> list[str]:
    """Every event belongs to the transaction of an action stored just before it."""
    out: list[str] = []
    current_action_txn = None
    for r in records:
        if r.kind == "action":
            current_action_txn = r.txn if r.txn == r.seq else None
            if r.txn != r.seq:
                out.append(Phrase("record {seq}: an action that does not start its transaction", seq=r.seq))
        elif r.kind == "event" and r.txn != current_action_txn:
            out.append(Phrase("record {seq}: an event stored without its action", seq=r.seq))
        elif r.kind != "event":
            current_action_txn = None
    return out[:20]


def replay_actions(records: Sequence[Record]) -> tuple[Engine, list[str]]:
    engine = Engine()
    problems: list[str] = []
    for r in records:
        if r.kind != "action":
            continue
        verdict = judge(engine, r.data)
        if not verdict.accepted:
            problems.append(
                Phrase(
                    "record {seq}: the stored action {do!r} is refused on replay: {reason}",
                    seq=r.seq,
                    do=r.data.get("do"),
                    reason=verdict.reason,
                )
            )
    return engine, problems[:20]


def describe(engine: Engine) -> dict[str, Any]:
    s = engine.state
    g = s.game
    return {
        "ruleset": s.rules.name if s.rules else None,
        "players": list(s.players),
        "events": len(engine.events),
        "game": g.number if g else 0,
        "deal": (g.deal.number if g.deal else len(g.deals)) if g else 0,
        "phase": engine.phase,
        "to_act": engine.to_act(),
        "scores": {p: g.players[p].score for p in g.players} if g else {},
    }
