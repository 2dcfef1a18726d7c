"""SM 2025 scoring, Chicago, tricks, game and table results (RULES.md §2, §5-§11)."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.rules.script import ANNA_SWEEPS, JUNK, Script, awards

PAIR_ANNA = dict(JUNK, Anna="AS AH QS JS 9H")


def reasons(doc):
    return [r["reason"] for r in doc["rejected"]]


def test_ace_low_straight_is_the_lowest_straight__sm2025_d1():
    from table_controller.rules.cards import parse_cards
    from table_controller.rules.hands import Category, evaluate

    wheel = evaluate(parse_cards("AS 2H 3D 4C 5S".split()))
    six = evaluate(parse_cards("2H 3D 4C 5S 6S".split()))
    assert wheel.category == Category.STRAIGHT and wheel < six
    assert evaluate(parse_cards("AS KH QD JC TS".split())) > six


def test_hand_points_table__sm2025_r19():
    cases = {
        "one_pair": ("AS AH QS JS 9H", 1),
        "two_pair": ("AS AH QS QD 9H", 2),
        "three_of_a_kind": ("AS AH AD JS 9H", 3),
        "straight": ("9S TH JD QC KS", 4),
        "flush": ("AS 3S 5S 7S 9S", 5),
        "full_house": ("AS AH AD 9S 9H", 6),
    }
    for reason, (hand, points) in cases.items():
        others = {"Bo": "2C 3C 4D 6D 8H", "Cilla": "2D 5C 7C 4S TC", "Dan": "3D 5D 7D 2H 4H"}
        used = set(hand.split())
        if used & set(" ".join(others.values()).split()):
            others = {"Bo": "2C 3C 4D 6D 8H", "Cilla": "2D 5C 7C 8C TC", "Dan": "3D 5D 7D 2H 4H"}
        doc = Script().deal(Anna=hand, **others).stand().doc()
        assert doc["rejected"] == [], reason
        assert awards(doc) == [("Anna", points, reason)], reason


def test_only_the_single_best_hand_scores__sm2025_r19():
    doc = (
        Script()
        .deal(Anna="AS AH QS JS 9H", Bo="2C 2S 4D 4C 8H", Cilla="2D 5C 7C 9C TC", Dan="3D 5D 7D 2H 4H")
        .stand()
        .doc()
    )
    assert awards(doc) == [("Bo", 2, "two_pair")]


def test_exactly_equal_best_hands_score_nothing__sm2025_d2():
    doc = (
        Script()
        .deal(Anna="KS KH 2C 5D 9S", Bo="KD KC 2D 5C 9H", Cilla="3S 6H 8C TD QC", Dan="4S 7H JC AD 3D")
        .stand()
        .doc()
    )
    assert awards(doc) == []


def test_straight_flush_goes_out_at_52_and_others_keep_scores__sm2025_r19():
    doc = (
        Script()
        .deal(Anna="AS AD 3C 4C 6S", Bo="5H 6H 7H 8H 9H", Cilla="2D 5C 7C 9C JD", Dan="3D 5D 8D 2C KS")
        .adjust("Cilla", 7)
        .stand()
        .doc()
    )
    g = doc["games"][0]
    assert g["finished"] and g["winner"] == "Bo" and g["said_chicago"] == []
    assert g["scores"] == {"Anna": 0, "Bo": 52, "Cilla": 7, "Dan": 0}
    assert ("Bo", 52, "straight_flush") in awards(doc)


def test_equal_straight_flushes_ranked_by_suit_spades_highest__sm2025_r19():
    doc = (
        Script()
        .deal(Anna="5H 6H 7H 8H 9H", Bo="5S 6S 7S 8S 9S", Cilla="2D 3C 7C 9C JD", Dan="3D 5D 8D 2C KS")
        .stand()
        .doc()
    )
    assert doc["games"][0]["winner"] == "Bo"


def test_royal_flush_goes_out_and_zeroes_everyone_keeping_chicagos__sm2025_r19():
    s = Script().deal(Anna="AS AD 3C 4C 6S", Bo="5H 6H 7C 8D JS", Cilla="AH KH QH JH 2C", Dan="3D 5D 8C 2S KS")
    s.stand().stand("Anna", "Bo", "Dan").discard("Cilla", "2C").open("Cilla", "TH", take=True)
    doc = s.doc()
    g = doc["games"][0]
    assert g["winner"] == "Cilla" and g["scores"]["Anna"] == 0
    assert awards(doc) == [("Anna", 1, "one_pair"), ("Cilla", 52, "royal_flush"), ("Anna", -1, "zeroed")]


def test_quads_zero_ends_the_deal_and_keeps_chicago_marks__sm2025_r19_d6():
    s = Script().deal(**JUNK).adjust("Bo", 20).stand().stand().stand().chicago("Bo", True)
    # Bo said Chicago but loses the first trick to Anna's AS... Anna leads? No: Bo leads.
    s.play("Bo 8H", "Cilla TC", "Dan 4H")  # Dan does not beat 8H; Anna must follow: 9H wins
    s.play("Anna 9H")
    s.deal(Anna="AS KD 3C 4C 6S", Bo="5H 6H 8C 9D JS", Cilla="AH KH QD JH 2C", Dan="7S 7H 7D 7C 2S")
    s.stand().add(do="quads", player="Dan", choice="zero")
    doc = s.doc()
    g = doc["games"][0]
    assert doc["rejected"] == []
    assert "Bo" in g["said_chicago"]  # D6: the mark stays
    assert all(v == 0 for p, v in g["scores"].items() if p != "Dan")
    assert doc["current"]["deal"] == 3 and doc["current"]["phase"] == "deal"


def test_quads_points_score_eight_at_every_later_moment__sm2025_r19():
    from table_controller.rules.replay import replay_lines

    path = "table_controller/examples/quads_points.jsonl"
    _, doc = replay_lines(Path(path).read_text().splitlines())
    dan = [a for a in awards(doc) if a[0] == "Dan"]
    assert dan == [("Dan", 8, "four_of_a_kind")] * 3


def test_quads_choice_cannot_change_within_the_deal__sm2025_r19():
    s = Script().deal(Anna="AS KS QS JS 9H", Bo="2C 3C 4C 6D 8D", Cilla="3D 5D 9D TC QC", Dan="7S 7H 7D 7C 2S")
    s.stand().add(do="quads", player="Dan", choice="points").stand()
    s.add(do="quads", player="Dan", choice="zero")
    doc = s.doc()
    assert "not asked" in reasons(doc)[0]
    assert [a for a in awards(doc)] == [("Dan", 8, "four_of_a_kind")] * 2


def test_score_never_below_zero__sm2025_r19():
    s = Script().deal(**JUNK).adjust("Anna", 16).stand().stand().stand().chicago("Anna", True)
    s.play(
        "Anna AS",
        "Bo 2C",
        "Cilla 2D",
        "Dan 3D",
        "Anna KS",
        "Bo 3C",
        "Cilla 5C",
        "Dan 5D",
        "Anna QS",
        "Bo 4D",
        "Cilla 7C",
        "Dan 7D",
        "Anna JS",
        "Bo 6D",
        "Cilla 9C",
        "Dan 2H",
        "Anna 9H",
        "Bo 8H",
        "Cilla TC",
        "Dan 4H",
    )
    doc = s.doc()
    assert doc["games"][0]["scores"]["Anna"] == 31
    s2 = Script().deal(**dict(JUNK, Cilla="2D 5C 7C 9C TH")).adjust("Anna", 16).stand().stand().stand()
    s2.chicago("Anna", True).play(*ANNA_SWEEPS[:17], "Bo 8H", "Cilla TH")
    doc = s2.doc()
    assert doc["games"][0]["scores"]["Anna"] == 1  # 16 - 15
    s3 = Script().deal(**JUNK).adjust("Anna", 5).add(do="penalty", player="Anna", kind="points", points=9, reason="x")
    assert s3.doc()["games"][0]["scores"]["Anna"] == 0


def test_chicago_needs_15_points__sm2025_r20():
    s = Script().deal(**JUNK).adjust("Anna", 14).stand().stand().stand().chicago("Anna", True)
    doc = s.doc()
    assert "Chicago needs at least 15 (r20)" in reasons(doc)[0]
    assert doc["current"]["phase"] == "tricks"  # nobody was asked


def test_winning_needs_a_chicago_said_this_game__sm2025_r20_r30():
    s = Script().deal(**JUNK).adjust("Anna", 20).stand().stand().stand().chicago("Anna", True)
    s.play(*ANNA_SWEEPS)  # Anna 35, Chicago said
    s.deal(Anna="AS AH AD 9S 9H", Bo="2C 3C 4D 6D 8H", Cilla="2D 5C 7C 4S TC", Dan="3D 5D 7D 2H 4H")
    s.adjust("Anna", 12).stand()  # 47 + full house 6 = 53 during the exchanges: she wins
    doc = s.doc()
    g = doc["games"][0]
    assert g["finished"] and g["winner"] == "Anna" and g["scores"]["Anna"] == 53


def test_reaching_52_without_chicago_loses_at_once__sm2025_r21_d9():
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines(Path("table_controller/examples/out_without_chicago.jsonl").read_text().splitlines())
    g = doc["games"][0]
    assert g["out_without_chicago"] == ["Bo"] and not g["finished"]
    # exchange 2 was scored without Bo, and exchange 3 waits for the three still in
    assert doc["current"]["phase"] == "exchange_3"
    assert doc["current"]["to_act"] == ["Anna", "Cilla", "Dan"]


def test_out_player_is_placed_last_with_no_placement_points__sm2025_d9():
    s = Script().deal(Anna="AS AH QS JS 9H", Bo="2C 2S 4D 4C 8H", Cilla="2D 5C 7C 9C TC", Dan="3D 5D 7D 2H 4H")
    s.adjust("Bo", 50).adjust("Cilla", 20).stand()  # Bo out with 52
    s.stand("Anna", "Cilla", "Dan").stand("Anna", "Cilla", "Dan").chicago("Cilla", True)
    s.adjust("Cilla", 32)  # TL correction takes Cilla (20, Chicago said) to 52: she wins
    doc = s.doc()
    g = doc["games"][0]
    assert g["winner"] == "Cilla"
    assert g["places"]["Bo"] == 4 and g["placement_points"]["Bo"] == 0
    assert g["placement_points"]["Cilla"] == 20


def test_chicago_question_in_turn_and_first_yes_stops__sm2025_r22_d3():
    s = Script().deal(**JUNK).adjust("Bo", 20).adjust("Dan", 30).adjust("Anna", 15).stand().stand().stand()
    s.chicago("Dan", True)  # out of turn: Bo is asked first (left of the button Dan: Anna, Bo, ...)
    s.chicago("Anna", False).chicago("Bo", True).chicago("Dan", True)
    doc = s.doc()
    assert "asks in turn" in reasons(doc)[0]
    assert "no Chicago question now" in reasons(doc)[1]
    assert doc["games"][0]["said_chicago"] == ["Bo"]


def test_chicago_answer_cannot_be_taken_back__sm2025_r22():
    s = Script().deal(**JUNK).adjust("Anna", 20).stand().stand().stand()
    s.chicago("Anna", False).chicago("Anna", True)
    doc = s.doc()
    assert len(doc["rejected"]) == 1 and doc["games"][0]["said_chicago"] == []


def test_chicago_player_leads_and_no_other_points__sm2025_r23():
    hands = dict(JUNK, Bo="2C 2S 4D 6D 8H")  # Bo has a pair: it would score in the final
    s = Script().deal(**hands).adjust("Bo", 20).stand().stand().stand().chicago("Bo", True)
    s.play("Anna AS")
    doc = s.doc()
    assert "out of turn" in reasons(doc)[0]  # Bo leads (r23)


def test_chicago_won_gives_15_and_a_star__sm2025_r10_r23():
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines(Path("table_controller/examples/chicago_won.jsonl").read_text().splitlines())
    g = doc["games"][0]
    assert g["won_chicagos"] == {"Anna": 1} and g["said_chicago"] == ["Anna"]
    assert awards(doc)[-1] == ("Anna", 15, "chicago_won")
    assert not [a for a in awards(doc) if a[2] == "last_trick"]


def test_first_to_break_chicago_gets_10_and_trick_play_ends__sm2025_r24_d8():
    s = Script().deal(**dict(JUNK, Dan="3D 5D 7D 2H JH", Cilla="2D 5C 7C 9C QH")).adjust("Anna", 20)
    s.stand().stand().stand().chicago("Anna", True)
    s.play(*ANNA_SWEEPS[:16])
    s.play("Anna 9H", "Bo 8H", "Cilla QH")  # Cilla is the first to beat 9H
    s.play("Dan JH")  # too late: the trick play ended (D8)
    doc = s.doc()
    assert awards(doc)[-2:] == [("Anna", -15, "chicago_lost"), ("Cilla", 10, "chicago_broken")]
    assert len(doc["rejected"]) == 1 and doc["current"]["phase"] == "deal"


def test_left_of_the_dealer_leads_without_chicago__sm2025_r25():
    s = Script(button="Bo").deal(**JUNK).stand().stand().stand().play("Anna AS")
    doc = s.doc()
    assert "out of turn: Cilla plays next" in reasons(doc)[0]


def test_follow_suit_revoke_makes_the_hand_dead_and_it_still_scores__sm2025_r26():
    from table_controller.rules.replay import replay_lines

    engine, doc = replay_lines(Path("table_controller/examples/revoke.jsonl").read_text().splitlines())
    assert doc["rejected"] == []
    assert awards(doc)[-2:] == [("Dan", 10, "last_trick_two"), ("Bo", 1, "one_pair")]
    assert engine.state.games[0].players["Bo"].warnings == 1


def test_revoke_corrected_before_the_next_card_is_no_fault__sm2025_r26():
    s = Script().deal(Anna="AS KS QS 3H 5D", Bo="2S 4C 4D 8C TD", Cilla="3C 5C 7C 9C JD", Dan="3D 6D 8D 2H 7H")
    s.stand().stand().stand().play("Anna AS", "Bo 4C").add(do="retract", player="Bo").play("Bo 2S", "Cilla 3C")
    engine, doc = s.run()
    assert doc["rejected"] == []
    assert "Bo" not in engine.state.deal.dead and engine.state.games[0].players["Bo"].warnings == 0


def test_only_a_revoke_can_be_taken_back__sm2025_r26():
    s = Script().deal(**JUNK).stand().stand().stand().play("Anna AS").add(do="retract", player="Anna")
    assert "only a revoke" in reasons(s.doc())[0]


def test_last_trick_5_or_10_with_a_two__sm2025_r27():
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines(Path("table_controller/examples/last_trick_two.jsonl").read_text().splitlines())
    assert awards(doc) == [("Anna", 10, "last_trick_two")]
    doc = Script().deal(**JUNK).stand().stand().stand().play(*ANNA_SWEEPS).doc()
    assert awards(doc) == [("Anna", 5, "last_trick")]


def test_special_hands_checked_before_the_chicago_question__sm2025_r28():
    s = Script().deal(Anna="AS KS QS JS 9H", Bo="2C 3C 4C 6D 8D", Cilla="3D 5D 9D TC QC", Dan="7S 7H 7D 2H 2S")
    s.adjust("Anna", 20).stand().stand().stand("Anna", "Bo", "Cilla").discard("Dan", "2S").open("Dan", "7C", take=True)
    doc = s.doc()
    # r28: a four of a kind that zeroes is announced; nobody is asked (stop 64: the question
    # told the table that Dan held one), so the Chicago question is put and Dan may announce
    assert doc["current"]["phase"] == "chicago" and doc["current"]["to_act"] == ["Anna"]
    s.add(do="quads", player="Dan", choice="zero")
    doc = s.doc()
    assert doc["rejected"] == []
    assert doc["games"][0]["scores"]["Anna"] == 0 and doc["current"]["phase"] == "deal"


def test_played_cards_are_face_up_in_every_view__sm2025_r29():
    from table_controller.views import build_view, for_role

    engine, _ = Script().deal(**JUNK).stand().stand().stand().play("Anna AS", "Bo 2C").run()
    view = for_role(build_view(engine), "public").message("T", None)["state"]
    anna = next(p for p in view["players"] if p["name"] == "Anna")
    assert anna["played"] == ["AS"] and anna["hand"] is None
    assert view["trick"]["cards"] == [{"player": "Anna", "card": "AS"}, {"player": "Bo", "card": "2C"}]


def test_every_point_recorded_past_52__sm2025_r31():
    s = Script().deal(Anna="AS AH AD 9S 9H", Bo="2C 3C 4D 6D 8H", Cilla="2D 5C 7C 4S TC", Dan="3D 5D 7D 2H 4H")
    s.adjust("Anna", 20).stand().stand().stand().chicago("Anna", True)
    s.adjust("Anna", 50)
    doc = s.doc()
    g = doc["games"][0]
    assert g["scores"]["Anna"] == 82 and sum(a[1] for a in awards(doc) if a[0] == "Anna") == 82


def test_last_trick_then_hand_points_first_to_52_decides__sm2025_d7():
    s = Script(button="Cilla").deal(**JUNK).adjust("Anna", 20).stand().stand().stand().chicago("Anna", True)
    s.play(*ANNA_SWEEPS)  # deal 1: Anna wins her Chicago, 35
    s.deal(Anna="AS KS QS JS 9H", Bo="2C 2S 4D 6D 8H", Cilla="2D 5C 7C 9C TC", Dan="3D 5D 7D 2H 4H")
    s.stand().stand().stand()  # Bo's pair: +1 twice
    s.adjust("Anna", 12).adjust("Bo", 48)  # Anna 47, Bo 50
    s.chicago("Anna", False)  # Bo had 2 when the round began: not asked
    s.play(
        "Anna AS",
        "Bo 2S",
        "Cilla 2D",
        "Dan 3D",
        "Anna KS",
        "Bo 2C",
        "Cilla 5C",
        "Dan 5D",
        "Anna QS",
        "Bo 4D",
        "Cilla 7C",
        "Dan 7D",
        "Anna JS",
        "Bo 6D",
        "Cilla 9C",
        "Dan 2H",
        "Anna 9H",
        "Bo 8H",
        "Cilla TC",
        "Dan 4H",
    )
    doc = s.doc()
    g = doc["games"][0]
    # the last trick (+5) takes Anna to 52 first: she wins; Bo's pair is never scored
    assert doc["rejected"] == []
    assert g["winner"] == "Anna" and g["scores"]["Anna"] == 52 and g["scores"]["Bo"] == 50
    assert awards(doc, deal=2)[-1] == ("Anna", 5, "last_trick")


def test_placement_points_20_12_8_5_and_ties_split__sm2025_r8_r19():
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines(Path("table_controller/examples/straight_flush.jsonl").read_text().splitlines())
    assert doc["games"][0]["placement_points"] == {"Bo": 20, "Cilla": 12, "Dan": 8, "Anna": 5}
    _, doc = replay_lines(Path("table_controller/examples/royal_flush.jsonl").read_text().splitlines())
    pp = doc["games"][0]["placement_points"]
    assert pp["Cilla"] == 20 and Fraction(pp["Anna"]).limit_denominator(10) == Fraction(25, 3)
    assert doc["games"][0]["places"] == {"Cilla": 1, "Anna": 2, "Bo": 2, "Dan": 2}


def test_equal_scores_ranked_by_won_chicagos__sm2025_r19():
    s = Script().deal(**JUNK).adjust("Anna", 20).stand().stand().stand().chicago("Anna", True).play(*ANNA_SWEEPS)
    s.adjust("Bo", 35)  # Bo 35, Anna 35 with one won Chicago
    s.deal(Anna="AS AD 3C 4C 6S", Bo="5H 6H 7H 8H 9H", Cilla="2D 5C 7C 9C JD", Dan="3D 5D 8D 2C KS").stand()
    doc = s.doc()
    g = doc["games"][0]
    assert g["winner"] == "Bo" and g["places"]["Anna"] == 2 and g["places"]["Cilla"] == 3


def test_table_ranking_and_placement_points_by_value__sm2025_r11_r19_d9():
    """Every game's places and placement points and the table's standings and `advancing`
    equal the ones worked out from RULES.md §8-§9 (tests/rules/results_oracle.py)."""
    from table_controller.rules.replay import replay_document
    from table_controller.sim.bots import play_table
    from tests.rules.results_oracle import game_result, table_result

    outs = 0
    for seed in range(6):
        doc = replay_document(play_table(seed))
        t = doc["table"]
        assert t["finished"] and "playoff" not in t, seed  # these seeds need no särspel
        for g in doc["games"]:
            places, points = game_result("sm2025", g)
            assert g["places"] == places and g["placement_points"] == points, (seed, g["number"])
            outs += len(g["out_without_chicago"])
        standings, advancing = table_result("sm2025", doc["games"])
        assert t["standings"] == standings, seed
        assert t["advancing"] == advancing, seed
    assert outs > 0  # the seeds include players out without Chicago (D9)


def test_tied_table_goes_to_a_playoff_without_chicago__sm2025_r11_d10():
    from table_controller.rules.actions import parse_action
    from table_controller.rules.engine import Engine

    e = Engine()
    e.apply(parse_action({"do": "table", "players": ["A", "B", "C"]}))
    # three games each won by a straight flush of a different player: A, B, then A and B tie
    sf = ["5H 6H 7H 8H 9H", "2C 3D 4S 6D 8C", "2D 3S 4C 6C 8S"]
    for winner_first in ["A", "B", "C"]:
        e.apply(parse_action({"do": "game", "seats": ["A", "B", "C"], "button": "C"}))
        order = {"A": 0, "B": 1, "C": 2}
        hands = {p: sf[(order[p] - order[winner_first]) % 3].split() for p in "ABC"}
        e.apply(parse_action({"do": "deal", "hands": hands}))
        for p in "ABC":
            e.apply(parse_action({"do": "discard", "player": p, "cards": []}))
    from table_controller.rules.replay import replay_document

    doc = replay_document(e)
    assert e.phase == "game_over" and sorted(e.state.playoff_players) == ["A", "B", "C"]
    e.apply(parse_action({"do": "game", "seats": ["A", "B", "C"], "button": "C"}))
    e.apply(
        parse_action(
            {
                "do": "deal",
                "hands": {"A": "AS AH QS JS 9H".split(), "B": "2C 3C 4D 6D 8H".split(), "C": "2D 5C 7C 9C TC".split()},
            }
        )
    )
    for _ in range(3):
        for p in "ABC":
            e.apply(parse_action({"do": "discard", "player": p, "cards": []}))
    assert e.phase == "tricks"  # no Chicago question in a särspel (r11)
    assert len(doc["games"]) == 3


@pytest.mark.parametrize("clock,expect", [("chicago", "tricks"), ("exchange", "exchange_1")])
def test_clock_expiry_is_a_violation_with_its_default__sm2025_d12(clock, expect):
    s = Script().deal(**JUNK).adjust("Anna", 20)
    if clock == "chicago":
        s.stand().stand().stand()
    s.add(do="timeout", player="Anna", clock=clock)
    engine, doc = s.run()
    assert doc["rejected"] == [] and doc["current"]["phase"] == expect
    assert engine.state.games[0].players["Anna"].violations == [clock]
    assert doc["games"][0]["said_chicago"] == []


def test_exchange_clock_expiry_with_cards_placed_exchanges_them_and_is_a_violation__sm2025_d12():
    """D12: "the player exchanges what they have placed", and "every expiry is a violation
    on the player's record": a live table's pads know what lay placed, and the timeout
    carries it (until stop 74 the table entered a discard alone, and no violation)."""
    s = Script().deal(**JUNK)
    s.add(do="timeout", player="Anna", clock="exchange", cards=["9H", "JS"])
    engine, doc = s.run()
    assert doc["rejected"] == []
    assert engine.state.games[0].players["Anna"].violations == ["exchange"]
    placed = [e for e in engine.events if type(e).__name__ == "CardsPlaced"]
    assert [(e.player, sorted(c.code for c in e.cards)) for e in placed] == [("Anna", ["9H", "JS"])]
    # and it is written as read (the log, `log export`): the cards with it, sorted or not
    from table_controller.rules.actions import parse_action

    line = json.loads(s.text()[-1])
    assert parse_action(line).to_dict() == line
    assert "cards" not in parse_action({"do": "timeout", "player": "Anna", "clock": "exchange"}).to_dict()


def test_a_timeout_with_cards_refused_changes_nothing_and_records_no_violation__sm2025_d12():
    s = Script().deal(**JUNK)
    s.add(do="timeout", player="Anna", clock="exchange", cards=["2C"])  # Bo's card
    s.add(do="timeout", player="Anna", clock="chicago", cards=["9H"])  # cards go with the exchange clock only
    s.add(do="timeout", player="Anna", clock="exchange", cards=["AS", "KS", "QS", "JS", "9H"])  # r12: at most 4
    engine, doc = s.run()
    assert len(doc["rejected"]) == 3
    assert "exchange clock only" in doc["rejected"][1]["reason"]
    assert engine.state.games[0].players["Anna"].violations == []
    assert not [e for e in engine.events if type(e).__name__ == "CardsPlaced"]


def test_quads_clock_expiry_means_points__sm2025_d12():
    s = Script().deal(Anna="AS KS QS JS 9H", Bo="2C 3C 4C 6D 8D", Cilla="3D 5D 9D TC QC", Dan="7S 7H 7D 7C 2S")
    s.stand().add(do="timeout", player="Dan", clock="quads")
    doc = s.doc()
    assert awards(doc) == [("Dan", 8, "four_of_a_kind")]


def test_play_clock_expiry_only_logs__sm2025_d12():
    s = Script().deal(**JUNK).stand().stand().stand().add(do="timeout", player="Anna", clock="play")
    engine, doc = s.run()
    assert doc["current"]["to_act"] == ["Anna"] and engine.state.games[0].players["Anna"].violations == ["play"]


def test_default_clocks__sm2025_d11():
    from table_controller.rules.rulesets import DEFAULT_CLOCKS

    assert DEFAULT_CLOCKS == {"exchange": 30.0, "chicago": 10.0, "play": 20.0, "quads": 15.0}


def test_time_called_hand_is_dead__general_rules_2_12():
    s = Script().deal(**dict(JUNK, Bo="2C 2S 4D 6D 8H")).add(do="time_call", player="Bo").stand("Anna", "Cilla", "Dan")
    doc = s.doc()
    assert awards(doc) == []  # Bo's pair is dead
    assert doc["current"]["to_act"] == ["Anna", "Cilla", "Dan"]


def test_tl_penalties_and_adjustments_are_recorded__sm2025_r32_r33():
    s = Script().deal(**JUNK).adjust("Anna", 10, "miscount")
    s.add(do="penalty", player="Anna", kind="points", points=3, reason="slow play")
    s.add(do="penalty", player="Bo", kind="warning", reason="r26")
    s.add(do="penalty", player="Cilla", kind="sit_out_deal", reason="second offence")
    engine, doc = s.run()
    assert awards(doc) == [("Anna", 10, "adjust"), ("Anna", -3, "penalty")]
    assert all(a["moment"] == "tl" for a in doc["games"][0]["deals"][0]["awards"])
    assert engine.state.games[0].players["Bo"].warnings == 1


def test_sitting_out_a_deal_is_a_folded_hand__sm2025_r35():
    s = Script().deal(**JUNK).add(do="penalty", player="Cilla", kind="sit_out_deal", reason="r33")
    s.stand().stand().stand().play(*ANNA_SWEEPS)
    s.deal(Anna="AS AH QS JS 9H", Bo="2C 3C 4D 6D 8H", Cilla="2D 2C 7C 9C TC", Dan="3D 5D 7D 2H 4H")
    doc = s.doc()
    assert doc["rejected"] and "card seen twice" in doc["rejected"][0]["reason"]
    s.lines.pop()
    s.deal(Anna="AS AH QS JS 9H", Bo="2C 3C 4D 6D 8H", Cilla="2D 2S 7C 9C TC", Dan="3D 5D 7D 2H 4H").stand()
    doc = s.doc()
    assert ("Cilla", 1, "one_pair") not in awards(doc, deal=2)
    assert doc["current"]["to_act"] == ["Bo", "Dan", "Anna"]  # button Anna: Bo first; Cilla folded


def test_last_place_and_no_placement_penalties__sm2025_r33():
    s = Script().deal(Anna="AS AD 3C 4C 6S", Bo="5H 6H 7H 8H 9H", Cilla="2D 5C 7C 9C JD", Dan="3D 5D 8D 2C KS")
    s.adjust("Cilla", 7).adjust("Dan", 3).adjust("Anna", 1)
    s.add(do="penalty", player="Cilla", kind="last_place", reason="r33")
    s.add(do="penalty", player="Dan", kind="no_placement", reason="r33")
    doc = s.stand().doc()
    g = doc["games"][0]
    assert g["places"]["Cilla"] == 4 and g["placement_points"]["Cilla"] == 5
    assert g["placement_points"]["Dan"] == 0


def test_every_expiry_stays_on_the_record_so_repeats_can_be_punished__sm2025_r34():
    """r34: repeated offences against the time limits are punished, by the TL (r33). The
    engine keeps each expiry on the player's record for the game and on the TL's view;
    the punishment itself is the TL's penalty action."""
    from table_controller.views import build_view, for_role

    s = Script().deal(**JUNK).stand().stand().stand()
    s.add(do="timeout", player="Anna", clock="play").add(do="timeout", player="Anna", clock="play")
    engine, doc = s.run()
    assert doc["rejected"] == []
    assert engine.state.games[0].players["Anna"].violations == ["play", "play"]
    tl = {p["name"]: p for p in for_role(build_view(engine), "tl").message("T", None)["state"]["players"]}
    assert tl["Anna"]["violations"] == 2 and tl["Bo"]["violations"] == 0
    s.add(do="penalty", player="Anna", kind="sit_out_deal", reason="r34: second time violation")
    engine, doc = s.run()
    assert doc["rejected"] == [] and engine.state.games[0].players["Anna"].violations == ["play", "play"]


def test_the_revisor_is_a_player_so_the_revisor_view_holds_no_hand__sm2025_r5():
    """r5: the Revisor keeps the protocol but plays at the table: the Revisor's tablet shows
    no player's hand or face-down discards, only what everyone at the table sees."""
    from table_controller.views import build_view, for_role

    engine, _ = Script().deal(**JUNK).add(do="discard", player="Anna", cards=["2C"]).run()
    snap = build_view(engine).to_dict()
    assert any(p["hand"] for p in snap["players"])  # the hands are there to hide
    revisor = for_role(build_view(engine), "revisor").message("T", None)["state"]
    assert all(not p.get("hand") and not p.get("placed") and not p.get("hand_name") for p in revisor["players"])
    assert "2C" not in json.dumps(revisor)
