"""The TL's decisions and the table's alerts (issue 18's bugs), each on a real table log:
a correction after the table has ended (r32), the floor at 0 said out loud (r19), penalties
and corrections in the audit trail, pause and resume each with its own record, a pad
correction that settles no alert, and a Revisor's typo that does not stay an alert."""

from __future__ import annotations

import asyncio

import pytest

from dashboard.errors import DashboardError
from table_controller.app.table_files import open_table

from .test_hub import FakeClock

PLAYERS = ["Anna", "Bo", "Cilla"]
HANDS = {
    "Anna": ["2S", "5H", "8D", "JC", "KS"],
    "Bo": ["3S", "6H", "9D", "QC", "AS"],
    "Cilla": ["4S", "7H", "TD", "KC", "2D"],
}


async def _start(hub, deal: bool = True) -> None:
    await hub.post({"do": "table", "players": PLAYERS}, "tl")
    await hub.post({"do": "game", "seats": PLAYERS, "button": "Cilla"}, "tl")
    if deal:
        await hub.post({"do": "deal", "hands": HANDS}, "tl")


def _audit(hub, what: str) -> list[dict]:
    return [e for e in hub.audit_entries() if e["what"] == what]


def test_tl_corrects_a_score_after_the_table_has_ended_r32(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub, deal=False)
        for game in (1, 2, 3):  # r21: out at 52 without Chicago; the last one left wins
            if game > 1:
                await hub.post({"do": "game", "seats": PLAYERS, "button": "Cilla"}, "tl")
            await hub.post({"do": "deal", "hands": HANDS}, "tl")
            for p, points in (("Anna", 52), ("Bo", 53)):  # not equal: no särspel for second (§9)
                await hub.post({"do": "adjust", "player": p, "points": points, "reason": "to the end quickly"}, "tl")
        assert hub.view.phase == "table_over"
        bo = next(p for p in hub.view.players if p.name == "Bo").score
        answer = await hub.post({"do": "adjust", "player": "Bo", "points": 3, "reason": "miscounted pair"}, "tl")
        assert answer["ok"] and answer["applied"] == 3
        assert next(p for p in hub.view.players if p.name == "Bo").score == bo + 3
        assert hub.view.phase == "table_over"  # the correction ends nothing again
        last = _audit(hub, "adjust")[-1]
        assert (last["by"], last["player"], last["points"], last["reason"]) == ("tl", "Bo", 3, "miscounted pair")

    asyncio.run(run())


def test_a_points_penalty_says_what_the_floor_took_r19_and_is_in_the_audit_trail(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        await hub.post({"do": "adjust", "player": "Bo", "points": 2, "reason": "setup"}, "tl")
        answer = await hub.post(
            {"do": "penalty", "player": "Bo", "kind": "points", "points": 5, "reason": "slow play"}, "tl"
        )
        assert answer["applied"] == -2 and answer["asked"] == -5  # the TL is told: only 2 could go
        pen = _audit(hub, "penalty")
        assert len(pen) == 1 and pen[0]["player"] == "Bo" and pen[0]["kind"] == "points"
        assert (pen[0]["points"], pen[0]["applied"], pen[0]["reason"]) == (5, -2, "slow play")
        await hub.post({"do": "penalty", "player": "Cilla", "kind": "warning", "reason": "talking"}, "tl")
        assert [e["player"] for e in _audit(hub, "penalty")] == ["Bo", "Cilla"]
        assert [e["player"] for e in _audit(hub, "adjust")] == ["Bo"]

    asyncio.run(run())


def test_pause_and_resume_keep_their_own_reasons_and_a_second_pause_is_refused(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        hub.set_paused(True, "tl", "dispute at seat 2")
        with pytest.raises(DashboardError, match="already paused"):
            hub.set_paused(True, "tl", "dispute at seat 2")
        hub.set_paused(False, "tl", "ruling given")
        with pytest.raises(DashboardError, match="not paused"):
            hub.set_paused(False, "tl", "")
        got = [(e["what"], e.get("reason")) for e in hub.audit_entries() if e["what"] in ("pause", "resume")]
        assert got == [("pause", "dispute at seat 2"), ("resume", "ruling given")]

    asyncio.run(run())


def test_a_pad_correction_with_no_open_alert_is_refused_and_logged(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        seq = hub.seq
        with pytest.raises(DashboardError, match="No open sensing alert"):
            await hub.correct("the card at pad 3 is 7H", "tl")
        with pytest.raises(DashboardError, match="No open sensing alert"):
            await hub.correct("tag 04A1B2C3 is QS", "tl")
        assert hub.seq == seq
        refused = _audit(hub, "correction_refused")
        assert [e.get("correction") for e in refused] == ["the card at seat3 is 7H", "tag 04A1B2C3 is QS"]
        assert not _audit(hub, "correction")  # nothing reached the sensing

    asyncio.run(run())


def test_a_revisor_s_typo_is_settled_by_the_next_accepted_entry(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub, deal=False)
        with pytest.raises(DashboardError):  # the Revisor names a seat that is not there
            await hub.post({"do": "game", "seats": ["Anna", "Bo"], "button": "Bo"}, "revisor")
        with pytest.raises(DashboardError):  # a card entry: the TL must see the attempt
            await hub.post({"do": "play", "player": "Anna", "card": "AS"}, "revisor")
        open_kinds = lambda h: [(a.source, a.blind_text is None) for a in h.alerts if not a.resolved]  # noqa: E731
        assert open_kinds(hub) == [("revisor", True), ("revisor", False)]
        hub.set_paused(True, "tl", "x")  # the TL's own entries settle nothing of the Revisor's
        hub.set_paused(False, "tl", "y")
        await hub.post({"do": "deal", "hands": HANDS}, "tl")
        assert len(open_kinds(hub)) == 2
        await hub.post({"do": "timeout", "player": "Anna", "clock": "exchange"}, "revisor")  # accepted
        assert open_kinds(hub) == [("revisor", False)]  # the typo is settled, the card entry stays
        settled = _audit(hub, "resolve_alert")
        assert len(settled) == 1 and settled[0]["by"] == "revisor"
        hub.log.close()
        again, _ = open_table(tmp_path, delay=0, clock=FakeClock())  # and stays settled
        assert open_kinds(again) == [("revisor", False)]

    asyncio.run(run())


def test_the_revisor_signs_a_finished_game_and_the_tl_countersigns(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        with pytest.raises(DashboardError, match="not over"):
            hub.sign(1, "revisor")
        for p in ("Anna", "Bo"):  # r21: the game ends with Cilla left
            await hub.post({"do": "adjust", "player": p, "points": 52, "reason": "to the end"}, "tl")
        with pytest.raises(DashboardError, match="signs game 1 first"):
            hub.sign(1, "tl")
        hub.sign(1, "revisor")
        with pytest.raises(DashboardError, match="already signed"):
            hub.sign(1, "revisor")
        hub.sign(1, "tl")
        assert hub.signatures() == {"1": ["revisor", "tl"]}
        assert [(e["by"], e["game"]) for e in _audit(hub, "sign")] == [("revisor", 1), ("tl", 1)]
        hub.log.close()
        again, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        assert again.signatures() == {"1": ["revisor", "tl"]}
        assert '"signed":{"1":["revisor","tl"]}' in again.current_text("revisor")
        assert '"signed"' not in again.current_text("public")

    asyncio.run(run())


def test_a_change_of_a_signed_games_result_voids_its_signatures_and_asks_for_them_again(tmp_path):
    """RULES.md §12: the Revisor attests the protocol as it stands.  A correction after the
    sign-off (r32: the TL decides, also after the game) changes what was signed.  Stop 71's
    walk-through: both signatures, on the pages and in the printed protocol, stood over
    places that had changed after them.  Now they are void until signed again."""
    from dashboard.scoresheet.notes import facts_from_records

    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        for p in ("Anna", "Bo"):  # r21: the game ends with Cilla left
            await hub.post({"do": "adjust", "player": p, "points": 52, "reason": "to the end"}, "tl")
        hub.sign(1, "revisor")
        hub.sign(1, "tl")
        assert facts_from_records(hub.log.records()).signed[1].keys() == {"revisor", "tl"}
        await hub.post({"do": "penalty", "player": "Bo", "kind": "warning", "reason": "slow"}, "tl")
        assert hub.signatures() == {"1": ["revisor", "tl"]}  # a warning changes no result
        await hub.post({"do": "adjust", "player": "Bo", "points": 3, "reason": "a pair missed"}, "tl")
        assert hub.signatures() == {}  # void: the result changed after them
        assert facts_from_records(hub.log.records()).signed == {}  # the printed protocol says so too
        assert '"signed":{}' in hub.current_text("revisor")
        with pytest.raises(DashboardError, match="signs game 1 first"):
            hub.sign(1, "tl")
        hub.sign(1, "revisor")  # signed again, as it stands now
        hub.sign(1, "tl")
        assert hub.signatures() == {"1": ["revisor", "tl"]}
        assert [(e["by"], e["game"]) for e in _audit(hub, "sign")] == [("revisor", 1), ("tl", 1)] * 2
        hub.log.close()
        again, _ = open_table(tmp_path, delay=0, clock=FakeClock())  # read from the log the same
        assert again.signatures() == {"1": ["revisor", "tl"]}
        again.log.close()

    asyncio.run(run())


def test_a_stammer_holds_for_the_awards_it_confirmed_not_for_a_later_correction(tmp_path):
    """The Revisor's "Stämmer" confirms a scoring moment's awards as shown.  The TL's
    corrections of a deal share one moment ("tl"); stop 71's walk-through: a correction
    after the "Stämmer" showed as confirmed with it.  Now it asks again."""

    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        await hub.post({"do": "adjust", "player": "Anna", "points": 5, "reason": "a pair missed"}, "tl")
        key = "1.1.tl"
        hub.confirm_award(1, 1, "tl", "revisor")
        assert key in hub.confirmed()
        with pytest.raises(DashboardError, match="already confirmed"):
            hub.confirm_award(1, 1, "tl", "revisor")
        await hub.post({"do": "adjust", "player": "Bo", "points": 1, "reason": "one more"}, "tl")
        assert key not in hub.confirmed()  # Bo's +1 was never confirmed
        assert '"confirmed":[]' in hub.current_text("revisor")
        hub.confirm_award(1, 1, "tl", "revisor")  # both now, as shown
        assert key in hub.confirmed()
        hub.log.close()
        again, _ = open_table(tmp_path, delay=0, clock=FakeClock())  # read from the log the same
        assert key in again.confirmed()
        again.log.close()

    asyncio.run(run())


def _score(hub, name: str) -> int:
    return next(p for p in hub.view.players if p.name == name).score


def test_the_tl_voids_a_points_ruling_once_with_a_reason_and_nobody_else_may(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        await hub.post({"do": "adjust", "player": "Bo", "points": 5, "reason": "pair missed"}, "tl")
        await hub.post({"do": "penalty", "player": "Bo", "kind": "points", "points": 3, "reason": "slow"}, "tl")
        assert _score(hub, "Bo") == 2
        ruling = _audit(hub, "penalty")[-1]["seq"]
        before = (len(hub.engine.events), len(hub.audit_entries()))
        for by, reason, ruling_no in (("revisor", "wrong player", ruling), ("tl", " ", ruling), ("tl", "x", 10**9)):
            with pytest.raises((DashboardError, PermissionError)):  # a clear error (403/422), nothing changed
                await hub.void(ruling_no, by, reason)
        assert (len(hub.engine.events), len(hub.audit_entries())) == before
        answer = await hub.void(ruling, "tl", "wrong player")
        assert answer == {"ok": True, "points": 3} and _score(hub, "Bo") == 5
        void = _audit(hub, "void")[-1]
        assert (void["ruling"], void["player"], void["reason"]) == (ruling, "Bo", "wrong player")
        assert _audit(hub, "penalty")[-1]["voided"] is True
        with pytest.raises(DashboardError, match="already voided"):
            await hub.void(ruling, "tl", "again")
        assert _score(hub, "Bo") == 5

    asyncio.run(run())


def test_an_alerts_evidence_is_the_tls_and_needs_an_open_sensing_alert(tmp_path):
    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        before = len(hub.audit_entries())
        with pytest.raises(PermissionError):  # answered 403
            hub.evidence("s1", "revisor")  # names cards: never the Revisor's, whatever the alert
        with pytest.raises(DashboardError, match="no open sensing alert"):
            hub.evidence("s1", "tl")
        assert len(hub.audit_entries()) == before  # nothing shown, nothing logged

    asyncio.run(run())


def test_a_pads_picture_is_the_tls_and_needs_an_open_sensing_alert(tmp_path):
    """The camera's picture of an alert's pad (issue 18 item 3): refused to every other role
    before anything is looked up; no open alert, no picture (the route's 404 without a
    camera: tests/dashboard/test_people_flows.py, on the real service)."""

    async def run():
        hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
        await _start(hub)
        assert hub.camera is None
        for role in ("revisor", "dealer", "public", "broadcast"):
            with pytest.raises(PermissionError, match="TL"):
                await hub.pad_picture("s1", "seat1", role)
        with pytest.raises(DashboardError, match="no open sensing alert"):
            await hub.pad_picture("s1", "seat1", "tl")

    asyncio.run(run())
