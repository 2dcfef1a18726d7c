"""The solver's best-play line, played through the real engine, earns exactly the points
the solver predicted (RULES.md §6-7 as the engine implements them), in every ruleset, from
the start of the trick play of real deals; and re-solving any position along the line gives
the same result (best play from there on does not change)."""

from __future__ import annotations

import random

import pytest

from table_controller.analysis.solver import position_from_deal, solve
from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine
from table_controller.rules.rulesets import RULESETS

TRICK_REASONS = {"last_trick", "last_trick_two", "chicago_won", "chicago_lost", "chicago_broken"}
HAND_REASONS = {
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
}


def deal_to_tricks(ruleset: str, seed: int, chicago: bool):
    """A real deal up to its trick play: random hands, nobody exchanges, and (if asked) the
    first player asked says Chicago.  None when special hands end the deal first."""
    rng = random.Random(seed)
    rules = RULESETS[ruleset]
    n = rng.randint(rules.min_players, 4)
    players = ("Anna", "Bo", "Cilla", "Dan")[:n]
    e = Engine()
    e.apply(act.TableStart(players, ruleset))
    e.apply(act.GameStart(players, players[-1]))
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    e.apply(act.Deal({p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(players)}))
    if chicago:
        e.apply(act.Adjust(rng.choice(players), 20, "test: may say Chicago"))
    while e.phase.startswith("exchange"):
        e.apply(act.Discard(e.to_act()[0], ()))
    if e.phase == "quads_choice":
        e.apply(act.QuadsChoice(e.to_act()[0], "points"))
    while e.phase == "chicago":
        e.apply(act.ChicagoAnswer(e.to_act()[0], True))
    if e.phase != "tricks":
        return None
    return e


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_best_line_through_the_engine_earns_the_solved_points(ruleset):
    checked = 0
    for seed in range(40):
        e = deal_to_tricks(ruleset, seed, chicago=seed % 2 == 0)
        if e is None:
            continue
        d = e.state.deal
        pos = position_from_deal(d, e.rules)
        v = solve(pos)
        start = len(e.events)
        for i, (p, c) in enumerate(v.line):
            if i % 3 == 1 and e.state.deal is d:  # the same verdict from every point on the line
                again = solve(position_from_deal(d, e.rules))
                assert again.values == v.values and again.line == v.line[i:]
            assert e.to_act() == [p]
            e.apply(act.Play(p, c))
        got = {p: 0 for p in pos.order}
        hand_award = None
        for ev in e.events[start:]:
            if ev.type == "awarded" and ev.reason in TRICK_REASONS:
                got[ev.player] += ev.asked
            if ev.type == "awarded" and ev.reason in HAND_REASONS and ev.moment == "final":
                hand_award = (ev.player, ev.points)
        if pos.chicago and e.rules.chicago_style != "sm" and v.chicago_stands and hand_award:
            got[hand_award[0]] += hand_award[1]  # classic: hands score only if it stands
            assert hand_award == pos.hand_award
        assert got == v.values, (seed, v.line)
        assert e.state.deal is None or e.state.deal.phase == "over", "the line ends the trick play"
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_position_of_random_games_is_solved(ruleset):
    """Positions the engine reaches with random legal play (bots): the solver names the
    same player to act as the engine and offers exactly the legal cards (r25)."""
    from table_controller.sim.bots import RandomBot

    bot = RandomBot(seed=5, ruleset=ruleset)
    e = Engine()
    solved = 0
    while solved < 120:
        a = bot.next_action(e)
        if a is None:
            break
        d = e.state.deal
        if isinstance(a, act.Play) and d is not None and d.trick_number >= 2:
            v = solve(position_from_deal(d, e.rules))
            assert [v.to_act] == e.to_act()
            hand = d.hands[v.to_act]
            led = d.trick[0][1].suit if d.trick else None
            legal = [c for c in hand if c.suit == led] or list(hand)
            assert sorted(m.card for m in v.moves) == sorted(legal)
            assert a.card in {m.card for m in v.moves}
            solved += 1
        e.apply(a)
    assert solved >= 60


def test_positions_around_a_revoke_r26():
    """A pending revoke is not solved (the revoker may still take the card back); once it
    stood, the dead hand plays no more and the rest is solved (example revoke.jsonl)."""
    from pathlib import Path

    from table_controller.analysis.solver import AnalysisError
    from table_controller.rules.replay import read_script

    e = Engine()
    script = [a for _, a in read_script(Path("table_controller/examples/revoke.jsonl").read_text().splitlines())]
    plays = [a for a in script if isinstance(a, act.Play)]
    for a in script[: len(script) - len(plays)]:
        e.apply(a)
    pos = position_from_deal(e.state.deal, e.rules)
    assert solve(pos).to_act == "Anna"
    e.apply(plays[0])
    e.apply(plays[1])  # Bo's 4C to a spade lead while holding 2S
    with pytest.raises(AnalysisError, match="r26"):
        position_from_deal(e.state.deal, e.rules)
    e.apply(plays[2])  # Cilla plays: the revoke stands, Bo's hand is dead
    v = solve(position_from_deal(e.state.deal, e.rules))
    assert "Bo" not in {p for p, _ in v.line}
    for a in plays[3:]:
        e.apply(a)
    assert e.state.deal is None or e.state.deal.phase == "over"


def test_no_position_outside_the_trick_play():
    from table_controller.analysis.solver import AnalysisError

    e = Engine()
    e.apply(act.TableStart(("Anna", "Bo", "Cilla")))
    e.apply(act.GameStart(("Anna", "Bo", "Cilla"), "Cilla"))
    with pytest.raises(AnalysisError, match="not in its trick play"):
        position_from_deal(e.state.deal, e.rules)
    deck = list(FULL_DECK)
    e.apply(act.Deal({"Anna": tuple(deck[:5]), "Bo": tuple(deck[5:10]), "Cilla": tuple(deck[10:15])}))
    with pytest.raises(AnalysisError, match="not in its trick play"):
        position_from_deal(e.state.deal, e.rules)  # the exchanges
