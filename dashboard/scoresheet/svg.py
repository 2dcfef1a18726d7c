"""The protocol (RULES.md §12) as SVG for the app: the same rows as the PDF.

>>> from table_controller.rules.replay import replay_lines
>>> engine, doc = replay_lines(['{"do": "table", "players": ["Anna", "Bo", "Cilla"]}',
...                             '{"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Cilla"}'])
>>> html = scoresheet_html(doc)
>>> html.count("<svg"), "Anna" in html
(1, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from .model import GameSheet, SheetRow, document_sheets, fences, fmt_points
from .words import words

FENCE_W = 22
MARK_GAP = 3.6
MARK_H = 14
PER_LINE = 11
TALLY_X = 170
W = 640


def game_svg(g: GameSheet, lang: str = "sv", signed: Mapping[str, float | None] | None = None) -> str:
    """One game's form; ``signed``: the roles that have signed it in the app."""
    w = words(lang)
    signed = signed or {}
    parts: list[str] = []
    y: float = 30
    status = f"{w['winner']}: {escape(g.winner)}" if g.winner else (w["finished"] if g.finished else w["in_progress"])
    parts.append(f'<text x="10" y="20" class="h">{w["game"]} {g.number} \u2013 {status}</text>')
    parts.append(
        f'<text x="10" y="{y + 16}" class="c">{w["player"]}</text>'
        f'<text x="{TALLY_X}" y="{y + 16}" class="c">{w["tally"]}</text>'
        f'<text x="470" y="{y + 16}" class="c" text-anchor="end">{w["score"]}</text>'
        f'<text x="530" y="{y + 16}" class="c" text-anchor="end">{w["place"]}</text>'
        f'<text x="{W - 10}" y="{y + 16}" class="c" text-anchor="end">{w["pp_short"]}</text>'
    )
    y += 24
    for row in g.rows:
        svg, y = _row(row, y, w)
        parts.append(svg)
    y += 30
    for x, role, who in ((10, "revisor", w["revisor_sign"]), (W / 2 + 10, "tl", w["tl_sign"])):
        parts.append(
            f'<line x1="{x}" y1="{y}" x2="{x + 250}" y2="{y}" class="sig"/>'
            f'<text x="{x}" y="{y + 14}" class="c">{who}</text>'
        )
        if role in signed:
            parts.append(
                f'<text x="{x + 4}" y="{y - 4}" class="signed" data-signed="{role}">\u2713 {w["signed"]}</text>'
            )
    y += 24
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="protocol" data-game="{g.number}" lang="{lang}" '
        f'viewBox="0 0 {W} {y}" width="{W}" height="{y}">' + "".join(parts) + "</svg>"
    )


def _row(row: SheetRow, y: float, w: Mapping[str, str]) -> tuple[str, float]:
    plus, minus = fences(row.marks), fences(row.minus)
    lines = max(1, -(-len(plus) // PER_LINE)) + (max(1, -(-len(minus) // PER_LINE)) if minus else 0)
    height = max(36, lines * (MARK_H + 8) + 16)
    base = y + 24
    name = escape(row.name)
    out = [
        f'<g class="row" data-player="{name}" data-marks="{row.marks}" data-minus="{row.minus}" '
        f'data-score="{row.score}" data-said-chicago="{str(row.said_chicago).lower()}" data-stars="{row.stars}">'
    ]
    out.append(f'<text x="16" y="{base}" class="name">{name}</text>')
    width = 9 * len(row.name) + 14
    if row.said_chicago:  # r10: circled
        out.append(f'<ellipse class="circle" cx="{10 + width / 2}" cy="{base - 5}" rx="{width / 2 + 2}" ry="13"/>')
    if row.stars:
        out.append(f'<text x="{16 + width}" y="{base}" class="star">{"&#9733;" * row.stars}</text>')
    ty = y + 8
    ty = _tally(out, plus, ty, "mark")
    out.append(f'<text x="{TALLY_X}" y="{ty + 2}" class="small">{row.marks} {w["marks"]}</text>')
    if minus:
        ty += 8
        ty = _tally(out, minus, ty, "mark minus")
        out.append(f'<text x="{TALLY_X}" y="{ty + 2}" class="small minus">{w["minus"]} {row.minus}</text>')
    out.append(f'<text x="470" y="{base}" class="num" text-anchor="end">{row.score}</text>')
    out.append(f'<text x="530" y="{base}" class="num" text-anchor="end">{row.place or ""}</text>')
    out.append(f'<text x="{W - 10}" y="{base}" class="num" text-anchor="end">{fmt_points(row.placement_points)}</text>')
    bottom = y + height
    out.append(f'<line x1="0" y1="{bottom}" x2="{W}" y2="{bottom}" class="rule"/></g>')
    return "".join(out), bottom


def _tally(out: list[str], groups: list[int], top: float, cls: str) -> float:
    y = top
    for i, n in enumerate(groups):
        if i and i % PER_LINE == 0:
            y += MARK_H + 8
        x = TALLY_X + (i % PER_LINE) * FENCE_W
        for k in range(min(n, 4)):
            out.append(
                f'<line class="{cls}" x1="{x + k * MARK_GAP:.1f}" y1="{y}" x2="{x + k * MARK_GAP:.1f}" y2="{y + MARK_H}"/>'
            )
        if n == 5:  # the fifth mark crosses the four (r9)
            out.append(
                f'<line class="{cls} cross" x1="{x - 2}" y1="{y + MARK_H - 2}" x2="{x + 3 * MARK_GAP + 2:.1f}" y2="{y + 2}"/>'
            )
    return y + MARK_H + 8


def scoresheet_html(
    doc: Mapping[str, Any], lang: str = "sv", signed: Mapping[int, Mapping[str, float | None]] | None = None
) -> str:
    """All games' protocols as an HTML fragment (one SVG per game), Swedish unless
    ``lang="en"``; ``signed``: game -> the roles that have signed it."""
    games = document_sheets(doc)
    signed = signed or {}
    if not games:
        return f'<p class="empty">{words(lang)["no_game"]}</p>'
    return "".join(f'<section class="game-protocol">{game_svg(g, lang, signed.get(g.number))}</section>' for g in games)
