"""``chicago-table serve``: the dashboard of one table on this machine.

    $ chicago-table serve --data table1/ --port 8080 --broadcast-delay 120
    $ chicago-table serve --data table1/ --host 0.0.0.0 --certfile table1.crt --keyfile table1.key

The tokens are not printed unless ``--show-tokens`` (they are in the data folder's
``tokens.json``, mode 600); every file the server writes is its user's alone (umask 077).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dashboard.errors import DashboardError

from ..argtypes import delay_seconds, port_number
from ..web import (
    add_branding_arguments,
    add_event_arguments,
    add_shot_clocks_argument,
    add_web_arguments,
    port_problem,
    print_hall,
    print_urls,
    private_files,
    shot_clock_limits,
    uvicorn_config,
    warn_plain_http,
    web_settings,
)
from ..words import add_lang, dashboard_words, say, say_n, speaking


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data",
        type=Path,
        default=Path("table-data"),
        help=say(
            "the table's data folder (action log, broadcast queue, audit trail, tokens); "
            "created if missing (default: ./table-data)"
        ),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help=say("address to listen on (default 127.0.0.1; 0.0.0.0 to serve the tablets on the local network)"),
    )
    p.add_argument("--port", type=port_number, default=8080, help=say("port (default 8080)"))
    p.add_argument("--name", default="Bord 1", help=say("the table's name on every view (default: Bord 1)"))
    p.add_argument(
        "--broadcast-delay",
        type=delay_seconds,  # stop 72: -5 was refused only after the table's folder was made
        default=None,
        metavar="SECONDS",
        help=say(
            "delay of the broadcast stream; kept in the data folder, so a restart keeps it "
            "(default: the stored value, 60 s the first time)"
        ),
    )
    p.add_argument(
        "--camera-only",
        action="store_true",
        help=say(
            "a table without RFID readers: each player enters their own hand, exchanges and a card "
            "the camera missed on their phone (a seat's link, /seat); the camera reads the open card and "
            "the plays (ARCHITECTURE.md §1); the Revisor names no card; by default cards by hand are the TL's",
        ),
    )
    p.add_argument(
        "--show-tokens",
        action="store_true",
        help=say("print the views' URLs with their tokens (default: without; they are in tokens.json)"),
    )
    add_shot_clocks_argument(p)
    add_event_arguments(p)
    add_branding_arguments(p)
    add_web_arguments(p)
    add_lang(p)


def main(args: argparse.Namespace) -> int:
    with speaking(args.lang):
        return _serve(args)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from dashboard.app import create_app
    from dashboard.hall import peer_bases

    from ..table_files import open_table

    problem = port_problem(args.host, args.port)
    if problem:
        print(f"chicago-table serve: {problem}", file=sys.stderr)
        return 2
    private_files()
    try:
        peers = peer_bases(args.peer)
        settings = web_settings(args, peers)
        hub, tokens = open_table(
            args.data,
            args.name,
            args.broadcast_delay,
            tokens_file=args.tokens,
            rfid=not args.camera_only,
            clock_limits=shot_clock_limits(args),
        )
    except DashboardError as exc:
        print(f"chicago-table serve: {dashboard_words(exc)}", file=sys.stderr)
        return 2
    warn_plain_http(args.host, args.certfile is not None)
    scheme = "https" if args.certfile else "http"
    base = f"{scheme}://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}"
    print(
        say(
            "{table}: {events}; broadcast delay {delay:g} s. Views:",
            table=hub.name,
            events=say_n("{n} event", "{n} events", hub.seq),
            delay=hub.delay.delay,
        )
    )
    print_urls(
        base,
        tokens,
        show_tokens=args.show_tokens,
        where=str(args.tokens or Path(args.data) / "tokens.json"),
        seats=hub.hands_by_hand,  # the players' own phones declare the hands
    )
    if peers:
        print_hall(base, tokens.token("tl") if args.show_tokens else "...", len(peers) + 1)
    uvicorn.Server(uvicorn_config(create_app(hub, tokens, settings=settings), args, args.host, args.port)).run()
    return 0
