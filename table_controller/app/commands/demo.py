"""``chicago-table demo``: bots play a table on the virtual table, the live loop senses it,
and the dashboard shows it on localhost.

    $ chicago-table demo            # then open the printed URLs

The bots' moves become cards on the virtual table's pads (the real firmware logic over a
pseudo-terminal, read by the serial bridge); the live loop (issue 5) senses each action,
judges and stores it; the dashboard streams each role its view.  This is ``chicago-table
run --config`` (``table_controller.app.service``) with a generated configuration
(``table.toml`` in the data folder: ``virtual = true``), the bots beside the table; bots
that cannot go on report the stuck-table alert (who the table waits for) to the TL.  ``--direct`` skips the
hardware: the bots' actions go into the live loop by manual entry, much faster.

``--fast`` plays the virtual table in simulated time (issue 15, hardware/README.md
"Simulated time"): the firmware runs on the loop's timers, the line is in memory, and the
table's one clock jumps to the next timer whenever everything waits, so the bots play a
whole table as fast as the CPU allows, the dashboard served (and streaming) all along.
When the bots are done the clock follows the wall clock again and the dashboard stays up
until Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path

from dashboard.errors import DashboardError

from ..words import add_lang, dashboard_words, page_word, say, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..argtypes import delay_seconds, non_negative, port_number

    p.add_argument("--port", type=port_number, default=8080, help=say("port (default 8080)"))
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=say(
            "address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the tablets and "
            "phones on the local network too)"
        ),
    )
    p.add_argument(
        "--pace",
        type=non_negative,
        default=0.5,
        metavar="SECONDS",
        help=say("pause between the bots' actions (default 0.5)"),
    )
    p.add_argument("--seed", type=int, default=None, help=say("seed of the bots' shuffles and choices"))
    p.add_argument(
        "--broadcast-delay",
        type=delay_seconds,  # stop 72: -5 was refused only after the table's folder was made
        default=None,
        metavar="SECONDS",
        help=say("delay of the broadcast overlay (default: the stored one; 10 s for a new demo)"),
    )
    p.add_argument(
        "--data",
        type=Path,
        default=None,
        help=say(
            "keep the table's files here (default: a new temporary folder); "
            "run again with the same folder and --direct to continue the table"
        ),
    )
    p.add_argument(
        "--direct",
        action="store_true",
        help=say("no virtual hardware: the bots enter their actions by hand (fast; tests use it)"),
    )
    p.add_argument(
        "--manual-chicago",
        action="store_true",
        help=say("with --direct: the bots leave the Chicago question to the Revisor's tablet"),
    )
    p.add_argument(
        "--fast",
        action="store_true",
        help=say(
            "the virtual table in simulated time: the bots play the whole table as fast as the "
            "computer goes, then the dashboard stays up at an ordinary pace"
        ),
    )
    p.add_argument("--name", default="Demobord", help=say("the table's name on every view (default: Demobord)"))
    from ..web import add_branding_arguments, add_event_arguments, add_shot_clocks_argument, add_web_arguments

    add_shot_clocks_argument(p)
    add_event_arguments(p)
    add_branding_arguments(p)
    add_web_arguments(p)
    add_lang(p)


def _dealer_resumes(hub) -> None:
    """A restarted table waits paused for its dealer (issue 6); the demo's dealer is the
    bots' driver, who resumes at once (a TL's pause later is waited out)."""
    if hub.paused:
        hub.set_paused(False, "dealer", "the demo resumes after a restart")


async def drive_direct(hub, seed: int | None, pace: float, manual_chicago: bool = False) -> None:
    """Random legal actions entered through the live loop, waiting while the TL pauses."""
    from table_controller.rules.engine import IllegalAction
    from table_controller.rules.phases import Phase
    from table_controller.sim.bots import RandomBot

    bot = RandomBot(seed)
    _dealer_resumes(hub)
    while True:
        await asyncio.sleep(pace)
        if hub.paused or (manual_chicago and hub.engine.phase is Phase.CHICAGO):
            continue
        action = bot.next_action(hub.engine)
        if action is None:
            return
        with contextlib.suppress(IllegalAction, DashboardError):
            await hub.submit_local(action)  # refused: someone entered an action meanwhile


async def drive_virtual(hub, driver, seed: int | None, pace: float) -> None:
    """The bots' moves as cards on the virtual table's pads; the live loop senses them."""
    from table_controller.sim.bots import RandomBot

    bot = RandomBot(seed)
    _dealer_resumes(hub)
    while True:
        await asyncio.sleep(pace)
        if hub.paused:
            continue
        action = bot.next_action(driver.shadow)
        if action is None:
            return
        await driver.step(action)


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _demo(args)


def _fail(text: str) -> int:
    print(f"chicago-table demo: {text}", file=sys.stderr)
    return 2


def _demo(args: argparse.Namespace) -> int:
    from dashboard.hall import peer_bases

    from ..table_files import check_data_folder, folder_problem, folder_writable
    from ..web import port_problem, private_files, web_settings

    problem = port_problem(args.host, args.port)
    if problem:
        return _fail(problem)
    if args.manual_chicago and not args.direct:
        return _fail(say("--manual-chicago needs --direct"))
    if args.fast and args.direct:
        return _fail(say("--fast runs the virtual table in simulated time; --direct has none"))
    data = args.data or Path(tempfile.mkdtemp(prefix="chicago-demo-"))
    try:
        check_data_folder(data)
        folder_writable(data)  # made only once the table starts (nothing made on a refusal)
    except DashboardError as exc:
        return _fail(dashboard_words(exc))
    except OSError as exc:  # a folder the user may not make or write (stop 72: a traceback)
        return _fail(folder_problem(data, exc))
    if not args.direct and (data / "table.sqlite").exists():
        return _fail(
            say(
                "{data} holds a table already; the virtual table starts empty, so continue it with --direct "
                "or give a new --data folder",
                data=data,
            )
        )
    private_files()
    try:
        args.peer = peer_bases(args.peer)
        args.settings = web_settings(args, args.peer)
        if args.fast:
            from hardware.virtual.simtime import run_simulated

            run_simulated(_run(args, data))
        else:
            asyncio.run(_run(args, data))
    except DashboardError as exc:
        return _fail(dashboard_words(exc))
    return 0


async def _run(args: argparse.Namespace, data: Path) -> None:
    if args.direct:
        from ..table_files import open_table
        from ..web import shot_clock_limits

        hub, tokens = open_table(
            data,
            args.name,
            args.broadcast_delay,
            default_delay=10.0,
            tokens_file=args.tokens,
            clock_limits=shot_clock_limits(args),
        )
        await _serve(args, data, hub, tokens, drive_direct(hub, args.seed, args.pace, args.manual_chicago))
        return
    from hardware.firmware.controller import Config
    from hardware.virtual import VirtualTable
    from table_controller.app.service import serve_table
    from table_controller.sim.virtual import noise_model

    cfg = demo_config(args, data)
    fast = getattr(args, "fast", False)
    clock = None
    if fast:  # one clock for the whole table: the loop's, simulated (run_simulated)
        from hardware.virtual.simtime import LoopClock

        clock = LoopClock()
    # on the wall clock the firmware's own logic at a quicker pace (as the live loop's own
    # bot tests run it); in simulated time its real pace, as `run --virtual --bots --fast`:
    # a scan every 2 ms there would cost ten times the CPU for nothing the table needs
    with VirtualTable(
        noise=noise_model("rough"),
        seed=args.seed or 0,
        config=Config() if fast else Config(confirm_reads=2, gone_ms=60, scan_ms=2),
        simulated=fast,
        clock=clock,
    ) as table:
        pace = (
            say("{pace:g} s apart in simulated time, as fast as the computer goes", pace=args.pace)
            if fast
            else say("{pace:g} s apart", pace=args.pace)
        )
        print(
            say(
                "{table} (data in {data}, configuration {config}): bots play on the virtual table on {port}, "
                "sensed by the live loop, {pace}.  Ctrl-C stops the demo.",
                table=args.name,
                data=data,
                config=data / "table.toml",
                port=table.port,
                pace=pace,
            )
        )
        await serve_table(
            cfg,
            extra=lambda running: _virtual_bots(running, args),
            show_tokens=True,
            virtual_table=table,
            default_delay=10.0,
            web=args,
            clock=clock,
        )
    # Ctrl-C: where the table stays, and how to see it again
    print(
        say(
            "The demo stopped; its table stays in {data} ('chicago-table run --config {config}' serves it again).",
            data=data,
            config=data / "table.toml",
        ),
        flush=True,
    )


def demo_config(args: argparse.Namespace, data: Path):
    """The demo's table as a configuration (written to ``data/table.toml``: ``chicago-table
    run --config`` on it serves the same table without the bots)."""
    from table_controller.clocks import shot_clocks_text

    from ..config import (
        DashboardSection,
        EventSection,
        TableConfig,
        TableSection,
        dump_config,
    )
    from ..web import shot_clock_limits

    cfg = TableConfig(
        table=TableSection(
            name=args.name,
            data=data.resolve(),
            virtual=True,
            stuck_after=30.0,
            shot_clocks=shot_clocks_text(shot_clock_limits(args)),
        ),
        dashboard=DashboardSection(
            host=args.host,
            port=args.port,
            tls_cert=args.certfile,
            tls_key=args.keyfile,
            broadcast_delay=args.broadcast_delay,
            event_tokens=args.tokens,
            peers=tuple(args.peer),
        ),
        event=EventSection(  # the event's names as given to the demo (the audience and protocol)
            name=getattr(args, "event_name", None) or "",
            heat=getattr(args, "heat", None) or "",
            round=getattr(args, "round", None) or "",
            logo=_absolute(getattr(args, "logo", None)),
            players=_absolute(getattr(args, "players_csv", None)),
        ),
    )
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    (data / "table.toml").write_text(dump_config(cfg), encoding="utf-8")
    return cfg


def _absolute(path):
    return Path(path).resolve() if path else None


async def _virtual_bots(running, args: argparse.Namespace) -> None:
    """The bots on the running table; if they cannot go on, the TL gets the stuck-table
    alert at once (who is waited for, and on what) and the demo says so."""
    from table_controller.sim.driver import DriverStuck, TableDriver, VirtualHands

    sc = running.client
    for _ in range(200):  # the HELLO handshake
        if sc.online:
            break
        await asyncio.sleep(0.02)
    driver = TableDriver(
        running.hub.live,
        VirtualHands(running.virtual, lambda pad: sc.pads.get(pad, frozenset()), changed=sc.pads_changed),
        sync_timeout=getattr(args, "sync_timeout", 30.0),
    )
    try:
        await drive_virtual(running.hub, driver, args.seed, args.pace)
    except DriverStuck as exc:
        # the reason names the action the bots wanted, cards and all: the demo's console
        # only; the alert, which the table's views show, says who is waited for
        alert = await running.watch.report("datorspelarna har stannat", "the bots stopped")
        said = say("The bots stopped: {reason}", reason=exc)
        print(said + ("\n" + say("ALERT: {what}", what=alert.text) if alert else ""), flush=True)
        return
    finally:
        _back_to_the_wall_clock()
    print(page_word("The table is over."), flush=True)


def _back_to_the_wall_clock() -> None:
    """On a simulated loop (``--fast``) the bots are done: the dashboard stays up at an
    ordinary pace (its timers on the wall clock, no more jumps), not racing on for ever."""
    follow = getattr(asyncio.get_running_loop(), "follow_wall_clock", None)
    if follow is not None:
        follow()


async def _serve(args, data: Path, hub, tokens, bots, hardware: str = "") -> None:
    import uvicorn

    from dashboard.app import create_app

    from ..web import print_hall, print_urls, shown_host, uvicorn_config, warn_plain_http

    how = (
        say("bots play on {hardware}, sensed by the live loop", hardware=hardware)
        if hardware
        else say("bots enter actions directly")
    )
    print(
        say(
            "{table} (data in {data}): {how}, {pace:g} s apart; broadcast delay {delay:g} s.  Open a view:",
            table=args.name,
            data=data,
            how=how,
            pace=args.pace,
            delay=hub.delay.delay,
        )
    )
    base = f"{'https' if args.certfile else 'http'}://{shown_host(args.host)}:{args.port}"
    print_urls(base, tokens, out=sys.stdout)  # a demo shows its tokens: nothing of value behind them
    if args.peer:
        print_hall(base, tokens.token("tl"), len(args.peer) + 1)
    print(say("Ctrl-C stops the demo."), flush=True)
    warn_plain_http(args.host, args.certfile is not None)
    server = uvicorn.Server(uvicorn_config(create_app(hub, tokens, settings=args.settings), args, args.host, args.port))
    task = asyncio.create_task(bots)

    def done(t: asyncio.Task) -> None:
        if t.cancelled():
            return
        exc = t.exception()
        # the dashboard stays up either way: the table can be looked at and finished by hand
        print(say("The bots stopped: {reason}", reason=exc) if exc else page_word("The table is over."), flush=True)

    task.add_done_callback(done)
    try:
        await server.serve()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
