"""RULES.md D12: when a player's trick-play clock runs out, "the clock shows overtime, a
violation is logged and the TL is alerted".  The TL's console and the Revisor's tablet are
read as the hub sends them (one read path: the role's message), in simulated time: the
real 20 s of D11 run out in no time."""

from __future__ import annotations

import asyncio
import contextlib
import json

from hardware.virtual.simtime import LoopClock, run_simulated
from table_controller.app.table_files import open_table
from table_controller.sim.bots import RandomBot

from .harness import cards_in_text


@contextlib.asynccontextmanager
async def running_table(data):
    """The table of ``data`` served (its live loop and the hub's pump) in simulated time:
    every ``asyncio.sleep`` in it moves the loop's clock, never the wall clock's."""
    hub, _ = open_table(data, delay=0, clock=lambda: 1_000_000.0, table_clock=LoopClock())
    tasks = [asyncio.create_task(hub.live.run()), asyncio.create_task(hub.pump())]
    try:
        yield hub
    finally:
        await hub.live.stop()
        tasks[1].cancel()  # the pump waits for the next state forever
        await asyncio.gather(*tasks, return_exceptions=True)


def _message(hub, role: str) -> dict:
    return json.loads(hub.current_text(role))


def _overtime(msg: dict) -> list[dict]:
    return [a for a in msg.get("alerts") or [] if a["kind"] == "overtime"]


def test_a_trick_play_clock_run_out_alerts_the_tl_until_the_player_plays_d12(tmp_path):
    async def main():
        async with running_table(tmp_path / "t") as hub:
            bot = RandomBot(5)
            while not (hub.engine.phase == "tricks" and hub.engine.to_act()):
                await hub.submit_local(bot.next_action(hub.engine))
            player = hub.engine.to_act()[0]
            await asyncio.sleep(1.0)
            before = _message(hub, "tl")
            running = before["state"]["clocks"]["running"][player]
            await asyncio.sleep(running["remaining"] + 2.0)  # D11: 20 s per card, run out
            tl, revisor = _message(hub, "tl"), _message(hub, "revisor")
            await hub.submit_local(bot.next_action(hub.engine))  # the player plays at last
            await asyncio.sleep(0.5)
            after = _message(hub, "tl")
            return player, before, running, tl, revisor, after

    player, before, running, tl, revisor, after = run_simulated(main())
    assert running["clock"] == "play" and _overtime(before) == []
    # the clock shows overtime and the violation is on the player's record
    over = tl["state"]["clocks"]["running"][player]
    assert over["clock"] == "play" and over["remaining"] <= 0
    assert next(p for p in tl["state"]["players"] if p["name"] == player)["violations"] == 1
    # the TL is alerted: one open alert, Swedish first, naming the player and D12
    (alert,) = _overtime(tl)
    assert alert["resolved"] is False
    assert alert["player"] == player
    assert alert["text"].startswith(f"{player}s speltid har gått ut") and "D12" in alert["text"]
    assert "/ " + player + "'s shot clock ran out" in alert["text"]
    # the Revisor (a player) sees it too, and no card in it
    (seen,) = _overtime(revisor)
    assert seen["text"] == alert["text"] and not cards_in_text(json.dumps(seen))
    # it ends when the player plays
    assert _overtime(after) == [] and after["seq"] > tl["seq"]


def test_an_overtime_alert_open_at_a_restart_is_raised_again_until_the_player_plays_d12(tmp_path):
    """D12 after a restart: the alert lived in the loop's memory; the log's violation for
    the player still to play raises it again, and it ends when the player plays."""

    async def until_overtime():
        async with running_table(tmp_path / "t") as hub:
            bot = RandomBot(5)
            while not (hub.engine.phase == "tricks" and hub.engine.to_act()):
                await hub.submit_local(bot.next_action(hub.engine))
            player = hub.engine.to_act()[0]
            await asyncio.sleep(1.0)
            running = _message(hub, "tl")["state"]["clocks"]["running"][player]
            await asyncio.sleep(running["remaining"] + 2.0)  # D11: run out
            return player, _overtime(_message(hub, "tl"))

    async def restarted():
        async with running_table(tmp_path / "t") as hub:
            await asyncio.sleep(0.5)
            tl = _message(hub, "tl")
            hub.live.resume("tl")  # a restart waits paused for the dealer or the TL
            await hub.submit_local(RandomBot(5).next_action(hub.engine))  # the player plays
            await asyncio.sleep(0.5)
            return tl, _message(hub, "tl")

    player, before = run_simulated(until_overtime())
    assert [a["player"] for a in before] == [player]
    tl, after = run_simulated(restarted())
    (alert,) = _overtime(tl)
    assert alert["player"] == player and alert["resolved"] is False and "D12" in alert["text"]
    assert _overtime(after) == [] and after["seq"] > tl["seq"]
