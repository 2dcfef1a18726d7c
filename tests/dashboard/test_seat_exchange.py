"""A camera-only table's exchange entered from the players' phones (dashboard.seat_exchange).

Received cards are held until every player owed cards has sent theirs and no open card is
still to be shown, then entered in turn, all or nothing (``TableHub.exchange``).  The
players' phones may send them before the open cards are shown: stop 71's audit found the
table then waiting for cards its phones said were in (Bo's "received" on his phone, the
table owing him two), because only a player's entry looked whether the held cards were
due, never the open card that made them due.
"""

from __future__ import annotations

import asyncio

from dashboard import seat_exchange
from table_controller.rules.actions import parse_action
from table_controller.rules.cards import Card

from .test_oracle import _dealt_camera_only_hub

HANDS = {  # no hand worth a point: the deal goes on to exchange 2
    "Anna": ["AS", "AH", "2D", "7C", "9S"],
    "Bo": ["JS", "3H", "5C", "8D", "KC"],
    "Cilla": ["4S", "6H", "9D", "3C", "QH"],
    "Dan": ["5S", "8H", "TD", "4C", "7D"],
}
SEAT = {p: f"seat{i + 1}" for i, p in enumerate(HANDS)}
OPEN = {"Anna": "2C", "Dan": "JC"}  # Anna and Dan place one card each: theirs come open


async def _bo_sends_his_before_the_open_cards(folder):
    hub = await _dealt_camera_only_hub(folder, HANDS)
    for p in HANDS:  # exchange 1: Anna one, Bo two, Cilla none, Dan one
        await hub.exchange({"Anna": ["9S"], "Bo": ["JS", "3H"], "Dan": ["4C"]}.get(p, []), SEAT[p])
    step = seat_exchange.step_of(hub.engine)
    assert step is not None and set(step.open_pending) == {"Anna", "Dan"} and step.owed == {"Bo": 2}
    answer = await hub.exchange(["KD", "QS"], SEAT["Bo"])
    assert answer["ok"]
    assert hub.received() == {"Bo": ("KD", "QS")}  # held: two open cards are still to be shown
    return hub


def _bo_holds_his(hub) -> None:
    d = hub.engine.state.games[-1].deal
    assert {Card.parse("KD"), Card.parse("QS")} <= set(d.hands["Bo"]), d.hands["Bo"]
    assert d.exchange == 2 and hub.received() == {}  # the table went on to the next exchange


def test_received_cards_sent_before_the_open_cards_go_in_with_the_last_open_card(tmp_path):
    async def run():
        hub = await _bo_sends_his_before_the_open_cards(tmp_path)
        await hub.post({"do": "open", "player": "Anna", "card": OPEN["Anna"], "take": True}, "tl")
        assert hub.received() == {"Bo": ("KD", "QS")}  # Dan's open card is still to come
        await hub.post({"do": "open", "player": "Dan", "card": OPEN["Dan"], "take": True}, "tl")
        _bo_holds_his(hub)
        hub.log.close()

    asyncio.run(run())


def test_received_cards_go_in_when_the_camera_reads_the_last_open_card(tmp_path):
    """The camera reads the open cards on a camera-only table: its entry reaches the hub
    through the live table's updates (``TableHub.pump``), not through ``post``."""

    async def run():
        hub = await _bo_sends_his_before_the_open_cards(tmp_path)
        pump = asyncio.create_task(hub.pump())
        try:
            for player, card in OPEN.items():
                await hub.live.submit(
                    parse_action({"do": "open", "player": player, "card": card, "take": True}), "camera"
                )
            for _ in range(200):  # the pump's turn: a condition, not a time
                if hub.received() == {}:
                    break
                await asyncio.sleep(0)
            _bo_holds_his(hub)
        finally:
            pump.cancel()
            hub.log.close()

    asyncio.run(run())
