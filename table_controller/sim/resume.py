"""Bots resume a table from its log (issue 15): the virtual table's physical state again.

A bot table killed mid-game leaves its actions in the log, but the virtual table (which
cards lie on which pad, who holds which) died with the process.  The same actions go
again through the bots' :class:`~.translate.Translator` onto a virtual table that is not
yet powered: every move they made, none of the waiting.  The firmware then boots on that
table, reports the pads as they lie, and the bots play on from the logged state.

    engine, translator = rebuild_table(logged_actions(log), table)
"""

from __future__ import annotations

from collections.abc import Iterable

from table_controller.rules.actions import Action, Discard, parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.phases import Phase
from table_controller.sim.translate import Translator, make_move
from table_controller.store import TableRecorder


def logged_actions(log: TableRecorder) -> list[Action]:
    """The accepted actions in the log's order."""
    return [parse_action(r.data) for r in log.records("action")]


def silent_discard(engine: Engine, action: Action) -> bool:
    """A player at draw stop "placing nothing": nothing a table can see (as TableDriver.step)."""
    d = engine.state.deal
    return (
        isinstance(action, Discard)
        and not action.cards
        and d is not None
        and action.player in d.order
        and engine.at_draw_stop(action.player)
    )


def rebuild_table(actions: Iterable[Action], table) -> tuple[Engine, Translator]:
    """Make every physical move of ``actions`` on ``table`` (a VirtualTable, best before it
    starts); returns the engine after them (the bots' shadow) and the translator, which
    remembers a dealer's over-count still to be corrected."""
    engine = Engine()
    translator = Translator()
    for action in actions:
        before = Translator.before(engine)
        silent = silent_discard(engine, action)
        engine.apply(action)  # the log holds accepted actions only: an error here is a damaged log
        if silent:
            continue
        for step in translator.plan(action, before, engine):
            _move(table, step)
    if engine.state.deal is None or engine.phase is Phase.DEAL:
        # Between deals the dealer gathers the cards while the controller is down: a
        # fresh sensing machine that boots onto the last deal's tricks lying on the pads,
        # a hand's worth on each, in the phase that waits for a deal, reads them as one.
        _move(table, ("collect",))
    return engine, translator


def _move(table, step: tuple) -> None:
    make_move(table, step)  # press, submit, sync, settle, arrive, pause: nothing lies on a pad
