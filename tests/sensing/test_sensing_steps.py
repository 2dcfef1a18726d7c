"""Sensing step by step, from pad sets built by hand (RULES.md §4, ARCHITECTURE.md §1)."""

from __future__ import annotations

import pytest

from table_controller.rules import actions as act
from table_controller.rules.phases import Phase
from table_controller.sensing import TableFacts

from .bench import HANDS, SEATS, Bench, C


def test_deal_accumulates_what_a_stack_shows_a_few_cards_at_a_time():
    b = Bench()
    # seat1's reader sees two or three of the five cards at any moment
    for part in ("AS KS", "QS JS", "9H AS KS", "JS"):
        b.pad("seat1", part)
    for i, p in enumerate(SEATS[1:], start=2):
        b.pad(f"seat{i}", HANDS[p])
    got = b.run()
    assert got == [act.Deal({p: tuple(sorted(C(HANDS[p]))) for p in SEATS})]


def test_deal_waits_for_five_and_then_asks_for_a_spread():
    b = Bench()
    b.pad("seat1", "AS KS QS JS")  # one card never read
    for i, p in enumerate(SEATS[1:], start=2):
        b.pad(f"seat{i}", HANDS[p])
    assert b.run() == []
    b.later(5.0)
    assert "unsure_count" in b.kinds()
    b.pad("seat1", "9H")  # spread: the last card shows
    assert isinstance(b.run()[0], act.Deal)
    assert "unsure_count" not in b.kinds()


def test_six_cards_on_a_pad_is_a_misdeal_alert():
    b = Bench()
    b.pad("seat1", HANDS["Anna"] + " 6C")
    assert "misdeal" in b.kinds()
    assert b.run() == []


def test_unknown_tag_holds_the_seat_until_a_correction_names_it():
    b = Bench()
    b.pad("seat1", "AS KS QS JS", extra={"04FFFFFFFFFF01"})
    for i, p in enumerate(SEATS[1:], start=2):
        b.pad(f"seat{i}", HANDS[p])
    assert b.run() == []
    alert = next(a for a in b.sensing.alerts.open if a.kind == "unknown_uid")
    assert alert.pad == "seat1" and alert.player == "Anna" and alert.evidence["uid"] == "04FFFFFFFFFF01"
    b.sensing.correct_uid("04FFFFFFFFFF01", C("9H")[0])  # an inlay replaced: this tag is 9H
    assert isinstance(b.run()[0], act.Deal)
    assert b.engine.state.deal.hands["Anna"].count(C("9H")[0]) == 1


def test_a_card_read_on_two_pads_alerts_only_when_it_stays():
    b = Bench()
    b.pad("seat1", "AS")
    b.pad("seat2", "AS")
    assert "two_pads" not in b.kinds()  # a card moving between pads shows on both briefly
    b.later(1.5)
    assert "two_pads" in b.kinds()
    b.pad("seat2", "")
    assert "two_pads" not in b.kinds()


def _to_exchange(b: Bench) -> None:
    b.deal(HANDS)


def test_discards_are_taken_when_the_dealer_presses_next_and_nothing_before():
    b = Bench()
    _to_exchange(b)
    b.pad("seat1", "9H")  # Anna places one card
    b.pad("seat2", "7D 5C")  # Bo two
    assert b.run() == []  # others may still place (r13)
    b.press("next")
    got = b.run()
    assert got == [
        act.Discard("Anna", C("9H")),
        act.Discard("Bo", C("5C 7D")),
        act.Discard("Cilla", ()),
        act.Discard("Dan", ()),
    ]


def test_open_card_declined_by_the_tray_then_the_next_card_face_down():
    b = Bench()
    _to_exchange(b)
    b.pad("seat1", "9H")
    b.press("next")
    b.run()
    b.pad("seat1", "")  # the dealer collects the discard
    b.pad("tray", "9H")
    stub = sorted(b.engine.state.deal.stub)
    b.pad("seat1", stub[0].code)  # the open card (r12)
    assert b.run() == []  # taken or declined: not known yet
    b.pad("seat1", "")
    b.pad("tray", f"9H {stub[0].code}")  # declined: it goes to the discards
    assert b.run() == [act.OpenCard("Anna", stub[0], False)]
    b.pad("seat1", stub[1].code)
    b.press("next")
    assert b.run() == [act.Receive("Anna", (stub[1],))]
    assert b.engine.phase == "exchange_2"


def test_too_many_replacements_are_the_dealers_error_and_corrected():
    b = Bench()
    _to_exchange(b)
    b.bo_places_two()
    stub = sorted(b.engine.state.deal.stub)[:3]
    b.pad("seat2", " ".join(c.code for c in stub))  # three cards for two placed
    b.press("next")
    got = b.run()
    assert got == [act.Receive("Bo", tuple(stub))]
    assert [e.type for e in b.engine.events[-1:]] == ["dealer_erred"]
    assert "dealer_count" in b.kinds()
    b.pad("seat2", " ".join(c.code for c in stub[:2]))  # the extra card goes back
    b.press("next")
    assert b.run() == [act.Receive("Bo", tuple(stub[:2]))]
    assert "dealer_count" not in b.kinds()


def test_draw_stop_player_placing_cards_raises_an_alert_and_is_not_waited_for():
    b = Bench()
    b.apply(act.Adjust("Cilla", 46, "test setup"))
    _to_exchange(b)
    b.pad("seat3", "7S")
    a = next(a for a in b.sensing.alerts.open if a.kind == "draw_stop_discard")
    assert a.player == "Cilla" and a.evidence["cards"] == ["7S"]
    b.press("next")
    got = b.run()
    assert act.Discard("Cilla", C("7S")) not in got and len(got) == 3
    b.pad("seat3", "")
    assert "draw_stop_discard" not in b.kinds()


def _to_tricks(b: Bench) -> None:
    _to_exchange(b)
    for _ in range(3):
        b.press("next")
        b.run()
    assert b.engine.phase == "tricks", b.engine.phase


def test_play_in_turn_out_of_turn_revoke_and_retract():
    b = Bench()
    _to_tricks(b)
    assert b.engine.to_act() == ["Anna"]
    b.pad("seat2", "2C")  # Bo plays before Anna
    assert b.run() == []
    assert next(a for a in b.sensing.alerts.open if a.kind == "out_of_turn").player == "Bo"
    b.pad("seat2", "")  # taken back
    assert "out_of_turn" not in b.kinds()
    b.pad("seat1", "9H")
    assert b.run() == [act.Play("Anna", C("9H")[0])]
    b.pad("seat2", "2C")  # Bo has no heart: no revoke
    b.pad("seat3", "7S")  # Cilla holds hearts: a revoke (r26)
    assert b.run() == [act.Play("Bo", C("2C")[0]), act.Play("Cilla", C("7S")[0])]
    assert "revoke" in b.kinds()
    # told to the live table as a new alert, so the log keeps it and the hub's TL screen shows
    # it (stop 63's second audit: it was only open in sensing, never recorded)
    assert "revoke" in [a.kind for a in b.sensing.take_alert_changes()[0]]
    b.pad("seat3", "")  # she takes it back before Dan plays ...
    b.later(1.0)
    # ... which the pads do not tell: sensing took a card back only when it was a revoke,
    # so a reader that lost a card for a moment told every screen that its player could
    # have followed suit (stop 67's audit).  She says it on her phone, or the TL enters it.
    assert b.run() == []
    b.apply(act.Retract("Cilla"))
    b.pad("seat3", "2H")
    assert b.run() == [act.Play("Cilla", C("2H")[0])]


def test_an_offline_reader_holds_its_seat_and_the_link_holds_all():
    b = Bench()
    _to_tricks(b)
    b.reader("seat1", False)
    b.pad("seat1", "9H")
    assert b.run() == [] and "reader_offline" in b.kinds()
    b.reader("seat1", True)
    assert b.run() == [act.Play("Anna", C("9H")[0])]
    from table_controller.sensor_events import LinkStatus

    b.sensing.observe(LinkStatus(b.t, False))
    b.pad("seat2", "2C")
    assert b.run() == [] and "link_offline" in b.kinds()
    b.sensing.observe(LinkStatus(b.t, True))
    assert b.run() == [act.Play("Bo", C("2C")[0])]


def test_an_offline_camera_is_alerted_and_the_readers_play_on():
    """Issue 16 item 3: the camera's own link going down holds nobody; its old views are
    no evidence any more, and the alert ends when frames return."""
    from table_controller.sensor_events import CAMERA_DEVICE, LinkStatus

    b = Bench()
    _to_tricks(b)
    b.sensing.observe(LinkStatus(b.t, False, CAMERA_DEVICE, "no frame for 2 s"))
    assert b.sensing.link_ok and not b.sensing.camera_ok and not b.sensing.camera.views
    (alert,) = [a for a in b.sensing.alerts.open if a.kind == "camera_offline"]
    assert not alert.holds and alert.player is None
    b.pad("seat1", "9H")
    assert b.run() == [act.Play("Anna", C("9H")[0])]  # the readers play on
    b.sensing.observe(LinkStatus(b.t, True, CAMERA_DEVICE))
    assert "camera_offline" not in b.kinds()


def test_camera_count_above_the_reads_asks_for_a_spread():
    b = Bench()
    _to_exchange(b)
    b.pad("seat2", "7D 5C")  # the reader sees two of the three placed cards
    b.camera("seat2", 3)
    b.press("next")
    got = b.run()
    assert act.Discard("Anna", ()) in got and all(getattr(a, "player", "") != "Bo" for a in got)
    alert = next(a for a in b.sensing.alerts.open if a.kind == "unsure_count")
    assert alert.player == "Bo" and alert.evidence == {"camera": 3, "rfid": 2}
    b.pad("seat2", "7D 5C 4C")  # spread: all three read
    assert act.Discard("Bo", C("4C 5C 7D")) in b.run()


def test_camera_fills_in_a_play_the_reader_missed_and_disagreement_alerts():
    """The camera fills in a card the reader has missed for ``unsure_s`` (2 s), not before:
    a misread taken at once when it named a card of the player's hand, while another waited
    for the reader, told everyone what the player held (stop 73's third audit)."""
    b = Bench()
    _to_tricks(b)
    b.camera("seat1", 0, "9H")
    assert b.run() == []  # the reader may still read it
    b.later(1.0)
    b.camera("seat1", 0, "9H")  # frame after frame
    assert b.run() == []
    b.later(1.0)
    assert b.run() == [act.Play("Anna", C("9H")[0])]  # missed for 2 s: the camera's card
    b.pad("seat3", "2C")  # the reader puts Bo's card, still hidden, at seat3 ...
    b.camera("seat2", 0, "2C")  # ... the camera sees it at seat2: where a hidden card lies is no alert
    assert "camera_disagrees" not in b.kinds()
    b.pad("seat3", "")
    b.pad("seat4", "9H")  # the reader puts Anna's card, seen by all, at seat4 ...
    b.camera("seat1", 0, "9H")  # ... the camera where she played it
    assert "camera_disagrees" in b.kinds()


def test_alerts_shown_at_the_table_name_no_card():
    from table_controller.rules.cards import FULL_DECK
    from table_controller.views import build_view, for_role

    b = Bench()
    b.apply(act.Adjust("Cilla", 46, "test setup"))
    _to_exchange(b)
    b.pad("seat3", "7S")  # a hidden card from Cilla's hand
    alert = next(a for a in b.sensing.alerts.open if a.kind == "draw_stop_discard")
    assert "7S" in alert.text  # the TL's view has the evidence
    for role in ("revisor", "tl"):  # what the role filter lets the table see of it
        (public,) = [a.to_dict() for a in for_role(build_view(b.engine, [alert]), role).alerts or ()]
        shown = str(public)
        assert not any(c.code in shown.split() or f"'{c.code}'" in shown for c in FULL_DECK)
        assert "seat3 (Cilla)" in public["text"]


def _bo_replaces_two_and_the_quiet_pad_completes_them(b: Bench) -> list:
    """Exchange 1: Bo places two cards, everyone else keeps their hand, the dealer's *next*
    closes the placement (its actions returned); Bo's replacements lie on his pad, the press
    for them is lost, and the quiet pad (settle_s) completes them."""
    _to_exchange(b)
    b.pad("seat2", "7D 5C")
    b.press("next")
    placed = b.run()
    b.pad("seat2", "")
    stub = sorted(b.engine.state.deal.stub)[:2]
    b.pad("seat2", " ".join(c.code for c in stub))
    b.later(3.0)
    assert b.run() == [act.Receive("Bo", tuple(stub))]
    return placed


def test_a_late_next_for_replacements_the_quiet_pad_completed_does_not_close_the_next_placement_classic_seed13_rough_r13():
    """Seed sweep, classic seed 13 (rough noise): the dealer's *next* for Bo's replacements
    was lost on the line twice; the dealer pressed a third time just as the quiet pad
    (settle_s) completed them.  That press came 20 ms into the next exchange and closed
    its placement before anyone had placed: four empty discards (r13)."""
    b = Bench()
    assert len(_bo_replaces_two_and_the_quiet_pad_completes_them(b)) == 4
    assert b.engine.phase == "exchange_2"
    b.later(0.01)
    b.press("next")  # the dealer's press for Bo, a moment late
    assert b.run() == []  # not "everyone discards nothing"
    b.pad("seat2", "")  # the players pick up, then place
    b.pad("seat1", "9H")
    b.press("next")  # the dealer closes the placement
    assert b.run() == [
        act.Discard("Anna", C("9H")),
        act.Discard("Bo", ()),
        act.Discard("Cilla", ()),
        act.Discard("Dan", ()),
    ]


def test_a_next_long_after_the_quiet_pad_completed_replacements_closes_the_placement_r13():
    b = Bench()
    _bo_replaces_two_and_the_quiet_pad_completes_them(b)
    b.later(b.sensing.late_press_s)  # everyone keeps their hand; the dealer moves on
    b.press("next")
    assert [a.player for a in b.run()] == ["Anna", "Bo", "Cilla", "Dan"]


def test_the_facts_phase_is_a_member_of_the_phases_and_a_misspelt_one_is_refused():
    assert TableFacts(phase="exchange_2").phase is Phase.EXCHANGE_2  # text, as a replayed document has it
    assert TableFacts().phase is Phase.GAME_START
    with pytest.raises(ValueError, match="'trick' is not a valid Phase"):
        TableFacts(phase="trick")


def test_replacements_still_short_after_the_dealers_next_ask_for_a_spread_once_unsure_s_passed_r14():
    # The dealer gives Bo one card of the two he placed and presses next: done, short.  Only
    # after unsure_s does sensing ask for a spread (a reader may yet read the second), and a
    # tick asks about the time only then (Sensing.waited): the tick just before finds nothing.
    b = Bench()
    _to_exchange(b)
    b.bo_places_two()
    stub = sorted(b.engine.state.deal.stub)[:1]
    b.pad("seat2", stub[0].code)
    b.press("next")
    assert b.run() == []
    done = b.t
    for _ in range(19):  # ticks every 0.1 s up to just before unsure_s
        b.later(0.1 - 1e-9)
        assert "unsure_count" not in b.kinds(), b.t - done
    b.later(done + b.sensing.unsure_s - b.t)
    alert = next(a for a in b.sensing.alerts.open if a.kind == "unsure_count")
    assert alert.player == "Bo" and alert.evidence["owed"] == 2


def test_a_card_taken_back_while_it_still_lies_on_the_pad_is_not_played_again_until_it_has_left_r26():
    """The take-back is the player's (phone) or the TL's; said while the card still lay on
    the pad, sensing saw a card of her hand on her pad at her turn and played it again at
    once, the revoke standing (stop 67's review).  It counts again once it has left the pad."""
    b = Bench()
    _to_tricks(b)
    b.pad("seat1", "9H")
    b.pad("seat2", "2C")
    b.pad("seat3", "7S")  # a revoke: Cilla holds hearts
    assert b.run() == [act.Play("Anna", C("9H")[0]), act.Play("Bo", C("2C")[0]), act.Play("Cilla", C("7S")[0])]
    b.apply(act.Retract("Cilla"))  # her phone, the 7S still on the pad
    b.later(1.0)
    assert b.run() == []
    b.pad("seat3", "")  # she lifts it
    b.later(1.0)
    assert b.run() == []
    b.pad("seat3", "7S")  # and plays it again: her choice, a revoke again
    assert b.run() == [act.Play("Cilla", C("7S")[0])]


@pytest.mark.parametrize("rfid", [True, False], ids=["readers", "camera-only"])
@pytest.mark.parametrize("lifted_first", [False, True], ids=["said-first", "lifted-first"])
def test_a_card_taken_back_and_played_again_is_sensed_whatever_came_first_r26(rfid, lifted_first):
    """The card lifted before or after the take-back was said, on readers or by the camera
    alone: played again, it is sensed (stop 67's second review: on a camera-only table a
    card lifted first, then put down again before the camera's next view, stayed unsensed)."""
    b = Bench(rfid=rfid)
    b.apply(act.Deal({p: C(HANDS[p]) for p in SEATS}))
    for _ in range(3):
        for p in SEATS:
            b.apply(act.Discard(p, ()))

    def show(pad: str, codes: str) -> None:
        if rfid:
            b.pad(pad, codes)
        else:
            b.camera(pad, 0, codes)

    for pad, card in (("seat1", "9H"), ("seat2", "2C"), ("seat3", "7S")):
        show(pad, card)
    assert [a.card.code for a in b.run()] == ["9H", "2C", "7S"]  # Cilla's 7S: a revoke
    if lifted_first:
        show("seat3", "")
        b.later(1.0)
        b.apply(act.Retract("Cilla"))
    else:
        b.apply(act.Retract("Cilla"))
        b.later(1.0)
        assert b.run() == []  # still on the pad: not played again
        show("seat3", "")
    b.later(1.0)
    assert b.run() == []
    show("seat3", "7S")
    assert b.run() == [act.Play("Cilla", C("7S")[0])]
