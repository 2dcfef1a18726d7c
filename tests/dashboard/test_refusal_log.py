"""Refused entries cost the table's log a bounded number of bytes (issue 13, item 5:
"unbounded"), and an ordinary refusal is still stored whole for the TL.

Measured before the bound (this file's flood, 1,2 kB of junk a post): every refusal was a
record of 1.4 kB, about 2 kB of SQLite file each; at the paced 20 posts a second that is
some 150 MB an hour (small junk: 230 B a post, 17 MB an hour)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from dashboard.errors import DashboardError
from table_controller.app.cli import main
from table_controller.app.table_files import open_table
from table_controller.store import SQLiteStore, refusals
from table_controller.store.check import check_file

PLAYERS = {"do": "table", "players": ["Anna", "Bo", "Cilla", "Dan"]}


def _log_bytes(data) -> int:
    return sum(f.stat().st_size for f in data.iterdir() if f.name.startswith("table.sqlite"))


async def _post(hub, obj, by="revisor") -> None:
    with pytest.raises(DashboardError):
        await hub.post(obj, by)


def test_a_junk_flood_grows_the_log_by_a_bounded_amount(tmp_path, monkeypatch):
    """3,000 junk posts from one role (identical ones, then each different, each 1.2 kB):
    at most STORED_MAX records stored one by one and one summary per window; every
    refusal counted; the log checks OK."""
    monkeypatch.setattr(refusals, "WINDOW_S", 3600.0)  # the whole flood in one window

    async def run():
        hub, _ = open_table(tmp_path, delay=0)
        await hub.post(PLAYERS, "tl")
        hub.log.close()
        start_bytes = _log_bytes(tmp_path)
        hub, _ = open_table(tmp_path, delay=0)
        before = hub.log.seq
        for _ in range(1000):
            await _post(hub, {"do": "frobnicate", "junk": "x" * 1200})
        for i in range(2000):
            await _post(hub, {"do": "frobnicate", "junk": f"{i:06d}" + "x" * 1200})
        alerts = len(hub.alerts)
        hub.log.close()
        return before, start_bytes, alerts

    before, start_bytes, alerts = asyncio.run(run())
    grown = _log_bytes(tmp_path) - start_bytes
    store = SQLiteStore.open(tmp_path / "table.sqlite")
    try:
        new = store.read(before + 1, kinds=["rejected"])
    finally:
        store.close()
    stored = [r for r in new if not refusals.is_summary(r.data)]
    (summary,) = [r.data for r in new if refusals.is_summary(r.data)]
    assert len(stored) == refusals.STORED_MAX and len(new) == refusals.STORED_MAX + 1
    assert summary["refusals"] == 3000 - refusals.STORED_MAX  # every refusal is counted
    assert summary["repeats"] == {str(stored[0].seq): 999}  # the identical ones, on the first
    assert sum(summary["unstored"].values()) == 2000 - (refusals.STORED_MAX - 1)
    for r in stored:  # each within 512 B of the action's text, its length and kind kept
        assert r.data["truncated"] > 1200 and len(r.data["action"].encode()) <= refusals.TEXT_MAX
        assert r.data["do"] == "frobnicate" and r.source == "revisor"
        assert len(json.dumps(r.data)) < 800
    # stated bound: 3,000 junk posts cost at most 64 kB of file (they cost 6 MB before)
    print(f"3000 junk refusals grew the log by {grown} B")
    assert grown <= 64 * 1024, grown
    assert alerts <= refusals.STORED_MAX + 2  # the TL's alerts: one per stored refusal
    report = check_file(tmp_path / "table.sqlite")
    assert report.ok, report
    assert main(["log", "check", str(tmp_path / "table.sqlite")]) == 0


def test_a_window_ends_with_its_summary_and_the_next_refusal_is_stored_again(tmp_path, monkeypatch):
    monkeypatch.setattr(refusals, "WINDOW_S", 0.3)

    async def run():
        hub, _ = open_table(tmp_path, delay=0)
        await hub.post(PLAYERS, "tl")
        before = hub.log.seq
        junk = {"do": "frobnicate", "junk": "y"}
        for _ in range(5):
            await _post(hub, junk)
        end = time.monotonic() + 0.35
        while time.monotonic() < end:
            await asyncio.sleep(0.05)
        await _post(hub, junk)  # a new window: stored again, after the old one's summary
        hub.log.close()
        store = SQLiteStore.open(tmp_path / "table.sqlite")
        records = store.read(before + 1, kinds=["rejected"])
        store.close()
        return records

    records = asyncio.run(run())
    kinds = [("summary" if refusals.is_summary(r.data) else "whole") for r in records]
    assert kinds == ["whole", "summary", "whole"]
    assert records[1].data["refusals"] == 4 and records[1].data["repeats"] == {str(records[0].seq): 4}
    assert records[1].data["since"] <= records[1].data["until"]
    assert check_file(tmp_path / "table.sqlite").ok


def test_an_ordinary_refusal_is_stored_whole_and_shown_to_the_tl(tmp_path):
    """One refused entry: the record holds the action and the reason as before (no cut,
    no count), the TL's alerts show it live and after a restart, the log checks OK."""
    illegal = {"do": "play", "player": "Anna", "card": "2C"}

    async def run():
        hub, _ = open_table(tmp_path, delay=0)
        await hub.post(PLAYERS, "tl")
        with pytest.raises(DashboardError):
            await hub.post(illegal, "tl")
        last = hub.log.store.read(hub.log.seq, hub.log.seq)[0]
        live = [a for a in hub.alerts if a.kind == "rejected"]
        hub.log.close()
        return last, live

    last, live = asyncio.run(run())
    assert last.kind == "rejected" and last.source == "tl"
    assert last.data["action"] == illegal and set(last.data) == {"action", "reason"} and last.data["reason"]
    assert [a.id for a in live] == [last.seq]

    async def restarted():
        hub, _ = open_table(tmp_path, delay=0)
        shown = [a for a in hub.alerts if a.kind == "rejected"]
        hub.log.close()
        return shown

    (alert,) = asyncio.run(restarted())
    assert alert.id == last.seq and "play" in alert.text
    assert check_file(tmp_path / "table.sqlite").ok
