"""Every action is all or nothing (issue 13 item 4), proved by injecting a failure at every
event position of random tables: whatever an action raises, and wherever it raises, the
engine's state and its event log are exactly as before the action.

The default run plays ten short tables (a few seconds of CPU); ``CHICAGO_FAULT_TABLES``
plays as many as asked.  Each table of one or two games fails some 2,000 times (every
event of every action).  A failure is cheap: the engine's rollback folds from its last
checkpoint, not from the empty table, and the test compares with a reference engine that
never fails instead of copying the state; a table costs about 0.35 s of CPU (it was 4 s),
so 2,000 tables take some 12 minutes of CPU::

    CHICAGO_FAULT_TABLES=2000 .venv/bin/python -m pytest -p no:xdist -q tests/rules/test_atomic.py -k any_event
"""

from __future__ import annotations

import itertools
import os
import random

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from table_controller.rules import actions as act
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.ledger import Ledger
from table_controller.sim.bots import RandomBot
from table_controller.store import SQLiteStore
from table_controller.store.recorder import TableRecorder

RULESETS = ("sm2025", "sm2019", "shootout", "classic")
TABLES = int(os.environ.get("CHICAGO_FAULT_TABLES", "10"))


class Injected(BaseException):
    """Not even an Exception: the rollback must hold for anything that unwinds."""


FAULTS = (lambda: IllegalAction("injected"), lambda: RuntimeError("injected bug"), lambda: Injected())


class FaultyLedger(Ledger):
    """The engine's ledger, with a failure raised at one event position of the next action:
    ("before", 0) before its first event, ("after", k) just after its k-th event was
    listed and folded.  ("before", k + 1) would find the same state and log as
    ("after", k), so these positions are all there are."""

    __slots__ = ("fault", "fired", "start")

    def __init__(self, state, events) -> None:
        super().__init__(state, events)
        self.fault: tuple[str, int, BaseException] | None = None
        self.fired = False
        self.start = 0

    def emit(self, event) -> None:
        k = len(self.events) - self.start
        when, at, exc = self.fault or ("", -1, None)
        if when == "before" and k == at:
            self.fired = True
            raise exc
        super().emit(event)
        if when == "after" and k == at:
            self.fired = True
            raise exc


class FaultyEngine(Engine):
    """The real engine, emitting every event through a FaultyLedger."""

    def __init__(self) -> None:
        self.ledger: FaultyLedger | None = None
        super().__init__(ledger=self._make_ledger)

    def _make_ledger(self, state, events) -> FaultyLedger:
        self.ledger = FaultyLedger(state, events)
        return self.ledger

    @property
    def fault(self):
        return self.ledger.fault

    @fault.setter
    def fault(self, value) -> None:
        self.ledger.fault = value

    @property
    def fired(self) -> bool:
        return self.ledger.fired

    def apply(self, action):
        self.ledger.start = len(self.events)
        self.ledger.fired = False
        return super().apply(action)


def same_table(engine: Engine, reference: Engine, events_before: list) -> None:
    # the same event objects (a list compare that meets identical objects is a pointer
    # compare), and the state of an engine that never failed: dataclass equality compares
    # every field (sets as sets), exact and far cheaper than to_dict() or a copy per action
    assert engine.events == events_before, "the log changed"
    assert engine.state == reference.state, "the state changed"


def apply_with_faults(engine: FaultyEngine, action, rng: random.Random, reference: Engine) -> int:
    """Apply ``action`` once per event position with a failure there, checking each time
    that nothing changed (against ``reference``, a plain engine that has applied the same
    actions and never failed); then apply it for real, to both.  Returns the number of
    failures tried."""
    events_before = list(engine.events)
    state_object = engine.state
    positions = itertools.chain([("before", 0)], (("after", k) for k in range(10_000)))
    for tried, (when, at) in enumerate(positions):
        engine.fault = (when, at, rng.choice(FAULTS)())
        try:
            engine.apply(action)
        except IllegalAction as exc:
            if not engine.fired:
                raise AssertionError(f"{action} refused without a fault: {exc.reason}") from None
        except (RuntimeError, Injected):
            assert engine.fired
        else:
            assert not engine.fired
            engine.fault = None
            # the action has no event `at`: it was applied for real; the reference agrees
            assert reference.apply(action) == engine.events[len(events_before) :]
            return tried
        assert engine.state is state_object, "the same state object, restored in place"
        same_table(engine, reference, events_before)
    raise AssertionError("an action with 10,000 events")


def random_table_start(rng: random.Random, ruleset: str) -> act.TableStart:
    players = ("Anna", "Bo", "Cilla", "Dan")[: rng.choice((3, 4, 4))]
    if ruleset == "classic":
        players = players[: rng.choice((2, 3, 4))]
    # One game a table keeps a table short; the rest of the rules are untouched.
    return act.TableStart(players, ruleset, options={"games_per_table": rng.choice((1, 1, 2))})


# The suite's 300 s per test is for a hung test; a soak run gets a minute a table
@pytest.mark.timeout(max(300, 60 * TABLES))
@settings(
    max_examples=TABLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(seed=st.integers(0, 2**31 - 1), ruleset=st.sampled_from(RULESETS))
def test_a_failure_at_any_event_changes_nothing(seed, ruleset):
    note(f"seed={seed} ruleset={ruleset}")
    rng = random.Random(seed)
    start = random_table_start(rng, ruleset)
    bot = RandomBot(seed, players=start.players, ruleset=ruleset)
    engine, reference = FaultyEngine(), Engine()
    action = start
    tried = 0
    while action is not None:
        tried += apply_with_faults(engine, action, rng, reference)
        if rng.random() < 0.02:  # a TL decision now and then: they emit and judge too
            p = rng.choice(start.players)
            extra = rng.choice(
                [
                    act.Adjust(p, rng.choice((-7, 3, 20))),
                    act.Penalty(p, "points", rng.choice((2, 5))),
                    act.Penalty(p, "warning"),
                ]
            )
            try:
                tried += apply_with_faults(engine, extra, rng, reference)
            except AssertionError as exc:
                if "refused without a fault" not in str(exc):  # e.g. no game in progress
                    raise
        action = bot.next_action(engine)
    assert engine.state.finished and tried > len(engine.events)
    # the log still replays to the live state after all those failures
    assert Engine.from_events(engine.events).state.to_dict() == engine.state.to_dict()
    assert not any(isinstance(e, BaseException) for e in engine.events)


class FailingStore(SQLiteStore):
    """A real SQLite log whose next append fails (a full disk, a pulled card)."""

    fail_next = False

    def append_batches(self, batches):
        if self.fail_next:
            self.fail_next = False
            raise OSError(28, "No space left on device")
        return super().append_batches(batches)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_recorder_keeps_state_and_log_together_whatever_fails(tmp_path, ruleset):
    """Through the single writer: a failure in the engine at any event, or in the write,
    leaves the live table and the durable log as they were; they never part."""
    rng = random.Random(ruleset)
    store = FailingStore.open(tmp_path / "t.sqlite", create=True)
    recorder = TableRecorder(store, FaultyEngine())
    engine = recorder.engine
    start = random_table_start(rng, ruleset)
    bot = RandomBot(7, players=start.players, ruleset=ruleset)
    action, n = start, 0
    while action is not None and n < 150:
        seq, state = store.last_seq(), engine.state.to_dict()
        for at in range(3):
            engine.fault = ("after", at, RuntimeError("injected"))
            try:
                recorder.apply(action)
            except RuntimeError:
                assert store.last_seq() == seq and engine.state.to_dict() == state
            else:
                break  # fewer events than `at`: stored for real
        else:
            engine.fault = None
            store.fail_next = True
            with pytest.raises(OSError):
                recorder.apply(action)
            assert recorder.engine is engine and store.last_seq() == seq and engine.state.to_dict() == state
            recorder.apply(action)
        engine.fault = None
        rebuilt = TableRecorder(store).engine  # what a restart would build from the log
        assert rebuilt.state.to_dict() == engine.state.to_dict()
        action, n = bot.next_action(engine), n + 1
    store.close()


def test_rollback_from_its_checkpoint_is_the_fold_of_the_kept_events():
    """The rollback's checkpoint is a fold of a prefix of the log: a later rollback folds
    on from it, an earlier one (the checkpoint is then past the cut) folds from scratch;
    every time the state is the fold of the events kept."""
    bot = RandomBot(3, players=("Anna", "Bo", "Cilla"), ruleset="sm2025")
    engine, action = Engine(), act.TableStart(("Anna", "Bo", "Cilla"), "sm2025")
    played = []  # (action, events after it)
    while action is not None and len(engine.events) < 400:
        engine.apply(action)
        played.append((action, len(engine.events)))
        action = bot.next_action(engine)
    events = list(engine.events)
    done = len(played)
    for k in (done - 2, done - 2, 40, 41, 10, 60, 59):
        while played[done - 1][1] < played[k][1]:  # the table goes on to there
            engine.apply(played[done][0])
            done += 1
        engine.rollback(played[k][1])
        done = k + 1
        assert engine.events == events[: played[k][1]]
        assert engine.state == Engine.from_events(engine.events).state
