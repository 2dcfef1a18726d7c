"""The ``chicago-table`` command.

Each subcommand lives in its own module of ``commands/``, imported only when it is used
(a plain import statement inside ``_import``, never a module name in a string), so
``chicago-table --help`` is instant and a command for the camera never loads the web
stack.  A command module provides ``add_arguments(parser)`` and ``main(args) -> int``.

    $ chicago-table replay table_controller/examples/chicago_won.jsonl
    $ chicago-table demo
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from .argwords import argparse_speaking, argword, lang_of_argv, word
from .words import say, speaking

# name -> one-line help, said in the language spoken (``argwords``).  Only the chosen
# command's module is imported (``_load``).
COMMANDS: dict[str, str] = {
    "replay": argword("replay an action script and print the scores"),
    "rules": argword("show a ruleset's parameters, or the difference of two"),
    "analyse": argword("the double-dummy verdicts and odds along an action script"),
    "setup": argword("set a table up step by step: seat controller, readers, deck, camera, tokens, config, QR codes"),
    "run": argword("run a live table (real seat controller or the virtual table)"),
    "doctor": argword("check a configured or running table and say what is wrong"),
    "deck": argword("register, check and show RFID decks"),
    "log": argword("check, export and import a table's event log"),
    "hub": argword("run a tournament: players, heats, seat draws, the tables' logs over MQTT, standings"),
    "link": argword("watch the serial link to the seat controller"),
    "camera": argword("calibrate and view the table camera, read cards in photos"),
    "protocol": argword("write the printable protocol of a table's games"),
    "serve": argword("serve the dashboard for a table"),
    "demo": argword("a simulated table with bots and its dashboard on localhost"),
}
DESCRIPTION = argword(
    "Controller for live Chicago tables (SM rules): rules engine, sensing, shot clocks, event log and dashboard."
)
EPILOG = argword("Run 'chicago-table COMMAND --help' for a command's options.")
COMMAND = argword("COMMAND")


class _Usage(Exception):
    pass


def _import(name: str) -> ModuleType:
    """The command's module, imported by a plain statement (never by a name in a string:
    tests/test_architecture.py), so the import graph shows what the CLI wires."""
    match name:
        case "replay":
            from .commands import replay

            return replay
        case "rules":
            from .commands import rules

            return rules
        case "analyse":
            from .commands import analyse

            return analyse
        case "setup":
            from .commands import setup

            return setup
        case "run":
            from .commands import run

            return run
        case "doctor":
            from .commands import doctor

            return doctor
        case "deck":
            from .commands import deck

            return deck
        case "log":
            from .commands import log

            return log
        case "hub":
            from .commands import hub

            return hub
        case "link":
            from .commands import link

            return link
        case "camera":
            from .commands import camera

            return camera
        case "protocol":
            from .commands import protocol

            return protocol
        case "serve":
            from .commands import serve

            return serve
        case "demo":
            from .commands import demo

            return demo
    raise KeyError(name)


def _load(name: str) -> ModuleType:
    try:
        return _import(name)
    except ModuleNotFoundError as exc:  # a command whose part is not installed
        # a missing part, named by Python (its module's name), in the words spoken
        raise _Usage(say("the '{name}' command is not available: {error}", name=name, error=exc)) from exc


def _version() -> str:
    """The installed package's version (pyproject.toml), or "unknown" from a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chicago-table")
    except PackageNotFoundError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # argparse's own words, and a command's own help or usage, in the language spoken
    with speaking(lang_of_argv(argv)), argparse_speaking():
        return _main(argv)


def _main(argv: list[str]) -> int:
    parsed = _parse(argv)
    if isinstance(parsed, int):
        return parsed
    args = parsed
    if not getattr(args, "_module", None):
        return 0 if not argv else 2
    try:
        return int(args._module.main(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `chicago-table ... | head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to say at exit
        return 0


def _parse(argv: list[str]) -> argparse.Namespace | int:
    """The command line parsed (argparse exits on a bad one, saying why), or the exit
    status when there is nothing to run (no command: the help is printed)."""
    parser = argparse.ArgumentParser(prog="chicago-table", description=word(DESCRIPTION), epilog=word(EPILOG))
    version = word("show program's version number and exit")  # Python 3.11's argparse does not translate it
    parser.add_argument("--version", action="version", version=f"chicago-table {_version()}", help=version)
    sub = parser.add_subparsers(dest="command", metavar=word(COMMAND))
    # Only the chosen command's module is imported; the others are listed by name.
    chosen = next((a for a in argv if not a.startswith("-")), None)
    chosen_parser = None
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=word(help_text), description=word(help_text))
        if name == chosen:
            chosen_parser = p
            try:
                module = _load(name)
            except _Usage as exc:
                print(f"chicago-table: {exc}", file=sys.stderr)
                return 2
            module.add_arguments(p)
            p.set_defaults(_module=module)
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser: its usage, not the list of commands (stop 70)
        (chosen_parser or parser).error(word("unrecognized arguments: %s") % " ".join(extra))
    if not getattr(args, "_module", None):
        parser.print_help()
    return args


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
