"""``chicago-table demo``: bots play a table and the dashboard shows it on localhost.

    $ chicago-table demo            # then open the printed URLs

Until the live loop (issue 5) drives the virtual table, the bots' actions go straight
through the engine at a watchable pace; the dashboard cannot tell the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from .errors import DashboardError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=8080, help="port on localhost (default 8080)")
    p.add_argument("--pace", type=float, default=1.0, metavar="SECONDS",
                   help="seconds between the bots' actions (default 1.0)")
    p.add_argument("--seed", type=int, default=None, help="seed of the bots' shuffles and choices")
    p.add_argument("--broadcast-delay", type=float, default=None, metavar="SECONDS",
                   help="delay of the broadcast overlay (default: the stored one; 10 s for a new demo)")
    p.add_argument("--data", type=Path, default=None,
                   help="keep the table's files here (default: a new temporary folder); "
                        "run again with the same folder to continue the table")
    p.add_argument("--manual-chicago", action="store_true",
                   help="the bots leave the Chicago question to the Revisor's tablet")


async def drive(hub, seed: int | None, pace: float, manual_chicago: bool = False) -> None:
    """Play the table with random legal actions, waiting while the TL pauses it."""
    from table_controller.bots import RandomBot
    from table_controller.engine import IllegalAction

    bot = RandomBot(seed)
    while True:
        await asyncio.sleep(pace)
        if hub.paused or (manual_chicago and hub.engine.phase == "chicago"):
            continue
        action = bot.next_action(hub.engine)
        if action is None:
            return
        try:
            hub.apply_local(action)
        except (IllegalAction, DashboardError):
            continue  # someone entered an action by hand meanwhile: ask the bot again


def main(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app
    from .serve_cli import port_problem, print_urls
    from .table_files import open_table

    problem = port_problem("127.0.0.1", args.port)
    if problem:
        print(f"chicago-table demo: {problem}", file=sys.stderr)
        return 2
    data = args.data or Path(tempfile.mkdtemp(prefix="chicago-demo-"))
    try:
        hub, tokens = open_table(data, "Demo table", args.broadcast_delay, default_delay=10.0)
    except DashboardError as exc:
        print(f"chicago-table demo: {exc}", file=sys.stderr)
        return 2
    app = create_app(hub, tokens)
    base = f"http://localhost:{args.port}"
    print(f"Demo table (data in {data}): bots play one action every {args.pace:g} s; "
          f"broadcast delay {hub.delay.delay:g} s.  Open a view:")
    print_urls(base, tokens)
    print("Ctrl-C stops the demo.", flush=True)

    async def run() -> None:
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning"))
        bots = asyncio.create_task(drive(hub, args.seed, args.pace, args.manual_chicago))
        bots.add_done_callback(lambda t: t.cancelled() or t.exception() or print("The table is over.", flush=True))
        try:
            await server.serve()
        finally:
            bots.cancel()

    asyncio.run(run())
    return 0
