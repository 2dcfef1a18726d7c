"""A refused entry's reason as the role filter words it (``views.Refusal``, ``Sight.refusal``)
and the TL's typed words (``Sight.words``): no role is told a card by a refusal, and the
protocol's blind readers never read a card the TL typed (README "Security")."""

from __future__ import annotations

import random
import re

import pytest

from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.errors import ActionError
from table_controller.sensing import SensingError
from table_controller.sim.bots import RandomBot
from table_controller.views import ROLES, Refusal, sight

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


def _probes(engine: Engine, rng: random.Random) -> list[act.Action]:
    """Actions that name cards, for every player of the table, most of them refused."""
    out: list[act.Action] = []
    for p in engine.state.players:
        cards = tuple(rng.sample(FULL_DECK, 3))
        out += [
            act.Play(p, cards[0]),
            act.Discard(p, cards[:2]),
            act.Receive(p, cards[:1]),
            act.OpenCard(p, cards[2], True),
        ]
    if engine.state.players:
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands = {p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(engine.state.players)}
        first = engine.state.players[0]
        hands[first] = (hands[engine.state.players[-1]][0], *hands[first][1:])  # a card seen twice
        out.append(act.Deal(hands))
    return out


def test_no_refusal_of_the_rules_tells_any_role_a_card():
    """At every position of three bot tables, every card-naming probe the rules refuse: its
    reason as each role is told it names no card and is what the dashboard's regex made of
    it before, and with its cards put back it is the rules' own sentence (the typed fields
    say what the text says)."""
    rng = random.Random(14)
    with_cards = 0
    for seed in (1, 2, 3):
        engine, bot = Engine(), RandomBot(seed)
        for _ in range(150):
            for probe in _probes(engine, rng):
                kept = len(engine.events)
                try:
                    engine.apply(probe)  # all or nothing: a refusal changes nothing
                except IllegalAction as exc:
                    why = Refusal.of(exc)
                    assert why.text(cards=True) == exc.reason
                    with_cards += bool(why.cards)
                    for role in ROLES:
                        told = sight(role).refusal(why)
                        assert CARD.findall(told) == [], (role, exc.reason, told)
                        # as the dashboard's regex once told it (no player here is named like a card)
                        assert told == CARD.sub("(card)", exc.reason)
                else:
                    engine.rollback(kept)  # a probe that was legal: the bots play on as before
            action = bot.next_action(engine)
            if action is None:
                break
            engine.apply(action)
    assert with_cards > 100  # refusals that named cards were asked for


@pytest.mark.parametrize(
    "exc",
    [
        ActionError('\'cards\' must be a list of cards like ["AS", "TD"]'),
        SensingError("cannot read the correction 'the card at pad 2 is 10H now'"),
        IllegalAction("{error}", error=ValueError("unknown option 'KD'")),
    ],
)
def test_words_from_outside_the_rules_are_told_without_cards(exc):
    """Words that echo what was typed (an action line, a correction, an option) may name a
    card anywhere: the role filter finds them (``redact``) and tells no role one."""
    assert CARD.findall(str(exc))
    for role in ROLES:
        assert CARD.findall(sight(role).refusal(Refusal.of(exc))) == []
    assert "(card)" in sight("tl").refusal(Refusal.of(exc))


def test_a_swedish_word_ending_like_a_card_is_no_card():
    # "bröts", "Höks": a rank and a suit letter after a Swedish letter end a word, no card
    # (the mask made them "brö(kort)", stop 69's review); a card beside one is still masked
    from table_controller.views.redact import without_cards

    assert without_cards("när Chicagon bröts, i Höks hand", "(kort)") == "när Chicagon bröts, i Höks hand"
    assert without_cards("Åsa visade KH, 2Så", "(kort)") == "Åsa visade (kort), (kort)å"


def test_the_tls_typed_words_are_read_as_typed_by_the_tl_only():
    typed = "visade KH av misstag, och 10S"
    assert sight("tl").words(typed) == typed
    for role in set(ROLES) - {"tl"}:
        assert sight(role).words(typed) == "visade (kort) av misstag, och (kort)"


SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
WHITE = {"S": "\u2664", "H": "\u2661", "D": "\u2662", "C": "\u2667"}


def _notations(code: str) -> list[str]:
    """Every way the product itself reads (``Card.parse``) or shows (the pages) ``code``."""
    ranks = ["10", "T", "t"] if code[0] == "T" else [code[0], code[0].lower()]
    out = []
    for r in ranks:
        out += [r + code[1], r + code[1].lower()]
        out += [r + SYMBOL[code[1]], r + " " + SYMBOL[code[1]], r + WHITE[code[1]]]
    return out


@pytest.mark.parametrize("code", [c.code for c in FULL_DECK])
def test_the_tls_typed_words_name_no_card_to_a_blind_role_in_any_notation(code):
    """Stop 63's audit: the mask caught "KC" but not "ks", "10h" or "K♣", which the product
    takes or shows itself, so a TL's penalty reason typed during a deal printed the hidden
    card on the Revisor's and the public's protocol. Every notation, wherever it stands in
    the words (start, end, beside punctuation), is masked for every role but the TL."""
    for shown in _notations(code):
        for around in ("{}", "Bo visade {} för Cilla", "({}),", "kort: {}.", "{} och {}"):
            typed = around.format(shown, shown)
            for role in set(ROLES) - {"tl"}:
                assert sight(role).words(typed) == around.format("(kort)", "(kort)"), (role, typed)
            assert sight("tl").words(typed) == typed
