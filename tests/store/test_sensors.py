"""Raw sensor observations go into the log and come back as the bridge's own types."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table_controller import sensor_events as fb
from table_controller.store import RecordError, SQLiteStore
from table_controller.store.recorder import TableRecorder
from table_controller.store.sensors import sensor_events, sensor_from_dict, sensor_to_dict

EXAMPLES = [
    fb.PadContents(1.5, "seat1", frozenset({"04a1b2", "04c3d4"})),
    fb.CameraPad(2.0, "seat3", 2, (fb.CardSighting("AS", 0.97), fb.CardSighting(None, 0.4))),
    fb.ButtonPressed(2.5, "time:seat2"),
    fb.ReaderStatus(3.0, "tray", False, "no answer"),
    fb.LinkStatus(3.5, False, "seat-controller", "unplugged", ("seat1", "seat2")),
]


def test_every_sensor_event_type_round_trips_through_the_log(tmp_path):
    recorder = TableRecorder(SQLiteStore.open(tmp_path / "t.sqlite", create=True))
    for e in EXAMPLES:
        recorder.record_sensor(sensor_to_dict(e), e.source if hasattr(e, "source") else "console")
    recorder.alert("not a sensor record")
    recorder.store.close()
    with SQLiteStore.open(tmp_path / "t.sqlite", readonly=True) as store:
        back = list(sensor_events(store))
        assert [e for _, e in back] == EXAMPLES
        assert [s for s, _ in back] == [1, 2, 3, 4, 5]
        assert [e for _, e in sensor_events(store, 3, 4)] == EXAMPLES[2:4]


@given(
    at=st.floats(0, 1e6),
    uids=st.frozensets(st.text("0123456789abcdef", min_size=2, max_size=14), max_size=6),
    pad=st.sampled_from(fb.PADS),
)
def test_pad_contents_round_trip(at, uids, pad):
    e = fb.PadContents(at, pad, uids)
    assert sensor_from_dict(sensor_to_dict(e)) == e


def test_what_is_not_a_sensor_event_is_refused():
    with pytest.raises(RecordError):
        sensor_to_dict({"pad": "seat1"})
    with pytest.raises(RecordError):
        sensor_from_dict({"type": "Nonsense"})
    with pytest.raises(RecordError):
        sensor_from_dict({"type": "PadContents", "at": 1.0})
