"""``chicago-table analyse FILE.jsonl [--json]``: the solver's verdicts and the odds along a
replayed action script (issue 21)."""

from __future__ import annotations

import argparse
import json
import sys

from table_controller.analysis.timeline import analyse_lines, render
from table_controller.app.commands.textinput import read_lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Replay an action script (REPLAY.md) and print, for every deal, the odds before "
        "each exchange (Monte Carlo, 95 % Wilson intervals), the double-dummy verdict at "
        "the start of the trick play (does the Chicago stand, who takes the last trick) and "
        "every card played that changed the result of best play.  The output shows every "
        "hand: it is for commentators and the TL, never for a table during play."
    )
    p.add_argument("file", help="the action script (.jsonl); '-' reads standard input")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--samples", type=int, default=2000, help="samples per odds estimate (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the odds' sampling (default 0)")
    p.add_argument("--no-odds", action="store_true", help="only the trick play (faster)")


def main(args: argparse.Namespace) -> int:
    if args.samples < 1:
        print("chicago-table analyse: --samples must be at least 1", file=sys.stderr)
        return 2
    lines = read_lines(args.file, "analyse")
    if lines is None:
        return 2
    print(
        f"analysing {args.file}"
        + ("" if args.no_odds else f" ({args.samples} samples per exchange's odds; --no-odds is faster)")
        + " ...",
        file=sys.stderr,
    )
    doc = analyse_lines(
        lines,
        samples=args.samples,
        seed=args.seed,
        odds=not args.no_odds,
        progress=lambda g, d: print(f"  game {g}, deal {d}", file=sys.stderr, flush=True),
    )
    if doc["ruleset"] is None:  # an empty script, or one whose table line is missing or refused
        for r in doc["rejected"][:5]:
            print(f"line {r['line']}: rejected: {r['reason']}", file=sys.stderr)
        print(
            f"chicago-table analyse: no table in {args.file} (the first action must be 'table'); nothing to analyse",
            file=sys.stderr,
        )
        return 2
    try:
        if args.json:
            json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(render(doc))
        sys.stdout.flush()
    except BrokenPipeError:  # `analyse ... | head`: the reader has gone
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
