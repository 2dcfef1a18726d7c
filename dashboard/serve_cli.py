"""``chicago-table serve``: the dashboard of one table on this machine.

    $ chicago-table serve --data table1/ --port 8080 --broadcast-delay 120
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import DashboardError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("table-data"),
                   help="the table's data folder (action log, broadcast queue, audit trail, tokens); "
                        "created if missing (default: ./table-data)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                   "0.0.0.0 to serve the tablets on the local network)")
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument("--name", default="Table 1", help="the table's name on every view")
    p.add_argument("--broadcast-delay", type=float, default=None, metavar="SECONDS",
                   help="delay of the broadcast stream; kept in the data folder, so a restart keeps it "
                        "(default: the stored value, 60 s the first time)")
    add_event_arguments(p)


def add_event_arguments(p: argparse.ArgumentParser) -> None:
    """The options that join a table to the other tables of its event (the TL's hall)."""
    p.add_argument("--tokens", type=Path, default=None, metavar="FILE",
                   help="the event's role tokens, the same file on every table of the event "
                        "(default: tokens.json in the data folder; created if missing)")
    p.add_argument("--peer", action="append", default=[], metavar="URL",
                   help="another table's dashboard (http://HOST:PORT) shown on the TL's hall page "
                        "/hall; repeat for every table; the tables must share --tokens")


def port_problem(host: str, port: int) -> str | None:
    """Why the dashboard cannot listen there, or None (checked before printing any URL)."""
    import socket
    try:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        return f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port"
    return None


def print_urls(base: str, tokens, out=sys.stdout) -> None:
    from .table_files import view_urls
    for view, url in view_urls(base, tokens):
        print(f"  {view:<10} {url}", file=out)
    out.flush()


def main(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app
    from .hall import peer_bases
    from .table_files import open_table
    problem = port_problem(args.host, args.port)
    if problem:
        print(f"chicago-table serve: {problem}", file=sys.stderr)
        return 2
    try:
        peers = peer_bases(args.peer)
        hub, tokens = open_table(args.data, args.name, args.broadcast_delay, tokens_file=args.tokens)
    except DashboardError as exc:
        print(f"chicago-table serve: {exc}", file=sys.stderr)
        return 2
    base = f"http://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}"
    print(f"{hub.name}: {hub.seq} events, broadcast delay {hub.delay.delay:g} s. Views:")
    print_urls(base, tokens)
    if peers:
        print(f"  hall       {base}/hall?token={tokens.token('tl')} ({len(peers) + 1} tables)")
    uvicorn.run(create_app(hub, tokens, peers), host=args.host, port=args.port, log_level="warning")
    return 0
