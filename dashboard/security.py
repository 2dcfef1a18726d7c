"""Security headers on every answer and the WebSocket Origin allowlist (issue 13 item 6).

- Pages carry a Content-Security-Policy the pages work under (scripts and styles from
  this server only, no inline code; the TL's hall may connect to the other tables),
  ``Referrer-Policy: no-referrer`` (a token in a URL never leaves in a Referer header),
  ``X-Content-Type-Options: nosniff``, and ``frame-ancestors``: an OBS browser source
  loads the overlay as a page of its own, so no other site may frame a view unless
  ``--allow-origin`` names it.
- A WebSocket handshake whose ``Origin`` is neither this server, a ``--peer`` table (the
  TL's hall on another table opens this table's TL stream) nor an ``--allow-origin`` is
  refused.  A client that sends no Origin is no browser: it still needs its token.

    >>> same_origin("http://127.0.0.1:8080", "127.0.0.1:8080", "ws")
    True
    >>> same_origin("http://evil.example", "127.0.0.1:8080", "ws")
    False

A server whose URLs carry tokens says so in words when it listens beyond this machine
without TLS (``serve``, ``run`` and ``hub web``, Swedish first):

    >>> plain_http_warning("127.0.0.1", tls=False) is None, plain_http_warning("0.0.0.0", tls=True) is None
    (True, True)
    >>> plain_http_warning("0.0.0.0", tls=False).split(":")[0]
    'VARNING'
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import DashboardError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def plain_http_warning(host: str, tls: bool) -> str | None:
    """The words said when a server with tokens in its URLs listens beyond this machine
    without TLS (Swedish first: the TL reads it), else None."""
    if tls or host in LOOPBACK or host.startswith("127."):
        return None
    return (
        f"VARNING: lyssnar på {host} utan TLS: nätverkets alla ser tokens i adresserna och kan ta TL:s roll; "
        "starta med --certfile och --keyfile. "
        f"WARNING: listening on {host} without TLS: anyone on the network sees the tokens in the URLs "
        "and can act as the TL; start with --certfile and --keyfile."
    )


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url``, lower case, default ports dropped; None if no origin."""
    try:
        p = urlsplit(url.strip())
        port = p.port
    except ValueError:
        return None
    if p.scheme not in ("http", "https") or not p.hostname:
        return None
    host = f"[{p.hostname}]" if ":" in p.hostname else p.hostname
    default = {"http": 80, "https": 443}[p.scheme]
    return f"{p.scheme}://{host}" + (f":{port}" if port and port != default else "")


def allowed_origins(urls: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``--allow-origin`` values, checked (an origin, not a page)."""
    out = []
    for u in urls:
        o = origin_of(u)
        if o is None or urlsplit(u.strip()).path not in ("", "/"):
            raise DashboardError(
                f"--allow-origin {u!r}: give an origin like http://obs-pc.local:8080 (scheme, host, port; no path)"
            )
        out.append(o)
    return tuple(dict.fromkeys(out))


def same_origin(origin: str, host: str, ws_scheme: str) -> bool:
    scheme = "https" if ws_scheme in ("wss", "https") else "http"
    return origin_of(origin) == origin_of(f"{scheme}://{host}")


def origin_ok(origin: str | None, host: str, ws_scheme: str, allowed: tuple[str, ...]) -> bool:
    if origin is None:
        return True  # not a browser; the token decides
    return same_origin(origin, host, ws_scheme) or origin_of(origin) in allowed


def _ws_forms(origin: str) -> list[str]:
    return [origin, origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)]


def csp(peers: tuple[str, ...], allowed: tuple[str, ...], frames: tuple[str, ...] = ()) -> str:
    """The policy: ``peers`` may be connected to, ``allowed`` may frame this page, and the
    page may frame ``frames`` (origins; the hub's broadcast source frames the featured
    table's overlay).  No inline code, nothing from elsewhere.

    >>> csp((), (), frames=("http://t1.local:8080",)).split("; ")[-1]
    'frame-src http://t1.local:8080'
    """
    connect = ["'self'"] + [f for p in peers for f in _ws_forms(origin_of(p) or p)]
    ancestors = ["'self'", *allowed]
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src " + " ".join(dict.fromkeys(connect)),
            "frame-ancestors " + " ".join(ancestors),
            "base-uri 'none'",
            "form-action 'none'",
        )
        + (("frame-src " + " ".join(dict.fromkeys(frames)),) if frames else ())
    )


class SecurityHeaders:
    """Pure ASGI middleware: the headers above on every HTTP answer."""

    def __init__(self, app, policy: str):
        self.app = app
        self.headers = [
            (b"content-security-policy", policy.encode()),
            (b"referrer-policy", b"no-referrer"),
            (b"x-content-type-options", b"nosniff"),
            (b"cross-origin-opener-policy", b"same-origin"),
            # every address carries its role's token: no answer is kept by a browser or a
            # proxy on the way (stop 71's audit: the protocol's PDF and HTML, the catalogue)
            (b"cache-control", b"no-store"),
        ]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(msg):
            if msg["type"] == "http.response.start":
                have = {k.lower() for k, _ in msg.get("headers", ())}
                msg = {**msg, "headers": list(msg.get("headers", ())) + [h for h in self.headers if h[0] not in have]}
            await send(msg)

        await self.app(scope, receive, with_headers)
