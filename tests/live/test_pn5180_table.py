"""Issue 22: with a PN5180 (ISO 15693) reader under every pad the virtual table reads
stacks whole, so bots play a table under rough noise (which limits an MFRC522 to 2
cards of a stack per scan) with no stack-related alert, sensed exactly."""

from __future__ import annotations

from table_controller.rules.replay import replay_document
from table_controller.sim.virtual import bots_on_virtual_table
from table_controller.store import TableRecorder
from tests.sensing.helpers import assert_same_game

STACK_ALERTS = {"unsure_count", "camera_disagrees"}  # counts that do not add up


def test_bots_on_a_pn5180_table_see_every_stack_whole(tmp_path):
    """In simulated time (issue 15): the firmware runs on the loop's timers, its scans and
    timers on the loop's clock, so a starved machine cannot lose a read."""
    from hardware.virtual.simtime import run_simulated

    log, _ = TableRecorder.resume(tmp_path / "t.sqlite")
    try:
        live, shadow, driver = run_simulated(
            bots_on_virtual_table(seed=9, log=log, noise="rough", max_actions=110, reader="pn5180", fast=True)
        )
    finally:
        log.close()
    assert len(live.engine.state.games[0].deals) >= 3
    assert_same_game(driver.played, live, shadow)
    assert replay_document(live.engine) == replay_document(shadow)
    assert not [a for a in live.sensing.alerts.raised if a.kind in STACK_ALERTS]


def test_a_whole_bot_table_on_pn5180_pads_finishes_with_no_stack_alert():
    """Issue 22's "done when": the whole-table bot test with ``--reader pn5180`` and no
    stack-related alert, in simulated time (issue 15), under the default noise."""
    from hardware.virtual.simtime import run_simulated
    from table_controller.store import TableRecorder

    live, shadow, driver = run_simulated(
        bots_on_virtual_table(seed=7, log=TableRecorder.in_memory(), noise="default", fast=True, reader="pn5180")
    )
    assert shadow.phase == "table_over" and live.engine.phase == "table_over"
    assert live.rejected == []
    assert_same_game(driver.played, live, shadow)
    assert not [a for a in live.sensing.alerts.raised if a.kind in STACK_ALERTS]
