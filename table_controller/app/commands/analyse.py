"""``chicago-table analyse FILE.jsonl [--json]``: the solver's verdicts and the odds along a
replayed action script (issue 21).

What it says to a person around the analysis is in Swedish, English with ``--lang en``
(table_controller/app/words.py): its help, its progress, a file it cannot read, a script
with no table.  ``--json`` stays as it is, and so does the analysis as text
(``analysis.timeline.render``: the solver's words) and the exit statuses.
"""

from __future__ import annotations

import argparse
import json
import sys

from table_controller.analysis.timeline import analyse_lines, render
from table_controller.app.commands.textinput import read_lines

from ..argtypes import positive_int
from ..words import add_lang, say, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = say(
        "Replay an action script (REPLAY.md) and print, for every deal, the odds before "
        "each exchange (Monte Carlo, 95 % Wilson intervals), the double-dummy verdict at "
        "the start of the trick play (does the Chicago stand, who takes the last trick) and "
        "every card played that changed the result of best play.  The output shows every "
        "hand: it is for commentators and the TL, never for a table during play."
    )
    p.add_argument("file", help=say("the action script (.jsonl); '-' reads standard input"))
    p.add_argument("--json", action="store_true", help=say("print the analysis as JSON"))
    p.add_argument(
        "--samples",
        type=positive_int,
        default=2000,
        help=say("samples per odds estimate (default %(default)s)"),
    )
    p.add_argument("--seed", type=int, default=0, help=say("seed of the odds' sampling (default %(default)s)"))
    p.add_argument("--no-odds", action="store_true", help=say("only the trick play (faster)"))
    add_lang(p)


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _analyse(args)


def _analyse(args: argparse.Namespace) -> int:
    lines = read_lines(args.file, "analyse")
    if lines is None:
        return 2
    if args.no_odds:
        print(say("analysing {path} ...", path=args.file), file=sys.stderr)
    else:
        print(
            say(
                "analysing {path} ({samples} samples per exchange's odds; --no-odds is faster) ...",
                path=args.file,
                samples=args.samples,
            ),
            file=sys.stderr,
        )
    doc = analyse_lines(
        lines,
        samples=args.samples,
        seed=args.seed,
        odds=not args.no_odds,
        progress=lambda g, d: print(
            "  " + say("game {game}, deal {deal}", game=g, deal=d), file=sys.stderr, flush=True
        ),
    )
    if doc["ruleset"] is None:  # an empty script, or one whose table line is missing or refused
        for r in doc["rejected"][:5]:
            print(say("line {n}: rejected: {reason}", n=r["line"], reason=r["reason"]), file=sys.stderr)
        said = say(
            "no table in {path} (the first action must be 'table'); nothing to analyse",
            path=args.file,
        )
        print(f"chicago-table analyse: {said}", file=sys.stderr)
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
