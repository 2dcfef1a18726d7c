"""``chicago-table log``: check, export and import a table's event log (issue 6).

$ chicago-table log check table7.sqlite
$ chicago-table log check table7.sqlite --salvage table7-saved.sqlite
$ chicago-table log export table7.sqlite -o table7.jsonl
$ chicago-table log import table7.jsonl --db table7-copy.sqlite
$ chicago-table log replay-sensors table7.sqlite --json

What it says to a person is in Swedish, English with ``--lang en``
(table_controller/app/words.py), as the other commands say it: ``check``'s report and its
problems, ``--salvage``'s (why the saved history stops: the store's worded reasons), the
lines of ``export``, ``import``, ``replay-sensors`` and ``verify``, and a log that cannot be
read (``said_error``).  What a program reads stays as it is: ``--json`` (English keys and
texts, data), an export's lines, the exit statuses.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from table_controller.store.errors import StoreError

from ..words import add_lang, os_error_words, phase_word, said_error, say, say_n, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = say(
        "Inspect a table's event log (one SQLite file per table).  'check' opens it "
        "read-only, checks its integrity, rebuilds the table from it and reports; "
        "'export' writes it as JSONL (an action script that 'chicago-table replay' "
        "runs as is, with every other record in '#' comment lines); 'import' turns "
        "such an export (or a plain action script) into a new table file."
    )
    add_lang(p)  # before the action too: 'log --lang en check FILE'
    sub = p.add_subparsers(dest="log_command", metavar="ACTION")
    c = sub.add_parser(
        "check",
        help=say("check a log's integrity, rebuild the table and report"),
        description=say(
            "Check a table's log: SQLite integrity, schema, the record chain "
            "(no gap, no changed record), that every action is stored with exactly its "
            "events, and that replaying the actions gives the stored state.  Exit status "
            "0: sound; 1: problems found; 2: the file cannot be read."
        ),
    )
    c.add_argument("file", help=say("the table's log (.sqlite)"))
    c.add_argument("--json", action="store_true", help=say("print the report as JSON"))
    c.add_argument(
        "--salvage",
        metavar="OUT",
        help=say(
            "copy the longest sound beginning of the history into the NEW file OUT and list exactly what was lost"
        ),
    )
    e = sub.add_parser(
        "export",
        help=say("write the log as JSONL (a replayable action script)"),
        description=say(
            "Write the whole log as JSONL: accepted actions as plain lines "
            "(so 'chicago-table replay' accepts the export as is), events, sensor "
            "records, alerts, audit, clock snapshots and rejected actions as "
            "'# KIND {...}' comment lines."
        ),
    )
    e.add_argument("file", help=say("the table's log (.sqlite)"))
    e.add_argument("-o", "--output", help=say("write to this file instead of standard output"))
    i = sub.add_parser(
        "import",
        help=say("make a new table file from an export"),
        description=say(
            "Import an export (or a plain action script) into a NEW table "
            "file.  The actions are re-applied and must cause exactly the exported "
            "events; nothing is written unless all of it checks out.  A plain action "
            "script's lines that the rules refuse are kept as rejected records (as a live "
            "table keeps them) and listed; a script with no action the rules accept "
            "writes nothing."
        ),
    )
    i.add_argument("export", help=say("the export (.jsonl); '-' reads standard input"))
    i.add_argument("--db", required=True, metavar="NEWFILE", help=say("the new table file to write"))
    r = sub.add_parser(
        "replay-sensors",
        help=say("replay the raw sensor records through sensing"),
        description=say(
            "Feed the log's raw sensor records through a fresh sensing machine "
            "and rules engine (actions entered by hand and corrections are taken from the log, "
            "sensed actions must come out of sensing again) and compare with the stored game. "
            "Exit status 0: the same game; 1: it differs; 2: the file cannot be read."
        ),
    )
    r.add_argument("file", help=say("the table's log (.sqlite)"))
    r.add_argument("--json", action="store_true", help=say("print the replayed game's JSON document"))
    v = sub.add_parser(
        "verify",
        help=say("prove the log whole and unaltered against the hub's witness"),
        description=say(
            "Compare the log with the tournament hub's witness (an export from 'chicago-table "
            "hub witness', the hub's file, or the hub's web server): every record's digest and the table's signed heads. "
            "Names the first record that is altered or missing; a copy behind the witness (without "
            "its -wal) fails. Exit status 0: whole and unaltered; 1: not; 2: cannot be read."
        ),
    )
    v.add_argument("file", help=say("the table's log (.sqlite)"))
    src = v.add_mutually_exclusive_group(required=True)
    src.add_argument("--witness", metavar="FILE", help=say("the witness export (.json) or the hub file"))
    src.add_argument(
        "--hub", metavar="URL", help=say("the hub's web server ('chicago-table hub web'), http://HOST:PORT")
    )
    v.add_argument("--table", help=say("the table's id at the hub (needed when the witness holds several)"))
    v.add_argument("--json", action="store_true", help=say("print the comparison as JSON"))
    for action in (c, e, i, r, v):
        add_lang(action, argparse.SUPPRESS)
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

    print(say("checking {path} ...", path=args.file), file=sys.stderr)
    report = check_file(args.file)
    if args.json:
        json.dump(report.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        for line in report_lines(report):
            print(line)
    if args.salvage:
        print(say("salvaging into {path} ...", path=args.salvage), file=sys.stderr)
        result = salvage(args.file, args.salvage)
        for line in salvage_lines(result):
            print(line, file=sys.stderr if args.json else sys.stdout)
    if report.ok:
        return 0
    unreadable = report.last_seq == 0 and not any(report.counts.values())
    return 2 if unreadable else 1


# A record's kind (records.KINDS) as the report counts it, in the words spoken
_KIND_WORDS: dict[str, Callable[[int], str]] = {
    "action": lambda n: say("action {n}", n=n),
    "event": lambda n: say("event {n}", n=n),
    "sensor": lambda n: say("sensor {n}", n=n),
    "alert": lambda n: say("alert {n}", n=n),
    "audit": lambda n: say("audit {n}", n=n),
    "clock": lambda n: say("clock {n}", n=n),
    "rejected": lambda n: say("rejected {n}", n=n),
}


def report_lines(report: Any) -> list[str]:
    """``log check``'s report (a ``check.CheckReport``) in the words spoken: its problems
    each said as the console says the store's words (``said_error``)."""
    out = [say("{path}: OK", path=report.path) if report.ok else say("{path}: PROBLEMS FOUND", path=report.path)]
    if report.counts:
        kinds = ", ".join(_KIND_WORDS[k](n) if k in _KIND_WORDS else f"{k} {n}" for k, n in report.counts.items())
        out.append(
            "  "
            + say(
                "records: {n} ({kinds}); schema version {version}",
                n=report.last_seq,
                kinds=kinds,
                version=report.schema_version,
            )
        )
    s = report.summary
    if s.get("ruleset"):
        out.append(
            "  "
            + say_n(
                "table: {ruleset}, players {players}; {n} event",
                "table: {ruleset}, players {players}; {n} events",
                s["events"],
                ruleset=s["ruleset"],
                players=", ".join(s["players"]),
            )
        )
        where = {"game": s["game"], "deal": s["deal"], "phase": phase_word(s["phase"])}
        if s["to_act"]:
            now = say(
                "now: game {game}, deal {deal}, phase {phase}, waiting for {players}",
                players=", ".join(s["to_act"]),
                **where,
            )
        else:
            now = say("now: game {game}, deal {deal}, phase {phase}", **where)
        out.append("  " + now)
        if s["scores"]:
            out.append("  " + say("scores: {scores}", scores=", ".join(f"{p} {v}" for p, v in s["scores"].items())))
    if "clocks" in s:
        c = s["clocks"]
        left = ", ".join(say("{clock} {seconds:.1f} s", clock=k, seconds=float(v)) for k, v in c["remaining"].items())
        # none running (a table over, or between deals): said so, not an empty list (stop 72)
        out.append(
            "  "
            + (
                say("shot clocks (record {seq}): {clocks}; resumes paused", seq=c["seq"], clocks=left)
                if left
                else say("shot clocks (record {seq}): none running", seq=c["seq"])
            )
        )
    out += ["  " + say("problem: {problem}", problem=said_error(p)) for p in report.problems]
    return out


def salvage_lines(result: Any) -> list[str]:
    """What ``--salvage`` kept and lost (a ``recovery.SalvageReport``), in the words spoken."""
    out = [
        say_n(
            "salvaged {n} record of {source} into {target} (seq 1)",
            "salvaged {n} records of {source} into {target} (seq 1..{n})",
            result.kept,
            source=result.source,
            target=result.target,
        ),
        say(
            "the saved history stops there because: {reason}",
            reason="; ".join(said_error(r) for r in result.reasons),
        ),
    ]
    for a, b in result.lost_ranges:
        out.append(
            say("lost: seq {first}..{last} could not be read", first=a, last=b)
            if a != b
            else say("lost: seq {seq} could not be read", seq=a)
        )
    if result.dropped:
        out.append(
            say_n(
                "dropped: {n} readable record after the damage (seq {first}), kept for the TL in {path}",
                "dropped: {n} readable records after the damage (seq {first}..{last}), kept for the TL in {path}",
                len(result.dropped),
                first=result.dropped[0],
                last=result.dropped[-1],
                path=str(result.target) + ".dropped.jsonl",
            )
        )
    st = result.state
    out.append(
        say(
            "the saved table is at game {game}, deal {deal}, phase {phase}",
            game=st.get("game"),
            deal=st.get("deal"),
            phase=phase_word(st["phase"]) if st.get("phase") else st.get("phase"),
        )
    )
    return out


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
            error = say("cannot write {path}: {error}", path=args.output, error=os_error_words(exc))
            print(f"chicago-table log export: {error}", file=sys.stderr)
            return 2
        print(
            say_n("exported {n} record to {path}", "exported {n} records to {path}", len(records), path=args.output),
            file=sys.stderr,
        )
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
        print(say("line {n}: rejected: {reason}", n=line, reason=reason), file=sys.stderr)
    if rejected:
        done = say_n(
            "imported {n} record into {db}, {rejected} rejected",
            "imported {n} records into {db}, {rejected} rejected",
            n,
            db=args.db,
            rejected=len(rejected),
        )
    else:
        done = say_n("imported {n} record into {db}", "imported {n} records into {db}", n, db=args.db)
    print(done, file=sys.stderr)
    return 0


def _replay_sensors(args: argparse.Namespace) -> int:
    from table_controller.live.sensor_replay import replay_sensor_log
    from table_controller.rules.replay import replay_document
    from table_controller.store.rebuild import resume

    print(say("replaying the sensor records of {path} ...", path=args.file), file=sys.stderr)
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
        "; ".join(
            (
                say_n("{n} observation", "{n} observations", replay.observations),
                say_n(
                    "{n} action ({sensed} sensed)", "{n} actions ({sensed} sensed)", len(replay.accepted), sensed=sensed
                ),
                say("the same game as stored") if same else say("DIFFERS from the stored game"),
            )
        ),
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
        print(f"chicago-table log verify: {said_error(exc)}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(verdict.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for line in verdict_lines(verdict):
            print(line)
    return 0 if verdict.ok else 1


def verdict_lines(verdict: Any) -> list[str]:
    """``log verify``'s verdict (a ``witness.Verdict``) in the words spoken: its problems and
    notes each said as the console says a worded text (``said_error``)."""
    checked = (
        say_n("{n} witnessed", "{n} witnessed", verdict.witnessed)
        if verdict.every
        else say_n("checked at {n} deal's end", "checked at {n} deals' ends", verdict.witnessed)
    )
    out = [
        say_n(
            "{path} (table {table}): {verdict}; {n} record, {checked}",
            "{path} (table {table}): {verdict}; {n} records, {checked}",
            verdict.records,
            path=verdict.path,
            table=verdict.table,
            verdict=say("WHOLE AND UNALTERED") if verdict.ok else say("NOT AS WITNESSED"),
            checked=checked,
        )
    ]
    out += ["  " + say("problem: {problem}", problem=said_error(p)) for p in verdict.problems]
    out += ["  " + said_error(n) for n in verdict.notes]
    return out
