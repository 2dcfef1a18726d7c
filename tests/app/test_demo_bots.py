"""The demo's bots do not stop silently (issue 16 item 4): bots that cannot go on (here a
dead reader under seat 1, so sensing never sees the deal) raise the same stuck-table alert
at once, saying who the table waits for, and no card of the action they wanted."""

from __future__ import annotations

import argparse
import asyncio
import io
import re

from hardware.firmware.controller import Config
from hardware.virtual import NoiseModel, VirtualTable
from hardware.virtual.simtime import LoopClock, run_simulated
from table_controller.app.commands import demo
from table_controller.app.config import DashboardSection, TableConfig, TableSection
from table_controller.app.service import serve_table
from tests.ports import free_port as _free_port


def test_bots_that_cannot_go_on_report_the_stuck_table_alert(tmp_path, capsys):
    """In simulated time (issue 15, as ``demo --fast``): the bots' 2 s wait for sensing
    is the loop's, not the wall clock's, so a busy machine cannot make or break it."""
    cfg = TableConfig(
        table=TableSection(name="Demo", data=tmp_path / "data", virtual=True, stuck_after=3600),
        dashboard=DashboardSection(port=_free_port()),
    )
    args = argparse.Namespace(seed=1, pace=0.01, sync_timeout=2.0)
    seen: dict = {}

    async def beside(running) -> None:
        running.virtual.fail_reader("seat1")
        try:
            await demo._virtual_bots(running, args)
            live = running.hub.live
            seen["alerts"] = [a for a in live.alerts if a.kind == "stuck"]
            seen["waiting"] = live.waiting
            seen["phase"] = live.engine.phase
        finally:
            running.stop()

    async def main() -> None:
        clock = LoopClock()
        config = Config(confirm_reads=2, gone_ms=60, scan_ms=2)
        with VirtualTable(noise=NoiseModel.clean(), seed=1, config=config, simulated=True, clock=clock) as t:
            await asyncio.wait_for(serve_table(cfg, extra=beside, virtual_table=t, out=io.StringIO(), clock=clock), 120)

    run_simulated(main())
    assert seen["phase"] == "deal"  # the deal was never sensed
    [alert] = seen["alerts"]
    assert (
        alert.text
        == "Väntar på givaren: giv 1 (datorspelarna har stannat) / Waiting for the dealer: deal 1 (the bots stopped)"
    )
    assert seen["waiting"]["text_sv"] == "Väntar på givaren: giv 1"
    assert not re.search(r"\b(?:10|[2-9TJQKA])[SHDC]\b", alert.text)  # no card of the deal they wanted
    out = capsys.readouterr().out
    assert "Botarna har stannat: sensing did not see" in out and f"LARM: {alert.text}" in out  # the bots stopped
