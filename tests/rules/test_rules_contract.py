"""The rules contract of issue 14 item 7 (RULES.md D8, D13; REPLAY.md, the last paragraph):
a card played after a Chicago is broken is rejected; shootout deductions are held to the
end of the deal unless the offender could go out, win or say Chicago; a score change made
between deals belongs to the next deal."""

from __future__ import annotations

import pytest

from tests.rules.script import ANNA_SWEEPS, JUNK, Script, awards

RULESETS = ("sm2025", "sm2019", "shootout", "classic")


def moments(doc, game=1, deal=None):
    g = doc["games"][game - 1]
    deals = g["deals"] if deal is None else [g["deals"][deal - 1]]
    return [(a["player"], a["points"], a["reason"], a["moment"]) for d in deals for a in d["awards"]]


# --- D8 --------------------------------------------------------------------------------


@pytest.mark.parametrize("rs", RULESETS)
def test_a_card_played_after_the_chicago_is_broken_is_rejected_d8(rs):
    # Dan beats Anna's 9H in the first trick: broken (r24), the trick play ends there (D8)
    hands = dict(JUNK, Dan="3D 5D 7D 2H JH")
    s = Script(rs).deal(**hands).adjust("Anna", 20).stand().stand().stand().chicago("Anna", True)
    s.play("Anna 9H", "Bo 8H", "Cilla 2D", "Dan JH")
    before, _ = s.run()
    s.play("Anna AS")  # four cards still in Anna's hand: too late
    engine, doc = s.run()
    assert [r["line"] for r in doc["rejected"]] == [len(s.lines)]
    reason = doc["rejected"][0]["reason"]
    assert "D8" in reason and "Chicago was broken" in reason
    assert engine.state.to_dict() == before.state.to_dict()  # nothing changed
    assert doc["current"]["phase"] == "deal" and doc["current"]["deal"] == 2
    lost = [a for a in awards(doc) if a[2] in ("chicago_lost", "chicago_broken")]
    assert lost[0] == ("Anna", -15, "chicago_lost")
    assert (("Dan", 10, "chicago_broken") in lost) == (rs != "classic")  # classic: no breaker bonus
    # the next deal starts normally
    engine, doc = s.deal(**JUNK).run()
    assert doc["current"]["phase"] == "exchange_1"


# --- D13 -------------------------------------------------------------------------------


def dealer_error_deal(rs: str, dan: int) -> Script:
    """Dan deals (the button, player-dealer mode) and gives Bo three cards for two."""
    s = Script(rs, dealer="player").deal(**JUNK).adjust("Dan", dan)
    s.stand("Anna").discard("Bo", "3C 4D").stand("Cilla", "Dan")
    return s.receive("Bo", "JC 9D 8S").receive("Bo", "JC 9D")


BO_SWEPT = (
    "Anna AS",
    "Bo 2C",
    "Cilla 2D",
    "Dan 3D",
    "Anna KS",
    "Bo JC",
    "Cilla 5C",
    "Dan 5D",
    "Anna QS",
    "Bo 9D",
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


def test_shootout_dealer_error_is_held_to_the_end_of_the_deal_d13():
    s = dealer_error_deal("shootout", 10)
    engine, doc = s.run()
    assert doc["rejected"] == []
    assert doc["current"]["scores"]["Dan"] == 10  # held, not yet deducted
    assert [(h.player, h.points, h.reason) for h in engine.state.deal.held] == [("Dan", -2, "dealer_error")]
    engine, doc = s.stand().stand().play(*BO_SWEPT).run()
    assert doc["rejected"] == []
    assert moments(doc, deal=1) == [
        ("Dan", 10, "adjust", "tl"),
        ("Anna", 5, "last_trick", "final"),
        ("Dan", -2, "dealer_error", "final"),
    ]  # applied when the deal ends
    assert doc["games"][0]["deals"][0]["scores_after"]["Dan"] == 8
    types = [e.type for e in engine.events]
    assert types.index("deal_ended") - types.index("deductions_released") == 2  # released, awarded, ended


def test_sm2019_deducts_at_once_d13():
    # "sm2019 and player-dealer mode deduct at once" (D13)
    s = dealer_error_deal("sm2019", 10).stand().stand().play(*BO_SWEPT)
    doc = s.doc()
    assert moments(doc, deal=1) == [
        ("Dan", 10, "adjust", "tl"),
        ("Dan", -3, "dealer_error", "exchange_1"),
        ("Anna", 5, "last_trick", "final"),
    ]
    doc = dealer_error_deal("sm2025", 10).doc()
    assert ("Dan", -3, "dealer_error", "exchange_1") in moments(doc)  # sm2025 club play, player dealer


@pytest.mark.parametrize("dan,asked", [(16, False), (17, True)])
def test_shootout_deduction_applies_before_the_chicago_question_d13(dan, asked):
    # Dan could say Chicago (>= 15): the held -2 applies first; at 14 he is not asked
    s = dealer_error_deal("shootout", dan).stand().stand()
    engine, doc = s.run()
    assert ("Dan", -2, "dealer_error", "exchange_3") in moments(doc)
    assert doc["current"]["scores"]["Dan"] == dan - 2
    assert (doc["current"]["phase"] == "chicago") == asked
    assert engine.state.deal.held == []


def test_shootout_deduction_applies_before_an_award_that_takes_the_offender_to_52_d13():
    # Dan at 40 is charged -2 (held); a correction of +12 would take him to 52 and out
    # without Chicago (r21): the deduction applies first, so he is at 50 and plays on
    s = dealer_error_deal("shootout", 40).adjust("Dan", 12)
    engine, doc = s.run()
    assert moments(doc)[-2:] == [("Dan", -2, "dealer_error", "tl"), ("Dan", 12, "adjust", "tl")]
    assert doc["current"]["scores"]["Dan"] == 50 and doc["games"][0]["out_without_chicago"] == []
    # an award that stays below 52 leaves it held
    engine, doc = dealer_error_deal("shootout", 40).adjust("Dan", 11).run()
    assert doc["current"]["scores"]["Dan"] == 51 and len(engine.state.deal.held) == 1


def test_shootout_deductions_apply_before_placements_when_the_game_ends_in_the_deal_d13():
    # Bo's royal flush at exchange 1 wins at once (shootout); Dan's held -2 applies before
    # the placements, which go by score
    s = Script("shootout", dealer="player").deal(**dict(JUNK, Bo="AH KH QH JH TH")).adjust("Dan", 10)
    s.discard("Anna", "9H JS").stand("Bo", "Cilla", "Dan").receive("Anna", "8C 6C 4C").receive("Anna", "8C 6C")
    engine, doc = s.run()
    assert doc["rejected"] == [], doc["rejected"]
    g = doc["games"][0]
    assert g["winner"] == "Bo" and g["scores"]["Dan"] == 8
    assert moments(doc)[-1] == ("Dan", -2, "dealer_error", "final")
    types = [e.type for e in engine.events]
    assert types.index("deductions_released") < types.index("game_ended")


def test_shootout_uncorrected_revoke_is_held_behind_the_hands_d13():
    # sm2019 r26: a revoke not corrected costs 2 in the final scoring; in shootout it is
    # held to the deal's end, so it comes after the hands (D7 order otherwise unchanged)
    hands = dict(Anna="AS KS QS 3H 5D", Bo="2S 4C 4D 8C TD", Cilla="3C 5C 7C 9C JD", Dan="3D 6D 8D 2H 7H")
    plays = (
        "Anna AS",
        "Bo 4C",
        "Cilla 3C",
        "Dan 3D",
        "Anna KS",
        "Bo 2S",
        "Cilla 5C",
        "Dan 6D",
        "Anna QS",
        "Bo 8C",
        "Cilla 7C",
        "Dan 8D",
        "Anna 3H",
        "Bo 4D",
        "Cilla 9C",
        "Dan 2H",
        "Anna 5D",
        "Bo TD",
        "Cilla JD",
        "Dan 7H",
    )
    results = {}
    for rs in ("sm2019", "shootout"):
        s = Script(rs).deal(**hands).adjust("Bo", 5).stand().stand().stand().play(*plays)
        doc = s.doc()
        assert doc["rejected"] == [], doc["rejected"]
        results[rs] = moments(doc, deal=1)
    revoke = ("Bo", -2, "revoke", "final")
    assert revoke in results["sm2019"] and results["sm2019"][-1] != revoke
    assert results["shootout"][-1] == revoke
    assert sorted(results["sm2019"]) == sorted(results["shootout"])  # the same awards, in another order


# --- REPLAY.md: a score change between deals belongs to the next deal -------------------


def test_an_adjust_before_the_first_deal_is_listed_in_deal_1_replay_between_deals():
    s = Script().adjust("Anna", 10, "carried over").deal(**JUNK).stand().stand().stand().play(*ANNA_SWEEPS)
    doc = s.doc()
    assert doc["rejected"] == [], doc["rejected"]
    d1 = doc["games"][0]["deals"][0]
    assert moments(doc, deal=1) == [("Anna", 10, "adjust", "tl"), ("Anna", 5, "last_trick", "final")]
    assert d1["scores_after"]["Anna"] == 15  # and counted


def test_an_adjust_after_a_deal_belongs_to_the_next_deal_replay_between_deals():
    s = Script().deal(**JUNK).stand().stand().stand().play(*ANNA_SWEEPS)
    s.adjust("Bo", 7).add(do="penalty", player="Anna", kind="points", points=2, reason="slow")
    doc = s.doc()
    d1 = doc["games"][0]["deals"][0]
    assert moments(doc, deal=1) == [("Anna", 5, "last_trick", "final")]  # deal 1 stays as it ended
    assert d1["scores_after"] == {"Anna": 5, "Bo": 0, "Cilla": 0, "Dan": 0}
    assert doc["current"]["scores"] == {"Anna": 3, "Bo": 7, "Cilla": 0, "Dan": 0}
    # one seat on (r6): Bo leads; each hand moves one seat on with the button
    s.deal(Bo=JUNK["Anna"], Cilla=JUNK["Bo"], Dan=JUNK["Cilla"], Anna=JUNK["Dan"]).stand().stand().stand()
    s.play(
        "Bo AS",
        "Cilla 2C",
        "Dan 2D",
        "Anna 3D",
        "Bo KS",
        "Cilla 3C",
        "Dan 5C",
        "Anna 5D",
        "Bo QS",
        "Cilla 4D",
        "Dan 7C",
        "Anna 7D",
        "Bo JS",
        "Cilla 6D",
        "Dan 9C",
        "Anna 2H",
        "Bo 9H",
        "Cilla 8H",
        "Dan TC",
        "Anna 4H",
    )
    doc = s.doc()
    assert doc["rejected"] == [], doc["rejected"]
    assert moments(doc, deal=2)[:2] == [("Bo", 7, "adjust", "tl"), ("Anna", -2, "penalty", "tl")]
    d2 = doc["games"][0]["deals"][1]
    assert d2["scores_after"]["Bo"] == 7 + 5 and d2["scores_after"]["Anna"] == 3
    assert doc["games"][0]["deals"][0]["scores_after"]["Bo"] == 0


def test_a_change_between_deals_that_ends_the_game_belongs_to_the_next_deal_replay_between_deals():
    # REPLAY.md: never in the deal that had ended; the next deal is recorded (its button one
    # seat on, r6) though never dealt, and it is the game's current deal at game_over
    s = Script().deal(**JUNK).adjust("Anna", 20).stand().stand().stand().chicago("Anna", True)
    s.play(*ANNA_SWEEPS).adjust("Anna", 20)
    doc = s.doc()
    g = doc["games"][0]
    assert g["finished"] and g["winner"] == "Anna"
    assert [d["number"] for d in g["deals"]] == [1, 2]
    assert ("Anna", 20, "adjust", "tl") not in moments(doc, deal=1)[2:]
    assert moments(doc, deal=2) == [("Anna", 20, "adjust", "tl")]
    assert g["deals"][1]["button"] != g["deals"][0]["button"]
    assert g["deals"][0]["scores_after"]["Anna"] == 35
    assert g["deals"][-1]["scores_after"]["Anna"] == g["scores"]["Anna"] == 55
    assert doc["current"]["deal"] == 2 and doc["current"]["phase"] == "game_over"


# --- found by the fault-injection test: a correction must not leave the deal waiting ----


@pytest.mark.parametrize("points,phase", [(52, "exchange_2"), (45, "exchange_2"), (10, "exchange_1")])
def test_a_correction_that_puts_the_last_placer_out_or_at_draw_stop_lets_the_exchange_end_r21(points, phase):
    # Dan alone has still to place; the TL's correction takes him out (r21, 52 without
    # Chicago) or to draw stop (45, sm2025: no exchange from now): nobody is waited for
    s = Script().deal(**JUNK).stand("Anna", "Bo", "Cilla").adjust("Dan", points)
    engine, doc = s.run()
    assert doc["rejected"] == []
    assert doc["current"]["phase"] == phase
    assert engine.to_act() != []
    assert (doc["games"][0]["out_without_chicago"] == ["Dan"]) == (points >= 52)


def test_a_correction_that_puts_the_chicago_player_to_be_asked_out_starts_the_tricks_r21():
    s = Script().deal(**JUNK).adjust("Anna", 20).adjust("Bo", 20).stand().stand().stand()
    engine, doc = s.run()
    assert doc["current"]["phase"] == "chicago" and doc["current"]["to_act"] == ["Anna"]
    engine, doc = s.chicago("Anna", False).adjust("Bo", 40).run()
    assert doc["current"]["phase"] == "tricks" and engine.to_act() == ["Anna"]
