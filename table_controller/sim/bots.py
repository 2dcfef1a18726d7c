"""A bot that plays random legal actions for whoever must act, dealer included.

    >>> engine = play_table(seed=7)
    >>> engine.phase
    'table_over'

Used by tests, benchmarks, the demo and the virtual table.  All randomness comes from the
bot's own seeded ``random.Random``; the engine stays pure.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK, Card
from table_controller.rules.engine import Engine
from table_controller.rules.phases import Phase


class RandomBot:
    def __init__(
        self,
        seed: int | None = None,
        players: Sequence[str] = ("Anna", "Bo", "Cilla", "Dan"),
        ruleset: str = "sm2025",
        chicago_rate: float = 0.35,
    ):
        self.rng = random.Random(seed)
        self.players = tuple(players)
        self.ruleset = ruleset
        self.chicago_rate = chicago_rate

    def next_action(self, engine: Engine) -> act.Action | None:
        """A legal action for the table's next step, or None when the table is over."""
        rng = self.rng
        s = engine.state
        if s.rules is None:
            return act.TableStart(self.players, self.ruleset)
        phase = engine.phase
        if phase is Phase.TABLE_OVER:
            return None
        if phase in (Phase.GAME_START, Phase.GAME_OVER):
            seats = list(s.playoff_players or s.players)
            rng.shuffle(seats)  # r7: seats drawn at random every game
            return act.GameStart(tuple(seats), rng.choice(seats))
        g = s.game
        if g is None:  # every phase from here on is one of a game
            return None
        if phase is Phase.DEAL:
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            eligible = g.players_left()
            return act.Deal({p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(eligible)})
        d = g.deal
        if d is None:  # ... and from here on one of a deal
            return None
        if phase.is_exchange:
            waiting = engine.to_act()
            placing = [p for p in waiting if p not in d.placed]
            if placing:
                p = placing[0]
                if engine.at_draw_stop(p):
                    return act.Discard(p, ())
                hand = list(d.hands[p])
                n = rng.choices(
                    range(engine.rules.max_exchange_cards + 1),
                    weights=[3, 4, 3, 3, 2, 1][: engine.rules.max_exchange_cards + 1],
                )[0]
                return act.Discard(p, tuple(rng.sample(hand, n)))
            p = waiting[0]
            owed = d.awaiting[p]
            cards = self._draw(d, owed)
            if len(d.placed[p]) == 1 and p not in d.open_declined:
                return act.OpenCard(p, cards[0], rng.random() < 0.5)
            return act.Receive(p, tuple(cards))
        if phase is Phase.QUADS_CHOICE:
            return act.QuadsChoice(d.asking[0], rng.choice(("zero", "points")))
        if phase is Phase.CHICAGO:
            p = d.asking[0]
            high = sum(1 for c in d.hands[p] if c.rank >= 12)  # queens and up
            rate = self.chicago_rate if high >= 3 else self.chicago_rate / 10
            wants = rng.random() < rate  # drawn always: the same seed plays the same game
            # a TL's correction may have taken the asked player under the minimum (r20)
            # after the question began: then only "no" is legal
            return act.ChicagoAnswer(p, wants and engine.legal_actions().may_say_chicago)
        if phase is Phase.TRICKS:
            p = engine.to_act()[0]
            return act.Play(p, rng.choice(engine.legal_actions().plays[p]))  # r25: follows suit
        return None  # pragma: no cover

    def _draw(self, d, n: int) -> list[Card]:
        stub = sorted(d.stub)
        out: list[Card] = []
        for _ in range(n):
            if not stub:
                stub = sorted(d.discards_earlier - set(out))
            c = self.rng.choice(stub)
            stub.remove(c)
            out.append(c)
        return out


def play_table(
    seed: int | None = None,
    ruleset: str = "sm2025",
    players: Sequence[str] = ("Anna", "Bo", "Cilla", "Dan"),
    max_actions: int = 200_000,
) -> Engine:
    """Play a whole table (three games and any särspel) with random legal actions."""
    bot = RandomBot(seed, players, ruleset)
    engine = Engine()
    for _ in range(max_actions):
        a = bot.next_action(engine)
        if a is None:
            return engine
        engine.apply(a)
    raise RuntimeError(f"table not finished after {max_actions} actions (seed {seed})")


class DrawnBot:
    """Bots playing the table as the tournament hub drew it (issue 20, r7): the ``table``
    action (players, ruleset, heat) and every game's seats and button from the draw.

        >>> draw = {"table": "h1-t1", "players": ["Anna", "Bo", "Cilla"], "ruleset": "sm2025",
        ...         "options": {"heat": 1}, "games": [{"game": 1, "seats": ["Cilla", "Anna", "Bo"], "button": "Bo"}]}
        >>> bot, engine = DrawnBot(7, draw), Engine()
        >>> engine.apply(bot.next_action(engine)) and engine.state.rules.heat
        1
        >>> bot.next_action(engine).to_dict()
        {'do': 'game', 'seats': ['Cilla', 'Anna', 'Bo'], 'button': 'Bo'}

    A särspel's seats (r11) are drawn by the hub once the table has ended tied, so for
    one ``refresh()`` (the draw read again) is asked until it holds them, every
    ``poll_s`` seconds for at most ``wait_s``; then the bots seat the särspel themselves
    (the hub shows that to the TL as seats not as drawn) and ``warn`` says so."""

    def __init__(
        self,
        seed: int | None,
        draw: Mapping[str, Any],
        refresh: Callable[[], Mapping[str, Any]] | None = None,
        wait_s: float = 30.0,
        poll_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        warn: Callable[[str], None] = lambda text: None,
    ):
        self.draw = draw
        self.bot = RandomBot(seed, draw["players"], draw["ruleset"])
        self.refresh, self.wait_s, self.poll_s, self.sleep, self.warn = refresh, wait_s, poll_s, sleep, warn

    def next_action(self, engine: Engine) -> act.Action | None:
        from table_controller.tournament.seating import game_start, table_start

        a = self.bot.next_action(engine)
        if isinstance(a, act.TableStart):
            return table_start(self.draw)
        if isinstance(a, act.GameStart):
            s = engine.state
            number, players = len(s.games) + 1, list(s.playoff_players or s.players)
            drawn = game_start(self.draw, number, players)
            waited = 0.0
            while drawn is None and s.playoff_players and self.refresh is not None and waited < self.wait_s:
                self.sleep(self.poll_s)  # the hub draws the särspel once it has the tied game
                waited += self.poll_s
                try:
                    self.draw = self.refresh()
                except ValueError as exc:
                    self.warn(f"the hub's draw: {exc}")
                drawn = game_start(self.draw, number, players)
            if drawn is None:
                self.warn(f"game {number}: the hub's draw has no seats for {', '.join(players)}; the bots seat them")
                return a
            return drawn
        return a
