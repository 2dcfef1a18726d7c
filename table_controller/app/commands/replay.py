"""``chicago-table replay FILE.jsonl [--json] [--strict]`` (REPLAY.md).

What it says to a person around the protocol is in Swedish, English with ``--lang en``
(table_controller/app/words.py): its help, a file it cannot read, ``--strict``'s stop.  What
programs read stays as it is: ``--json``'s document (its ``rejected`` reasons in REPLAY.md's
English), the protocol as text (``scoresheet_text``, in the rules' words) and the exit statuses.
"""

from __future__ import annotations

import argparse
import json
import sys

from table_controller.app.commands.textinput import read_lines
from table_controller.rules.replay import replay_lines
from table_controller.scoresheet_text import render_text

from ..words import add_lang, say, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = say(
        "Replay an action script (one JSON action per line; blank lines and lines "
        "starting with # are skipped) and print each game's protocol, or with --json "
        "the replay document of REPLAY.md.  Rejected lines are listed with their "
        "line number and the rule; the replay goes on after them."
    )
    p.add_argument("file", help=say("the action script (.jsonl); '-' reads standard input"))
    p.add_argument("--json", action="store_true", help=say("print the replay document as JSON"))
    p.add_argument("--strict", action="store_true", help=say("stop at the first rejected line, exit status 1"))
    add_lang(p)


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _replay(args)


def _replay(args: argparse.Namespace) -> int:
    lines = read_lines(args.file, "replay")
    if lines is None:
        return 2
    _, doc = replay_lines(lines, strict=args.strict)
    try:
        if args.json:
            json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(render_text(doc))
        sys.stdout.flush()
    except BrokenPipeError:  # `replay ... | head`: the reader has gone; that is fine
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if args.strict and doc["rejected"]:
        r = doc["rejected"][0]  # the rule's reason as the document has it (REPLAY.md: English)
        print(
            say("line {n}: {action} rejected: {reason}", n=r["line"], action=r["action"], reason=r["reason"]),
            file=sys.stderr,
        )
        return 1
    return 0
