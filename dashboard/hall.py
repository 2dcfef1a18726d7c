"""The TL's hall: every table of the event on one page (issue 8, "the TL view: every table's
state, the alert queue").

Each table runs on its own Pi with its own dashboard; the tables of one event share one
``tokens.json`` (tokens are per event, ARCHITECTURE.md §4), so the TL's browser opens every
table's own TL stream with the same token.  No table relays another's data: a table that is
down shows as offline on the hall page and nothing else changes.

    $ chicago-table serve --data t1/ --tokens event/tokens.json --peer http://table2.local:8080
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import DashboardError


def peer_base(url: str) -> str:
    """``http://host:port`` of another table's dashboard, checked: scheme, host, no path."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DashboardError("--peer {url!r}: give another table's dashboard as http://HOST:PORT", url=url)
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise DashboardError(
            f"--peer {url!r}: only the address of the dashboard, no path or query (the TL's token is added by the page)"
        )
    try:
        port = parts.port
    except ValueError as exc:
        raise DashboardError(f"--peer {url!r}: {exc}") from exc
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def peer_bases(urls: list[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for u in urls or ():
        b = peer_base(u)
        if b not in out:
            out.append(b)
    return tuple(out)
