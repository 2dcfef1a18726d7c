"""The table being judged: its state, its event list, and the one way to change both
(``emit``).  The engine holds one; the scoring and trick-play functions take it."""

from __future__ import annotations

from table_controller.rules import events as ev
from table_controller.rules.errors import IllegalAction
from table_controller.rules.rulesets import Ruleset
from table_controller.rules.state import DealState, GameState, TableState, evolve


class Ledger:
    __slots__ = ("events", "state")

    def __init__(self, state: TableState, events: list[ev.Event]) -> None:
        self.state = state
        self.events = events

    def emit(self, event: ev.Event) -> None:
        # Listed before it is folded: should the fold fail half-way, the engine's rollback
        # sees that something was emitted and rebuilds the state.
        self.events.append(event)
        evolve(self.state, event)

    @property
    def rules(self) -> Ruleset:
        rules = self.state.rules
        assert rules is not None, "no table yet"
        return rules

    @property
    def game(self) -> GameState:
        """The current game, known to exist (the action's checks have run)."""
        g = self.state.game
        assert g is not None, "no game yet"
        return g

    @property
    def deal(self) -> DealState | None:
        return self.state.deal

    def game_in_progress(self) -> GameState:
        g = self.state.game
        if g is None or g.finished:
            raise IllegalAction("no game is in progress: start one with 'game'")
        return g

    def deal_in_progress(self) -> DealState:
        d = self.game_in_progress().deal
        if d is None:
            raise IllegalAction("no deal is in progress: the next action is 'deal'")
        return d

    def check_in_play(self, d: DealState, player: str) -> None:
        if player not in self.game.players:
            raise IllegalAction(f"{player} does not play in this game")
        if player not in d.order or player in d.folded:
            raise IllegalAction(f"{player} is not in this deal (out, sitting out or folded)")
