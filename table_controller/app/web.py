"""The dashboard's side of a command: its options, its settings, its server.

Shared by the commands that serve a table's dashboard (``serve``, ``run``, ``demo``) or
check one (``setup``, ``doctor``): the event's and the web's options, the ``WebSettings``
made of them, the uvicorn server's configuration, the port check before any URL is
printed, the views' URLs, and the umask that keeps every written file its user's alone.
"""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard.errors import DashboardError
from dashboard.limits import SEND_RATE

from .words import clock_error_words, os_error_words, say, say_n


def add_branding_arguments(p: Any, config_keys: bool = False) -> None:
    """The event's name, heat and logo on the audience's views and the protocol; its round and
    the players' ids and clubs on the protocol (issue 19)."""
    key = (lambda k: f"[event] {k}: ") if config_keys else (lambda k: "")
    p.add_argument(
        "--event-name",
        default=None,
        metavar="TEXT",
        help=key("name")
        + say("the event's name on the broadcast, the hall screen and the protocol, e.g. 'SM i Chicago 2026'"),
    )
    p.add_argument(
        "--heat", default=None, metavar="TEXT", help=key("heat") + say("the heat, for the protocol's header")
    )
    p.add_argument(
        "--round",
        default=None,
        metavar="TEXT",
        help=key("round") + say("the event's round, e.g. 'Kvartsfinal', beside the heat in the protocol's header"),
    )
    p.add_argument(
        "--players-csv",
        default=None,
        metavar="FILE",
        help=key("players")
        + say(
            "CSV of name,club[,id] per line (the hub's 'register --csv' file): the players' clubs and ids in the protocol's header"
        ),
    )
    p.add_argument(
        "--logo",
        default=None,
        metavar="FILE",
        help=key("logo")
        + say("the event's logo (PNG or JPEG, at most 512 kB) on the audience's views and the protocol"),
    )


def add_shot_clocks_argument(p: Any, config_key: bool = False) -> None:
    """The event's shot clocks (RULES.md D11: "configurable per event"): the tables' commands,
    and the hub's ``create``."""
    from table_controller.rules.rulesets import DEFAULT_CLOCKS

    defaults = ", ".join(f"{k} {v:g}" for k, v in DEFAULT_CLOCKS.items())
    p.add_argument(
        "--shot-clocks",
        default=None,
        metavar="CLOCK=S,...",
        help=("[table] shot_clocks: " if config_key else "")
        + say(
            "the event's shot clocks in seconds (each event sets its own), e.g. play=30,exchange=45; "
            "a clock not named keeps its default ({defaults})",
            defaults=defaults,
        ),
    )


def shot_clock_limits(args: argparse.Namespace) -> dict[str, float]:
    """The seconds per clock of ``--shot-clocks``; DashboardError for a bad value."""
    from table_controller.clocks import ClockError, parse_shot_clocks

    try:
        return parse_shot_clocks(getattr(args, "shot_clocks", None) or "")
    except ClockError as exc:
        raise DashboardError(say("--shot-clocks: {error}", error=clock_error_words(exc))) from None


def add_web_arguments(p: argparse.ArgumentParser) -> None:
    """Transport and limits of the web side (README "Security")."""
    p.add_argument(
        "--certfile",
        type=Path,
        default=None,
        metavar="PEM",
        help=say("serve HTTPS/WSS with this certificate (with --keyfile); use it on a LAN"),
    )
    p.add_argument("--keyfile", type=Path, default=None, metavar="PEM", help=say("the certificate's private key"))
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=say(
            "another origin whose pages may open the streams (e.g. http://obs-pc.local:8000); "
            "by default only this server's own pages and the --peer tables"
        ),
    )
    p.add_argument(
        "--max-points",
        type=int,
        default=200,
        metavar="N",
        help=say("largest |points| of a TL adjust or penalty (default 200)"),
    )
    p.add_argument(
        "--post-rate",
        type=float,
        default=20.0,
        metavar="PER_SECOND",
        help=say(
            "POSTs a second per role token, bursts of 3x as many; beyond that a request "
            "waits for its slot, and only a flood that would wait over 5 s gets 429 (default 20)"
        ),
    )

    p.add_argument(
        "--send-rate",
        type=float,
        default=SEND_RATE,
        metavar="PER_SECOND",
        help=say(
            "states a second sent to one view at most, always the newest (every message is "
            "the whole state; a bot table or a replay makes hundreds a second); 0: every state "
            "(default 10, as often as a page draws; the overlay always gets every frame)"
        ),
    )


def web_settings(args: argparse.Namespace, peers: tuple[str, ...]):
    """The WebSettings of the options above; DashboardError for a bad value."""
    from dashboard.branding import load_branding
    from dashboard.deps import WebSettings
    from dashboard.security import allowed_origins

    if (args.certfile is None) != (args.keyfile is None):
        raise DashboardError(say("--certfile and --keyfile go together"))
    for f in (args.certfile, args.keyfile):
        if f is not None and not Path(f).is_file():
            raise DashboardError(say("no such file: {path}", path=f))
    if not 0 <= args.max_points <= 1_000_000:
        raise DashboardError(say("--max-points must lie between 0 and 1000000"))
    if not 0 < args.post_rate <= 10_000:
        raise DashboardError(say("--post-rate must be above 0 (and at most 10000)"))
    send_rate = getattr(args, "send_rate", SEND_RATE)
    if not 0 <= send_rate <= 10_000:
        raise DashboardError(say("--send-rate must lie between 0 (every state) and 10000"))
    branding = load_branding(
        getattr(args, "event_name", None) or "",
        getattr(args, "heat", None) or "",
        getattr(args, "logo", None),
        round=getattr(args, "round", None) or "",
        players=getattr(args, "players_csv", None),
    )
    # the certificate is read last (after the files above), so that a wrong file is said
    # plainly here, not by the TLS library once the server starts
    if args.certfile is not None:
        import ssl

        try:
            # a password is never asked on the terminal: a key under one is refused here
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                args.certfile, args.keyfile, password=lambda: b""
            )
        except (ssl.SSLError, OSError):
            raise DashboardError(
                say(
                    "--certfile {cert} and --keyfile {key} are not a certificate and its private key "
                    "in PEM (a key under a password is not served)",
                    cert=args.certfile,
                    key=args.keyfile,
                )
            ) from None
    return WebSettings(
        peers=peers,
        allow_origins=allowed_origins(args.allow_origin),
        max_points=args.max_points,
        post_rate=args.post_rate,
        post_burst=max(1, int(args.post_rate * 3)),
        send_rate=send_rate,
        branding=branding,
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
        # no per-message deflate: a state is a few kB on the venue's LAN (about 20 kB/s a
        # client at a table's pace), and compressing every message for every client once
        # each cost a fifth of the server's CPU (measured on a fast bot table, issue 15)
        ws_per_message_deflate=False,
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
        help=say(
            "the event's role tokens, the same file on every table of the event "
            "(default: tokens.json in the data folder; created if missing)"
        ),
    )
    p.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="URL",
        help=say(
            "another table's dashboard (http://HOST:PORT) shown on the TL's hall page "
            "/hall; repeat for every table; the tables must share --tokens"
        ),
    )


def port_problem(host: str, port: int) -> str | None:
    """Why the dashboard cannot listen there, or None (checked before printing any URL), in
    the words spoken; the system's own reason in brackets as it said it.  What it cannot do
    comes before the first ``;``, what to do after it (``doctor`` and the service keep the
    first part)."""
    import socket

    try:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except socket.gaierror as exc:  # the address, not the port
        return say(
            "cannot listen on {host} ({error}); give this machine's address or name as --host",
            host=host,
            error=exc.strerror,
        )
    except OverflowError:
        return say("cannot listen on port {port}: a port is a number from 1 to 65535", port=port)
    except OSError as exc:
        if exc.errno == errno.EADDRNOTAVAIL:
            return say(
                "cannot listen on {host}:{port} ({error}); {host} is not an address of this machine",
                host=host,
                port=port,
                error=os_error_words(exc),
            )
        return say(
            "cannot listen on {host}:{port} ({error}); choose another --port",
            host=host,
            port=port,
            error=os_error_words(exc),
        )
    return None


# Who each view is for, in the words spoken: the views' names are their addresses' paths
VIEW_WORDS: dict[str, Callable[[], str]] = {
    "tl": lambda: say("the TL's overview"),
    "revisor": lambda: say("the Revisor's tablet"),
    "public": lambda: say("the scoreboard"),
    "broadcast": lambda: say("the broadcast overlay"),
    "dealer": lambda: say("the dealer's screen"),
    "protocol": lambda: say("the protocol"),
    "hall": lambda: say("all tables"),
}


def view_words(view: str) -> str:
    """Who ``view`` is for (``VIEW_WORDS``; a seat's page: that seat's phone)."""
    from table_controller.views import seat_number

    seat = seat_number(view)
    if seat is not None:
        return say("phone at seat {n}", n=seat)
    words = VIEW_WORDS.get(view)
    return words() if words is not None else ""


def shown_host(host: str) -> str:
    """The host a view's address is printed with: "localhost" for this machine's and every
    address (a browser here opens it; the tablets know the machine's)."""
    return "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host


def print_urls(
    base: str, tokens, out=sys.stdout, show_tokens: bool = True, where: str = "", seats: bool = False
) -> None:
    """Each view's address, after its name and who it is for (an address alone on the
    line's end, as it is copied)."""
    from dashboard.tokens import view_urls

    for view, url in view_urls(base, tokens, seats):
        shown = url if show_tokens else url.split("?")[0] + "?token=..."
        print(_view_line(view, shown), file=out)
    if not show_tokens:
        print("  " + say("(tokens in {path}; --show-tokens prints them)", path=where or "tokens.json"), file=out)
    out.flush()


def _view_line(view: str, url: str) -> str:
    """A view's line of the start banner: its name, who it is for, its address."""
    return f"  {view:<10} {view_words(view):<22} {url}"


def print_hall(base: str, token: str, tables: int, out=None) -> None:
    """The TL's hall among the views: this table and its peers (``--peer``)."""
    print(
        _view_line("hall", f"{base}/hall?token={token} ") + say_n("({n} table)", "({n} tables)", tables),
        file=out or sys.stdout,
    )


def warn_plain_http(host: str, tls: bool, err=None) -> None:
    """Say it on stderr (Swedish first) when the tokens' URLs would cross the network in
    plain text: listening beyond this machine without TLS (``security.plain_http_warning``,
    the same words as ``hub web``)."""
    from dashboard.security import plain_http_warning

    warning = plain_http_warning(host, tls)
    if warning:
        print(warning, file=err or sys.stderr, flush=True)
