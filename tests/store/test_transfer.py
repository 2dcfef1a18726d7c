"""Export then import: the same table, the same records (seqs, times, sources,
transactions and checksums), for tables stopped anywhere."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table_controller.store import ExportError, SQLiteStore
from table_controller.store.rebuild import resume
from table_controller.store.transfer import export_lines, import_export, parse_export

from .helpers import record_bot_table


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), actions=st.integers(1, 400))
def test_export_then_import_is_the_same_table(tmp_path_factory, seed, actions):
    d = tmp_path_factory.mktemp("xfer")
    live = record_bot_table(d / "a.sqlite", seed, actions)
    with SQLiteStore.open(d / "a.sqlite", readonly=True) as a:
        original = a.read()
    lines = list(export_lines(original, "a.sqlite"))
    assert import_export(lines, d / "b.sqlite") == len(original)
    with SQLiteStore.open(d / "b.sqlite", readonly=True) as b:
        assert b.read() == original
    engine, clocks = resume(d / "b.sqlite")
    assert engine.state.to_dict() == live.engine.state.to_dict()
    assert clocks == resume(d / "a.sqlite")[1]


def test_an_export_that_skips_a_record_is_refused(tmp_path):
    record_bot_table(tmp_path / "a.sqlite", 3, 30)
    with SQLiteStore.open(tmp_path / "a.sqlite", readonly=True) as a:
        lines = list(export_lines(a.read()))
    i = next(k for k, ln in enumerate(lines) if ln.startswith("# event"))
    with pytest.raises(ExportError, match="expected"):
        import_export(lines[:i] + lines[i + 1 :], tmp_path / "b.sqlite")
    assert not list(tmp_path.glob("b.sqlite*"))


def test_an_action_header_without_its_action_is_refused():
    with pytest.raises(ExportError, match="not the action"):
        parse_export(['# action {"seq": 1, "time": 1.0, "source": "x", "txn": 1}'])


def test_notes_and_blank_lines_are_ignored():
    items = parse_export(["# a note from the TL", "", '{"do": "table", "players": ["A", "B", "C"]}'])
    assert [i["kind"] for i in items] == ["action"]
