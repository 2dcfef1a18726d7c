"""The event's name, heat and logo on the audience's views and the protocol (issue 19); its
round and the players' ids and clubs on the protocol.

    >>> Branding(event="SM i Chicago 2026", heat="1").event
    'SM i Chicago 2026'
    >>> logo_type(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8))
    'image/png'
    >>> logo_type(b"GIF89a")
    ''

The logo is a PNG or JPEG file of at most ``LOGO_LIMIT`` bytes, read once at start (a bad
file stops the start with a clear error, never a broken image on the broadcast).  It is
public (no card is in it): every role's page shows it, the protocol prints it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import DashboardError
from .scoresheet.head import Player, read_players

LOGO_LIMIT = 512 * 1024


@dataclass(frozen=True)
class Branding:
    event: str = ""  # e.g. "SM i Chicago 2026"
    heat: str = ""  # e.g. "1" or "Final"
    logo: bytes | None = None
    logo_media_type: str = ""
    round: str = ""  # e.g. "Kvartsfinal": the protocol's header, beside the heat
    players: dict[str, Player] = field(default_factory=dict)  # name -> id and club ([event] players)


def logo_type(data: bytes) -> str:
    """The media type of a PNG or JPEG image (by its first bytes), or '' for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    return ""


def load_branding(
    event: str = "",
    heat: str = "",
    logo: str | Path | None = None,
    round: str = "",
    players: str | Path | None = None,
) -> Branding:
    """The branding of the options; :class:`DashboardError` naming the problem for a bad
    logo, or naming the file and line of a bad players file (``name,club[,id]`` per line)."""
    for what, text in (("event name", event), ("heat", heat), ("round", round)):
        if len(text) > 80 or any(ord(c) < 32 for c in text):
            raise DashboardError(f"the {what} must be a line of at most 80 characters")
    who = read_players(Path(players)) if players is not None else {}
    if logo is None:
        return Branding(event.strip(), heat.strip(), round=round.strip(), players=who)
    path = Path(logo)
    try:
        size = path.stat().st_size
        if size > LOGO_LIMIT:
            raise DashboardError(
                "{path}: the logo is {size} kB; at most {limit} kB, please",
                path=path,
                size=size // 1024,
                limit=LOGO_LIMIT // 1024,
            )
        data = path.read_bytes()
    except OSError as exc:
        raise DashboardError("{path}: cannot read the logo ({reason})", path=path, reason=exc) from None
    kind = logo_type(data)
    if not kind:
        raise DashboardError("{path}: the logo must be a PNG or JPEG image", path=path)
    return Branding(event.strip(), heat.strip(), data, kind, round=round.strip(), players=who)
