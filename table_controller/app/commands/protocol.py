"""``chicago-table protocol FILE``: the printable protocol of a table's games.

    $ chicago-table protocol table_controller/examples/chicago_won.jsonl -o protocol.pdf

FILE is an action script (.jsonl, REPLAY.md; a dashboard's actions.jsonl is one), a replay
document (.json, the output of ``chicago-table replay --json``) or a table's SQLite event
log (.sqlite/.db, read-only through the event store; a dashboard's data folder keeps it as
table.sqlite).

What it says on the console (what it wrote, why it cannot) is in the form's language too:
Swedish first, English with ``--lang en`` (table_controller/app/words.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dashboard.errors import DashboardError
from dashboard.scoresheet.notes import LogFacts, facts_from_records, facts_from_script

from ..words import os_error_with_file, os_error_words, said_error, say, say_n, speaking
from .textinput import split_lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help=say("action script (.jsonl), replay document (.json) or SQLite event log (.sqlite, .db)"),
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        help=say("the PDF to write (default: FILE with the suffix .protocol.pdf)"),
    )
    p.add_argument("--html", type=Path, default=None, help=say("also write the protocol as HTML (SVG) here"))
    p.add_argument("--title", default="Chicago", help=say("the table's name when --table is not given"))
    p.add_argument(
        "--lang",
        choices=("sv", "en"),
        default="sv",
        help=say("the form's language and the command's (Swedish by default; en: English)"),
    )
    p.add_argument("--event", default="", help=say("the event's name for the header, e.g. 'SM i Chicago 2026'"))
    p.add_argument("--heat", default="", help=say("the heat for the header"))
    p.add_argument("--round", default="", help=say("the event's round for the header, e.g. 'Kvartsfinal'"))
    p.add_argument(
        "--logo", type=Path, default=None, help=say("the event's logo (PNG or JPEG) at the top right of every page")
    )
    p.add_argument("--table", default="", help=say("the table for the header (default: --title)"))
    p.add_argument(
        "--players",
        type=Path,
        default=None,
        help=say("CSV of name,club[,id] per line: the players' clubs and ids on the form"),
    )
    p.add_argument(
        "--head",
        action="store_true",
        help=say(
            "print the log's final chain head (record and digest) and its QR code beside the "
            "sign-off (FILE must be a table's SQLite log; 'chicago-table log verify' checks it)"
        ),
    )


def load_facts(path: Path) -> LogFacts:
    """Penalties, warnings, TL decisions and times (scoresheet.notes) of a script or a log;
    a replay document (.json) has none of them."""
    suffix = path.suffix.lower()
    if suffix in (".sqlite", ".db", ".sqlite3"):
        from table_controller.store import SQLiteStore, StoreError

        try:
            with SQLiteStore.open(path, readonly=True) as store:
                return facts_from_records(store.read(kinds=("action", "event", "audit")))
        except StoreError as exc:
            raise DashboardError(
                say("{path}: cannot read the table log: {error}", path=path, error=said_error(exc))
            ) from exc
    if suffix == ".json":
        return LogFacts()
    return facts_from_script(split_lines(path.read_bytes()))


def load_document(path: Path) -> dict[str, Any]:
    """The REPLAY.md document of whatever table file ``path`` is."""
    if not path.exists():
        raise DashboardError(say("{path}: no such file", path=path))
    suffix = path.suffix.lower()
    if suffix in (".sqlite", ".db", ".sqlite3"):
        return _from_store(path)
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except IsADirectoryError:
        raise DashboardError(say("{path}: a folder, not a script or a table's log", path=path)) from None
    except OSError as exc:
        raise DashboardError(say("{path}: cannot read it: {error}", path=path, error=os_error_words(exc))) from exc
    except UnicodeDecodeError:
        raise DashboardError(
            say("{path}: neither a script (UTF-8 text) nor a table's log (.sqlite)", path=path)
        ) from None
    if suffix == ".json":
        try:
            doc = json.loads(text)
        except ValueError as exc:
            raise DashboardError(say("{path}: not a JSON document: {error}", path=path, error=exc)) from exc
        if not isinstance(doc, dict) or "games" not in doc:
            raise DashboardError(say("{path}: not a replay document (no 'games'; see REPLAY.md)", path=path))
        return doc
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines(split_lines(data))  # as replay reads it: a byte-order mark, CR LF
    if doc["ruleset"] is None:
        raise DashboardError(
            say("{path}: no table in this action script (the first action must be 'table')", path=path)
        )
    return doc


def _from_store(path: Path) -> dict[str, Any]:
    from table_controller.rules.replay import replay_document
    from table_controller.store import StoreError
    from table_controller.store.rebuild import resume

    try:
        engine, _ = resume(path)  # read-only
    except StoreError as exc:
        raise DashboardError(
            say("{path}: cannot read the table log: {error}", path=path, error=said_error(exc))
        ) from exc
    return replay_document(engine)


def final_head(path: Path) -> dict[str, Any]:
    """The last record's seq and digest: the head of the log's chain."""
    from table_controller.store import SQLiteStore, StoreError

    if path.suffix.lower() not in (".sqlite", ".db", ".sqlite3"):
        raise DashboardError(say("{path}: --head needs the table's SQLite log, not a script or document", path=path))
    try:
        with SQLiteStore.open(path, readonly=True) as store:
            last = store.read(store.last_seq(), store.last_seq())
    except StoreError as exc:
        raise DashboardError(
            say("{path}: cannot read the table log: {error}", path=path, error=said_error(exc))
        ) from exc
    if not last:
        raise DashboardError(say("{path}: the log is empty", path=path))
    return {"seq": last[0].seq, "digest": last[0].digest}


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _protocol(args)


def html_page(doc: dict[str, Any], lang: str, table: str) -> str:
    """The protocol as one HTML page (its SVG forms) in ``lang``: the page's language and
    its title the form's word for a protocol and the table's name."""
    from html import escape

    from dashboard.scoresheet.svg import scoresheet_html
    from dashboard.scoresheet.words import words

    title = escape(f"{words(lang)['protocol']} \N{EN DASH} {table}")
    return (
        f"<!doctype html><html lang='{lang}'><meta charset='utf-8'><title>{title}</title>"
        + scoresheet_html(doc, lang)
        + "</html>"
    )


def _protocol(args: argparse.Namespace) -> int:
    from dashboard.branding import load_branding
    from dashboard.scoresheet.head import SheetHead, read_players
    from dashboard.scoresheet.pdf import scoresheet_pdf
    from table_controller.app.outputs import OutputError, check_output
    from table_controller.app.table_files import private_file

    try:
        doc = load_document(args.file)
        info = SheetHead(
            event=args.event,
            heat=args.heat,
            round=args.round,
            table=args.table or args.title,
            players=read_players(args.players) if args.players else {},
            logo=load_branding(logo=args.logo).logo if args.logo else None,
        )
        data = scoresheet_pdf(
            doc,
            title=args.title,
            head=final_head(args.file) if args.head else None,
            facts=load_facts(args.file),
            info=info,
            lang=args.lang,
        )
        out = args.output or args.file.with_suffix(".protocol.pdf")
        check_output(out, args.file, args.players, args.logo)
        if args.html:
            check_output(args.html, args.file, args.players, args.logo, written=out)
        # the TL's typed reasons are in it as typed (a reason may name a card): owner-only,
        # as the log is; whoever prints it hands it on (stop 64's audit)
        private_file(out)
        out.write_bytes(data)
        if args.html:
            private_file(args.html)
            args.html.write_text(html_page(doc, args.lang, info.table), encoding="utf-8")
    except (DashboardError, OutputError) as exc:
        print(f"chicago-table protocol: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print("chicago-table protocol: " + say("cannot write: {error}", error=os_error_with_file(exc)), file=sys.stderr)
        return 2
    said = say_n("{path}: {n} game", "{path}: {n} games", len(doc["games"]), path=out)
    rejected = len(doc.get("rejected", []))
    if rejected:
        said += " " + say_n("({n} rejected line in the script)", "({n} rejected lines in the script)", rejected)
    print(said)
    return 0
