"""Invariant of the hub's copy (hypothesis): whatever the broker does to the messages
(drops, doubles, reorders, splits), the copy is always an unbroken prefix of the table's
log, and once the table resends from the hub's ack the copy equals the log."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from table_controller.store import SQLiteStore
from table_controller.tournament.hubstore import HubStore

from .tables import RecordedTable, play_as_drawn
from .test_publish import make_hub

_LOG: dict = {}


def table_log():
    if not _LOG:
        folder = Path(tempfile.mkdtemp(prefix="hub-prop-"))
        (t,) = make_hub(folder / "seed.sqlite")[:1]
        rt = RecordedTable(folder / "t.sqlite", play_as_drawn(t, seed=9))
        rt.play(120)
        with SQLiteStore.open(rt.path, readonly=True) as s:
            _LOG["records"] = s.read()
        rt.close()
    return _LOG["records"]


@settings(max_examples=40)
@given(st.data())
def test_the_copy_is_always_a_prefix_and_whole_after_resending_from_the_ack(data):
    records = table_log()
    n = len(records)
    cuts = sorted(set(data.draw(st.lists(st.integers(1, n - 1), max_size=12))))
    messages = [records[a:b] for a, b in zip([0] + cuts, cuts + [n])]
    delivered = []
    for m in messages:  # the broker: drop, deliver, deliver twice
        fate = data.draw(st.sampled_from(["drop", "once", "twice"]))
        delivered += {"drop": [], "once": [m], "twice": [m, m]}[fate]
    order = data.draw(st.permutations(range(len(delivered))))
    with tempfile.TemporaryDirectory() as d:
        make_hub(Path(d) / "hub.sqlite")  # h1-t1 drawn
        hub = HubStore.open(Path(d) / "hub.sqlite")
        for i in order:
            hub.ingest("h1-t1", delivered[i])
            have = hub.head("h1-t1")[0]
            assert [r.digest for r in hub.records("h1-t1")] == [r.digest for r in records[:have]]
        have = hub.head("h1-t1")[0]
        res = hub.ingest("h1-t1", records[have:])  # the resend from the ack
        assert res.have == n and res.conflicts == []
        assert [r.digest for r in hub.records("h1-t1")] == [r.digest for r in records]
        assert hub.conflicts() == []
        hub.close()
