"""Engine benchmarks (issue 2).  Run: .venv/bin/python tests/bench/engine.py

Prints medians over repeated runs; the last line is a JSON object with
evals_per_s, deals_per_s and replay_table_ms.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine
from table_controller.rules.hands import CARD_INT, evaluate, evaluate_ints
from table_controller.sim.bots import RandomBot, play_table

REPEATS = 5


def bench_evals() -> tuple[float, float]:
    rng = random.Random(1)
    ints = [CARD_INT[c] for c in FULL_DECK]
    hands = [tuple(rng.sample(ints, 5)) for _ in range(200_000)]
    card_hands = [tuple(rng.sample(FULL_DECK, 5)) for _ in range(50_000)]
    rates, card_rates = [], []
    for _ in range(REPEATS):
        t = time.perf_counter()
        for a, b, c, d, e in hands:
            evaluate_ints(a, b, c, d, e)
        rates.append(len(hands) / (time.perf_counter() - t))
        t = time.perf_counter()
        for h in card_hands:
            evaluate(h)
        card_rates.append(len(card_hands) / (time.perf_counter() - t))
    return statistics.median(rates), statistics.median(card_rates)


def bench_deals() -> float:
    rates = []
    for rep in range(REPEATS):
        bot = RandomBot(rep)
        engine = Engine()
        deals = 0
        t = time.perf_counter()
        while deals < 400:
            a = bot.next_action(engine)
            if a is None:
                bot = RandomBot(rep + 1000 + deals)
                engine = Engine()
                continue
            before = engine.state.deal
            engine.apply(a)
            if before is not None and engine.state.deal is None:
                deals += 1
        rates.append(deals / (time.perf_counter() - t))
    return statistics.median(rates)


def bench_replay() -> tuple[float, int]:
    engine = play_table(seed=11)
    events = list(engine.events)
    times = []
    for _ in range(REPEATS * 4):
        t = time.perf_counter()
        Engine.from_events(events)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), len(events)


def main() -> None:
    evals, card_evals = bench_evals()
    print(
        f"5-card evaluations: {evals:,.0f}/s (ints, hot path); {card_evals:,.0f}/s (Card values)  median of {REPEATS}"
    )
    deals = bench_deals()
    print(f"random bot deals through the full engine: {deals:,.0f}/s  median of {REPEATS}")
    replay_ms, n = bench_replay()
    print(f"replay of a full three-game table ({n} events): {replay_ms:.1f} ms  median of {REPEATS * 4}")
    print(
        json.dumps(
            {
                "evals_per_s": round(evals),
                "card_evals_per_s": round(card_evals),
                "deals_per_s": round(deals),
                "replay_table_ms": round(replay_ms, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
