"""``chicago-table rules [RULESET]`` and ``chicago-table rules --diff A B``.

What it says to a person is in Swedish, English with ``--lang en`` (table_controller/app/words.py):
its help, its refusals, the tables' titles and headings, the shipped rulesets' descriptions.
The parameters' names and values are the rulesets' own (RULES.md §13, as ``table`` options
name them); ``--json`` stays as it is.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import asdict

from rich.console import Console
from rich.table import Table

from table_controller.rules.errors import RulesetError
from table_controller.rules.rulesets import RULESETS, Ruleset, ruleset

from ..words import add_lang, say, say_n, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = say(
        "Show a ruleset's parameters and rule options (RULES.md §13), or with --diff "
        "what differs between two.  Rulesets: {names}.",
        names=", ".join(RULESETS),
    )
    p.add_argument("ruleset", nargs="?", default=None, help=say("the ruleset to show (default sm2025)"))
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), help=say("show only the parameters where A and B differ"))
    p.add_argument("--json", action="store_true", help=say("print the parameters as JSON"))
    add_lang(p)


# The shipped rulesets' descriptions (rulesets.py), in the words spoken; a description
# changed there, or a ruleset of its own, is shown as it is written
DESCRIPTIONS: dict[str, Callable[[], str]] = {
    "sm2025": lambda: say("Chicago Regler Juni 2025: the current SM rules (the default)"),
    "sm2019": lambda: say("Regler Chicago, SM-disciplin 2019"),
    "shootout": lambda: say("Poker Event Chicago Shootout 4-max"),
    "classic": lambda: say("The classic home game (pagat.com)"),
}


def description_words(r: Ruleset) -> str:
    """``r``'s description in the words spoken (the shipped ones'), else as it is written.

    >>> from table_controller.app.words import speaking
    >>> with speaking("sv"):
    ...     description_words(RULESETS["classic"])
    'Det klassiska hemmaspelet (pagat.com)'
    """
    words = DESCRIPTIONS.get(r.name)
    if words is None:
        return r.description
    with speaking("en"):
        written = words()
    return words() if written == r.description else r.description


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _rules(args)


def _refuse(text: str) -> int:
    print(f"chicago-table rules: {text}", file=sys.stderr)
    return 2


def _rules(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    if args.diff and args.ruleset is not None:
        return _refuse(say("either a ruleset ({name}) or --diff A B, not both", name=args.ruleset))
    names = args.diff or [args.ruleset or "sm2025"]
    for name in names:
        if name not in RULESETS:
            return _refuse(
                say("unknown ruleset {name}; choose one of {names}", name=repr(name), names=", ".join(RULESETS))
            )
    try:
        if args.diff:
            a, b = (ruleset(n) for n in args.diff)
        else:
            r = ruleset(names[0])
    except RulesetError as exc:  # pragma: no cover - every shipped name makes its ruleset
        return _refuse(str(exc))
    if args.diff:
        rows_a, rows_b = dict(a.as_rows()), dict(b.as_rows())
        diff = [(k, rows_a[k], rows_b[k]) for k in rows_a if rows_a[k] != rows_b[k]]
        if args.json:
            print(json.dumps({k: {a.name: va, b.name: vb} for k, va, vb in diff}, indent=2))
            return 0
        t = Table(
            title=say_n(
                "{a} vs {b}: {n} parameter differs", "{a} vs {b}: {n} parameters differ", len(diff), a=a.name, b=b.name
            )
        )
        t.add_column(say("parameter"))
        t.add_column(a.name)
        t.add_column(b.name)
        for k, va, vb in diff:
            t.add_row(k, va, vb)
        console.print(t)
        return 0
    if args.json:
        print(json.dumps(asdict(r), indent=2, default=list))
        return 0
    t = Table(title=f"{r.name}: {description_words(r)}")
    t.add_column(say("parameter"))
    t.add_column(say("value"))
    for k, v in r.as_rows():
        t.add_row(k, v)
    console.print(t)
    return 0
