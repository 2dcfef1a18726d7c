"""The protocol's header facts: event, heat, table, round, date and time, player ids and
clubs.  All optional; what is not known is left out, never guessed.

    >>> head = SheetHead(event="SM i Chicago 2026", heat="1", table="7")
    >>> stamp(1780000000.0)
    ('2026-05-28', '22:26')
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from ..errors import DashboardError

ZONE = ZoneInfo("Europe/Stockholm")  # the SM is played in Sweden: the form shows local time


@dataclass(frozen=True)
class Player:
    id: str = ""
    club: str = ""


@dataclass(frozen=True)
class SheetHead:
    event: str = ""
    heat: str = ""
    round: str = ""  # the event's stage, free text, e.g. "Kvartsfinal"; beside the heat
    table: str = ""
    players: dict[str, Player] = field(default_factory=dict)
    games_per_table: int = 3  # r2
    logo: bytes | None = None  # the event's logo (PNG/JPEG), top right of every page's header

    def player(self, name: str) -> Player:
        return self.players.get(name, Player())


def stamp(t: float | None) -> tuple[str, str]:
    """(date, time) in the hall's local time, or ('', '') when the log gave no time."""
    if t is None:
        return "", ""
    d = dt.datetime.fromtimestamp(float(t), ZONE)
    return d.strftime("%Y-%m-%d"), d.strftime("%H:%M")


def pdf_date(t: float) -> str:
    """The PDF's CreationDate for time ``t`` (the game's own, so the file stays reproducible)."""
    d = dt.datetime.fromtimestamp(float(t), ZONE)
    off = int((d.utcoffset() or dt.timedelta()).total_seconds() // 60)  # an aware time: never None
    return d.strftime("D:%Y%m%d%H%M%S") + f"{'+' if off >= 0 else '-'}{abs(off) // 60:02d}'{abs(off) % 60:02d}'"


def read_players(path: Path) -> dict[str, Player]:
    """A CSV of ``name,club[,id]`` per line (the hub's ``register --csv`` file, optionally an id)."""
    from table_controller.tournament.playerfile import PlayerFileError, player_rows

    try:
        rows = player_rows(path)  # as a spreadsheet saves it: ';' or ',', UTF-8 or Windows-1252
    except PlayerFileError as exc:
        raise DashboardError(str(exc)) from None
    out: dict[str, Player] = {}
    for n, row in rows:
        if not row[0]:
            continue
        if len(row) > 3:
            raise DashboardError(f"{path}: line {n}: expected name,club[,id], got {len(row)} fields")
        name = row[0]
        if name in out:
            raise DashboardError(f"{path}: line {n}: {name!r} is on an earlier line already")
        out[name] = Player(id=row[2] if len(row) > 2 else "", club=row[1] if len(row) > 1 else "")
    return out
