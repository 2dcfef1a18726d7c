"""``chicago-table run``: a live table.

    chicago-table run --port /dev/serial/by-id/usb-chicago_seat-controller --deck deck.json --db t7.sqlite
    chicago-table run --virtual --bots --until-done --db table.sqlite --json --seed 7
    chicago-table run --virtual --bots --until-done --fast --json --seed 7     # simulated time

With ``--virtual --bots`` bot players play a whole three-game table through the virtual
table (the real firmware logic on simulated readers, over a pseudo-terminal) and the
serial bridge; sensing recovers every action from what the pads report, and the
result is printed as the same JSON document as ``chicago-table replay``.  ``--fast``
runs the virtual table in simulated time (hardware/README.md, "Simulated time"): as fast
as the CPU allows and the same on every run for a given ``--seed``.  On a ``--db`` that
already holds a table the bots resume it: the virtual table is rebuilt from the log
and the table is played on to its end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", metavar="PORT", help="the seat controller's serial port (path or pyserial URL)")
    where.add_argument("--virtual", action="store_true", help="use the virtual table instead of hardware")
    p.add_argument("--deck", metavar="FILE", help="the registered deck (chicago-table deck register); "
                   "the virtual table has its own")
    p.add_argument("--db", metavar="FILE", help="the table's event log (SQLite); default: kept in memory only")
    p.add_argument("--bots", action="store_true", help="(virtual) bot players play the table, moving cards "
                   "on the virtual table")
    p.add_argument("--until-done", action="store_true", help="(with --bots) play until the table is over, then stop")
    p.add_argument("--max-actions", type=int, default=100_000, metavar="N",
                   help="(with --bots) stop after N actions (default: no practical limit)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bots and of the virtual table's noise")
    p.add_argument("--noise", choices=("default", "mild", "clean", "rough"), default="default",
                   help="(virtual) the readers' noise model: default is mild (a card now and then missed "
                   "in a scan, the odd empty scan, stacks read 3 cards at a time); clean; or rough "
                   "(more flicker, 2-card stacks, lost and corrupt bytes)")
    p.add_argument("--reader", choices=("mfrc522", "pn5180"), default="mfrc522",
                   help="(virtual) the reader under every pad: mfrc522 reads a stack a few cards per "
                   "scan, pn5180 (ISO 15693) reads it whole (hardware/README.md)")
    p.add_argument("--ruleset", default="sm2025", help="(with --bots) ruleset: sm2025, sm2019, shootout, classic")
    p.add_argument("--players", default="Anna,Bo,Cilla,Dan", help="(with --bots) names, comma separated")
    p.add_argument("--fast", action="store_true", help="(with --virtual --bots) simulated time: the table's "
                   "minutes in seconds, byte-identical output for a given --seed")
    p.add_argument("--json", action="store_true", help="print the replay JSON document at the end")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _fail(msg: str) -> int:
    print(f"chicago-table run: {msg}", file=sys.stderr)
    return 2


def main(args: argparse.Namespace) -> int:
    from table_controller.live.log import MemoryLog, RecorderLog
    from table_controller.rules.replay import replay_document

    if args.bots and not args.virtual:
        return _fail("--bots plays on the virtual table only: add --virtual")
    if args.fast and not (args.virtual and args.bots):
        return _fail("--fast runs bots on the virtual table in simulated time: add --virtual --bots")
    if args.until_done and not args.bots:
        return _fail("--until-done needs --bots (a real table ends when the TL closes it)")
    players = tuple(x.strip() for x in args.players.split(",") if x.strip())
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        return _fail("--players: 2 to 4 different names, comma separated")
    log: MemoryLog | RecorderLog = MemoryLog()
    if args.db:
        from table_controller.store import StoreError
        try:
            log, _ = RecorderLog.open(args.db)
        except (StoreError, OSError) as exc:
            return _fail(f"cannot open the log {args.db}: {exc}")
        if args.bots and log.engine.state.rules is not None and not args.quiet:
            # issue 15: the bots play on from the log, on a virtual table rebuilt from it
            print(f"{args.db}: resuming the table in it ({log.engine.phase})", file=sys.stderr)
    try:
        if args.virtual and args.bots:
            return _bots(args, log, players, replay_document)
        return _serve(args, log)
    finally:
        log.close()


def _bots(args, log, players, replay_document) -> int:
    from table_controller.rules.engine import IllegalAction
    from table_controller.sim.driver import DriverStuck
    from table_controller.sim.virtual import bots_on_virtual_table

    def progress(n: int, shadow) -> None:
        if args.quiet or n % 100:
            return
        cur = shadow.state
        g = cur.game
        print(f"\r{n} actions, game {g.number if g else 0}, deal {len(g.deals) if g else 0}, {shadow.phase}   ",
              end="", file=sys.stderr, flush=True)

    try:
        table = bots_on_virtual_table(args.seed, log, args.noise, players, args.ruleset, progress=progress,
                                      max_actions=args.max_actions if not args.until_done else 100_000,
                                      fast=args.fast, reader=args.reader)
        if args.fast:
            from hardware.virtual.simtime import run_simulated
            live, shadow, driver = run_simulated(table)
        else:
            live, shadow, driver = asyncio.run(table)
    except (DriverStuck, IllegalAction) as exc:
        print(file=sys.stderr)
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        print(f"\r{len(driver.played)} actions; {len(live.sensing.alerts.raised)} alert(s); "
              f"{driver.represses} button press(es) repeated; phase {live.engine.phase}   ", file=sys.stderr)
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
            return _fail("--deck FILE: the deck registered for this table (chicago-table deck register)")
        try:
            deck = Deck.load(args.deck)
        except DeckError as exc:
            return _fail(str(exc))
        report = deck.check()
        if not report.ok:
            return _fail("the deck does not add up: " + "; ".join(report.lines()))

    async def run() -> None:
        from firmware_bridge import SeatControllerClient
        table = None
        port = args.port
        if args.virtual:
            from hardware.virtual import VirtualTable
            from table_controller.sim.virtual import noise_model
            table = VirtualTable(noise=noise_model(args.noise), seed=args.seed)
            port = table.port
            print(f"virtual table on {port}", file=sys.stderr)
        try:
            async with SeatControllerClient(port) as sc:
                live = LiveTable(log, deck, sensors=sc, leds=sc.set_led)
                updates = live.subscribe(maxsize=1)
                live_task = asyncio.create_task(live.run())
                seen = 0
                print("Sensing; enter actions on the dashboard. Ctrl-C stops.", file=sys.stderr, flush=True)
                while not live_task.done():
                    await updates.get()
                    for src, a in live.accepted[seen:]:
                        print(f"{src}: {json.dumps(a.to_dict())}", flush=True)
                    seen = len(live.accepted)
                    for alert in live.sensing.alerts.open:
                        print(f"ALERT #{alert.id} {alert.kind}: {alert.text}", file=sys.stderr, flush=True)
        finally:
            if table is not None:
                table.close()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        return _fail(f"cannot open {args.port}: {exc}")
    return 0
