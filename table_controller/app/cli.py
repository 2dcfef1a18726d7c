"""The ``chicago-table`` command.

Each subcommand lives in its own module, imported only when it is used, so
``chicago-table --help`` is instant and a command for the camera never loads the
web stack.  A command module provides ``add_arguments(parser)`` and
``main(args) -> int``.

    $ chicago-table replay table_controller/examples/chicago_won.jsonl
    $ chicago-table demo
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help).  Modules are imported lazily.
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": ("table_controller.app.commands.replay", "replay an action script and print the scores"),
    "rules": ("table_controller.app.commands.rules", "show a ruleset's parameters, or the difference of two"),
    "analyse": ("table_controller.app.commands.analyse", "the double-dummy verdicts and odds along an action script"),
    "setup": (
        "table_controller.app.commands.setup",
        "set a table up step by step: seat controller, readers, deck, camera, tokens, config, QR codes",
    ),
    "run": ("table_controller.app.commands.run", "run a live table (real seat controller or the virtual table)"),
    "doctor": ("table_controller.app.commands.doctor", "check a configured or running table and say what is wrong"),
    "deck": ("table_controller.app.commands.deck", "register, check and show RFID decks"),
    "log": ("table_controller.app.commands.log", "check, export and import a table's event log"),
    "hub": (
        "table_controller.app.commands.hub",
        "run a tournament: players, heats, seat draws, the tables' logs over MQTT, standings",
    ),
    "link": ("table_controller.app.commands.link", "watch the serial link to the seat controller"),
    "camera": ("table_controller.app.commands.camera", "calibrate and view the table camera, read cards in photos"),
    "protocol": ("table_controller.app.commands.protocol", "write the printable protocol of a table's games"),
    "serve": ("table_controller.app.commands.serve", "serve the dashboard for a table"),
    "demo": ("table_controller.app.commands.demo", "a simulated table with bots and its dashboard on localhost"),
}


class _Usage(Exception):
    pass


def _load(name: str):
    module_name, _ = COMMANDS[name]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # a command whose part is not installed
        raise _Usage(f"the '{name}' command is not available: {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="chicago-table",
        description="Controller for live Chicago tables (SM rules): rules engine, sensing, "
        "shot clocks, event log and dashboard.",
        epilog="Run 'chicago-table COMMAND --help' for a command's options.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # Only the chosen command's module is imported; the others are listed by name.
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (_, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            try:
                module = _load(name)
            except _Usage as exc:
                print(f"chicago-table: {exc}", file=sys.stderr)
                return 2
            module.add_arguments(p)
            p.set_defaults(_module=module)
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 0 if not argv else 2
    try:
        return int(args._module.main(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
