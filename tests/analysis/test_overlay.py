"""The analysis of a table's current moment, with Swedish-first overlay texts."""

from __future__ import annotations

import doctest
import random

from table_controller.analysis import overlay
from table_controller.analysis.overlay import analyse_state
from table_controller.rules import actions as act
from table_controller.rules.cards import parse_cards
from table_controller.rules.engine import Engine

from ..rules.script import JUNK

P4 = ("Anna", "Bo", "Cilla", "Dan")


def engine_at_deal(hands=JUNK) -> Engine:
    e = Engine()
    e.apply(act.TableStart(P4))
    e.apply(act.GameStart(P4, "Dan"))
    e.apply(act.Deal({p: parse_cards(h.split()) for p, h in hands.items()}))
    e.apply(act.Adjust("Anna", 20, "test"))
    return e


def test_odds_before_an_exchange_and_nothing_once_cards_are_placed():
    e = engine_at_deal()
    a = analyse_state(e.state, random.Random(1), samples=200)
    assert a["kind"] == "odds" and a["exchange"] == 1 and a["seq"] == e.state.seq
    assert a["texts"][0]["sv"].startswith("Anna ") and a["texts"][0]["sv"].endswith("% att få poäng")
    e.apply(act.Discard("Anna", ()))
    assert analyse_state(e.state, random.Random(1), samples=200) is None


def test_verdict_during_the_trick_play_r24():
    e = engine_at_deal({**JUNK, "Cilla": "2D 5C 7C 9C TH"})  # the example chicago_broken
    for _ in range(3):
        for p in P4:
            e.apply(act.Discard(p, ()))
    q = analyse_state(e.state, random.Random(1))  # the question to Anna (r22)
    assert q["kind"] == "chicago_question" and q["player"] == "Anna"
    assert q["texts"][0]["sv"] == "Säger Anna Chicago bryter Cilla den med bästa spel"
    e.apply(act.ChicagoAnswer("Anna", True))
    a = analyse_state(e.state, random.Random(1))
    assert a["kind"] == "verdict" and a["trick"] == 1
    assert a["verdict"]["breaker"] == "Cilla"
    assert a["texts"] == [
        {
            "sv": "Chicago spricker med bästa spel: Cilla bryter Annas Chicago",
            "en": "The Chicago breaks with best play: Cilla breaks Anna's Chicago",
        }
    ]


def test_nothing_outside_a_deal():
    e = Engine()
    e.apply(act.TableStart(P4))
    assert analyse_state(e.state, random.Random(1)) is None


def test_docstring_examples():
    assert doctest.testmod(overlay).failed == 0


def test_swedish_genitive():
    assert overlay._genitive("Anna") == "Annas" and overlay._genitive("Lars") == "Lars"


def _bot_positions(seed: int, steps: int):
    """Every position of a bot table ``steps`` actions long, as the engine that reached it."""
    from table_controller.sim.bots import RandomBot

    engine, bot = Engine(), RandomBot(seed)
    for _ in range(steps):
        yield engine
        action = bot.next_action(engine)
        if action is None:
            return
        engine.apply(action)


def test_the_view_model_says_analysable_wherever_the_analysis_has_something_to_say():
    """The hub asks the typed view model (``analysable``) before it copies the state for the
    worker: a no where ``analyse_state`` answers would hide an analysis from the broadcast."""
    from table_controller.views import build_view

    said, refused = 0, 0
    for seed in (1, 2, 3):
        for engine in _bot_positions(seed, 120):
            a = analyse_state(engine.snapshot(), random.Random(0), samples=10, horizon="next")
            ok = overlay.analysable(build_view(engine))
            said += a is not None
            refused += not ok
            assert ok or a is None, (seed, engine.state.seq, a and a["kind"])
    assert said > 50 and refused > 50  # both answers were asked for


def test_a_snapshot_stays_as_it_was_while_the_table_plays_on():
    """``Engine.snapshot``: the worker's copy; the live table changes its own state in place."""
    engines = _bot_positions(5, 60)
    for _ in range(25):
        engine = next(engines)
    snap = engine.snapshot()
    before = snap.to_dict()
    assert before == engine.state.to_dict()
    for _ in engines:  # the same engine, played on
        pass
    assert engine.state.to_dict() != before and snap.to_dict() == before
