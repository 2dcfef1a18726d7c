"""Sensing benchmark: bot tables played as pad events straight into sensing (no serial
line, no asyncio), measuring the cost of one sensor event and of a whole table.

    .venv/bin/python tests/bench/sensing.py

Prints medians over a few tables; the last line is a JSON object.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table_controller.deck import virtual_deck
from table_controller.live.facts import facts_from_engine
from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.sensing import Sensing
from table_controller.sensor_events import ButtonPressed, PadContents
from table_controller.sim.bots import RandomBot
from table_controller.sim.translate import MANUAL, Translator

PADS = ("seat1", "seat2", "seat3", "seat4", "tray")


def play(seed: int) -> tuple[int, int, list[float], float]:
    deck = virtual_deck()
    uid = {c.code: deck.uid_of(c) for c in FULL_DECK}
    where = {c.code: "stub" for c in FULL_DECK}
    live, shadow, bot, tr = Engine(), Engine(), RandomBot(seed), Translator()
    s = Sensing(deck)
    clock = [0.0]
    costs: list[float] = []

    def drain() -> None:
        while (a := s.propose()) is not None:
            try:
                live.apply(a)
            except IllegalAction as exc:
                s.refused(a, exc.reason)
            s.sync(facts_from_engine(live))

    def event(e) -> None:
        t0 = time.perf_counter()
        s.observe(e)
        drain()
        costs.append(time.perf_counter() - t0)

    def report(pad: str) -> None:
        if pad in PADS:
            event(PadContents(clock[0], pad, frozenset(uid[c] for c, w in where.items() if w == pad)))

    def move(code: str, to: str) -> None:
        frm, where[code] = where[code], to
        report(frm)
        report(to)

    start = time.perf_counter()
    actions = 0
    while (a := bot.next_action(shadow)) is not None:
        before = Translator.before(shadow)
        shadow.apply(a)
        actions += 1
        if isinstance(a, MANUAL):
            live.apply(a)
            s.sync(facts_from_engine(live))
            drain()
            continue
        for st in tr.plan(a, before, shadow):
            k = st[0]
            if k in ("put", "tray"):
                move(st[1], st[2] if k == "put" else "tray")
            elif k == "remove":
                move(st[1], st[2])
            elif k == "pickup":
                for c in [c for c, w in where.items() if w == st[1]]:
                    where[c] = f"hand:{st[1]}"
                report(st[1])
            elif k == "press":
                event(ButtonPressed(clock[0], st[1]))
            elif k == "collect":
                for c in [c for c, w in where.items() if w != "stub"]:
                    move(c, "stub")
            elif k == "collect_discards":
                for pad in PADS[:4]:
                    for c in [c for c, w in where.items() if w == pad]:
                        move(c, "tray")
            elif k in ("settle", "pause", "arrive"):
                clock[0] += 1.0
                s.tick(clock[0])
                drain()
    elapsed = time.perf_counter() - start
    assert live.phase == "table_over" and len(live.events) == len(shadow.events), "sensing lost the table"
    return actions, len(costs), costs, elapsed


def main() -> None:
    per_event, per_table, rates = [], [], []
    for seed in range(3):
        actions, events, costs, elapsed = play(seed)
        per_event.append(statistics.median(costs) * 1e6)
        per_table.append(elapsed)
        rates.append(actions / elapsed)
        print(f"seed {seed}: {actions} actions, {events} sensor events, {elapsed:.1f} s", flush=True)
    out = {
        "sensor_event_us_median": round(statistics.median(per_event), 1),
        "table_seconds_median": round(statistics.median(per_table), 2),
        "actions_per_second_median": round(statistics.median(rates), 1),
    }
    print(f"median cost of one sensor event through sensing: {out['sensor_event_us_median']} us")
    print(f"median whole table (sensing + rules, no I/O): {out['table_seconds_median']} s")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
