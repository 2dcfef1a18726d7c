"""``chicago-table rules [RULESET]`` and ``chicago-table rules --diff A B``."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from rich.console import Console
from rich.table import Table

from table_controller.rules.errors import RulesetError
from table_controller.rules.rulesets import RULESETS, ruleset


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Show a ruleset's parameters and rule options (RULES.md §13), or with --diff "
        f"what differs between two.  Rulesets: {', '.join(RULESETS)}."
    )
    p.add_argument("ruleset", nargs="?", default=None, help="the ruleset to show (default sm2025)")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), help="show only the parameters where A and B differ")
    p.add_argument("--json", action="store_true", help="print the parameters as JSON")


def main(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    if args.diff and args.ruleset is not None:
        print(f"chicago-table rules: either a ruleset ({args.ruleset}) or --diff A B, not both", file=sys.stderr)
        return 2
    try:
        if args.diff:
            a, b = (ruleset(n) for n in args.diff)
        else:
            r = ruleset(args.ruleset or "sm2025")
    except RulesetError as exc:
        print(f"chicago-table rules: {exc}", file=sys.stderr)
        return 2
    if args.diff:
        rows_a, rows_b = dict(a.as_rows()), dict(b.as_rows())
        diff = [(k, rows_a[k], rows_b[k]) for k in rows_a if rows_a[k] != rows_b[k]]
        if args.json:
            print(json.dumps({k: {a.name: va, b.name: vb} for k, va, vb in diff}, indent=2))
            return 0
        t = Table(title=f"{a.name} vs {b.name}: {len(diff)} parameters differ")
        t.add_column("parameter")
        t.add_column(a.name)
        t.add_column(b.name)
        for k, va, vb in diff:
            t.add_row(k, va, vb)
        console.print(t)
        return 0
    if args.json:
        print(json.dumps(asdict(r), indent=2, default=list))
        return 0
    t = Table(title=f"{r.name}: {r.description}")
    t.add_column("parameter")
    t.add_column("value")
    for k, v in r.as_rows():
        t.add_row(k, v)
    console.print(t)
    return 0
