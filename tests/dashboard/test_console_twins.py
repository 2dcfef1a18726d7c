"""What the live table sends the physical table must tell nobody where a hidden card lies
(stop 68's audit of the serial link).

The host sends the seat controller ``SYNC``, ``PING``, ``RESEND`` (link upkeep: the
connection, the time, lost device frames), ``BUZZ`` (the self-test alone) and ``LED``: each
seat's shot-clock light on the dealer's console, set by the live table from the shot clocks
(``LiveTable._show_leds``, ``ShotClocks.led``).  Every player, spectator and the broadcast
camera sees those lights, so they may follow only public facts: whose turn, the clocks, a
pause, a time call.  Twin tables (``test_sensing_twins.Twin``: a real live table, the seat
controller's ``set_led`` a recording sink that keeps each ``LED`` frame as the link would
write it and when) are fed the same events and differ only in a hidden card; the
``console`` stream must be the same in both, while the TL's screen may differ.
"""

from __future__ import annotations

import asyncio

import pytest

from dashboard.errors import DashboardError
from table_controller.sensor_events import ButtonPressed

from .test_sensing_twins import LAST_STUB_HANDS, NO_REVOKE, REVOKE, Twin, _one_card_left, twins


def test_the_console_stream_is_recorded_and_follows_the_clocks(tmp_path):
    """The harness itself: the lights are sent, green, yellow, red blinking, blue paused."""

    async def run() -> list[str]:
        t = Twin(tmp_path / "t")
        try:
            await t.start("sm2025", NO_REVOKE)
            await t.pad("seat1", ["AS"])
            await t.wait(21.0)  # Bo's 20 s play clock runs out
            t.live.pause("tl")
            await t.wait(0.1)
            return [line.split(" ", 2)[2] for line in t.sent]
        finally:
            t.close()

    sent = asyncio.run(run())
    bo = [s for s in sent if "seat=seat2" in s]
    assert [s.split("*")[0] for s in bo] == [
        "LED seat=seat2 colour=off blink=0",
        "LED seat=seat2 colour=green blink=0",
        "LED seat=seat2 colour=yellow blink=0",
        "LED seat=seat2 colour=red blink=1",
        "LED seat=seat2 colour=blue blink=0",
    ]


@pytest.mark.parametrize("ruleset", ["sm2019", "sm2025", "shootout", "classic"])
def test_the_console_lights_say_nothing_of_a_revoke_r26(tmp_path, ruleset):
    """Bo's 4C on Anna's spade lead is a revoke in A (he holds the 2S), a legal card in B;
    Dan's 3D is a revoke in B (he holds the 2S there).  "Time" is called on Cilla, her
    light turns yellow, her phone asks to take back a card she did not play last (refused
    in both), and at the end a clock runs out (and a time call's countdown, but in sm2025):
    the lights change at the same moments in both.  sm2025 stops before trick 2's lead,
    after which its dead hands decide who plays next, in public (r26; a time call folding
    the leader counts as a lead); the others play trick 2 out, Bo's 4D a revoke in A, Dan's
    6D in B."""

    async def scenario(t: Twin, hands) -> None:
        await t.start(ruleset, hands)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.pad("seat2", ["4C"])
        await t.live.feed(ButtonPressed(t.clock.now(), "time:seat3"))  # "time" on Cilla
        await t.wait(15.0)  # Cilla's light turns yellow
        with pytest.raises(DashboardError):  # the seat's own refusal
            await t.hub.retract_own("seat3")
        t.collect()
        await t.pad("seat3", ["3C"])
        await t.wait(3.0)
        await t.pad("seat4", ["3D"])
        await t.wait(8.0)
        assert t.live.engine.state.deal.trick_number == 2
        if ruleset != "sm2025":
            await t.pad("seat1", ["AS", "KS"])  # the next lead
            await t.wait(2.0)
            for seat, cards in (("seat2", ["4C", "4D"]), ("seat3", ["3C", "5C"]), ("seat4", ["3D", "6D"])):
                await t.pad(seat, cards)
                await t.wait(4.0)
            assert t.live.engine.state.deal.trick_number == 3
            await t.live.feed(ButtonPressed(t.clock.now(), "time"))  # on whoever is to act
        await t.wait(75.0)  # overtime, and the time call's countdown

    assert "console" not in twins(tmp_path, scenario, REVOKE, NO_REVOKE)


def test_the_console_lights_do_not_follow_a_take_back_that_others_hidden_cards_decide_r26(tmp_path):
    """Bo revokes in both twins and takes his card back on his phone, then follows suit; the
    twins differ in where Cilla's and Dan's hidden cards lie (Cilla or Dan holds the 2H)."""
    hands_b = {**REVOKE, "Cilla": ["3C", "5C", "7C", "2H", "JD"], "Dan": ["3D", "6D", "8D", "9C", "7H"]}

    async def scenario(t: Twin, hands) -> None:
        await t.start("sm2025", hands)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.pad("seat2", ["4C"])
        await t.wait(3.0)
        await t.hub.retract_own("seat2")
        t.collect()
        await t.wait(1.0)
        await t.pad("seat2", [])  # the 4C leaves the pad
        await t.wait(2.0)
        await t.pad("seat2", ["2S"])
        await t.wait(25.0)
        assert [a.to_dict()["do"] for _, a in t.live.accepted][-3:] == ["retract", "play", "timeout"]

    assert twins(tmp_path, scenario, REVOKE, hands_b) == []  # the TL asks to see hidden cards


# Anna's three kings, Bo's and Cilla's nothing to score; in exchange 3 Anna takes two cards
# face down: the KC in A (four of a kind), the QC in B (both lie in the stub)
KINGS = {
    "Anna": ["KS", "KH", "KD", "2D", "5D"],
    "Bo": ["2H", "4C", "7D", "8C", "TD"],
    "Cilla": ["3C", "5C", "7C", "9C", "JD"],
    "Dan": ["3D", "6D", "8D", "2S", "7H"],
}


@pytest.mark.parametrize("ruleset", ["sm2019", "sm2025"])
def test_the_console_lights_say_nothing_of_a_four_of_a_kind_kept_silent_at_step_7_r28(tmp_path, ruleset):
    """Anna holds four kings after the last exchange in A and not in B, and says nothing
    (step 7: only a four of a kind that zeroes is announced, r28).  Nobody's light may come
    on, or stay on, for a choice nobody is asked."""

    async def scenario(t: Twin, received: list[str]) -> None:
        players = list(KINGS)
        await t.tl({"do": "table", "ruleset": ruleset, "players": players})
        await t.tl({"do": "game", "seats": players, "button": "Dan"})
        await t.tl({"do": "deal", "hands": KINGS})
        await t.wait(1.0)
        for _ in range(2):
            for p in players:
                await t.tl({"do": "discard", "player": p, "cards": []})
            await t.wait(1.0)
        await t.tl({"do": "discard", "player": "Anna", "cards": ["2D", "5D"]})
        for p in players[1:]:
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.wait(1.0)
        await t.tl({"do": "receive", "player": "Anna", "cards": received})
        await t.wait(22.0)  # Anna's lead clock runs out
        assert str(t.live.engine.phase) == "tricks", t.live.engine.phase
        await t.wait(5.0)

    assert twins(tmp_path, scenario, ["KC", "9H"], ["QC", "9H"]) == []  # the TL asks to see hidden cards


def test_the_console_lights_say_nothing_of_the_cards_placed_and_received_in_an_exchange(tmp_path):
    """Sensed exchange: Anna places two cards face down, the 5D (A) or the 9S (B), and the
    3H; Bo places one at once; Cilla places nothing and her clock runs out; the dealer's next
    closes the placing; Anna's two replacements are read (the same count).  Then the rest of
    the exchanges by the TL."""
    hands_b = {**NO_REVOKE, "Anna": ["AS", "KS", "QS", "3H", "9S"]}

    async def scenario(t: Twin, hands) -> None:
        players = list(hands)
        await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
        await t.tl({"do": "game", "seats": players, "button": "Dan"})
        await t.tl({"do": "deal", "hands": hands})
        await t.wait(2.0)
        await t.pad("seat1", [hands["Anna"][-1], "3H"])
        await t.pad("seat2", ["TD"])
        await t.wait(10.0)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.wait(25.0)  # whoever has not placed runs out (D12)
        placed = t.live.engine.state.deal.placed
        assert sorted(placed) == players, placed
        stub = sorted(c.code for c in t.live.engine.state.deal.stub)
        await t.pad("seat1", stub[:2])
        await t.wait(2.0)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.pad("seat2", [stub[2]])  # Bo's open card
        await t.wait(1.0)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.wait(3.0)
        assert str(t.live.engine.phase) == "exchange_2", t.live.engine.phase
        await t.wait(35.0)

    assert twins(tmp_path, scenario, NO_REVOKE, hands_b) == []  # the TL asks to see hidden cards


def test_the_console_lights_say_nothing_of_a_card_dealt_from_the_reshuffled_discards_r16(tmp_path):
    """Exchange 3 with one card left in the stub: Anna, owed two, gets it and one from the
    reshuffled earlier discards (r16): the AD in A (Cilla discarded it in exchange 1), the TD
    in B (she kept the AD and discarded the TD); Bo's open card from the reshuffle is read
    before Anna's second (refused, as the rules still see the stub's card), then taken."""
    hands = LAST_STUB_HANDS
    dealt = {c for h in hands.values() for c in h}
    order = [r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in dealt]

    async def scenario(t: Twin, cilla_keeps_ad: bool) -> None:
        def placing(k: int, p: str, cards: list[str]) -> list[str]:
            return ["KD", "QD", "JD", "TD"] if k == 0 and p == "Cilla" and cilla_keeps_ad else cards

        held = await _one_card_left(t, hands, order, placing)
        d = t.live.engine.state.deal
        last = [c.code for c in d.stub]
        hidden = "TD" if cilla_keeps_ad else "AD"
        await t.tl({"do": "discard", "player": "Anna", "cards": held["Anna"][:2]})
        await t.tl({"do": "discard", "player": "Bo", "cards": held["Bo"][:1]})  # an open card
        for p in ("Cilla", "Dan"):
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.wait(1.0)
        await t.pad("seat1", [last[0]])
        await t.pad("seat2", ["KD"])  # Bo's open card, from the reshuffle
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.wait(1.0)
        await t.pad("seat1", [last[0], hidden])  # Anna's second, face down
        await t.wait(1.0)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.wait(3.0)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))
        await t.wait(25.0)
        assert str(t.live.engine.phase) != "exchange_3", t.live.engine.phase

    assert "console" not in twins(tmp_path, scenario, False, True)
