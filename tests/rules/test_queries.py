"""The engine's public questions (issue 14): ``legal_actions()``, ``at_draw_stop(player)``,
``to_act()``, ``trick_complete``, ``standings()`` say what the rules then do.

Checked against the engine itself on random tables: every card ``legal_actions`` offers is
played without a revoke, every other card of the hand is a revoke (r25, r26); the table
waits for exactly the players offered; draw stop is what the exchange treats as draw stop.
"""

from __future__ import annotations

import pytest

from table_controller.rules import actions as act
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.events import CardPlayed
from table_controller.sim.bots import RandomBot
from tests.rules.script import JUNK, Script


def tables(seed: int, ruleset: str):
    """Each engine state of a random bot table, the engine advanced after each yield."""
    bot = RandomBot(seed, ruleset=ruleset)
    engine = Engine()
    for _ in range(20_000):
        yield engine
        a = bot.next_action(engine)
        if a is None:
            return
        engine.apply(a)


def try_action(engine: Engine, action: act.Action):
    """The events ``action`` would cause, and the table put back as it was (or None)."""
    start = len(engine.events)
    try:
        events = list(engine.apply(action))
    except IllegalAction:
        return None
    engine.rollback(start)
    return events


@pytest.mark.parametrize("ruleset", ["sm2025", "sm2019", "classic"])
def test_legal_plays_follow_suit_and_every_other_card_is_a_revoke_r25_r26(ruleset):
    checked = 0
    for engine in tables(3, ruleset):
        legal = engine.legal_actions()
        if engine.phase != "tricks":
            assert legal.plays == {}
            continue
        d = engine.state.deal
        assert list(legal.plays) == [p for p in engine.to_act() if p not in d.dead]
        for p, cards in legal.plays.items():
            assert cards == tuple(sorted(cards)) and set(cards) <= set(d.hands[p])
            for c in d.hands[p]:
                events = try_action(engine, act.Play(p, c))
                assert events is not None, f"{p} may play {c}"
                played = next(e for e in events if isinstance(e, CardPlayed))
                if engine.rules.revoke != "none":
                    assert played.revoke == (c not in cards), (p, c, cards)
            checked += 1
        if checked == 40:
            return  # each try refolds the table (rollback): 40 trick positions suffice
    raise AssertionError(f"only {checked} trick positions in a whole table")


@pytest.mark.parametrize("ruleset", ["sm2025", "sm2019", "shootout", "classic"])
def test_legal_actions_offer_what_the_table_waits_for_r13_r22_d5(ruleset):
    for engine in tables(5, ruleset):
        legal = engine.legal_actions()
        assert legal.phase == engine.phase and list(legal.to_act) == engine.to_act()
        d = engine.state.deal
        if d is None or engine.phase == "game_over":
            assert legal.places == legal.owed == legal.plays == {}
            continue
        if "discard" in legal.actions:
            # r13: every live hand places before any replacement; draw stop places nothing (D5)
            assert set(legal.to_act) <= set(legal.places)
            for p, most in legal.places.items():
                assert most == (0 if engine.at_draw_stop(p) else engine.rules.max_exchange_cards)
                assert (p in legal.to_act) == (most > 0)
        if "receive" in legal.actions:
            assert legal.places == {} and set(legal.owed) == set(legal.to_act)
            assert all(n == d.awaiting[p] for p, n in legal.owed.items())
        if "chicago" in legal.actions:
            assert legal.to_act == (legal.chicago,)
            score = engine.state.game.players[legal.chicago].score
            assert legal.may_say_chicago == (score >= engine.rules.chicago_min_score)


def test_at_draw_stop_asks_about_the_deal_in_progress__sm2025_d5():
    engine = Engine()
    assert not engine.at_draw_stop("Anna")  # no table yet
    s = Script().deal(**JUNK).adjust("Anna", 45)
    engine, _ = s.run()
    assert engine.at_draw_stop("Anna") and not engine.at_draw_stop("Bo")
    assert not engine.at_draw_stop("Nobody")
    assert engine.legal_actions().places["Anna"] == 0
    assert "Anna" not in engine.to_act()


def test_a_revoke_on_a_tricks_last_card_closes_it_and_a_take_back_opens_it_again_r26():
    """Stop 64: the trick closes at its last card, revoke or not (whether a player could
    follow suit is hidden), and the revoke may still be taken back until the next card."""
    engine, _ = Script().deal(**JUNK).stand().stand().stand().play("Anna 9H", "Bo 8H", "Cilla 2D").run()
    assert engine.phase == "tricks" and not engine.trick_complete
    assert engine.legal_actions().plays == {
        "Dan": tuple(sorted(c for c in engine.state.deal.hands["Dan"] if c.suit == "H"))
    }  # r25
    engine.apply(act.Play("Dan", engine.state.deal.hands["Dan"][0]))  # 3D: a revoke
    d = engine.state.deal
    assert not engine.trick_complete and d.trick_number == 2 and d.tricks == [("Anna", Card.parse("9H"))]
    assert engine.to_act() == ["Anna"]  # the winner leads next
    legal = engine.legal_actions()
    assert legal.retract == "Dan" and legal.actions == ("play", "retract")
    assert legal.plays == {"Anna": tuple(sorted(engine.state.deal.hands["Anna"]))}
    engine.apply(act.Retract("Dan"))
    d = engine.state.deal
    assert d.trick_number == 1 and not d.tricks and [p for p, _ in d.trick] == ["Anna", "Bo", "Cilla"]
    assert not engine.trick_complete and engine.legal_actions().retract is None and engine.to_act() == ["Dan"]


def test_standings_share_a_rank_until_the_table_is_over__sm2025_r11():
    engine = Engine()
    assert engine.standings() == []
    engine, _ = Script().deal(**JUNK).run()
    rows = engine.standings()
    assert [r.rank for r in rows] == [1] * len(rows)
    engine.apply(act.Adjust("Bo", 7, "r32"))
    rows = engine.standings()
    assert rows[0].player == "Bo" and rows[0].rank == 1 and rows[0].score_total == 7
    assert all(r.rank == 2 for r in rows[1:])


@pytest.mark.parametrize("ruleset", ["sm2025", "sm2019", "classic"])
def test_an_open_card_is_offered_exactly_when_the_engine_takes_it_unflashed_r15(ruleset):
    """r15: a player who placed one card and is owed one may be shown an open card (once);
    any other open card is flashed, a dealer error.  ``legal_actions`` offers "open" to
    exactly the players whose open card the engine takes without a ``dealer_erred``."""
    checked = 0
    for engine in tables(7, ruleset):
        legal = engine.legal_actions()
        d = engine.state.deal
        if d is None or "receive" not in legal.actions or not d.stub:
            continue
        card = min(d.stub)
        assert legal.actions == (("open", "receive") if legal.open_card else ("receive",))
        for p in legal.to_act:
            events = try_action(engine, act.OpenCard(p, card, True))
            assert events is not None, (p, card)
            flashed = [e for e in events if e.type == "dealer_erred"]
            assert (p in legal.open_card) == (flashed == []), (p, legal.open_card, legal.owed, d.placed.get(p))
            checked += 1
        if checked >= 40:
            return
    assert checked >= 10, f"only {checked} open cards tried in a whole table"


def test_legal_actions_name_who_chooses_for_a_four_of_a_kind_and_who_is_asked_chicago_r22():
    engine, _ = Script().deal(**dict(JUNK, Anna="AS AH AD AC 9H")).stand().run()
    legal = engine.legal_actions()
    assert (legal.phase, legal.to_act, legal.actions, legal.quads, legal.chicago) == (
        "quads_choice",
        ("Anna",),
        ("quads",),
        "Anna",
        None,
    )
    s = Script().deal(**JUNK).adjust("Anna", 20).adjust("Bo", 20).stand().stand().stand()
    s.chicago("Anna", False)
    s.chicago("Anna", False)  # r22: asked in turn, Anna has answered
    engine, doc = s.run()
    assert [r["reason"] for r in doc["rejected"]] == ["the Revisor asks in turn (r22): Bo answers next, not Anna"]
    legal = engine.legal_actions()
    assert (legal.phase, legal.to_act, legal.actions, legal.chicago, legal.quads) == (
        "chicago",
        ("Bo",),
        ("chicago",),
        "Bo",
        None,
    )
    assert legal.may_say_chicago


def test_snapshot_is_the_table_now_and_later_actions_leave_it_alone():
    """``Engine.snapshot()`` (the broadcast's analysis reads it in another thread): the same
    table as ``state``, every game in it, the finished ones shared and the current one a copy
    of its own; the table playing on changes nothing in it."""
    for engine in tables(5, "sm2025"):
        if len(engine.state.games) >= 3 and engine.state.deal is not None:
            break
    else:
        raise AssertionError("no third game in a whole table")
    snap = engine.snapshot()
    before = snap.to_dict()
    assert before == engine.state.to_dict() and len(snap.games) == len(engine.state.games)
    assert all(a is b for a, b in zip(snap.games[:-1], engine.state.games[:-1], strict=True))
    assert snap.games[-1] is not engine.state.games[-1] and snap.deal is not engine.state.deal
    bot = RandomBot(5)
    for _ in range(30):
        engine.apply(bot.next_action(engine))
    assert snap.to_dict() == before != engine.state.to_dict()
