"""The event store in memory: the same contract as the SQLite file (the same checks, seqs,
transactions and record chain), for tests, simulations and throwaway tables.

    >>> store = MemoryStore()
    >>> [r.seq for r in store.append([NewRecord("action", {"do": "table"}), NewRecord("event", {})])]
    [1, 2]
    >>> store.read(kinds=["event"])[0].txn
    1

``MemoryStore(volume)``: records kept in ``volume`` (a list) outlive the store, as a file
outlives its connection: a store opened again on the same list reads them.
"""

from __future__ import annotations

import json
import time as _time
from collections.abc import Callable, Iterable, Sequence

from .base import EventStore
from .errors import StoreClosed, StoreCorrupt, StoreError
from .records import GENESIS, KINDS, NewRecord, Record, check_new, digest


class MemoryStore(EventStore):
    def __init__(self, volume: list[Record] | None = None, clock: Callable[[], float] = _time.time) -> None:
        self.volume: list[Record] = [] if volume is None else volume
        self.clock = clock
        self.closed = False

    @property
    def records(self) -> list[Record]:
        if self.closed:
            raise StoreClosed("the in-memory log is closed")
        return self.volume

    def append(self, records: Sequence[NewRecord]) -> list[Record]:
        return self.append_batches([records])

    def append_batches(self, batches: Sequence[Sequence[NewRecord]]) -> list[Record]:
        """All the batches or none (each its own ``txn``), as one SQLite transaction."""
        log = self.records
        batches = [list(b) for b in batches if b]
        texts = [[check_new(r) for r in b] for b in batches]  # bad input changes nothing
        now = self.clock()
        seq, prev = (log[-1].seq, log[-1].digest) if log else (0, GENESIS)
        out: list[Record] = []
        for batch, batch_texts in zip(batches, texts):
            txn = seq + 1
            for rec, text in zip(batch, batch_texts):
                seq += 1
                t = float(now if rec.time is None else rec.time)
                prev = digest(prev, seq, t, rec.source, rec.kind, txn, text)
                out.append(Record(seq, t, rec.source, rec.kind, txn, json.loads(text), prev))
        log.extend(out)
        return out

    def read(self, first: int = 1, last: int | None = None, kinds: Iterable[str] | None = None) -> list[Record]:
        log = self.records
        wanted = None if kinds is None else set(kinds)
        if wanted is not None and not wanted <= set(KINDS):
            unknown = sorted(wanted - set(KINDS))
            raise StoreError(
                "unknown record kind(s) {unknown}; kinds: {kinds}",
                unknown=", ".join(map(repr, unknown)),
                kinds=", ".join(KINDS),
            )
        lo = max(first, 1) - 1
        hi = len(log) if last is None else max(lo, min(last, len(log)))
        return [r for r in log[lo:hi] if wanted is None or r.kind in wanted]

    def last_seq(self) -> int:
        log = self.records
        return log[-1].seq if log else 0

    def verify(self) -> int:
        prev = GENESIS
        for n, r in enumerate(self.records, start=1):
            text = json.dumps(r.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            if r.seq != n or digest(prev, r.seq, r.time, r.source, r.kind, r.txn, text) != r.digest:
                raise StoreCorrupt("the in-memory log: record {seq} does not match its checksum", seq=n)
            prev = r.digest
        return len(self.volume)

    def close(self) -> None:
        self.closed = True
