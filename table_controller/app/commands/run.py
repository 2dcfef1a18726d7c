"""``chicago-table run``: a live table.

    chicago-table run --config /etc/chicago-table/table.toml     # the whole table in one service
    chicago-table run --config table.toml --dashboard-port 8081   # a flag overrides the file

With ``--config`` (or ``--data``) the table runs as one service (``app.service``): the
bridge to the seat controller (or the virtual table), sensing, clocks, the durable log
in the data folder, the camera if configured, the stuck-table watch and the dashboard.
The file's keys are described in ``app/config.py``; every key is also a flag.  Without
them, the older forms below print what happens (and the bots' JSON):

    chicago-table run --port /dev/serial/by-id/usb-chicago_seat-controller --deck deck.json --db t7.sqlite
    chicago-table run --virtual --bots --until-done --db table.sqlite --json --seed 7
    chicago-table run --virtual --bots --until-done --fast --json --seed 7     # simulated time
    chicago-table run --virtual --bots --until-done --fast --db h1-t3.sqlite --hub http://hub:8090 --table-id h1-t3

With ``--virtual --bots`` bot players play a whole three-game table through the virtual
table (the real firmware logic on simulated readers, over a pseudo-terminal) and the
serial bridge; sensing recovers every action from what the pads report, and the
result is printed as the same JSON document as ``chicago-table replay``.  ``--fast``
runs the virtual table in simulated time (hardware/README.md, "Simulated time"): as fast
as the CPU allows and the same on every run for a given ``--seed``.  On a ``--db`` that
already holds a table the bots resume it: the virtual table is rebuilt from the log
and the table is played on to its end.  With ``--hub`` and ``--table-id`` the table
plays as the tournament hub drew it (``tournament.seating``): its players, heat and
ruleset, and the seats and button of every game (r7), a särspel's too (r11) when read
from the hub's web address; nobody types a name.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from ..words import (
    add_lang,
    alert_word,
    dashboard_words,
    deck_error_words,
    phase_word,
    said_error,
    say,
    say_n,
    speaking,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..argtypes import delay_seconds, positive, positive_int
    from ..web import add_branding_arguments, add_shot_clocks_argument

    p.add_argument(
        "--config",
        metavar="FILE",
        help=say(
            "the table's settings file (table.toml; 'chicago-table setup' writes one): "
            "runs the whole table as one service with its dashboard; the flags below override it"
        ),
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--port",
        metavar="PORT",
        help=say("[seat_controller] port: the seat controller's serial port (path or pyserial URL)"),
    )
    where.add_argument(
        "--virtual",
        action="store_true",
        default=None,
        help=say("[table] virtual: use the virtual table instead of hardware"),
    )
    p.add_argument(
        "--deck",
        metavar="FILE",
        help=say(
            "[seat_controller] deck: the registered deck (chicago-table deck register); the virtual table has its own"
        ),
    )
    add_shot_clocks_argument(p, config_key=True)
    svc = p.add_argument_group(say("the table as a service (with --config or --data)"))
    svc.add_argument("--name", help=say("[table] name: the table's name on every view"))
    svc.add_argument(
        "--data",
        metavar="DIR",
        help=say("[table] data: the folder of the event log, broadcast queue, audit trail and tokens"),
    )
    svc.add_argument(
        "--stuck-after",
        type=float,
        metavar="SECONDS",
        help=say("[table] stuck_after: alert the TL when someone must act and nothing happens this long (default 120)"),
    )
    svc.add_argument(
        "--camera", metavar="SOURCE", help=say("[camera] source: the overhead camera (device number, file or URL)")
    )
    svc.add_argument("--calibration", metavar="FILE", help=say("[camera] calibration: the camera's calibration file"))
    svc.add_argument(
        "--camera-fps", type=positive, metavar="N", help=say("[camera] fps: frames read per second (default 30)")
    )
    svc.add_argument("--host", help=say("[dashboard] host: address to listen on (default 127.0.0.1)"))
    svc.add_argument("--dashboard-port", type=int, metavar="N", help=say("[dashboard] port (default 8080)"))
    svc.add_argument(
        "--tls-cert", metavar="PEM", help=say("[dashboard] tls_cert: serve HTTPS/WSS with this certificate")
    )
    svc.add_argument("--tls-key", metavar="PEM", help=say("[dashboard] tls_key: the certificate's private key"))
    svc.add_argument(
        "--broadcast-delay", type=delay_seconds, metavar="SECONDS", help=say("[dashboard] broadcast_delay")
    )
    svc.add_argument(
        "--event-tokens",
        metavar="FILE",
        help=say(
            "[dashboard] event_tokens: the event's role tokens, "
            "shared by its tables (default tokens.json in the data folder)"
        ),
    )
    svc.add_argument(
        "--peer",
        action="append",
        metavar="URL",
        help=say("[dashboard] peers: another table's dashboard on the TL's hall page; repeat for every table"),
    )
    add_branding_arguments(svc, config_keys=True)
    svc.add_argument("--show-tokens", action="store_true", help=say("print the views' URLs with their tokens"))
    p.add_argument("--db", metavar="FILE", help=say("the table's event log (SQLite); default: kept in memory only"))
    p.add_argument(
        "--bots",
        action="store_true",
        help=say("(virtual) bot players play the table, moving cards on the virtual table"),
    )
    p.add_argument(
        "--until-done", action="store_true", help=say("(with --bots) play until the table is over, then stop")
    )
    p.add_argument(
        "--max-actions",
        type=positive_int,
        default=100_000,
        metavar="N",
        help=say("(with --bots) stop after N actions (default: no practical limit)"),
    )
    p.add_argument("--seed", type=int, default=0, help=say("seed of the bots and of the virtual table's noise"))
    p.add_argument(
        "--noise",
        choices=("default", "mild", "clean", "rough"),
        default="default",
        help=say(
            "(virtual) the readers' noise model: default is mild (a card now and then missed "
            "in a scan, the odd empty scan, stacks read 3 cards at a time); clean; or rough "
            "(more flicker, 2-card stacks, lost and corrupt bytes)"
        ),
    )
    p.add_argument(
        "--reader",
        choices=("mfrc522", "pn5180"),
        default="mfrc522",
        help=say(
            "(virtual) the reader under every pad: mfrc522 reads a stack a few cards per "
            "scan, pn5180 (ISO 15693) reads it whole (hardware/README.md)"
        ),
    )
    p.add_argument(
        "--ruleset",
        default=None,
        help=say("[table] ruleset (with --bots: the bots' table): sm2025, sm2019, shootout, classic"),
    )
    p.add_argument(
        "--players", default=None, help=say("(with --bots) names, comma separated (default Anna,Bo,Cilla,Dan)")
    )
    p.add_argument(
        "--hub",
        metavar="URL|FILE",
        help=say(
            "[hub] draw: the tournament hub's seat draw for --table-id: the hub's web "
            "address ('chicago-table hub web', e.g. http://hub.local:8090) or an exported draw "
            "('hub draw --json > heat1.json'); players, heat and every game's seats (r7) come from it "
            "(the service starts the table with them and the Revisor's new-game form shows the drawn seats)"
        ),
    )
    p.add_argument(
        "--table-id", metavar="ID", help=say("[hub] table_id: (with --hub) the table as the hub drew it, e.g. h1-t3")
    )
    p.add_argument(
        "--fast",
        action="store_true",
        help=say(
            "(with --virtual --bots) simulated time: the table's "
            "minutes in seconds, byte-identical output for a given --seed"
        ),
    )
    p.add_argument("--json", action="store_true", help=say("print the replay JSON document at the end"))
    p.add_argument("--quiet", action="store_true", help=say("no progress on stderr"))
    add_lang(p)


def _fail(msg: str) -> int:
    print(f"chicago-table run: {msg}", file=sys.stderr)
    return 2


def overrides(args: argparse.Namespace) -> dict[tuple[str, str], object]:
    """(section, key) -> value of every config flag given (``app.config.FLAGS``)."""
    from ..config import FLAGS

    out: dict[tuple[str, str], object] = {}
    for key, flag in FLAGS.items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"), None)
        if value is not None and value != []:
            out[key] = value
    return out


def _service(args: argparse.Namespace) -> int:
    """The whole table in one service (issue 16)."""
    from dashboard.errors import DashboardError

    from ..config import ConfigError, config_from_mapping, load_config
    from ..service import serve_table

    for flag in ("bots", "until_done", "fast", "json"):
        if getattr(args, flag):
            return _fail(
                say(
                    "{flag} is for the bots' table without --config (a table with bots and a dashboard: "
                    "chicago-table demo)",
                    flag="--" + flag.replace("_", "-"),
                )
            )
    if args.db:
        return _fail(say("--db: the service keeps its log in the data folder ([table] data, --data)"))
    try:
        given = overrides(args)
        cfg = load_config(args.config, given) if args.config else config_from_mapping({}, overrides=given)
        asyncio.run(serve_table(cfg, show_tokens=args.show_tokens))
    except (ConfigError, DashboardError) as exc:
        return _fail(dashboard_words(exc))
    except KeyboardInterrupt:
        return 0
    return 0


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from dashboard.errors import DashboardError
    from table_controller.rules.replay import replay_document
    from table_controller.store import TableRecorder
    from table_controller.tournament.seating import SeatingError, drawn_clock_limits

    from ..web import shot_clock_limits

    if args.config or args.data:
        return _service(args)
    if not args.port and not args.virtual:
        return _fail(say("say where the table is: --config FILE, --port PORT or --virtual"))
    svc_only = [
        f
        for f in (
            "name",
            "stuck_after",
            "camera",
            "calibration",
            "camera_fps",
            "host",
            "dashboard_port",
            "tls_cert",
            "tls_key",
            "broadcast_delay",
            "event_tokens",
            "peer",
        )
        if getattr(args, f) not in (None, [])
    ]
    if svc_only:
        return _fail(
            say(
                "{flag} is for the table as a service: add --config or --data",
                flag="--" + svc_only[0].replace("_", "-"),
            )
        )
    if args.bots and not args.virtual:
        return _fail(say("--bots plays on the virtual table only: add --virtual"))
    if args.fast and not (args.virtual and args.bots):
        return _fail(say("--fast runs bots on the virtual table in simulated time: add --virtual --bots"))
    if args.until_done and not args.bots:
        return _fail(say("--until-done needs --bots (a real table ends when the TL closes it)"))
    draw = None
    if args.hub or args.table_id:
        from table_controller.tournament.seating import load_draw_kept

        if not (args.hub and args.table_id):
            return _fail(say("--hub and --table-id go together: the hub's draw of that table"))
        if not args.bots:
            return _fail(say("--hub: without --config or --data, the hub's draw is played by --bots"))
        if args.players is not None or args.ruleset:
            return _fail(say("--players/--ruleset: the hub's draw names the players and the ruleset"))
        try:
            draw, why = load_draw_kept(args.hub, args.table_id, _kept_draw(args))
        except SeatingError as exc:
            return _fail(str(exc))
        if why is not None:
            print(
                say(  # the hub gave no answer at all (its own English words are not the officials')
                    "chicago-table run: the hub at {source} gives no answer; the table plays the draw kept in {path}",
                    source=args.hub,
                    path=_kept_draw(args),
                ),
                file=sys.stderr,
            )
        args.ruleset = draw["ruleset"]
    args.ruleset = args.ruleset or "sm2025"
    try:
        args.clock_limits = shot_clock_limits(args)
        if draw is not None:  # the event's clocks, as the hub drew the table
            args.clock_limits = drawn_clock_limits(draw, args.shot_clocks or "")
    except (DashboardError, SeatingError) as exc:
        return _fail(dashboard_words(exc))
    players = tuple(x.strip() for x in (args.players or "Anna,Bo,Cilla,Dan").split(",") if x.strip())
    if draw is not None:
        players = tuple(draw["players"])
    from table_controller.rules.errors import RulesetError
    from table_controller.rules.rulesets import RULESETS, ruleset

    if args.ruleset not in RULESETS:
        unknown = say(
            "unknown ruleset {ruleset!r}; rulesets: {rulesets}", ruleset=args.ruleset, rulesets=", ".join(RULESETS)
        )
        return _fail(f"--ruleset: {unknown}")
    try:
        rules = ruleset(args.ruleset)
    except RulesetError as exc:  # said here: the bots' table line would be refused, and nothing played
        return _fail(f"--ruleset: {exc}")
    if len(set(players)) != len(players):
        return _fail(say("--players: different names, comma separated"))
    if not rules.min_players <= len(players) <= rules.max_players:
        return _fail(
            say(
                "--players: {ruleset} is played by {least} to {most} players, not {n}",
                ruleset=rules.name,
                least=rules.min_players,
                most=rules.max_players,
                n=len(players),
            )
        )
    log = TableRecorder.in_memory()
    if args.db:
        from table_controller.store import StoreError

        try:
            log, _ = TableRecorder.resume(args.db)
        except (StoreError, OSError) as exc:
            return _fail(say("cannot open the log {db}: {error}", db=args.db, error=said_error(exc)))
        if args.bots and log.engine.state.rules is not None and not args.quiet:
            # issue 15: the bots play on from the log, on a virtual table rebuilt from it
            print(
                say("{db}: resuming the table in it ({phase})", db=args.db, phase=phase_word(str(log.engine.phase))),
                file=sys.stderr,
            )
    try:
        started = log.engine.state
        if draw is not None and started.rules is not None and sorted(started.players) != sorted(players):
            return _fail(
                say(
                    "the log holds a table of {players}, the hub drew {drawn} for {table}",
                    players=", ".join(started.players),
                    drawn=", ".join(players),
                    table=args.table_id,
                )
            )
        if args.virtual and args.bots:
            return _bots(args, log, players, replay_document, draw)
        return _serve(args, log)
    finally:
        log.close()


def _kept_draw(args) -> Path | None:
    """Where ``run --hub`` keeps the hub's draw: beside its ``--db`` log (a resume then needs
    no hub), or nowhere without one."""
    return Path(args.db).with_name(Path(args.db).name + ".draw.json") if args.db else None


def _bots(args, log, players, replay_document, draw=None) -> int:
    from table_controller.rules.engine import IllegalAction
    from table_controller.sim.driver import DriverStuck
    from table_controller.sim.virtual import bots_on_virtual_table

    bot = None
    if draw is not None:
        from table_controller.sim.bots import DrawnBot
        from table_controller.tournament.seating import load_draw_kept

        def warn(text: str) -> None:
            print(f"\nchicago-table run: {text}", file=sys.stderr, flush=True)

        def fetch() -> dict:  # a särspel's seats: the hub's (kept beside the log, as the draw is)
            return load_draw_kept(args.hub, args.table_id, _kept_draw(args))[0]

        refresh = fetch if args.hub.startswith(("http:", "https:")) else None
        bot = DrawnBot(args.seed, draw, refresh=refresh, warn=warn).next_action

    def progress(n: int, shadow) -> None:
        if args.quiet or n % 100:
            return
        cur = shadow.state
        g = cur.game
        line = say(
            "{n} actions, game {game}, deal {deal}, {phase}",
            n=n,
            game=g.number if g else 0,
            deal=len(g.deals) if g else 0,
            phase=phase_word(str(shadow.phase)),
        )
        print(f"\r{line}   ", end="", file=sys.stderr, flush=True)

    try:
        table = bots_on_virtual_table(
            args.seed,
            log,
            args.noise,
            players,
            args.ruleset,
            progress=progress,
            max_actions=args.max_actions if not args.until_done else 100_000,
            fast=args.fast,
            reader=args.reader,
            bot=bot,
            clock_limits=args.clock_limits,
        )

        async def timed(table=table):
            loop = asyncio.get_running_loop()
            start = loop.time()
            return *(await table), loop.time() - start

        if args.fast:
            from hardware.virtual.simtime import run_simulated

            live, shadow, driver, seconds = run_simulated(timed())
        else:
            live, shadow, driver, seconds = asyncio.run(timed())
    except (DriverStuck, IllegalAction) as exc:
        print(file=sys.stderr)
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        said = [
            say_n("{n} action", "{n} actions", len(driver.played)),
            say_n("{n} alert", "{n} alerts", len(live.sensing.alerts.raised)),
            say_n("{n} button press repeated", "{n} button presses repeated", driver.represses),
            phase_word(str(live.engine.phase)),
            say("{seconds:.0f} s of simulated table time", seconds=seconds)
            if args.fast
            else say("{seconds:.0f} s of table time", seconds=seconds),
        ]
        print("\r" + "; ".join(said) + "   ", file=sys.stderr)
    if args.json:
        json.dump(replay_document(live.engine), sys.stdout, indent=1)
        print()
    return 0


def _serve(args, log) -> int:
    """A table played by people: sense, judge, store, print what happens, until Ctrl-C."""
    from table_controller.deck import Deck, DeckError, virtual_deck
    from table_controller.live.table import LiveTable

    if args.virtual:
        deck = virtual_deck()
    else:
        if not args.deck:
            return _fail(say("--deck FILE: the deck registered for this table (chicago-table deck register)"))
        try:
            deck = Deck.load(args.deck)
        except DeckError as exc:
            return _fail(deck_error_words(exc))
        report = deck.check()
        if not report.ok:
            problems = "; ".join(report.lines(say, say_n))
            return _fail(say("the deck does not add up: {problems}", problems=problems))

    async def run() -> None:
        from firmware_bridge import SeatControllerClient

        table = None
        port = args.port
        if args.virtual:
            from hardware.virtual import VirtualTable
            from table_controller.sim.virtual import noise_model

            table = VirtualTable(noise=noise_model(args.noise), seed=args.seed)
            port = table.port
            print(say("the virtual table on {port}", port=port), file=sys.stderr)
        try:
            async with SeatControllerClient(port) as sc:
                live = LiveTable(log, deck, sensors=sc, leds=sc.set_led, clock_limits=args.clock_limits)
                updates = live.subscribe(maxsize=1)
                live_task = asyncio.create_task(live.run())
                seen = 0
                print(say("Sensing; enter actions on the dashboard. Ctrl-C stops."), file=sys.stderr, flush=True)
                while not live_task.done():
                    await updates.get()
                    for src, a in live.accepted[seen:]:
                        print(f"{src}: {json.dumps(a.to_dict())}", flush=True)
                    seen = len(live.accepted)
                    for alert in live.sensing.alerts.open:
                        print(
                            say(
                                "ALERT #{id} {kind}: {what}", id=alert.id, kind=alert_word(alert.kind), what=alert.text
                            ),
                            file=sys.stderr,
                            flush=True,
                        )
        finally:
            if table is not None:
                table.close()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        return _fail(say("cannot open {port}: {error}", port=args.port, error=exc))
    return 0
