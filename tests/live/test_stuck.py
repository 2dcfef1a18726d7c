"""A stuck table is seen (issue 16 item 4): someone must act and nothing happens for
``stuck_after`` seconds, or the link is down: the TL gets an alert naming who is waited
for and on what (Swedish first), every view's state says so instead of "live", and
anything entered ends it.  Simulated time: minutes of waiting run in milliseconds."""

from __future__ import annotations

import asyncio

from hardware.virtual.simtime import LoopClock, run_simulated
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.live.stuck import StuckWatch, waiting_for
from table_controller.sensing.alerts import card_free_text
from table_controller.sim.bots import RandomBot
from table_controller.store import TableRecorder
from table_controller.views import for_role

AFTER_S = 120.0


async def _dealt_table(link=lambda: True, camera=None):
    """A live table (manual entry) just dealt: the exchange waits for the first player."""
    clock = LoopClock()
    live = LiveTable(TableRecorder.in_memory(), virtual_deck(), clock=clock, record_sensors=False)
    updates = live.subscribe()
    bot = RandomBot(3)
    while live.engine.state.deal is None:
        await live.submit(bot.next_action(live.engine), "tl")
    watch = StuckWatch(live, AFTER_S, link_online=link, camera_online=camera)
    return live, watch, updates, bot


def _state(view, role: str) -> dict:
    """The "state" a role's message carries (the one read path: views.for_role)."""
    return for_role(view, role).message("Table 1", at=None)["state"]


def _latest(updates: asyncio.Queue):
    snap = None
    while not updates.empty():
        snap = updates.get_nowait()[1]
    return snap


def test_nobody_acts_for_the_configured_time_the_tl_is_told_who_and_on_what():
    async def main():
        loop = asyncio.get_running_loop()
        live, watch, updates, _ = await _dealt_table()
        who = live.engine.to_act()[0]
        start = loop.time()
        task = asyncio.create_task(watch.run())
        # just before the time: nothing
        await asyncio.sleep(AFTER_S - 2 * watch.tick_s)
        assert watch.alert is None and not [a for a in live.alerts if a.kind == "stuck"]
        while watch.alert is None and loop.time() - start < 10 * AFTER_S:
            await asyncio.sleep(watch.tick_s)
        raised_after = loop.time() - start
        alert = watch.alert
        snap = _latest(updates)
        task.cancel()
        return who, raised_after, alert, snap, live

    who, raised_after, alert, snap, live = run_simulated(main())
    assert AFTER_S <= raised_after <= AFTER_S + 1.5  # the watch looks once a second
    assert alert.kind == "stuck" and alert.player == who and not alert.holds
    assert alert.text.startswith(f"Väntar på {who}: byte 1 (inget hänt på 12")
    assert f"Waiting for {who}: exchange 1" in alert.text
    assert alert in live.alerts  # the TL's list (and the Revisor's, without evidence)
    assert card_free_text(alert) == alert.text  # it names no card: safe for the table's views
    waiting = _state(snap, "public")["waiting"]
    assert waiting["who"] == who and waiting["text_sv"] == f"Väntar på {who}: byte 1"
    assert _state(snap, "revisor")["waiting"] == waiting


def test_an_entry_ends_the_alert_and_the_views_show_live_again():
    async def main():
        live, watch, updates, bot = await _dealt_table()
        task = asyncio.create_task(watch.run())
        end = asyncio.get_running_loop().time() + 10 * AFTER_S
        while watch.alert is None and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(watch.tick_s)
        first = watch.alert
        await live.submit(bot.next_action(live.engine), "revisor")  # the player's discard, entered
        await asyncio.sleep(2 * watch.tick_s)
        after = (watch.alert, [a for a in live.alerts if a.kind == "stuck"], _latest(updates))
        # the next player now: a new wait, its own alert after the full time again
        nxt = waiting_for(live.engine)
        while watch.alert is None and asyncio.get_running_loop().time() < end + 10 * AFTER_S:
            await asyncio.sleep(watch.tick_s)
        task.cancel()
        return first, after, nxt, watch.alert

    first, (alert, open_stuck, snap), nxt, second = run_simulated(main())
    assert alert is None and open_stuck == [] and snap.waiting is None
    assert second.id != first.id and second.player == (nxt.who or None)


def test_a_silent_link_alerts_at_once_naming_who_is_waited_for():
    online = [True]

    async def main():
        live, watch, _, _ = await _dealt_table(lambda: online[0])
        assert await watch.check() is None
        online[0] = False
        return live.engine.to_act()[0], await watch.check()

    who, alert = run_simulated(main())
    assert alert is not None and alert.player == who
    assert "länken till bordets styrenhet är nere" in alert.text and "link is down" in alert.text


def test_a_silent_camera_alone_is_no_stuck_table_but_named_when_the_table_is_stuck():
    # item 3: the table plays on with RFID while the camera is silent (its own alert says
    # so); item 4: once nobody has acted for the configured time, the alert names the camera
    async def main():
        loop = asyncio.get_running_loop()
        live, watch, _, _ = await _dealt_table(camera=lambda: False)
        at_once = await watch.check()
        start = loop.time()
        while watch.alert is None and loop.time() - start < 10 * AFTER_S:
            await asyncio.sleep(watch.tick_s)
            await watch.check()
        return live.engine.to_act()[0], at_once, loop.time() - start, watch.alert

    who, at_once, raised_after, alert = run_simulated(main())
    assert at_once is None and AFTER_S <= raised_after <= AFTER_S + 1.5
    assert alert.player == who and alert.text.startswith(f"Väntar på {who}: byte 1 (inget hänt på 12")
    assert "; kameran är tyst)" in alert.text and "; the camera is silent)" in alert.text


def test_a_paused_table_waits_for_nobody():
    async def main():
        live, watch, _, _ = await _dealt_table()
        live.pause("tl")
        task = asyncio.create_task(watch.run())
        await asyncio.sleep(3 * AFTER_S)
        task.cancel()
        return watch.alert

    assert run_simulated(main()) is None


def test_bots_that_cannot_go_on_report_the_same_alert_at_once():
    async def main():
        live, watch, _, _ = await _dealt_table()
        task = asyncio.create_task(watch.run())
        alert = await watch.report("datorspelarna har stannat", "the bots stopped")
        await asyncio.sleep(5 * watch.tick_s)  # the watch keeps it: nothing happened since
        task.cancel()
        return live.engine.to_act()[0], alert, watch.alert

    who, alert, kept = run_simulated(main())
    assert alert is not None and kept == alert
    assert alert.text.startswith(f"Väntar på {who}: byte 1 (datorspelarna har stannat)")


def test_who_is_waited_for_through_whole_tables_names_a_player_to_act_or_the_dealer_and_no_card():
    import re

    from table_controller.rules.engine import Engine

    card = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")
    seen: set[str] = set()
    for seed, ruleset in ((1, "sm2025"), (2, "sm2019"), (3, "shootout"), (4, "classic")):
        engine, bot = Engine(), RandomBot(seed, ruleset=ruleset)
        for _ in range(3000):
            w = waiting_for(engine)
            if engine.phase in ("game_start", "game_over", "table_over"):
                assert w is None
            else:
                assert w is not None
                assert (w.who in engine.to_act()) if w.who else True
                for text in (w.text("sv"), w.text("en")):
                    assert not card.search(text), text
                seen.add(w.on_en.split(" ")[0])
            action = bot.next_action(engine)
            if action is None:
                break
            engine.apply(action)
    assert {"deal", "exchange", "trick", "replacements"} <= seen


def test_a_dealer_pressing_next_again_and_again_while_nothing_is_sensed_still_alerts_the_tl():
    """Seed sweep (issue 15 item 5): when sensing cannot see what was played, the dealer
    presses *next* again and again.  A press that changes nothing is no progress: the TL
    is told after ``stuck_after`` all the same (each press used to restart the wait, so
    the TL heard nothing for as long as the dealer kept pressing)."""
    from table_controller.sensor_events import ButtonPressed

    async def main():
        loop = asyncio.get_running_loop()
        live, watch, _, bot = await _dealt_table()
        while live.engine.phase != "tricks":  # trick play: next means nothing to sensing
            await live.submit(bot.next_action(live.engine), "tl")
        who = live.engine.to_act()[0]
        start = loop.time()
        task = asyncio.create_task(watch.run())
        while watch.alert is None and loop.time() - start < 3 * AFTER_S:
            await asyncio.sleep(1.5)
            await live.feed(ButtonPressed(loop.time(), "next"))
        task.cancel()
        return who, loop.time() - start, watch.alert, len(live.accepted)

    who, raised_after, alert, _ = run_simulated(main())
    assert alert is not None and raised_after <= AFTER_S + 3.0  # the watch looks once a second
    assert alert.kind == "stuck" and alert.player == who
    assert alert.text.startswith(f"Väntar på {who}: stick 1")
