"""``chicago-table log``: check, export and import a table's event log (issue 6).

$ chicago-table log check table7.sqlite
$ chicago-table log check table7.sqlite --salvage table7-saved.sqlite
$ chicago-table log export table7.sqlite -o table7.jsonl
$ chicago-table log import table7.jsonl --db table7-copy.sqlite
$ chicago-table log replay-sensors table7.sqlite --json

A log that cannot be read (missing, damaged, not a table's) is said in Swedish, English
with ``--lang en`` (table_controller/app/words.py: ``said_error``), as the other commands
say it; the reports themselves (``check``'s, ``salvage``'s) are in English still.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from table_controller.store.errors import StoreError

from ..words import add_lang, said_error, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Inspect a table's event log (one SQLite file per table).  'check' opens it "
        "read-only, checks its integrity, rebuilds the table from it and reports; "
        "'export' writes it as JSONL (an action script that 'chicago-table replay' "
        "runs as is, with every other record in '#' comment lines); 'import' turns "
        "such an export (or a plain action script) into a new table file."
    )
    sub = p.add_subparsers(dest="log_command", metavar="ACTION")
    c = sub.add_parser(
        "check",
        help="check a log's integrity, rebuild the table and report",
        description="Check a table's log: SQLite integrity, schema, the record chain "
        "(no gap, no changed record), that every action is stored with exactly its "
        "events, and that replaying the actions gives the stored state.  Exit status "
        "0: sound; 1: problems found; 2: the file cannot be read.",
    )
    c.add_argument("file", help="the table's log (.sqlite)")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.add_argument(
        "--salvage",
        metavar="OUT",
        help="copy the longest sound beginning of the history into the NEW file OUT and list exactly what was lost",
    )
    e = sub.add_parser(
        "export",
        help="write the log as JSONL (a replayable action script)",
        description="Write the whole log as JSONL: accepted actions as plain lines "
        "(so 'chicago-table replay' accepts the export as is), events, sensor "
        "records, alerts, audit, clock snapshots and rejected actions as "
        "'# KIND {...}' comment lines.",
    )
    e.add_argument("file", help="the table's log (.sqlite)")
    e.add_argument("-o", "--output", help="write to this file instead of standard output")
    i = sub.add_parser(
        "import",
        help="make a new table file from an export",
        description="Import an export (or a plain action script) into a NEW table "
        "file.  The actions are re-applied and must cause exactly the exported "
        "events; nothing is written unless all of it checks out.  A plain action "
        "script's lines that the rules refuse are kept as rejected records (as a live "
        "table keeps them) and listed; a script with no action the rules accept "
        "writes nothing.",
    )
    i.add_argument("export", help="the export (.jsonl); '-' reads standard input")
    i.add_argument("--db", required=True, metavar="NEWFILE", help="the new table file to write")
    r = sub.add_parser(
        "replay-sensors",
        help="replay the raw sensor records through sensing",
        description="Feed the log's raw sensor records through a fresh sensing machine "
        "and rules engine (actions entered by hand and corrections are taken from the log, "
        "sensed actions must come out of sensing again) and compare with the stored game. "
        "Exit status 0: the same game; 1: it differs; 2: the file cannot be read.",
    )
    r.add_argument("file", help="the table's log (.sqlite)")
    r.add_argument("--json", action="store_true", help="print the replayed game's JSON document")
    v = sub.add_parser(
        "verify",
        help="prove the log whole and unaltered against the hub's witness",
        description="Compare the log with the tournament hub's witness (an export from 'chicago-table "
        "hub witness', the hub's file, or the hub's web server): every record's digest and the table's signed heads. "
        "Names the first record that is altered or missing; a copy behind the witness (without "
        "its -wal) fails. Exit status 0: whole and unaltered; 1: not; 2: cannot be read.",
    )
    v.add_argument("file", help="the table's log (.sqlite)")
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("--witness", metavar="FILE", help="the witness export (.json) or the hub file")
    src.add_argument("--hub", metavar="URL", help="the hub's web server ('chicago-table hub web'), http://HOST:PORT")
    v.add_argument("--table", help="the table's id at the hub (needed when the witness holds several)")
    v.add_argument("--json", action="store_true")
    for action in (c, e, i, r, v):
        add_lang(action)
    p.set_defaults(_log_parser=p)


def main(args: argparse.Namespace) -> int:
    cmd = getattr(args, "log_command", None)
    if cmd is None:
        args._log_parser.print_help()
        return 2
    with speaking(args.lang):
        return _action(cmd, args)


def _action(cmd: str, args: argparse.Namespace) -> int:
    try:
        return {
            "check": _check,
            "export": _export,
            "import": _import,
            "replay-sensors": _replay_sensors,
            "verify": _verify,
        }[cmd](args)
    except StoreError as exc:  # a log that cannot be read or written: in the words spoken
        print(f"chicago-table log {cmd}: {said_error(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `... | head`: the reader has seen enough
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - left open: stdout for the rest of the process
        return 0


def _check(args: argparse.Namespace) -> int:
    from table_controller.store.check import check_file
    from table_controller.store.recovery import salvage

    print(f"checking {args.file} ...", file=sys.stderr)
    report = check_file(args.file)
    if args.json:
        json.dump(report.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        _print_report(report)
    if args.salvage:
        print(f"salvaging into {args.salvage} ...", file=sys.stderr)
        result = salvage(args.file, args.salvage)
        for line in result.lines():
            print(line, file=sys.stderr if args.json else sys.stdout)
    if report.ok:
        return 0
    unreadable = report.last_seq == 0 and not any(report.counts.values())
    return 2 if unreadable else 1


def _print_report(report) -> None:
    print(f"{report.path}: {'OK' if report.ok else 'PROBLEMS FOUND'}")
    if report.counts:
        kinds = ", ".join(f"{k} {n}" for k, n in report.counts.items())
        print(f"  records: {report.last_seq} ({kinds}); schema version {report.schema_version}")
    s = report.summary
    if s.get("ruleset"):
        print(f"  table: {s['ruleset']}, players {', '.join(s['players'])}; {s['events']} events")
        print(
            f"  now: game {s['game']}, deal {s['deal']}, phase {s['phase']}"
            + (f", waiting for {', '.join(s['to_act'])}" if s["to_act"] else "")
        )
        if s["scores"]:
            print("  scores: " + ", ".join(f"{p} {v}" for p, v in s["scores"].items()))
    if "clocks" in s:
        c = s["clocks"]
        left = ", ".join(f"{k} {v:.1f}s" for k, v in c["remaining"].items())
        # none running (a table over, or between deals): said so, not an empty list (stop 72)
        print(f"  shot clocks (record {c['seq']}): " + (f"{left}; resumes paused" if left else "none running"))
    for p in report.problems:
        print(f"  problem: {p}")


def _export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from table_controller.app.outputs import OutputError, check_output, replaced
    from table_controller.store.sqlite import SQLiteStore
    from table_controller.store.transfer import export_lines

    if args.output:
        try:
            check_output(args.output, args.file)
        except OutputError as exc:
            print(f"chicago-table log export: {exc}", file=sys.stderr)
            return 2
    with SQLiteStore.open(args.file, readonly=True) as store:
        records = store.read()
    name = Path(args.file).name
    if args.output:
        try:  # every hand is in it: owner-only, as the log itself is; in its place once whole
            with replaced(args.output) as fh:
                for line in export_lines(records, name):
                    fh.write(line + "\n")
        except OSError as exc:
            print(f"chicago-table log export: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return 2
        print(f"exported {len(records)} records to {args.output}", file=sys.stderr)
    else:
        for line in export_lines(records, name):
            sys.stdout.write(line + "\n")
    return 0


def _import(args: argparse.Namespace) -> int:
    from table_controller.app.commands.textinput import read_lines
    from table_controller.store.transfer import import_export

    lines = read_lines(args.export, "log import")
    if lines is None:
        return 2
    rejected: list[tuple[int, str]] = []
    n = import_export(lines, args.db, rejected)
    for line, reason in rejected:  # as `replay` lists them (issue 13)
        print(f"line {line}: rejected: {reason}", file=sys.stderr)
    print(f"imported {n} records into {args.db}" + (f", {len(rejected)} rejected" if rejected else ""), file=sys.stderr)
    return 0


def _replay_sensors(args: argparse.Namespace) -> int:
    from table_controller.live.sensor_replay import replay_sensor_log
    from table_controller.rules.replay import replay_document
    from table_controller.store.rebuild import resume

    print(f"replaying the sensor records of {args.file} ...", file=sys.stderr)
    try:
        engine, doc, replay = replay_sensor_log(args.file)
    except ValueError as exc:  # a sensor record (the store's RecordError) or deck the replay cannot read
        print(f"chicago-table log replay-sensors: {args.file}: {said_error(exc)}", file=sys.stderr)
        return 2
    stored = resume(args.file)[0]
    # the events too: the document leaves out a deal still being played
    same = doc == replay_document(stored) and [e.to_dict() for e in engine.events] == [
        e.to_dict() for e in stored.events
    ]
    sensed = sum(1 for s, _ in replay.accepted if s == "sensing")
    print(
        f"{replay.observations} observations; {len(replay.accepted)} actions ({sensed} sensed); "
        f"{'the same game as stored' if same else 'DIFFERS from the stored game'}",
        file=sys.stderr,
    )
    if args.json:
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    return 0 if same else 1


def _verify(args: argparse.Namespace) -> int:
    from table_controller.tournament.hubstore import HubError
    from table_controller.tournament.witness import fetch_witness, load_witness, verify_log

    try:
        witness = fetch_witness(args.hub, args.table) if args.hub else load_witness(args.witness)
        verdict = verify_log(args.file, witness, args.table)
    except HubError as exc:
        print(f"chicago-table log verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(verdict.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(
            f"{verdict.path} (table {verdict.table}): {'WHOLE AND UNALTERED' if verdict.ok else 'NOT AS WITNESSED'}; "
            f"{verdict.records} records, "
            + (f"{verdict.witnessed} witnessed" if verdict.every else f"checked at {verdict.witnessed} deals' ends")
        )
        for line in verdict.problems:
            print(f"  problem: {line}")
        for line in verdict.notes:
            print(f"  {line}")
    return 0 if verdict.ok else 1
