"""Replaying a table's raw sensor log through sensing (issue 6): the same game again.

    >>> from table_controller.rules.actions import TableStart
    >>> from table_controller.store import SQLiteStore, TableRecorder
    >>> live = TableRecorder(SQLiteStore.open("table7.sqlite", create=True))
    >>> _ = live.apply(TableStart(("Anna", "Bo", "Cilla")), source="tl")    # entered by hand
    >>> engine, document = replay_sensors("table7.sqlite")
    >>> document == replay_document(live.engine)
    True

The live loop stores every observation the sensing machine saw ("sensor" records: the
bridge's and the camera's events, a ``sensing_start`` record with the deck, mode and
options of each sensing machine it starts, and a ``tick`` record wherever time alone moved
sensing before it acted).  Here a fresh sensing machine and a fresh engine read them in
the log's order, with no table, serial line or clock: what sensing proposes is judged
by the rules as it was live.  What nobody can sense is taken from the log as it was
entered: actions entered by hand or by the shot clocks (source other than "sensing") and
the Revisor's and TL's corrections (audit records).  Actions sensing proposed are NOT
taken from the log: they must come out of the replayed sensing again.

A process killed between two commits leaves a log that ends part-way through what
sensing did: one observation may make sensing propose two actions, each committed on its
own, and the second dies with the process.  Each proposal the replay accepts is therefore
confirmed by the next logged action of source "sensing"; where a sensing machine ends (a
``sensing_start`` record: the loop restarted; or the log's end) the proposals no log record
confirmed are taken back, as the live table never had them.
"""

from __future__ import annotations

import os
from typing import Any

from table_controller.deck import Deck, virtual_deck
from table_controller.live.facts import facts_from_engine
from table_controller.live.table import SENSING_OPTIONS, SENSING_START, TICK, console_button
from table_controller.rules.actions import Action, parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.errors import ActionError
from table_controller.rules.judge import judge
from table_controller.rules.replay import replay_document
from table_controller.sensing import CardAt, Dismiss, Sensing, SensingError, UidIs, parse_correction
from table_controller.sensor_events import ButtonPressed
from table_controller.store.sensors import SENSOR_TYPES, sensor_from_dict


class SensorReplay:
    """A sensing machine and an engine fed record by record (see :func:`replay_sensors`)."""

    def __init__(self, deck: Deck | None = None, rfid: bool = True, **options: float) -> None:
        self.engine = Engine()
        self.accepted: list[tuple[str, Action]] = []  # (source, action) as the live loop lists them
        self.observations = 0
        # the replay's own sensing proposals not yet confirmed by a logged sensing action:
        # (events, accepted) as they were before each, oldest first
        self._unconfirmed: list[tuple[int, int]] = []
        self._start(deck or virtual_deck(), rfid, options)

    def _start(self, deck: Deck, rfid: bool, options: dict[str, float]) -> None:
        self.sensing = Sensing(deck, rfid=rfid, **options)
        self.sensing.sync(facts_from_engine(self.engine))

    def record(self, kind: str, data: dict[str, Any], source: str) -> None:
        if kind == "sensor":
            self._sensor(data)
        elif kind == "action" and source == "sensing" and data.get("do") != "retract":
            if self._unconfirmed:  # the live table committed it: it stands
                self._unconfirmed.pop(0)
            return
        elif kind == "action":  # entered by hand; and a take-back sensing made before stop 67, which it no longer makes
            try:
                action = parse_action(data)
            except ActionError:
                return  # the live loop never stored one it could not read; nothing to redo
            self._apply(action, source, logged=True)
        elif kind == "audit" and data.get("what") == "correction":
            self._correct(str(data.get("correction", "")))
        else:
            return
        self._drain()

    def _sensor(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == SENSING_START:  # the live loop (re)started: a fresh machine, as it had
            self.finish()
            opts = dict(data.get("options") or {})
            # a log from before the late press (issue 15): no window, as it was sensed
            opts.setdefault("late_press_s", 0.0)
            # and from before the camera waited for the reader (stop 73): it filled in at once
            opts.setdefault("camera_wait_s", 0.0)
            self._start(
                Deck.from_dict(data["deck"]),
                bool(data.get("rfid", True)),
                {k: float(opts[k]) for k in SENSING_OPTIONS if k in opts},
            )
        elif kind == TICK:
            self.sensing.tick(float(data["at"]))
        elif kind in SENSOR_TYPES:
            event = sensor_from_dict(data)
            self.observations += 1
            if isinstance(event, ButtonPressed) and console_button(event.button):
                return
            self.sensing.observe(event)

    def _correct(self, text: str) -> None:
        try:
            c = parse_correction(text)
        except SensingError:
            return
        if isinstance(c, CardAt):
            self.sensing.correct_card_at(c.pad, c.card)
        elif isinstance(c, UidIs):
            self.sensing.correct_uid(c.uid, c.card)
        elif isinstance(c, Dismiss):
            self.sensing.dismiss(c.alert)

    def finish(self) -> None:
        """Where a sensing machine's records end: take back what it proposed that no logged
        action confirms (the process died before committing it).  Called at every restart
        and by :func:`replay_sensor_log` at the log's end."""
        if not self._unconfirmed:
            return
        events, accepted = self._unconfirmed[0]
        self._unconfirmed.clear()
        self.engine.rollback(events)
        del self.accepted[accepted:]

    def _apply(self, action: Action, source: str, logged: bool = False) -> bool:
        """``logged``: an action the log holds (entered by hand, or an old sensed take-back),
        not one of the replay's own proposals, which a logged sensing action confirms."""
        before = (len(self.engine.events), len(self.accepted))
        verdict = judge(self.engine, action)
        if verdict.reason is not None:
            if source == "sensing" and not logged:
                self.sensing.refused(action, verdict.reason)
            return False
        if source == "sensing" and not logged:
            self._unconfirmed.append(before)
        self.accepted.append((source, action))
        self.sensing.sync(facts_from_engine(self.engine))
        return True

    def _drain(self, limit: int = 64) -> None:  # as LiveTable._drain
        for _ in range(limit):
            a = self.sensing.propose()
            if a is None:
                break
            self._apply(a, "sensing")


def replay_sensors(path: str | os.PathLike) -> tuple[Engine, dict[str, Any]]:
    """The table a log's sensor records give when replayed through sensing: (engine,
    replay document).  Raises the store's errors for a missing or damaged file."""
    return replay_sensor_log(path)[0:2]


def replay_sensor_log(path: str | os.PathLike) -> tuple[Engine, dict[str, Any], SensorReplay]:
    from table_controller.store.sqlite import SQLiteStore

    with SQLiteStore.open(path, readonly=True) as store:
        store.verify()  # never replay a shortened or changed history
        replay = SensorReplay()
        for r in store.read(kinds=["sensor", "action", "audit"]):
            replay.record(r.kind, dict(r.data), r.source)
        replay.finish()
    return replay.engine, replay_document(replay.engine), replay
