"""The event-store contract: any backend (this SQLite file, a tournament hub's copy)
runs these tests by subclassing :class:`EventStoreContract` and providing ``open_store``.

    class TestMyBackend(EventStoreContract):
        def open_store(self, path, clock=None): ...
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table_controller.store import KINDS, NewRecord, RecordError, StoreClosed, StoreError

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**9), 10**9),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_obj = st.dictionaries(
    st.text(max_size=8),
    st.recursive(
        json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=8
    ),
    max_size=4,
)
new_record = st.builds(
    NewRecord,
    st.sampled_from(KINDS),
    json_obj,
    st.sampled_from(["table", "tl:Eva", "rfid", "åäö"]),
    st.one_of(st.none(), st.floats(0, 2e9)),
)


class FakeClock:
    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        self.now += 0.5
        return self.now


class EventStoreContract:
    """Subclasses provide ``open_store(path, clock=None)`` (creating when missing)."""

    def open_store(self, path, clock=None):  # pragma: no cover - provided by the backend
        raise NotImplementedError

    @pytest.fixture
    def path(self, tmp_path):
        return tmp_path / "table.log"

    @pytest.fixture
    def store(self, path):
        s = self.open_store(path, clock=FakeClock())
        yield s
        s.close()

    def test_a_new_log_is_empty(self, store):
        assert store.last_seq() == 0
        assert store.read() == []

    def test_append_numbers_records_from_one_without_gaps(self, store):
        a = store.append([NewRecord("action", {"do": "table"}), NewRecord("event", {"type": "table_opened"})])
        b = store.append([NewRecord("alert", {"text": "x"}, "sensing")])
        assert [r.seq for r in a + b] == [1, 2, 3]
        assert store.last_seq() == 3

    def test_records_of_one_append_share_a_transaction(self, store):
        store.append_one("audit", {"who": "tl"})
        batch = store.append(
            [NewRecord("action", {"do": "play"}), NewRecord("event", {"type": "a"}), NewRecord("event", {"type": "b"})]
        )
        assert {r.txn for r in batch} == {2}
        assert store.read(1, 1)[0].txn == 1

    def test_append_batches_keeps_each_batch_its_own_transaction(self, store):
        stored = store.append_batches(
            [
                [NewRecord("action", {"n": 1}), NewRecord("event", {"n": 2})],
                [NewRecord("clock", {"n": 3})],
                [],
                [NewRecord("action", {"n": 4}), NewRecord("event", {"n": 5})],
            ]
        )
        assert [(r.seq, r.txn) for r in stored] == [(1, 1), (2, 1), (3, 3), (4, 4), (5, 4)]
        assert store.read() == stored
        with pytest.raises(RecordError):
            store.append_batches([[NewRecord("alert", {})], [NewRecord("nonsense", {})]])
        assert store.last_seq() == 5

    def test_read_returns_what_was_appended(self, store):
        stored = store.append(
            [
                NewRecord("sensor", {"pad": "seat1", "uids": ["04a1"]}, "rfid", 12.25),
                NewRecord("clock", {"remaining": {"seat1": 9.5}, "paused": False}, "clocks"),
            ]
        )
        back = store.read()
        assert back == stored
        assert back[0].time == 12.25 and back[0].source == "rfid"
        assert back[1].data == {"remaining": {"seat1": 9.5}, "paused": False}

    def test_time_comes_from_the_clock_unless_given(self, store):
        r = store.append_one("alert", {"text": "x"})
        assert r.time == 1000.5
        assert store.append_one("alert", {"text": "y"}, time=5.0).time == 5.0

    def test_read_by_seq_range_and_kind(self, store):
        for k in range(10):
            store.append_one(KINDS[k % len(KINDS)], {"n": k})
        assert [r.seq for r in store.read(3, 5)] == [3, 4, 5]
        assert [r.seq for r in store.read(8)] == [8, 9, 10]
        assert [r.data["n"] for r in store.read(kinds=["event"])] == [1, 8]
        assert [r.seq for r in store.read(1, 6, kinds=["action", "alert"])] == [1, 4]
        assert store.read(11) == []

    def test_reading_an_unknown_kind_is_an_error(self, store):
        with pytest.raises(StoreError, match="unknown record kind"):
            store.read(kinds=["events"])

    @pytest.mark.parametrize(
        "bad",
        [
            NewRecord("gossip", {}),
            NewRecord("alert", ["not", "an", "object"]),
            NewRecord("alert", {"x": float("nan")}),
            NewRecord("alert", {"x": object()}),
            NewRecord("alert", {}, source=""),
            NewRecord("alert", {}, time=float("inf")),
        ],
    )
    def test_a_bad_record_stores_nothing_of_its_batch(self, store, bad):
        store.append_one("action", {"do": "table"})
        with pytest.raises(RecordError):
            store.append([NewRecord("event", {"type": "ok"}), bad])
        assert [r.seq for r in store.read()] == [1]
        assert store.append_one("event", {"type": "next"}).seq == 2

    def test_records_survive_closing_and_reopening(self, path):
        s = self.open_store(path)
        stored = s.append([NewRecord("action", {"do": "x"}), NewRecord("event", {"type": "y"})])
        s.close()
        s = self.open_store(path)
        try:
            assert s.read() == stored
            assert s.append_one("alert", {}).seq == 3
        finally:
            s.close()

    def test_verify_counts_a_sound_log(self, store):
        store.append([NewRecord("action", {}), NewRecord("event", {})])
        assert store.verify() == 2

    def test_a_closed_store_refuses_work(self, path):
        s = self.open_store(path)
        s.close()
        with pytest.raises(StoreClosed):
            s.append_one("alert", {})
        with pytest.raises(StoreClosed):
            s.read()

    # differing_executors: every backend runs this one method (the contract), each its own store
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.differing_executors],
    )
    @given(
        batches=st.lists(st.lists(new_record, min_size=1, max_size=4), min_size=1, max_size=6),
        window=st.tuples(st.integers(0, 30), st.integers(0, 30)),
        kinds=st.sets(st.sampled_from(KINDS)),
    )
    def test_the_log_behaves_like_a_list(self, tmp_path_factory, batches, window, kinds):
        path = tmp_path_factory.mktemp("prop") / "table.log"
        model = []
        s = self.open_store(path, clock=FakeClock())
        try:
            for batch in batches:
                stored = s.append(batch)
                assert [r.seq for r in stored] == list(range(len(model) + 1, len(model) + len(batch) + 1))
                model += stored
            assert s.read() == model
            first, last = window
            assert s.read(first, last) == [r for r in model if first <= r.seq <= last]
            assert s.read(kinds=kinds) == [r for r in model if r.kind in kinds]
            for r, new in zip(model, itertools.chain.from_iterable(batches)):
                assert (r.kind, r.data, r.source) == (new.kind, new.data, new.source)
        finally:
            s.close()
