"""The live loop: manual entry, durable before shown, clocks into actions, corrections
into the log, clean shutdown.  With the real SQLite event log of issue 6."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.rules import actions as act
from table_controller.rules.engine import IllegalAction
from table_controller.sensing import SensingError
from table_controller.store import SQLiteStore, TableRecorder
from table_controller.views import for_role

SEATS = ("Anna", "Bo", "Cilla", "Dan")


@contextlib.asynccontextmanager
async def running(tmp_path, **kw):
    log, _ = TableRecorder.resume(tmp_path / "table.sqlite")
    clock = FakeClock(50.0)
    live = LiveTable(log, virtual_deck(), clock=clock, tick_s=0.005, **kw)
    task = asyncio.create_task(live.run())
    try:
        yield live, clock, log
    finally:
        await live.stop()
        await asyncio.wait_for(task, 5)
        log.close()


async def test_manual_entry_is_stored_before_any_subscriber_sees_it(tmp_path):
    async with running(tmp_path) as (live, clock, log):
        q = live.subscribe()
        await live.submit(act.TableStart(SEATS), "tl")
        seq, snap = await asyncio.wait_for(q.get(), 2)
        # the record is on disk, in the file, when the view gets it
        other = SQLiteStore.open(tmp_path / "table.sqlite")
        try:
            kinds = [r.kind for r in other.read(1, seq)]
        finally:
            other.close()
        assert "action" in kinds and seq >= 2 and snap.phase == "game_start"
        assert snap.alerts == () and snap.clocks is not None and snap.clocks.running == {}


async def test_a_refused_manual_action_raises_and_changes_nothing(tmp_path):
    async with running(tmp_path) as (live, clock, log):
        await live.submit(act.TableStart(SEATS), "tl")
        before = live.engine.state.to_dict()
        with pytest.raises(IllegalAction, match=r"first action|already started"):
            await live.submit(act.TableStart(SEATS), "tl")
        assert live.engine.state.to_dict() == before
        assert live.rejected and live.rejected[0][0] == "tl"


async def test_refusals_kept_in_memory_are_bounded_to_the_latest(tmp_path):
    from table_controller.live.table import REJECTED_KEPT

    async with running(tmp_path) as (live, clock, log):
        await live.submit(act.TableStart(SEATS), "tl")
        for i in range(REJECTED_KEPT + 40):
            with pytest.raises(IllegalAction):
                await live.submit(act.TableStart(SEATS), f"tl{i}")
        assert len(live.rejected) == REJECTED_KEPT
        assert live.rejected[-1][0] == f"tl{REJECTED_KEPT + 39}" and live.rejected[0][0] == "tl40"


async def test_exchange_clock_expiry_becomes_timeouts_on_the_violation_record(tmp_path):
    async with running(tmp_path, clock_limits={"exchange": 5}) as (live, clock, log):
        await live.submit(act.TableStart(SEATS), "tl")
        await live.submit(act.GameStart(SEATS, "Dan"), "tl")
        from table_controller.sim.bots import RandomBot

        await live.submit(RandomBot(3).next_action(live.engine), "revisor")  # the deal, by hand
        assert live.engine.phase == "exchange_1"
        clock.advance(5.1)
        await live.tick()
        sources = [s for s, a in live.accepted if isinstance(a, act.Timeout)]
        assert sources == ["clock"] * 4
        g = live.engine.state.game
        assert all(g.players[p].violations == ["exchange"] for p in SEATS)


async def test_exchange_clock_expiry_with_cards_on_the_pad_exchanges_them_and_is_a_violation_d12(tmp_path):
    """D12 at a table with readers: the cards lying on the player's pad when the exchange
    clock runs out are exchanged, and the expiry is on the player's record (until stop 74
    the table entered a discard alone, and the violation was lost)."""
    from table_controller.rules.events import CardsPlaced
    from table_controller.sensor_events import PadContents

    hands = {
        "Anna": ["AS", "KS", "QS", "JS", "9H"],
        "Bo": ["2C", "3C", "4D", "6D", "8H"],
        "Cilla": ["2D", "5C", "7C", "9C", "TC"],
        "Dan": ["3D", "5D", "7D", "2H", "4H"],
    }
    async with running(tmp_path, clock_limits={"exchange": 5}) as (live, clock, log):
        uid = {c.code: u for u, c in live.sensing.deck.cards.items()}
        await live.submit(act.TableStart(SEATS), "tl")
        await live.submit(act.GameStart(SEATS, "Dan"), "tl")
        await live.submit(act.parse_action({"do": "deal", "hands": hands}), "revisor")
        pad = live.sensing.facts.pad_of("Anna")
        await live.feed(PadContents(clock.now(), pad, frozenset({uid["9H"], uid["JS"]})))
        for _ in range(20):  # the cards settle on the pad
            clock.advance(0.2)
            await live.tick()
        assert not live.engine.state.deal.placed  # the dealer has not closed the exchange
        clock.advance(2.0)  # the exchange clock runs out
        await live.tick()
        timeouts = [a for s, a in live.accepted if s == "clock" and isinstance(a, act.Timeout)]
        mine = [a for a in timeouts if a.player == "Anna"]
        assert len(mine) == 1 and sorted(c.code for c in mine[0].cards) == ["9H", "JS"]
        g = live.engine.state.game
        assert all(g.players[p].violations == ["exchange"] for p in SEATS)
        placed = {e.player: sorted(c.code for c in e.cards) for e in live.engine.events if isinstance(e, CardsPlaced)}
        assert placed == {"Anna": ["9H", "JS"], "Bo": [], "Cilla": [], "Dan": []}


async def test_pause_from_the_console_and_the_tl(tmp_path):
    async with running(tmp_path, clock_limits={"exchange": 5}) as (live, clock, log):
        await live.submit(act.TableStart(SEATS), "tl")
        await live.submit(act.GameStart(SEATS, "Dan"), "tl")
        from table_controller.sim.bots import RandomBot

        await live.submit(RandomBot(3).next_action(live.engine), "revisor")
        live.pause("tl")
        clock.advance(60)
        await live.tick()
        assert not any(isinstance(a, act.Timeout) for _, a in live.accepted)
        assert live.clocks_view()["paused"]
        from table_controller.sensor_events import ButtonPressed

        await live.feed(ButtonPressed(clock.now(), "pause"))  # the console's pause button resumes
        assert not live.clocks_view()["paused"]


async def test_corrections_are_logged_and_bad_ones_refused(tmp_path):
    async with running(tmp_path) as (live, clock, log):
        await live.correct("the card at pad 3 is 7H", by="revisor")
        with pytest.raises(SensingError):
            await live.correct("the card is probably a seven", by="revisor")
        with pytest.raises(SensingError, match="no open alert"):
            await live.correct("dismiss 99", by="tl")
        other = SQLiteStore.open(tmp_path / "table.sqlite")
        try:
            audits = [r.data for r in other.read(1, None) if r.kind == "audit"]
        finally:
            other.close()
        assert audits and audits[0]["correction"] == "the card at seat3 is 7H" and audits[0]["who"] == "revisor"


async def test_views_of_the_snapshot_hide_hands_from_the_revisor(tmp_path):
    async with running(tmp_path) as (live, clock, log):
        q = live.subscribe()
        await live.submit(act.TableStart(SEATS), "tl")
        await live.submit(act.GameStart(SEATS, "Dan"), "tl")
        from table_controller.sim.bots import RandomBot

        await live.submit(RandomBot(3).next_action(live.engine), "revisor")
        view = None
        while not q.empty():
            _, view = q.get_nowait()
        assert all(p.hand for p in view.players)
        assert all(p["hand"] is None for p in for_role(view, "revisor").message("T", None)["state"]["players"])
