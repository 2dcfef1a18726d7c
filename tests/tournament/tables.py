"""Recorded tables for the hub tests: a bot plays a table as the hub drew it (its
players, heat and the seats of every game), through the rules engine; the actions are
then written into the table's own SQLite log a chunk at a time.  Each chunk is one
commit (as ``log import`` writes), each action keeping its own ``txn`` with its events:
the same records the live recorder writes, without an fsync per action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from table_controller.rules import actions as act
from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot
from table_controller.store import NewRecord, SQLiteStore


def play_as_drawn(
    table: Mapping[str, Any],
    seed: int,
    playoff_draw: Callable[[list[str], int], Mapping] | None = None,
    start: Sequence[act.Action] = (),
) -> list[act.Action]:
    """Every action of the table (after ``start``, when given), game seats as drawn (r7);
    a särspel's seats from ``playoff_draw(players, game)`` (the hub's draw), else the bot's."""
    bot = RandomBot(seed, table["players"], table["ruleset"])
    engine = Engine()
    out = list(start) or [act.TableStart(tuple(table["players"]), table["ruleset"], options=dict(table["options"]))]
    for a in out:
        engine.apply(a)
    drawn = {g["game"]: g for g in table["games"]}
    while (a := bot.next_action(engine)) is not None:
        if isinstance(a, act.GameStart):
            number = len(engine.state.games) + 1
            g = drawn.get(number)
            if engine.state.playoff_players and playoff_draw:
                g = playoff_draw(list(engine.state.playoff_players), number)
            if g:
                a = act.GameStart(tuple(g["seats"]), g["button"])
        engine.apply(a)
        out.append(a)
    return out


class RecordedTable:
    """A table's log written step by step from a list of actions."""

    def __init__(self, path: Path, actions: Sequence[act.Action]):
        self.path = Path(path)
        self.actions = list(actions)
        self.done = 0
        self.engine = Engine()
        self.store: SQLiteStore | None = None

    def play(self, n: int | None = None) -> int:
        """Apply the next ``n`` actions (all that are left when None); returns the log's last seq."""
        if self.store is None:
            self.store = SQLiteStore.open(self.path, create=True)
        upto = len(self.actions) if n is None else min(len(self.actions), self.done + n)
        batches = []
        for a in self.actions[self.done : upto]:
            events = self.engine.apply(a)
            batches.append(
                [NewRecord("action", a.to_dict(), "revisor")]
                + [NewRecord("event", e.to_dict(), "engine") for e in events]
            )
        self.store.append_batches(batches)
        self.done = upto
        return self.store.last_seq()

    def store_records(self, n: int):
        """Play ``n`` actions and return every record of the log (then closed)."""
        self.play(n)
        recs = self.store.read()
        self.close()
        return recs

    @property
    def finished(self) -> bool:
        return self.done >= len(self.actions)

    def last_seq(self) -> int:
        return self.store.last_seq() if self.store else 0

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
