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
from typing import Any

from dashboard.errors import DashboardError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data",
        type=Path,
        default=Path("table-data"),
        help="the table's data folder (action log, broadcast queue, audit trail, tokens); "
        "created if missing (default: ./table-data)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 to serve the tablets on the local network)",
    )
    p.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    p.add_argument("--name", default="Bord 1", help="the table's name on every view (default: Bord 1)")
    p.add_argument(
        "--broadcast-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="delay of the broadcast stream; kept in the data folder, so a restart keeps it "
        "(default: the stored value, 60 s the first time)",
    )
    p.add_argument(
        "--camera-only",
        action="store_true",
        help="a table without RFID readers: hidden hands are declared by hand, so the Revisor "
        "may enter cards too (ARCHITECTURE.md §1); by default cards by hand are the TL's",
    )
    p.add_argument(
        "--show-tokens",
        action="store_true",
        help="print the views' URLs with their tokens (default: without; they are in tokens.json)",
    )
    add_event_arguments(p)
    add_branding_arguments(p)
    add_web_arguments(p)


def add_branding_arguments(p: Any, config_keys: bool = False) -> None:
    """The event's name, heat and logo on the audience's views and the protocol; its round and
    the players' ids and clubs on the protocol (issue 19)."""
    key = (lambda k: f"[event] {k}: ") if config_keys else (lambda k: "")
    p.add_argument(
        "--event-name",
        default=None,
        metavar="TEXT",
        help=key("name") + "the event's name on the broadcast, the hall screen and the protocol, "
        "e.g. 'SM i Chicago 2026'",
    )
    p.add_argument("--heat", default=None, metavar="TEXT", help=key("heat") + "the heat, for the protocol's header")
    p.add_argument(
        "--round",
        default=None,
        metavar="TEXT",
        help=key("round") + "the event's round, e.g. 'Kvartsfinal', beside the heat in the protocol's header",
    )
    p.add_argument(
        "--players-csv",
        default=None,
        metavar="FILE",
        help=key("players") + "CSV of name,club[,id] per line (the hub's 'register --csv' file): "
        "the players' clubs and ids in the protocol's header",
    )
    p.add_argument(
        "--logo",
        default=None,
        metavar="FILE",
        help=key("logo") + "the event's logo (PNG or JPEG, at most 512 kB) on the audience's views and the protocol",
    )


def add_web_arguments(p: argparse.ArgumentParser) -> None:
    """Transport and limits of the web side (README "Security")."""
    p.add_argument(
        "--certfile",
        type=Path,
        default=None,
        metavar="PEM",
        help="serve HTTPS/WSS with this certificate (with --keyfile); use it on a LAN",
    )
    p.add_argument("--keyfile", type=Path, default=None, metavar="PEM", help="the certificate's private key")
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may open the streams (e.g. http://obs-pc.local:8000); "
        "by default only this server's own pages and the --peer tables",
    )
    p.add_argument(
        "--max-points",
        type=int,
        default=200,
        metavar="N",
        help="largest |points| of a TL adjust or penalty (default 200)",
    )
    p.add_argument(
        "--post-rate",
        type=float,
        default=20.0,
        metavar="PER_SECOND",
        help="POSTs a second per role token, bursts of 3x as many; beyond that a request "
        "waits for its slot, and only a flood that would wait over 5 s gets 429 (default 20)",
    )


def web_settings(args: argparse.Namespace, peers: tuple[str, ...]):
    """The WebSettings of the options above; DashboardError for a bad value."""
    from dashboard.branding import load_branding
    from dashboard.deps import WebSettings
    from dashboard.security import allowed_origins

    if (args.certfile is None) != (args.keyfile is None):
        raise DashboardError("--certfile and --keyfile go together")
    for f in (args.certfile, args.keyfile):
        if f is not None and not Path(f).is_file():
            raise DashboardError(f"no such file: {f}")
    if not 0 <= args.max_points <= 1_000_000:
        raise DashboardError("--max-points must lie between 0 and 1000000")
    if not 0 < args.post_rate <= 10_000:
        raise DashboardError("--post-rate must be above 0 (and at most 10000)")
    return WebSettings(
        peers=peers,
        allow_origins=allowed_origins(args.allow_origin),
        max_points=args.max_points,
        post_rate=args.post_rate,
        post_burst=max(1, int(args.post_rate * 3)),
        branding=load_branding(
            getattr(args, "event_name", None) or "",
            getattr(args, "heat", None) or "",
            getattr(args, "logo", None),
            round=getattr(args, "round", None) or "",
            players=getattr(args, "players_csv", None),
        ),
    )


def uvicorn_config(app, args: argparse.Namespace, host: str, port: int):
    import uvicorn

    # the clients only ping over the stream: a large message is no client of ours
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=4096,
        server_header=False,
        ssl_certfile=str(args.certfile) if args.certfile else None,
        ssl_keyfile=str(args.keyfile) if args.certfile else None,
    )


def private_files() -> None:
    """Everything the server creates is its user's alone: the log holds every dealt hand."""
    import os

    os.umask(0o077)


def add_event_arguments(p: argparse.ArgumentParser) -> None:
    """The options that join a table to the other tables of its event (the TL's hall)."""
    p.add_argument(
        "--tokens",
        type=Path,
        default=None,
        metavar="FILE",
        help="the event's role tokens, the same file on every table of the event "
        "(default: tokens.json in the data folder; created if missing)",
    )
    p.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="URL",
        help="another table's dashboard (http://HOST:PORT) shown on the TL's hall page "
        "/hall; repeat for every table; the tables must share --tokens",
    )


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


def print_urls(base: str, tokens, out=sys.stdout, show_tokens: bool = True, where: str = "") -> None:
    from dashboard.tokens import view_urls

    for view, url in view_urls(base, tokens):
        print(f"  {view:<10} {url if show_tokens else url.split('?')[0] + '?token=...'}", file=out)
    if not show_tokens:
        print(f"  (tokens in {where or 'tokens.json'}; --show-tokens prints them)", file=out)
    out.flush()


def main(args: argparse.Namespace) -> int:
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
            args.data, args.name, args.broadcast_delay, tokens_file=args.tokens, rfid=not args.camera_only
        )
    except DashboardError as exc:
        print(f"chicago-table serve: {exc}", file=sys.stderr)
        return 2
    scheme = "https" if args.certfile else "http"
    base = f"{scheme}://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}"
    print(f"{hub.name}: {hub.seq} events, broadcast delay {hub.delay.delay:g} s. Views:")
    print_urls(base, tokens, show_tokens=args.show_tokens, where=str(args.tokens or Path(args.data) / "tokens.json"))
    if peers:
        tl = tokens.token("tl") if args.show_tokens else "..."
        print(f"  hall       {base}/hall?token={tl} ({len(peers) + 1} tables)")
    uvicorn.Server(uvicorn_config(create_app(hub, tokens, settings=settings), args, args.host, args.port)).run()
    return 0
