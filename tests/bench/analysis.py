"""Analysis benchmarks (issue 21).  Run: .venv/bin/python tests/bench/analysis.py [N] [--kernel c|python]

- the double-dummy solver on random full positions (4 players, 5 cards each, trick 1):
  without Chicago and with the leader's Chicago; process CPU time per solve, median/p99,
  and the search's node counts (machine-independent: compare changes by them on a busy box);
  the search is the C kernel when it is built (``solver.KERNEL``), ``--kernel python`` the
  pure-Python reference (the same nodes, ~50x slower);
- the odds: 10,000 samples to the next scoring moment (``odds_10k_ms``) and samples per
  second played on to the last exchange with the Chicago chances.

Targets of the issue: ``solve_p99_ms`` under 1 ms, ``odds_10k_ms`` under 250 ms (one core).
The last line is a JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table_controller.analysis import solver
from table_controller.analysis.odds import exchange_odds
from table_controller.analysis.solver import Position, solve
from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine
from table_controller.rules.rulesets import ruleset

PLAYERS = ("Anna", "Bo", "Cilla", "Dan")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_solver(n: int, chicago: bool, kernel: str) -> tuple[float, float, float, int, int]:
    rules = ruleset("sm2025")
    times, nodes = [], []
    for seed in range(n):
        rng = random.Random(seed)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hands = {p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(PLAYERS)}
        pos = Position(rules, PLAYERS, hands, "Anna", chicago="Anna" if chicago else None)
        t = time.process_time()
        v = solve(pos, kernel=kernel)
        times.append((time.process_time() - t) * 1000)
        nodes.append(v.nodes)
    return statistics.median(times), pct(times, 0.99), max(times), int(statistics.median(nodes)), int(pct(nodes, 0.99))


def exchange_table(seed: int) -> Engine:
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    e = Engine()
    e.apply(act.TableStart(PLAYERS))
    e.apply(act.GameStart(PLAYERS, "Dan"))
    e.apply(act.Deal({p: tuple(deck[5 * i : 5 * i + 5]) for i, p in enumerate(PLAYERS)}))
    e.apply(act.Adjust("Bo", 20, "bench: Bo may say Chicago"))
    return e


def bench_odds() -> tuple[float, float]:
    e = exchange_table(3)
    next_ms = []
    for rep in range(5):
        t = time.process_time()
        exchange_odds(e.state, random.Random(rep), samples=10_000, horizon="next")
        next_ms.append((time.process_time() - t) * 1000)
    t = time.process_time()
    exchange_odds(e.state, random.Random(1), samples=2000, horizon="last")
    last_rate = 2000 / (time.process_time() - t)
    return statistics.median(next_ms), last_rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=200, help="deals to solve (200)")
    ap.add_argument(
        "--kernel", choices=("c", "python"), default=solver.KERNEL, help=f"the search (default {solver.KERNEL})"
    )
    args = ap.parse_args()
    n, kernel = args.n, args.kernel
    med, p99, worst, nodes, nodes99 = bench_solver(n, chicago=False, kernel=kernel)
    print(
        f"solver ({kernel} kernel), {n} random 4-player deals from trick 1, no Chicago: median {med:.3f} ms, "
        f"p99 {p99:.3f} ms, max {worst:.3f} ms, median {nodes} nodes, p99 {nodes99} nodes"
    )
    cmed, cp99, cworst, cnodes, _ = bench_solver(n, chicago=True, kernel=kernel)
    print(
        f"solver, the same deals with the leader's Chicago: median {cmed:.3f} ms, p99 {cp99:.3f} ms, "
        f"max {cworst:.3f} ms, median {cnodes} nodes"
    )
    odds_ms, last_rate = bench_odds()
    print(
        f"odds: 10,000 samples to the next scoring moment {odds_ms:.0f} ms (median of 5); "
        f"to the last exchange with Chicago chances {last_rate:,.0f} samples/s"
    )
    print(
        json.dumps(
            {
                "solve_kernel": kernel,  # "c": the extension; "python": the reference search
                "solve_median_ms": round(med, 3),
                "solve_p99_ms": round(p99, 3),
                "solve_nodes_median": nodes,  # max^n nodes: the same on any machine, however busy
                "solve_nodes_p99": nodes99,
                "solve_chicago_median_ms": round(cmed, 3),
                "solve_chicago_p99_ms": round(cp99, 3),
                "odds_10k_ms": round(odds_ms),
                "odds_next_samples_per_s": round(10_000 / odds_ms * 1000),
                "odds_last_samples_per_s": round(last_rate),
            }
        )
    )


if __name__ == "__main__":
    main()
