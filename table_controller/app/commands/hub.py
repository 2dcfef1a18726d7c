"""``chicago-table hub``: run a tournament over several tables (issue 20).

$ chicago-table hub create sm2026.hub --event sm2026 --name "SM i Chicago 2026"
$ chicago-table hub register sm2026.hub --csv players.csv      # name,club per line
$ chicago-table hub draw sm2026.hub                            # heat 1: tables and seats (r7)
$ chicago-table hub serve sm2026.hub --broker 127.0.0.1:1883   # take the tables' logs
$ chicago-table hub publish --db table.sqlite --table h1-t3 --event sm2026 --broker HOST:1883
$ chicago-table hub standings sm2026.hub
$ chicago-table hub advance sm2026.hub                         # the next heat (r7)
$ chicago-table hub export sm2026.hub --csv results.csv --pdf results.pdf

What it says to people (results, confirmations, errors) is Swedish first, English with
``--lang en`` (table_controller/app/words.py), as ``setup`` and ``doctor``; ``--json`` is
for programs and stays as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from table_controller.tournament.hubstore import HubError

from ..words import (
    add_lang,
    clocks_words,
    hub_words,
    phase_word,
    said_error,
    said_params,
    say,
    say_n,
    speaking,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..argtypes import port_number
    from ..web import add_shot_clocks_argument

    p.description = say(
        "Keep a tournament: players, heats, seat draws, the tables' logs (over an MQTT broker) "
        "and live standings.  Topics and payloads: table_controller/tournament/TOPICS.md."
    )
    sub = p.add_subparsers(dest="hub_command", metavar="ACTION")

    def action(name: str, help_text: str) -> argparse.ArgumentParser:
        """An action whose --help says what it does, as the list of actions does; it speaks
        Swedish unless --lang en."""
        ap = sub.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        add_lang(ap)
        return ap

    hub_file = say("the hub's SQLite file (hub create)")
    json_help = say("print it as JSON")
    broker_help = say("the MQTT broker (default 127.0.0.1:1883)")
    table_id = say("the table's id as drawn, e.g. h1-t3")
    c = action("create", say("a new hub file for one event"))
    c.add_argument("hub", help=say("the hub's SQLite file (new)"))
    c.add_argument("--event", required=True, help=say("the event's id (letters, digits, '-', '_'), used in topics"))
    c.add_argument("--name", default="", help=say("the event's name for people"))
    c.add_argument("--ruleset", default="sm2025", help=say("the ruleset every table plays (default sm2025)"))
    add_shot_clocks_argument(c)  # in every table's draw
    r = action("register", say("register players (and their clubs) before heat 1 is drawn"))
    r.add_argument("hub", help=hub_file)
    r.add_argument("--player", action="append", default=[], metavar="NAME[:CLUB]", help=say("one player; repeat"))
    r.add_argument("--csv", metavar="FILE", help=say("a CSV file of name,club lines (a 'name' header is skipped)"))
    d = action("draw", say("draw heat 1: tables (clubs spread) and the seats of every game (r7)"))
    d.add_argument("hub", help=hub_file)
    d.add_argument("--seed", help=say("the draw's seed (default: a fresh random one, printed and logged)"))
    d.add_argument("--json", action="store_true", help=json_help)
    w = action("withdraw", say("withdraw a player who does not come (before a heat's tables start, or after it)"))
    w.add_argument("hub", help=hub_file)
    w.add_argument("player", help=say("the player's name as registered"))
    w.add_argument("--reason", required=True, help=say("why, for the record (e.g. 'did not come')"))
    w.add_argument(
        "--seed", help=say("the seed of a heat drawn again (default: a fresh random one, printed and logged)")
    )
    w.add_argument("--json", action="store_true", help=json_help)
    a = action("advance", say("draw the next heat from who goes on (r7: heat 1 top 2, then the winner)"))
    a.add_argument("hub", help=hub_file)
    a.add_argument("--seed", help=say("the draw's seed (default: a fresh random one, printed and logged)"))
    a.add_argument("--json", action="store_true", help=json_help)
    s = action("standings", say("the live standings, folded from the tables' logs the hub holds"))
    s.add_argument("hub", help=hub_file)
    s.add_argument("--json", action="store_true", help=json_help)
    e = action("export", say("the results as CSV and/or PDF"))
    e.add_argument("hub", help=hub_file)
    e.add_argument(
        "--csv", metavar="FILE", help=say("write the standings as CSV here: a row a player at each table of each heat")
    )
    e.add_argument("--pdf", metavar="FILE", help=say("write the results as a printable PDF here"))
    v = action("serve", say("take the tables' logs from the broker and publish acks, draws, standings"))
    v.add_argument("hub", help=hub_file)
    v.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT", help=broker_help)
    _credentials(v)
    b = action("publish", say("(at a table) publish the table's log to the hub"))
    b.add_argument("--db", required=True, help=say("the table's log (.sqlite)"))
    b.add_argument("--table", required=True, help=table_id)
    b.add_argument("--event", required=True, help=say("the event's id, as in hub create"))
    b.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT", help=broker_help)
    b.add_argument("--batch", type=int, default=200, help=say("records per message at most (default 200)"))
    b.add_argument(
        "--stall", type=float, default=3.0, help=say("seconds without a moving ack before resending (default 3)")
    )
    _credentials(b)
    b.add_argument("--key", metavar="FILE", help=say("the table's private key (hub keygen): sign the chain head"))
    k = action("keygen", say("(at table setup) a new Ed25519 key for a table; prints its public key"))
    k.add_argument("--key", required=True, metavar="FILE", help=say("the new private key file (owner-only)"))
    r2 = action("key", say("register a table's public key at the hub"))
    r2.add_argument("hub", help=hub_file)
    r2.add_argument("table", help=table_id)
    r2.add_argument("public", help=say("the public key 'hub keygen' printed (64 hex digits)"))
    u = action("dashboard", say("where a table's own dashboard is: the TL's event screen links to it"))
    u.add_argument("hub", help=hub_file)
    u.add_argument("table", help=table_id)
    u.add_argument("url", help=say("http://HOST:PORT of the table's dashboard ('chicago-table serve')"))
    f = action("feature", say("(the producer) the table the broadcast follows ('hub web' /broadcast)"))
    f.add_argument("hub", help=hub_file)
    f.add_argument("table", help=table_id)
    w = action(
        "witness",
        say(
            "export the hub's witness as JSON: every record's digest, the signed heads, the keys "
            "(the TL's: from two digests in a row a face-down card can be worked out; written owner-only); "
            "--public: each finished deal's end only, as 'hub web' gives anyone"
        ),
    )
    w.add_argument("hub", help=hub_file)
    w.add_argument("-o", "--output", required=True, metavar="FILE", help=say("the JSON file to write"))
    w.add_argument(
        "--public",
        action="store_true",
        help=say("the public witness: each finished deal's last digest and its signed head"),
    )
    pw = action("web", say("the hall's public standings page (read-only beside 'hub serve')"))
    pw.add_argument("hub", help=hub_file)
    pw.add_argument("--host", default="127.0.0.1", help=say("address to listen on (0.0.0.0: the hall's network)"))
    pw.add_argument("--port", type=port_number, default=8090, help=say("port (default 8090)"))
    pw.add_argument(
        "--tokens",
        metavar="FILE",
        help=say("the event's tokens.json (as the dashboards'): adds the TL's event screen at /tl?token=TL"),
    )
    pw.add_argument(
        "--certfile",
        metavar="PEM",
        help=say("serve HTTPS with this certificate (with --keyfile); use it beyond localhost: the URLs carry tokens"),
    )
    pw.add_argument("--keyfile", metavar="PEM", help=say("the certificate's private key"))
    pw.add_argument(
        "--show-tokens",
        action="store_true",
        help=say("print the TL's and the broadcast's URLs with their tokens (default: without; they are in --tokens)"),
    )
    p.set_defaults(_hub_parser=p)


def _credentials(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", help=say("the broker's user name (see TOPICS.md: a user per table at an event)"))
    p.add_argument("--password-file", metavar="FILE", help=say("a file holding the broker password (first line)"))
    p.add_argument(
        "--cafile",
        metavar="FILE",
        help=say(
            "the certificate (PEM) the broker's TLS certificate is checked against: the link to the broker "
            "is then encrypted. Without it the password and every record (every dealt hand) cross the network "
            "as they are; beyond this machine, give it (the broker's listener: TOPICS.md)"
        ),
    )


def _tls(args, host: str):
    """The TLS context for the broker's link (``--cafile``), or None, with a warning in
    Swedish and English when a broker beyond this machine is reached without it."""
    import ssl

    if args.cafile:
        try:
            return ssl.create_default_context(cafile=args.cafile)
        except (OSError, ssl.SSLError) as exc:
            raise HubError(
                "--cafile {path}: not a readable certificate ({error})", path=args.cafile, error=exc
            ) from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"VARNING: länken till mäklaren {host} är okrypterad (ingen --cafile): lösenordet och varje "
            f"utdelad hand går över nätet som de är.\nWARNING: the link to the broker {host} is not encrypted "
            "(no --cafile): the password and every dealt hand cross the network as they are.",
            file=sys.stderr,
            flush=True,
        )
    return None


def _login(args) -> tuple[str | None, str | None]:
    if args.password_file and not args.user:
        raise HubError("--password-file needs --user")
    if not args.password_file:
        return args.user, None
    with open(args.password_file, encoding="utf-8") as fh:
        return args.user, fh.readline().rstrip("\n")


def main(args: argparse.Namespace) -> int:
    cmd = getattr(args, "hub_command", None)
    if cmd is None:
        args._hub_parser.print_help()
        return 2
    with speaking(args.lang):
        return _action(cmd, args)


def _action(cmd: str, args: argparse.Namespace) -> int:
    try:
        return {
            "create": _create,
            "register": _register,
            "draw": _draw,
            "advance": _advance,
            "withdraw": _withdraw,
            "standings": _standings,
            "export": _export,
            "serve": _serve,
            "publish": _publish,
            "keygen": _keygen,
            "key": _key,
            "witness": _witness,
            "web": _web,
            "dashboard": _dashboard,
            "feature": _feature,
        }[cmd](args)
    except (HubError, ValueError, OSError) as exc:
        print(f"chicago-table hub {cmd}: {said_error(exc)}", file=sys.stderr)
        return 2


def _open(path: str, create: bool = False, readonly: bool = False):
    from table_controller.tournament.hubstore import HubStore

    return HubStore.open(path, create=create, readonly=readonly)


def _create(args) -> int:
    from pathlib import Path

    from table_controller.tournament.event import check_event, create_event

    clocks = check_event(args.event, args.ruleset, args.shot_clocks or "")  # before the file exists: a refused
    if Path(args.hub).exists():  # create leaves nothing
        raise HubError("{path} already exists", path=args.hub)
    with _open(args.hub, create=True) as hub:
        create_event(hub, args.event, args.name, args.ruleset, clocks)
    if clocks:
        print(
            say(
                "created {path} for event {event} ({ruleset}, shot clocks {clocks})",
                path=args.hub,
                event=args.event,
                ruleset=args.ruleset,
                clocks=clocks,
            )
        )
    else:
        print(
            say("created {path} for event {event} ({ruleset})", path=args.hub, event=args.event, ruleset=args.ruleset)
        )
    return 0


def _register(args) -> int:
    from table_controller.tournament.event import register

    players = []
    for item in args.player:
        name, _, club = item.partition(":")
        players.append((name.strip(), club.strip()))
    if args.csv:
        from table_controller.tournament.playerfile import PlayerFileError, player_rows

        try:
            rows = player_rows(args.csv)
        except PlayerFileError as exc:
            raise HubError(exc.text, **exc.params) from None
        for n, row in rows:
            if not row[0]:
                club = row[1] if len(row) > 1 else ""
                raise HubError("{path}: line {n}: no name before the club {club!r}", path=args.csv, n=n, club=club)
            if len(row) > 3:  # name, club and (the protocol's file: protocol --players) an id
                raise HubError(
                    "{path}: line {n}: expected name,club[,id], got {fields} fields",
                    path=args.csv,
                    n=n,
                    fields=len(row),
                )
            players.append((row[0], row[1] if len(row) > 1 else ""))
    if not players:
        raise HubError("no players given (--player NAME[:CLUB] or --csv FILE)")
    with _open(args.hub) as hub:
        register(hub, players)
        total = len(hub.players())
    print(
        say_n(
            "registered {n} player ({total} in all)",
            "registered {n} players ({total} in all)",
            len(players),
            total=total,
        )
    )
    return 0


def _print_tables(seed: str, heat: int, tables, as_json: bool) -> None:
    if as_json:
        json.dump({"heat": heat, "seed": seed, "tables": tables}, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    print(say("heat {heat}, seed {seed}", heat=heat, seed=seed))
    for t in tables:
        print(f"  {t['table']}: {', '.join(t['players'])}")
        if t.get("filled"):
            print(
                "    "
                + say(
                    "{players}: the best of the rest, as too few went on to fill a table of three (r1)",
                    players=", ".join(t["filled"]),
                )
            )
        for g in t["games"]:
            seats = ", ".join(g["seats"])
            print(
                "    "
                + say("game {game}: seats {seats}; button {button}", game=g["game"], seats=seats, button=g["button"])
            )


def _draw(args) -> int:
    from table_controller.tournament.event import draw_first_heat

    with _open(args.hub) as hub:
        seed, tables = draw_first_heat(hub, args.seed)
    _print_tables(seed, 1, tables, args.json)
    return 0


def _advance(args) -> int:
    from table_controller.tournament.event import EventOver, advance
    from table_controller.tournament.standings import Standings

    with _open(args.hub) as hub:
        try:
            heat, seed, tables = advance(hub, Standings(hub), args.seed)
        except EventOver as exc:  # the event is over: said, and no fault (stop 71's audit: exit 2)
            print(said_error(exc))
            return 0
    _print_tables(seed, heat, tables, args.json)
    return 0


def _withdraw(args) -> int:
    from table_controller.tournament.event import withdraw

    with _open(args.hub) as hub:
        heat, seed, tables = withdraw(hub, args.player, args.reason, args.seed)
        heard = hub.statuses()
    print(say("{player} is withdrawn: {reason}", player=args.player, reason=args.reason.strip()), file=sys.stderr)
    if heat is not None and seed is not None:
        print(say("heat {heat} is drawn again without them:", heat=heat), file=sys.stderr)
        _print_tables(seed, heat, tables, args.json)
        # a table whose publisher the hub has never heard from may have started on the first
        # draw (it keeps the draw it got): the hub cannot tell, the TL can
        unheard = [t["table"] for t in tables if t["table"] not in heard]
        if unheard:
            print(
                say(
                    "not heard from yet: {tables}; a table that started before its publisher was up plays the "
                    "first draw: check there before play",
                    tables=", ".join(unheard),
                ),
                file=sys.stderr,
            )
    return 0


def _document(hub):
    from table_controller.tournament.standings import Standings

    board = Standings(hub)
    board.update()
    return board.document()


def _standings(args) -> int:
    from table_controller.rules.rulesets import ClockError, shot_clocks_in_force

    with _open(args.hub, readonly=True) as hub:  # beside a running hub serve
        doc = _document(hub)
        setting = hub.meta().get("shot_clocks", "")
    try:  # the event's shot clocks, as every table runs them (D11: the hub's setting over the defaults)
        doc["shot_clocks"] = shot_clocks_in_force(setting)
    except ClockError as exc:  # the hub file edited by hand: the tables refuse its draws themselves
        raise HubError(
            "the hub's shot clocks {setting!r} cannot be read ({error})", setting=setting, error=exc
        ) from None
    if args.json:
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    print(f"{doc['name']} ({doc['event']}, {doc['ruleset']})")
    clocks = clocks_words(doc["shot_clocks"])
    if setting:
        print(say("shot clocks (D11): {clocks}", clocks=clocks))
    else:
        print(say("shot clocks (D11): {clocks} (D11's defaults)", clocks=clocks))
    for heat in doc["heats"]:
        print(
            say("heat {heat}: complete", heat=heat["heat"])
            if heat["complete"]
            else say("heat {heat}", heat=heat["heat"])
        )
        for t in heat["tables"]:
            print(
                "  "
                + say_n(
                    "{table} ({n} record): {state}",
                    "{table} ({n} records): {state}",
                    t["records"],
                    table=t["table"],
                    state=_state(t),
                )
            )
            for s in t.get("standings", []):
                mark = " *" if s["player"] in t.get("advancing", []) else ""
                line = say(
                    "{rank}. {player}: {points} p, score {score}, {chicagos} Chicago",
                    rank=s["rank"],
                    player=s["player"],
                    points=s["placement_points"],
                    score=s["score_total"],
                    chicagos=s["won_chicagos"],
                )
                print("    " + line + mark)
            if t.get("without"):  # started without a no-show, who was withdrawn (event.withdraw)
                print("    " + say("played without {players} (withdrawn)", players=", ".join(t["without"])))
            for problem in t["problems"]:
                print("    " + say("problem: {problem}", problem=hub_words(problem)))
        for sp in heat["särspel"]:
            players = ", ".join(sp["players"])
            print(
                "  "
                + say(
                    "särspel at {table}: {players}, {deals} deal(s) (r11)",
                    table=sp["table"],
                    players=players,
                    deals=sp["deals"],
                )
            )
        if heat.get("advancing"):
            print("  " + say("going on: {players}", players=", ".join(heat["advancing"])))
    for c in doc["conflicts"]:
        print(say("conflict: table {table}: {detail}", table=c["table"], detail=hub_words(c["detail"])))
    return 0


def _state(t: dict) -> str:
    """Where a table is, in words: finished, not started, or its game, deal and phase."""
    if t["finished"]:
        return say("finished")
    if not t["started"]:
        return say("not started")
    now = t["current"]
    return say("game {game}, deal {deal}, {phase}", game=now["game"], deal=now["deal"], phase=phase_word(now["phase"]))


def _export(args) -> int:
    from table_controller.tournament.export import write_csv, write_pdf

    if not args.csv and not args.pdf:
        raise HubError("say where: --csv FILE and/or --pdf FILE")
    if args.csv:
        _writable(args.csv, args.hub, written=args.pdf)
    if args.pdf:
        _writable(args.pdf, args.hub)
    with _open(args.hub, readonly=True) as hub:
        doc = _document(hub)
    if args.csv:
        n = write_csv(doc, args.csv)
        print(say_n("wrote {n} row to {path}", "wrote {n} rows to {path}", n, path=args.csv))
    if args.pdf:
        write_pdf(doc, args.pdf)
        print(say("wrote {path}", path=args.pdf))
    return 0


def _writable(out: str, *inputs: str | None, written: str | None = None) -> None:
    """An output path that overwrites nothing the command reads or writes, and no database."""
    from table_controller.app.outputs import OutputError, check_output

    try:
        check_output(out, *inputs, written=written)
    except OutputError as exc:
        raise HubError(str(exc)) from None


def _broker(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise HubError("--broker {address!r}: give HOST:PORT", address=text)
    from ..argtypes import port_number

    try:
        return host, port_number(port)
    except argparse.ArgumentTypeError as exc:
        raise HubError("--broker {address!r}: {error}", address=text, error=exc) from None


def _run_until_signal(coro_factory) -> int:
    async def runner():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await coro_factory(stop)

    asyncio.run(runner())
    return 0


class Said:
    """A logging filter: the hub's and the publisher's notes to their operator
    (``tournament.notes``) in the words spoken, a conflict as the TL's event screen says it,
    a worded error in them (a table log's that a publisher cannot read) in the words spoken
    too; any other record as it is.  (The record is the log's: every handler gets the same.)"""

    def filter(self, record) -> bool:
        from table_controller.rules.errors import WordedError

        text = getattr(record, "said_text", None)
        if text is not None:
            params = dict(getattr(record, "said_params", {}))
            params |= said_params({k: v for k, v in params.items() if isinstance(v, WordedError)})
            if isinstance(params.get("conflict"), str):
                params["conflict"] = hub_words(params["conflict"])
            record.msg, record.args = say(text, **params), ()
        return True


def _operator_log() -> None:
    """The operator's lines on stderr, with their time, in the words spoken (``Said``); an
    unexpected error's traceback at debug level, not shown."""
    import logging

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(Said())


def _serve(args) -> int:
    from table_controller.tournament.service import HubService

    _operator_log()
    host, port = _broker(args.broker)
    with _open(args.hub) as hub:
        hub.event_id()
    user, password = _login(args)
    service = HubService(args.hub, host=host, port=port, username=user, password=password, tls=_tls(args, host))
    print(
        say("hub serving {path} through {host}:{port}", path=args.hub, host=host, port=port),
        file=sys.stderr,
        flush=True,
    )
    return _run_until_signal(service.run)


def _publish(args) -> int:
    from pathlib import Path

    from table_controller.tournament.publisher import TablePublisher

    _operator_log()
    host, port = _broker(args.broker)
    user, password = _login(args)
    if args.batch < 1 or args.stall <= 0:
        raise HubError("--batch must be at least 1 and --stall above 0")
    folder = Path(args.db).absolute().parent
    if not folder.is_dir():  # a log that is not there yet is waited for; a folder that is not, never comes
        raise HubError(
            "--db {db}: there is no folder {folder}; give the table's log in its data folder (table.sqlite)",
            db=args.db,
            folder=folder,
        )
    pub = TablePublisher(
        args.db,
        table=args.table,
        event=args.event,
        host=host,
        port=port,
        batch=args.batch,
        stall=args.stall,
        key=args.key,
        username=user,
        password=password,
        tls=_tls(args, host),
    )
    print(
        say("publishing {db} as {table} through {host}:{port}", db=args.db, table=args.table, host=host, port=port),
        file=sys.stderr,
        flush=True,
    )
    return _run_until_signal(pub.run)


def _keygen(args) -> int:
    from table_controller.tournament.signing import create_key

    try:
        public = create_key(args.key)
    except FileExistsError:
        raise HubError("{path} exists; a table's key is never overwritten", path=args.key) from None
    print(public)
    print(
        say(
            "key written to {path}; register it: chicago-table hub key HUBFILE TABLE {public}",
            path=args.key,
            public=public,
        ),
        file=sys.stderr,
    )
    return 0


def _key(args) -> int:
    from table_controller.tournament.topics import PayloadError, check_id

    try:
        check_id(args.table, "table")
    except PayloadError as exc:
        raise HubError(str(exc)) from None
    with _open(args.hub) as hub:
        hub.set_key(args.table, args.public)
    print(say("registered the key of {table}", table=args.table))
    return 0


def _witness(args) -> int:
    from pathlib import Path

    from table_controller.app.table_files import private_file
    from table_controller.tournament.witness import export_witness, public_witness

    _writable(args.output, args.hub)
    with _open(args.hub, readonly=True) as hub:
        w = public_witness(hub) if args.public else export_witness(hub)
    if not args.public:  # the whole witness is kept as the hub's file is (owner-only): see witness.py
        private_file(Path(args.output))
    with open(args.output, "w", encoding="utf-8") as fh:
        json.dump(w, fh)
    n, path = len(w["tables"]), args.output
    if args.public:
        print(
            say_n(
                "wrote the public witness (each finished deal's end) of {n} table to {path}",
                "wrote the public witness (each finished deal's end) of {n} tables to {path}",
                n,
                path=path,
            )
        )
    else:
        print(
            say_n(
                "wrote the witness (owner-only: it is the TL's) of {n} table to {path}",
                "wrote the witness (owner-only: it is the TL's) of {n} tables to {path}",
                n,
                path=path,
            )
        )
    return 0


def _web(args) -> int:
    from pathlib import Path

    import uvicorn

    from dashboard.security import plain_http_warning
    from dashboard.standings_page import create_app
    from table_controller.tournament.standings import Standings

    if (args.certfile is None) != (args.keyfile is None):
        raise HubError("--certfile and --keyfile go together")
    for f in (args.certfile, args.keyfile):
        if f is not None and not Path(f).is_file():
            raise HubError("no such file: {path}", path=f)
    with _open(args.hub, readonly=True) as hub:
        hub.event_id()
    tl = broadcast = None
    if args.tokens:
        if not Path(args.tokens).parent.is_dir():  # a mistyped folder: made, it held tokens no table shares
            raise HubError(
                "the folder {folder} does not exist: give the event's tokens.json (new tokens are made only "
                "in a folder that is there)",
                folder=Path(args.tokens).parent,
            )
        if not Path(args.tokens).exists():  # a typo would give the TL's screen tokens no table shares
            print(
                say("{path} does not exist: new tokens are made in it", path=args.tokens), file=sys.stderr, flush=True
            )
        from dashboard.errors import DashboardError
        from dashboard.tokens import RoleTokens

        try:
            tokens = RoleTokens.load_or_create(Path(args.tokens))
            tl, broadcast = tokens.token("tl"), tokens.token("broadcast")
        except DashboardError as exc:
            raise HubError(str(exc)) from None
    warning = plain_http_warning(args.host, args.certfile is not None)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    from ..web import port_problem

    if problem := port_problem(args.host, args.port):  # before any address is printed
        raise HubError(problem)
    base = f"{'https' if args.certfile else 'http'}://{args.host}:{args.port}"
    print(say("standings of {path} on {url}", path=args.hub, url=base + "/"), file=sys.stderr, flush=True)
    if tl:

        def shown(token: str | None) -> str:
            return (token or "") if args.show_tokens else "..."

        tl_url, broadcast_url = f"{base}/tl?token={shown(tl)}", f"{base}/broadcast?token={shown(broadcast)}"
        print(say("the TL's event screen: {url}", url=tl_url), file=sys.stderr, flush=True)
        print(say("the featured table for OBS: {url}", url=broadcast_url), file=sys.stderr, flush=True)
        if not args.show_tokens:
            print(
                "  " + say("(tokens in {path}; --show-tokens prints them)", path=args.tokens),
                file=sys.stderr,
                flush=True,
            )
    uvicorn.run(
        create_app(lambda: Standings(_open(args.hub, readonly=True)), tl_token=tl, broadcast_token=broadcast),
        host=args.host,
        port=args.port,
        log_level="warning",
        server_header=False,
        ssl_certfile=args.certfile,
        ssl_keyfile=args.keyfile,
    )
    return 0


def _dashboard(args) -> int:
    with _open(args.hub) as hub:
        hub.set_dashboard(args.table, args.url)
    print(say("{table}: the TL acts on it at {url}", table=args.table, url=args.url))
    return 0


def _feature(args) -> int:
    with _open(args.hub) as hub:
        hub.require_table(args.table)
        hub.set_meta(featured=args.table)
        url = hub.dashboards().get(args.table)
    if url:
        print(say("the broadcast follows {table}", table=args.table))
    else:
        print(
            say(
                "the broadcast follows {table} (no dashboard known for it yet: 'chicago-table hub dashboard HUB {table} URL')",
                table=args.table,
            )
        )
    return 0
