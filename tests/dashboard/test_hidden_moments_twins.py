"""What the TL does out of a blind role's sight must not show in that role's stream, not
even as when its messages were made or how its clocks stood (stop 73's twin-table audit of
the running server; the harness is ``test_sensing_twins``: two tables in process on one fake
clock, fed the same, differing in one hidden card).

Two things leaked there: every message carried the moment (``at``) and the shot clocks of
the last change published to anyone, so a change a blind role may not see (the TL
dismissing a TL-only revoke alert) showed in that role's next message; and the table kept
its newest 200 alerts of all kinds, so each refused entry of the TL, which a blind role is
not shown, pushed one the Revisor was shown off its full list.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from dashboard.errors import DashboardError

from .test_sensing_twins import NO_REVOKE, REVOKE, Twin
from .test_sensing_twins import twins as sensing_twins

TAG = re.compile(r'"id": ?"([st][0-9a-f]{12})"')


def untagged(stream: list[str]) -> list[str]:
    """A blind role's stream with each alert's tag (``views.blind_alert_id``: a keyed hash
    of its record, the key the server's own, drawn at its start) as the order in which it
    first came: the twins number their records alike only up to the TL's refused dismissal
    (its audit record), and a tag tells a blind role nothing but which alert it is."""
    seen: dict[str, str] = {}
    return [TAG.sub(lambda m: f'"id":"#{seen.setdefault(m[1], str(len(seen)))}"', text) for text in stream]


def twins(tmp_path, scenario, hands_a, hands_b, **kw) -> list[str]:
    """The roles whose streams differ between the two tables (tags as ``untagged``)."""
    return sensing_twins(tmp_path, scenario, hands_a, hands_b, seen=untagged, **kw)


async def _refused(t: Twin, coro) -> None:
    with pytest.raises(DashboardError):
        await coro
    t.collect()


async def _revoke_then_dismiss(t: Twin, hands) -> None:
    """sm2019: Bo's 4C on Anna's AS (a revoke with REVOKE's hands); three seconds on, the TL
    dismisses sensing alert 1 (the revoke's, or none: refused); three seconds more."""
    await t.start("sm2019", hands)
    await t.tl({"do": "play", "player": "Anna", "card": "AS"})
    await t.tl({"do": "play", "player": "Bo", "card": "4C"})
    await t.wait(3.0)
    if hands is REVOKE:
        await t.hub.correct("dismiss 1", "tl")
        t.collect()
    else:
        await _refused(t, t.hub.correct("dismiss 1", "tl"))
    await t.wait(3.0)


def test_the_tl_dismissing_a_hidden_revoke_alert_shows_in_no_blind_roles_next_message_r26(tmp_path):
    """sm2019: Bo's 4C on Anna's spade lead is a revoke in A (he holds the 2S), a legal card
    in B; the revoke alert is the TL's alone (r26).  Three seconds on, the TL dismisses
    sensing alert 1 on both tables (A: the revoke alert; B: there is none, refused); three
    seconds later the Revisor enters a card, refused with the one answer it always gets.
    The Revisor's message after that carried, in A alone, the moment of the dismissal and
    the clocks as they stood then (Cilla's play clock 3 s fuller)."""

    async def scenario(t: Twin, hands) -> None:
        await _revoke_then_dismiss(t, hands)
        await _refused(t, t.hub.post({"do": "play", "player": "Dan", "card": "KD"}, "revisor"))
        await t.wait(0.5)
        rev = [json.loads(m) for m in t.got["revisor"]]
        assert rev[-1]["alerts"], "the Revisor's refused entry is an alert on its page"
        assert rev[-1]["state"]["clocks"]["running"]["Cilla"]["remaining"] < 20.0

    assert twins(tmp_path, scenario, REVOKE, NO_REVOKE) == ["tl"]


def test_a_connecting_page_gets_no_moment_of_a_change_it_may_not_see_r26(tmp_path):
    """The same, with the Revisor's page opened (or reconnected) after the dismissal: its
    first message is made as it connects, not at the last change published."""

    async def scenario(t: Twin, hands) -> None:
        await _revoke_then_dismiss(t, hands)
        for role in ("revisor", "public", "dealer", "seat1"):  # as the stream's route connects a page
            t.got[role].append(t.hub.connect(role).queue.get_nowait())

    assert twins(tmp_path, scenario, REVOKE, NO_REVOKE) == ["tl"]


def test_the_tls_refused_entries_push_no_alert_off_a_blind_roles_full_list(tmp_path, monkeypatch):
    """A camera-only table: the Revisor's refused card entries fill the list to the cap;
    then, in A alone, the TL enters a discard of Cilla's that is refused (Bo holds the KC):
    whether the TL's entry was refused may turn on where a card lies, so a blind role is not
    shown it (stop 66).  The Revisor's list lost its oldest alert in A alone.  The cap is
    200 (``ALERTS_KEPT``); here 12, since a role's refusals are stored 20 a minute of the
    wall clock (store.refusals) and the audit took two minutes to fill 200."""
    monkeypatch.setattr("dashboard.hub.ALERTS_KEPT", 12)
    hands_a = {**REVOKE, "Bo": ["KC", "4C", "4D", "8C", "TD"]}

    async def scenario(t: Twin, hands) -> None:
        players = list(hands)
        await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
        await t.tl({"do": "game", "seats": players, "button": players[-1]})
        await t.tl({"do": "deal", "hands": hands})
        for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"):
            await _refused(t, t.hub.post({"do": "play", "player": "Anna", "card": card}, "revisor"))
        assert len(json.loads(t.got["revisor"][-1])["alerts"]) == 12  # full: the oldest went
        if hands is hands_a:
            await _refused(t, t.hub.post({"do": "discard", "player": "Cilla", "cards": ["KC"]}, "tl"))
        else:
            t.collect()  # as often as in A (the harness takes the broadcast's frame at each)
        assert len(json.loads(t.got["revisor"][-1])["alerts"]) == 12

    assert twins(tmp_path, scenario, hands_a, dict(hands_a), rfid=False) == ["tl"]


def test_a_tl_correction_at_a_pad_ends_the_stuck_tables_wait_whether_or_not_a_hidden_alert_is_there_r26(tmp_path):
    """sm2019: Bo's 4C on Anna's spade lead, a revoke in A (the TL's alert, at his pad)
    and legal in B; nobody plays on and the table is stuck (every screen: "waiting for
    Cilla").  The TL corrects the card at Bo's pad: in A it settles the revoke's alert and
    counted as activity (the wait began again, the notice gone on every screen), in B there
    was no alert to settle, refused, and the notice stayed: everyone learnt of the revoke.
    A correction is the TL's activity at the table either way now (stop 73's second audit)."""
    from table_controller.live.stuck import StuckWatch

    async def scenario(t: Twin, hands) -> None:
        await t.start("sm2019", hands)
        await t.pad("seat1", ["AS"])
        await t.pad("seat2", ["4C"])
        watch = StuckWatch(t.live, after_s=4)

        async def wait(seconds: float) -> None:
            for _ in range(round(seconds / 0.5)):
                t.clock.advance(0.5)
                await t.live.tick()
                await watch.check()
            t.collect()

        await wait(6.0)
        assert t.live.waiting is not None  # stuck: "waiting for Cilla" on every screen
        correction = "the card at pad 2 is 4C"
        if hands is REVOKE:
            await t.hub.correct(correction, "tl")
            t.collect()
        else:
            await _refused(t, t.hub.correct(correction, "tl"))
        await wait(1.0)
        assert t.live.waiting is None  # the TL acted: the wait begins again
        await wait(5.0)
        assert t.live.waiting is not None

    assert twins(tmp_path, scenario, REVOKE, NO_REVOKE) == ["tl"]


def test_a_camera_misread_is_not_taken_before_the_reader_had_its_moment_r25(tmp_path):
    """A table with readers: Bo plays the 6C on Anna's AS; the camera misreads it as the 9C
    (6 and 9) and the reader reads the 6C half a second later.  In A Bo also holds the 9C,
    in B Cilla does.  The camera's card was played at once in A alone (a wrong card, and
    everyone learnt that Bo held the 9C), while B waited for the reader.  The camera fills
    in only a read the reader has missed for ``unsure_s`` now (stop 73's third audit)."""
    a = {
        "Anna": ["AS", "KS", "QS", "3H", "5D"],
        "Bo": ["2H", "6C", "9C", "8D", "TD"],
        "Cilla": ["3C", "5C", "7C", "JC", "QD"],
        "Dan": ["3D", "6D", "4D", "2S", "7H"],
    }
    b = {**a, "Bo": ["2H", "6C", "KC", "8D", "TD"], "Cilla": ["3C", "5C", "7C", "9C", "QD"]}

    async def scenario(t: Twin, hands) -> None:
        await t.start("sm2025", hands)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.camera("seat2", [("9C", 0.9)])  # the misread; the reader has not read the card yet
        await t.wait(0.5)
        await t.pad("seat2", ["6C"])
        await t.wait(3.0)
        assert [a.to_dict() for _, a in t.live.accepted][-1] == {"do": "play", "player": "Bo", "card": "6C"}

    assert twins(tmp_path, scenario, a, b) == []  # the TL's too: no hand is shown to it unasked


def test_a_restarted_table_keeps_the_newest_alerts_of_each_sight_r26(tmp_path, monkeypatch):
    """The cap of each sight holds after a restart too (the alerts read back from the log):
    there the newest 200 of every kind together were kept, so the TL's refused entries
    pushed alerts off the Revisor's list again."""
    monkeypatch.setattr("dashboard.hub.ALERTS_KEPT", 12)

    async def run() -> list[int]:
        shown = []
        for name, tl_refused in (("a", True), ("b", False)):
            t = Twin(tmp_path / name, rfid=False)
            try:
                players = list(REVOKE)
                await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
                await t.tl({"do": "game", "seats": players, "button": players[-1]})
                await t.tl({"do": "deal", "hands": REVOKE})
                for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"):
                    await _refused(t, t.hub.post({"do": "play", "player": "Anna", "card": card}, "revisor"))
                if tl_refused:
                    await _refused(t, t.hub.post({"do": "discard", "player": "Cilla", "cards": ["4C"]}, "tl"))
            finally:
                t.close()
            again = Twin(tmp_path / name, rfid=False)  # the same table started again
            try:
                shown.append(len(json.loads(again.hub.current_text("revisor"))["alerts"]))
            finally:
                again.close()
        return shown

    assert asyncio.run(run()) == [12, 12]
