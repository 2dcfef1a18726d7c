"""Nothing unchecked gets in (issue 13 items 4 and 5, engine side): ruleset options are
checked at the `table` action, every field of an action is type-checked, TL points are
bounded, and any JSON at all gives an action or a clear ActionError, never a crash."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table_controller.rules import actions as act
from table_controller.rules.actions import ActionError, load_line, parse_action
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.rulesets import OPTION_CHECKS, RULESETS, Ruleset, ruleset
from tests.rules.script import JUNK, Script


def reasons(doc):
    return [r["reason"] for r in doc["rejected"]]


BAD_OPTIONS = [
    ({"hand_points": {"one_pair": "x"}}, "hand_points.one_pair"),
    ({"hand_points": {"one_pair": True}}, "hand_points.one_pair"),
    ({"hand_points": {"five_aces": 3}}, "hand_points.five_aces"),
    ({"hand_points": [1, 2]}, "hand_points"),
    ({"draw_stop": "45"}, "draw_stop"),
    ({"draw_stop": 10**400}, "draw_stop"),
    ({"draw_stop": -1}, "draw_stop"),
    ({"draw_stop": 101}, "draw_stop"),
    ({"draw_stop_from_next_deal": 1}, "draw_stop_from_next_deal"),
    ({"max_exchange_cards": 9}, "max_exchange_cards"),
    ({"max_exchange_cards": -1}, "max_exchange_cards"),
    ({"exchanges": 0}, "exchanges"),
    ({"revoke": "shout"}, "revoke"),
    ({"revoke_points": 2}, "revoke_points"),
    ({"chicago_lost": 15}, "chicago_lost"),
    ({"placement_points": [20, "12"]}, "placement_points[1]"),
    ({"placement_points": 20}, "placement_points"),
    ({"placement_points": [1000.5]}, "placement_points[0]"),
    ({"placement_points": [5, 1001]}, "placement_points[1]"),
    ({"special_suit_order": "SSHD"}, "special_suit_order"),
    ({"games_per_table": 0}, "games_per_table"),
    ({"min_players": 5, "max_players": 4}, "min_players"),
    ({"tl_points_limit": 0}, "tl_points_limit"),
    ({"dealer": ["player"]}, "dealer"),
    ({"name": ""}, "name"),
    ({"jokers": 2}, "jokers"),
]


def test_every_ruleset_parameter_has_a_check():
    # the name and description say which rules these are: no option (stop 71)
    assert set(OPTION_CHECKS) == set(Ruleset.__dataclass_fields__) - {"name", "description"}


def test_the_named_rulesets_pass_their_own_checks():
    for r in RULESETS.values():
        options = {k: getattr(r, k) for k in OPTION_CHECKS}
        assert ruleset(r.name, options) == r


@pytest.mark.parametrize("options,name", BAD_OPTIONS, ids=[n for _, n in BAD_OPTIONS])
def test_bad_table_options_are_rejected_naming_the_option(options, name):
    engine = Engine()
    with pytest.raises(IllegalAction) as exc:
        engine.apply(act.TableStart(("Anna", "Bo", "Cilla"), "sm2025", options=options))
    assert name in exc.value.reason
    assert len(exc.value.reason) < 700  # names the option; never echoes a huge value
    assert engine.events == [] and engine.state.rules is None


def test_the_issue_13_table_never_gets_going():
    # Accepted before, and four discards later an action failed half-applied
    s = Script(options={"hand_points": {"one_pair": "x"}})
    s.deal(**JUNK).discard("Anna", "AS").discard("Bo", "2C").discard("Cilla", "2D").discard("Dan", "3D")
    engine, doc = s.run()
    assert "option hand_points.one_pair must be a whole number from 0 to 52, not 'x'" in doc["rejected"][0]["reason"]
    assert engine.events == [] and doc["games"] == []


def test_good_options_still_apply():
    s = Script(options={"hand_points": {"one_pair": 3}, "draw_stop": 40, "placement_points": [10, 6.5, 4]})
    assert s.doc()["rejected"] == []
    # the bounds themselves are allowed: 0 to 1000 placement points, 0 to 5 cards to exchange
    edges = {"placement_points": [1000, 0], "max_exchange_cards": 0}
    assert Script(options=edges).doc()["rejected"] == []
    assert ruleset("sm2025", edges).placement_points == (1000, 0)
    r = ruleset("sm2025", {"hand_points": {"one_pair": 3}})
    assert r.hand_points["one_pair"] == 3 and r.hand_points["flush"] == 5


# --- bounded TL points (issue 13 item 5) ---------------------------------------------------


def test_adjust_and_penalty_points_are_bounded_to_200_by_default():
    s = Script().deal(**JUNK).adjust("Anna", -200).adjust("Anna", 40).adjust("Bo", 201).adjust("Bo", -1_000_000)
    s.add(do="penalty", player="Cilla", kind="points", points=201, reason="x")
    s.add(do="penalty", player="Cilla", kind="points", points=200, reason="x")
    engine, doc = s.run()
    assert [r["line"] for r in doc["rejected"]] == [6, 7, 8]
    assert all("at most 200 either way" in r for r in reasons(doc))
    assert "tl_points_limit" in reasons(doc)[0]
    assert doc["games"][0]["scores"] == {"Anna": 40, "Bo": 0, "Cilla": 0, "Dan": 0}
    assert [e.type for e in engine.events].count("penalty_given") == 1  # the rejected one left none


def test_the_tl_points_limit_is_a_table_option():
    s = Script(options={"tl_points_limit": 20}).deal(**JUNK).adjust("Anna", 21).adjust("Anna", 20)
    doc = s.doc()
    assert len(doc["rejected"]) == 1 and "at most 20 " in reasons(doc)[0]
    assert doc["games"][0]["scores"]["Anna"] == 20


def test_a_points_penalty_deducts_whatever_its_sign_and_keeps_what_was_asked():
    # The convention (REPLAY.md, RULES.md §11): `points` is the size of the deduction;
    # 5 and -5 both take 5 away; the floor at 0 (r19) keeps the score >= 0 and the
    # event keeps the 5 asked, so the protocol can say the floor cut it.
    s = Script().deal(**JUNK).adjust("Anna", 12).adjust("Bo", 2)
    s.add(do="penalty", player="Anna", kind="points", points=5, reason="x")
    s.add(do="penalty", player="Anna", kind="points", points=-5, reason="x")
    s.add(do="penalty", player="Bo", kind="points", points=5, reason="x")
    s.add(do="penalty", player="Bo", kind="points", points=0, reason="x")
    engine, doc = s.run()
    assert doc["games"][0]["scores"]["Anna"] == 2 and doc["games"][0]["scores"]["Bo"] == 0
    floored = [e for e in engine.events if e.type == "awarded" and e.player == "Bo" and e.reason == "penalty"]
    assert [(e.points, e.asked) for e in floored] == [(-2, -5)]
    assert "at least 1 point" in reasons(doc)[0]


# --- every field type-checked (issue 13 item 5) -------------------------------------------

ILL_TYPED = [
    {"do": ["play"]},
    {"do": {}},
    {"do": None},
    {"do": 7},
    {"do": "play"},
    {"do": "play", "player": ["Anna"], "card": "AS"},
    {"do": "play", "player": "Anna", "card": 14},
    {"do": "play", "player": "A" * 101, "card": "AS"},
    {"do": "discard", "player": "Anna", "cards": "AS"},
    {"do": "discard", "player": "Anna", "cards": [["AS"]]},
    {"do": "discard", "player": "Anna", "cards": {"AS": 1}},
    {"do": "adjust", "player": "Anna", "points": True},
    {"do": "adjust", "player": "Anna", "points": "5"},
    {"do": "adjust", "player": "Anna", "points": 10**4200},
    {"do": "adjust", "player": "Anna", "points": 1.0},
    {"do": "adjust", "player": "Anna", "points": 5, "reason": ["r"]},
    {"do": "penalty", "player": "Anna", "kind": "points", "points": None},
    {"do": "penalty", "player": "Anna", "kind": ["points"]},
    {"do": "chicago", "player": "Anna", "say": "yes"},
    {"do": "open", "player": "Anna", "card": "AS", "take": 0},
    {"do": "game", "seats": "Anna Bo Cilla", "button": "Anna"},
    {"do": "game", "seats": [1, 2, 3], "button": "Anna"},
    {"do": "deal", "hands": []},
    {"do": "deal", "hands": {"Anna": None}},
    {"do": "table", "players": ["A", "B", "C"], "options": [1]},
    {"do": "table", "players": ["A", "B", "C"], "ruleset": {"name": "sm2025"}},
    {"do": "timeout", "player": "Anna", "clock": ["play"]},
    {"do": "quads", "player": "Anna", "choice": {}},
]


@pytest.mark.parametrize("obj", ILL_TYPED, ids=range(len(ILL_TYPED)))
def test_ill_typed_fields_are_a_clear_action_error(obj):
    with pytest.raises(ActionError) as exc:
        parse_action(obj)
    assert 0 < len(str(exc.value)) < 300


def test_json_that_python_cannot_read_is_a_clear_action_error():
    for text, msg in [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"points": ' + "1" * 4400 + "}", "too long"),
        ('{"do": "play"', "not valid JSON"),
    ]:
        with pytest.raises(ActionError, match=msg):
            load_line(text)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["AS", "TD", "Anna", "Bo", "points", "zero", "play", "exchange"]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "player",
        "players",
        "seats",
        "button",
        "card",
        "cards",
        "take",
        "say",
        "choice",
        "clock",
        "kind",
        "points",
        "reason",
        "hands",
        "options",
        "ruleset",
        "dealer",
    ]
)


@settings(max_examples=300, deadline=None)
@given(do=st.sampled_from(list(act.ACTIONS)) | JSON, fields=st.dictionaries(FIELDS, JSON, max_size=5))
def test_any_json_is_an_action_or_a_clear_error_and_the_engine_only_refuses(do, fields):
    """Fuzz: parse never raises anything but ActionError; what parses, a started table
    judges with IllegalAction at worst, and a refusal changes nothing."""
    obj = {"do": do, **fields}
    try:
        action = parse_action(json.loads(json.dumps(obj)))
    except ActionError:
        return
    engine, _ = Script().deal(**JUNK).run()
    before, n = engine.state.to_dict(), len(engine.events)
    try:
        engine.apply(action)
    except IllegalAction:
        assert engine.state.to_dict() == before and len(engine.events) == n


# --- any option set the checks let through plays a whole table --------------------------


def _ints(lo, hi):
    return st.integers(lo, hi)


OPTION_VALUES = {
    "max_exchange_cards": _ints(0, 5),
    "exchanges": _ints(1, 3),
    "draw_stop": _ints(0, 100),
    "draw_stop_from_next_deal": st.booleans(),
    "draw_stop_attempt": st.sampled_from(["refuse", "zero_keep_chicago", "zero_clear_chicago"]),
    "chicago_min_score": _ints(0, 100),
    "chicago_required_to_win": st.booleans(),
    "hand_points": st.dictionaries(
        st.sampled_from(
            ["one_pair", "two_pair", "straight", "flush", "four_of_a_kind", "straight_flush", "royal_flush"]
        ),
        _ints(0, 52),
    ),
    "quads_zero_choice": st.booleans(),
    "straight_flush": st.sampled_from(["out", "points_out_if_chicago", "points"]),
    "royal_flush": st.sampled_from(["out_zero_all", "win", "points"]),
    "special_suit_order": st.sampled_from([None, "SHDC", "CDHS"]),
    "tie_nobody_scores": st.booleans(),
    "last_trick": _ints(0, 52),
    "last_trick_two": _ints(0, 52),
    "chicago_won": _ints(0, 52),
    "chicago_lost": _ints(-52, 0),
    "chicago_breaker": _ints(0, 52),
    "chicago_style": st.sampled_from(["sm", "classic"]),
    "revoke": st.sampled_from(["dead_hand", "correct_minus_2", "none"]),
    "revoke_points": _ints(-52, 0),
    "dealer_error_points": _ints(-52, 0),
    "placement_points": st.lists(_ints(0, 30), max_size=5),
    "games_per_table": _ints(1, 2),
    "playoff_deals": _ints(0, 2),
    "dealer": st.sampled_from(["dedicated", "player"]),
    "deductions_at_deal_end": st.booleans(),
}


@settings(max_examples=10, deadline=None)
@given(
    rs=st.sampled_from(list(RULESETS)),
    seed=st.integers(0, 2**31 - 1),
    options=st.fixed_dictionaries({}, optional=OPTION_VALUES),
)
def test_any_accepted_option_set_plays_a_whole_table(rs, seed, options):
    """Issue 13: 7 of 16 bad option sets crashed a table deals after the `table` action.
    Whatever the checks accept, random legal play runs to the table's end (2,000 random
    option sets were run once by hand; this keeps a few in every run)."""
    from table_controller.sim.bots import RandomBot

    players = ("Anna", "Bo", "Cilla", "Dan")
    engine = Engine()
    engine.apply(act.TableStart(players, rs, options=options))
    bot = RandomBot(seed, players=players, ruleset=rs)
    for _ in range(50_000):
        action = bot.next_action(engine)
        if action is None:
            break
        engine.apply(action)
    assert engine.state.finished


# --- the edges of the option checks (found by the full mutation run, issue 23) -------------


def test_option_checks_hold_at_their_edges():
    from table_controller.rules.errors import RulesetError
    from table_controller.rules.rulesets import check_option

    # the rules' name and description are no parameters (stop 71: an option renamed the
    # replay document's "ruleset", which REPLAY.md keeps to the four rulesets)
    for bad in ({"name": "sm2019"}, {"description": "d"}, {"name": "n", "max_players": 4}):
        with pytest.raises(RulesetError, match="is no ruleset parameter: 'ruleset' names the rules"):
            ruleset("sm2025", bad)
    assert ruleset("sm2025", {"special_suit_order": "CDHS"}).special_suit_order == "CDHS"
    for bad_order in ("SHDA", "ACDH", "SHD", "SHDCS"):  # four suits, each once
        with pytest.raises(RulesetError, match="special_suit_order"):
            ruleset("sm2025", {"special_suit_order": bad_order})
    assert len(ruleset("sm2025", {"placement_points": [8, 7, 6, 5, 4, 3, 2, 1]}).placement_points) == 8
    with pytest.raises(RulesetError, match="at most 8 numbers"):
        ruleset("sm2025", {"placement_points": [9, 8, 7, 6, 5, 4, 3, 2, 1]})
    # a long unknown name is cut to its first 40 characters in the message
    with pytest.raises(RulesetError) as e:
        ruleset("sm2025", {"hand_points": {"y" * 39 + "z" + "w" * 10: 1}})
    assert f"hand_points.{'y' * 39}z is not a hand" in str(e.value)
    with pytest.raises(RulesetError) as e:
        ruleset("sm2025", {"q" * 39 + "z" + "w" * 10: 1})
    assert f"unknown ruleset option(s) [{'q' * 39 + 'z'!r}]" in str(e.value)
    with pytest.raises(RulesetError) as e:
        check_option("q" * 39 + "z" + "w" * 10, 1)
    assert str(e.value) == f"unknown ruleset option {'q' * 39 + 'z'!r}"


def test_a_rulesets_rows_list_every_rule_but_its_name():
    """What `chicago-table rules` prints: one row per rule, tables and lists as text."""
    r = RULESETS["sm2025"]
    rows = dict(r.as_rows())
    assert "name" not in rows and "description" not in rows
    assert len(r.as_rows()) == len(rows) == len(OPTION_CHECKS)  # every parameter: the name and description are none
    assert rows["hand_points"].startswith(f"one_pair {r.hand_points['one_pair']}, two_pair ")
    assert rows["placement_points"] == " / ".join(str(x) for x in r.placement_points)
    assert rows["draw_stop"] == str(r.draw_stop)
