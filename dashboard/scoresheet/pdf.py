"""The printable protocol (RULES.md §12) as a PDF: a form per game, then the table's
result page.

    >>> from table_controller.rules.replay import replay_lines
    >>> engine, doc = replay_lines(['{"do": "table", "players": ["Anna", "Bo", "Cilla"]}',
    ...                             '{"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Cilla"}'])
    >>> data = scoresheet_pdf(doc, title="Bord 1")
    >>> data[:5], data == scoresheet_pdf(doc, title="Bord 1")
    (b'%PDF-', True)

ReportLab with ``invariant=1`` and the creation date set to the game's own time from
the log: the same log gives byte-identical files, so an archived protocol can be checked
against a fresh render.  Swedish words by default (``lang="en"`` for English).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from .head import SheetHead, pdf_date, stamp
from .model import GameSheet, SheetRow, document_sheets, fences, fmt_points
from .notes import LogFacts, Note
from .words import PENALTY_REASONS, clock_text, penalty_kind_text, reason_text, ruleset_text, voided, words

PAGE_W, PAGE_H = A4
MARGIN = 40
BOTTOM = 112  # below this: signature lines, log head, page number
FENCE_W = 22  # one fence of five marks
MARK_GAP = 3.6
MARK_H = 14
NAME_X = MARGIN + 6
TALLY_X = 172
PER_LINE = 10  # fences per tally line (50 marks)
LABEL_R = 432  # right edge of the "82 streck" / "avdrag 30" labels
COLS = {"score": 455, "place": 490, "pp": PAGE_W - MARGIN - 2}  # right edges
FONT, BOLD = "Helvetica", "Helvetica-Bold"
DASH = "\u2013"
RULE_REF = re.compile(r"(r\d+|D\d+|§[\d.]+)")  # a rule reference, not the TL's words


def fit(c: canvas.Canvas, text: str, font: str, size: float, width: float, smallest: float = 7) -> tuple[str, float]:
    """The text and type size that fit ``width``: smaller type down to ``smallest``, then
    cut with an ellipsis (a long name never runs into the next column)."""
    while size > smallest and c.stringWidth(text, font, size) > width:
        size -= 0.5
    if c.stringWidth(text, font, size) <= width:
        return text, size
    while text and c.stringWidth(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text + "\u2026", size


class _Doc:
    """A canvas with a cursor: text lines that break onto a continuation page."""

    def __init__(self, c: canvas.Canvas, w: dict[str, str], lang: str):
        self.c, self.w, self.lang = c, w, lang
        self.y = PAGE_H - MARGIN
        self.page = 0
        self.cont = ""

    def new_page(self, cont: str = "") -> None:
        if self.page:
            self._footer()
            self.c.showPage()
        self.page += 1
        self.y = PAGE_H - MARGIN
        if cont:
            self.c.setFont(BOLD, 10)
            self.c.drawString(MARGIN, self.y - 10, cont)
            self.y -= 26

    def need(self, h: float) -> None:
        if self.y - h < BOTTOM:
            self.new_page(self.cont)

    def text(
        self,
        s: str,
        size: float = 9,
        font: str = FONT,
        x: float = MARGIN,
        lead: float | None = None,
        width: float = PAGE_W - 2 * MARGIN,
        color: tuple[float, float, float] = (0, 0, 0),
    ) -> None:
        for line in self.wrap(s, font, size, width):
            self.need(lead or size * 1.35)
            self.c.setFillColorRGB(*color)
            self.c.setFont(font, size)
            self.c.drawString(x, self.y - size, line)
            self.c.setFillColorRGB(0, 0, 0)
            self.y -= lead or size * 1.35

    def wrap(self, s: str, font: str, size: float, width: float) -> list[str]:
        out, cur = [], ""
        for word in s.split(" "):
            cand = f"{cur} {word}" if cur else word
            if cur and self.c.stringWidth(cand, font, size) > width:
                out.append(cur)
                cur = word
            else:
                cur = cand
        return out + [cur]

    def _footer(self) -> None:
        self.c.setFont(FONT, 7)
        self.c.drawCentredString(PAGE_W / 2, 22, f"{self.w['page']} {self.page}")

    def finish(self) -> None:
        self._footer()
        self.c.showPage()


def scoresheet_pdf(
    doc: Mapping[str, Any],
    title: str = "Chicago",
    head: Mapping[str, Any] | None = None,
    *,
    facts: LogFacts | None = None,
    info: SheetHead | None = None,
    lang: str = "sv",
) -> bytes:
    """Every game of the REPLAY.md document, a form each, and the table's result page.
    ``head`` (``seq``, ``digest``): the log's final chain head, printed with its QR code
    beside the sign-off (issue 20).  ``facts``: penalties, warnings and times read from the
    log (scoresheet.notes); ``info``: event, heat, table and the players' ids and clubs."""
    w = words(lang)
    facts = facts or LogFacts()
    info = info or SheetHead()
    games = document_sheets(doc)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    first = min((t[0] for t in facts.game_times.values()), default=None)
    if first is not None:  # the game's own date; without a time in the log, ReportLab's fixed one
        c.setDateFormatter(lambda *_: pdf_date(first))
    c.setTitle(f"{info.event or title}: {w['protocol'].lower()}")
    c.setAuthor("chicago-table")
    c.setCreator("chicago-table")  # stop 72's audit: "Creator: anonymous"
    c.setSubject(
        ", ".join(
            x
            for x in (
                info.event,
                f"{w['heat']} {info.heat}" if info.heat else "",
                f"{w['round']} {info.round}" if info.round else "",
                f"{w['table']} {info.table or title}",
            )
            if x
        )
    )
    d = _Doc(c, w, lang)
    if not games:
        d.new_page()
        d.text(w["no_game"], 14)
    for g in games:
        _game(d, g, doc, title, info, facts, head)
    if games:
        _summary(d, games, doc, title, info, facts, head)
    d.finish()
    c.save()
    return buf.getvalue()


LOGO_BOX = (120.0, 30.0)  # points: the logo's largest width and height, top right of the heading


def _logo(c: canvas.Canvas, data: bytes, top: float) -> None:
    """The event's logo, scaled into LOGO_BOX and right-aligned, its top at ``top``."""
    img = ImageReader(io.BytesIO(data))
    iw, ih = img.getSize()
    scale = min(LOGO_BOX[0] / iw, LOGO_BOX[1] / ih)
    w, h = iw * scale, ih * scale
    c.drawImage(img, PAGE_W - MARGIN - w, top - h, w, h, mask="auto")


def _header(
    d: _Doc,
    heading: str,
    title: str,
    info: SheetHead,
    when: tuple[float | None, float | None],
    extra: list[tuple[str, str]],
) -> None:
    c, w = d.c, d.w
    if info.logo:
        _logo(c, info.logo, top=d.y + 4)
    c.setFont(BOLD, 16)
    c.drawString(MARGIN, d.y - 16, heading)
    d.y -= 26
    start, end = stamp(when[0]), stamp(when[1])
    fields = [
        (w["event"], info.event),
        (w["heat"], info.heat),
        (w["round"], info.round),
        (w["table"], info.table or title),
        (w["date"], start[0]),
        (w["time"], f"{start[1]}\u2013{end[1]}" if start[1] and end[1] != start[1] else start[1]),
    ] + extra
    fields = [(k, v) for k, v in fields if v]
    col_x = (MARGIN, MARGIN + (PAGE_W - 2 * MARGIN) / 2)
    rows: list[list[tuple[str, str]]] = []
    if info.event:  # the event's name has the whole width; the rest go two to a row
        rows.append([fields.pop(0)])
    rows += [fields[i : i + 2] for i in range(0, len(fields), 2)]
    for row in rows:
        width = PAGE_W - 2 * MARGIN if len(row) == 1 and row[0][1] == info.event else col_x[1] - MARGIN - 8
        for (k, v), x in zip(row, col_x):
            c.setFont(BOLD, 9)
            c.drawString(x, d.y - 9, f"{k}:")
            vx = x + c.stringWidth(f"{k}:", BOLD, 9) + 4
            v, size = fit(c, v, FONT, 9, width - (vx - x))
            c.setFont(FONT, size)
            c.drawString(vx, d.y - 9, v)
        d.y -= 13
    d.y -= 6


def _game(
    d: _Doc,
    g: GameSheet,
    doc: Mapping[str, Any],
    title: str,
    info: SheetHead,
    facts: LogFacts,
    head: Mapping[str, Any] | None,
) -> None:
    w = d.w
    d.new_page()
    d.cont = f"{w['protocol']}, {w['game'].lower()} {g.number}: {w['deals_cont']}"
    status = f"{w['winner']}: {g.winner}" if g.winner else (w["finished"] if g.finished else w["in_progress"])
    _header(
        d,
        f"{w['protocol']} \u2013 {w['game'].lower()} {g.number} {w['of']} {info.games_per_table}",
        title,
        info,
        facts.when(g.number),
        [(w["ruleset"], ruleset_text(str(doc.get("ruleset") or ""), d.lang)), ("Status", status)],
    )
    _columns(d)
    for row in g.rows:
        _row(d, row, info)
    d.y -= 8
    said = [r.name for r in g.rows if r.said_chicago]
    if said:
        d.text(f"{w['said']}: " + ", ".join(said))
    if g.out_without_chicago:
        d.text(f"{w['out']}: " + ", ".join(g.out_without_chicago))
    d.text(w["legend"], 8)
    d.y -= 8
    notes = facts.for_game(g.number)
    d.text(w["notes"], 10, BOLD)
    if not notes:
        d.text(w["no_notes"], 8)
    for n in notes:
        d.text(
            note_text(n, d.lang),
            8,
            x=MARGIN + 8,
            width=PAGE_W - 2 * MARGIN - 8,
            color=(0.7, 0, 0) if n.kind in ("penalty", "warning", "dead") else (0, 0, 0),
        )
    d.y -= 8
    d.text(w["deals"], 10, BOLD)
    for number, button, awards in g.deals:
        d.text(deal_text(number, button, awards, notes, d.lang), 8, x=MARGIN + 8, width=PAGE_W - 2 * MARGIN - 8)
    _signatures(d, head, facts.signed.get(g.number))
    d.cont = ""


def _columns(d: _Doc) -> None:
    c, w = d.c, d.w
    c.setFont(BOLD, 9)
    y = d.y - 9
    c.drawString(NAME_X, y, w["player"])
    c.drawString(TALLY_X, y, w["tally"])
    c.drawRightString(COLS["score"], y, w["score"])
    c.drawRightString(COLS["place"], y, w["place"])
    # "Omgångspoäng" does not fit above its column: two lines, so no header runs into the next
    top, _, rest = w["pp"].partition(" ") if " " in w["pp"] else (w["pp"][:7] + "-", "", w["pp"][7:])
    c.drawRightString(COLS["pp"], y, top)
    c.drawRightString(COLS["pp"], y - 11, rest)
    d.y -= 26
    c.line(MARGIN, d.y, PAGE_W - MARGIN, d.y)


def _row(d: _Doc, row: SheetRow, info: SheetHead) -> None:
    c, w = d.c, d.w
    plus, minus = fences(row.marks), fences(row.minus)
    plus_lines = max(1, -(-len(plus) // PER_LINE))
    minus_lines = -(-len(minus) // PER_LINE) if minus else 0
    line_h = MARK_H + 8
    height = max(46, (plus_lines + minus_lines) * line_h + (6 if minus else 0) + 14)
    d.need(height)
    top = d.y
    base = top - 20
    stars = "*" * row.stars
    room = TALLY_X - NAME_X - 14 - (c.stringWidth(stars, BOLD, 12) + 8 if stars else 0)
    name, size = fit(c, row.name, BOLD, 12, room)
    c.setFont(BOLD, size)
    c.drawString(NAME_X, base, name)
    nw = c.stringWidth(name, BOLD, size)
    if row.said_chicago:  # r10: a circle round the name
        c.ellipse(NAME_X - 6, base - 5, NAME_X + nw + 6, base + 13)
    if row.stars:  # r10, r24: one asterisk per won Chicago
        c.setFont(BOLD, 12)
        c.drawString(NAME_X + nw + 10, base, stars)
    p = info.player(row.name)
    sub = " \u00b7 ".join(x for x in (p.id, p.club) if x)
    if sub:
        sub, size = fit(c, sub, FONT, 7, TALLY_X - NAME_X - 8, smallest=6)
        c.setFont(FONT, size)
        c.drawString(NAME_X, base - 16, sub)
    ty = _tally(c, plus, top - 6, red=False)
    c.setFont(FONT, 8)
    c.drawRightString(LABEL_R, top - 6 - MARK_H + 3, f"{row.marks} {w['marks']}")
    if minus:
        my = ty - 6
        _tally(c, minus, my, red=True)
        c.setFillColorRGB(0.75, 0, 0)
        c.drawRightString(LABEL_R, my - MARK_H + 3, f"{w['minus']} {row.minus}")
        c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, 12)
    c.drawRightString(COLS["score"], base, str(row.score))
    c.drawRightString(COLS["place"], base, str(row.place) if row.place else "")
    c.drawRightString(COLS["pp"], base, fmt_points(row.placement_points))
    d.y = top - height
    c.setLineWidth(0.3)
    c.line(MARGIN, d.y, PAGE_W - MARGIN, d.y)
    c.setLineWidth(1)


def _tally(c: canvas.Canvas, groups: list[int], top: float, red: bool) -> float:
    """Draw fences of five: four upright strokes and a fifth across (r9).  Returns the
    y below the last line of fences."""
    if red:
        c.setStrokeColorRGB(0.75, 0, 0)
    y = top
    for i, n in enumerate(groups):
        if i and i % PER_LINE == 0:
            y -= MARK_H + 8
        x = TALLY_X + (i % PER_LINE) * FENCE_W
        for k in range(min(n, 4)):
            c.line(x + k * MARK_GAP, y, x + k * MARK_GAP, y - MARK_H)
        if n == 5:
            c.line(x - 2, y - MARK_H + 2, x + 3 * MARK_GAP + 2, y - 2)
    c.setStrokeColorRGB(0, 0, 0)
    return y - MARK_H - 8


def _signed(v: int) -> str:
    return f"{v:+d}"


def note_text(n: Note, lang: str) -> str:
    w = words(lang)
    where = f"{w['deal']} {n.deal}" if n.deal is not None else w["before_deal"].format(n=n.next_deal)
    time = f" {stamp(n.time)[1]}" if n.time is not None else ""
    head = f"{where}{time}, {n.player}: {w['note_' + n.kind]}"
    if n.kind == "penalty":
        head += f" \u2013 {penalty_kind_text(n.detail, lang)}"
    elif n.kind == "warning" and n.detail == "revoke":
        head += f" \u2013 {reason_text('revoke', lang)}"
    elif n.kind == "violation":
        head += f" \u2013 {clock_text(n.detail, lang)}"
    if n.asked is not None and n.points is not None:
        head += (
            f" {_signed(n.asked)}"
            if n.asked == n.points
            else f" {_signed(n.asked)}, {w['applied'].format(points=_signed(n.points) if n.points else '0')}"
        )
    void = voided(n.reason)
    if void:
        head += f" ({w['voids']}): \u201d{void[1]}\u201d"
    elif n.reason:
        head += f" ({n.reason})" if RULE_REF.fullmatch(n.reason) else f": \u201d{n.reason}\u201d"
    return head


def deal_text(number: int, button: str, awards: tuple[tuple[str, int, str], ...], notes: list[Note], lang: str) -> str:
    """One deal's awards in words; penalties and TL corrections marked as such, and a
    correction the floor at 0 swallowed shown as asked (never as "+0")."""
    w = words(lang)
    tl = [n for n in notes if n.kind in ("adjust", "penalty") and n.points is not None and n.next_deal == number]
    parts = []
    for player, pts, reason in awards:
        words_ = reason_text(reason, lang)
        if reason in ("adjust", "penalty"):
            match = next((n for n in tl if n.player == player and n.points == pts), None)
            if match is not None:
                tl.remove(match)
                if match.asked is not None and match.asked != pts:
                    parts.append(
                        f"{player} {words_.upper()} {_signed(match.asked)} "
                        f"({w['applied_short'].format(points=_signed(pts) if pts else '0')})"
                    )
                    continue
            parts.append(f"{player} {words_.upper()} {_signed(pts)}")
        elif reason in PENALTY_REASONS:
            parts.append(f"{player} {_signed(pts)} {w['note_penalty'].upper()}: {words_}")
        else:
            parts.append(f"{player} {_signed(pts)} {words_}")
    return f"{number}. ({button}) " + ("; ".join(parts) or "\u2013")


def _signatures(d: _Doc, head: Mapping[str, Any] | None, signed: Mapping[str, float | None] | None = None) -> None:
    """The two signature lines; a sign-off given in the app (POST /api/sign) is written on
    its line with its time, so the printed form shows who has signed."""
    c, w = d.c, d.w
    y = 78
    signed = signed or {}
    for x, role, who in ((MARGIN, "revisor", w["revisor_sign"]), (PAGE_W / 2 + 10, "tl", w["tl_sign"])):
        c.setFont(FONT, 9)
        c.line(x, y, x + 220, y)
        c.drawString(x, y - 11, who)
        if role in signed:
            date, time = stamp(signed[role])
            text = w["signed_at"].format(date=date, time=time) if date else w["signed"]
            c.setFont(BOLD, 9)
            c.setFillColorRGB(0, 0.3, 0.1)
            c.drawString(x + 4, y + 4, text)
            c.setFillColorRGB(0, 0, 0)
    if head:
        _head(d, head)


def head_text(head: Mapping[str, Any]) -> str:
    return f"chicago-log-head|{int(head['seq'])}|{head['digest']}"


def _head(d: _Doc, head: Mapping[str, Any]) -> None:
    """The final head under the sign-off lines, and as a QR code at the bottom right."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    c = d.c
    c.setFont(FONT, 7)
    c.drawString(MARGIN, 44, f"{d.w['log_head']}: {d.w['record']} {int(head['seq'])}, {head['digest']}")
    size = 64  # 41 modules with the quiet zone: 0.55 mm a module, a phone reads it off the paper
    qr = QrCodeWidget(head_text(head))
    x0, y0, x1, y1 = qr.getBounds()
    dr = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    dr.add(qr)
    renderPDF.draw(dr, c, PAGE_W - MARGIN - size + 20, 10)  # under the TL's line (y 78)


def _summary(
    d: _Doc,
    games: list[GameSheet],
    doc: Mapping[str, Any],
    title: str,
    info: SheetHead,
    facts: LogFacts,
    head: Mapping[str, Any] | None,
) -> None:
    """The table's result (RULES.md §9): per game places and placement points, totals,
    tiebreaks, the särspel and who goes on."""
    c, w = d.c, d.w
    d.new_page()
    d.cont = w["summary"]
    table = doc.get("table") or {}
    times = [t for g in games for t in facts.when(g.number) if t is not None]
    _header(
        d,
        # "bord 3", but "Bord 7" and "Demobord" as they are named
        f"{w['summary']} \u2013 "
        + (f"{w['table'].lower()} {info.table}" if info.table.isdigit() else info.table or title),
        title,
        info,
        (min(times) if times else None, max(times) if times else None),
        [(w["ruleset"], ruleset_text(str(doc.get("ruleset") or ""), d.lang))],
    )
    standings = list(table.get("standings") or [])
    if not standings:  # a document without the table part: ranked as the engine does (r11)
        standings = _standings_from_games(games)
    # columns: rank, player, one per game (place / points), totals
    gx = [235 + i * 62 for i in range(len(games))]
    tx = {"pp": 440, "score": 497, "chic": PAGE_W - MARGIN - 2}
    c.setFont(BOLD, 8)
    y = d.y - 8
    c.drawString(MARGIN, y, w["rank"])
    c.drawString(MARGIN + 50, y, w["player"])
    for x, g in zip(gx, games):
        c.drawRightString(x, y, f"{w['game']} {g.number}")
        c.setFont(FONT, 7)
        c.drawRightString(x, y - 10, w["place_pp"])
        c.setFont(BOLD, 8)
    for key, label in (("pp", w["total_pp"]), ("score", w["total_score"]), ("chic", w["won_chicagos"])):
        a, _, b = label.partition(" ")
        c.drawRightString(tx[key], y, a)
        c.drawRightString(tx[key], y - 10, b)
    d.y -= 26
    c.line(MARGIN, d.y, PAGE_W - MARGIN, d.y)
    advancing = list(table.get("advancing") or [])
    for s in standings:
        d.need(32)
        y = d.y - 16
        c.setFont(BOLD, 12)
        c.drawString(MARGIN, y, f"{s['rank']}.")
        room = gx[0] - 40 - (MARGIN + 50) if gx else 200
        name, size = fit(c, s["player"], BOLD, 12, room)
        c.setFont(BOLD, size)
        c.drawString(MARGIN + 50, y, name)
        p = info.player(s["player"])
        sub = " \u00b7 ".join(x for x in (p.id, p.club) if x)
        if sub:
            sub, size = fit(c, sub, FONT, 7, room, smallest=6)
            c.setFont(FONT, size)
            c.drawString(MARGIN + 50, y - 10, sub)
        c.setFont(FONT, 10)
        for x, g in zip(gx, games):
            row = next((r for r in g.rows if r.name == s["player"]), None)
            cell = f"{row.place or DASH} / {fmt_points(row.placement_points) or '0'}" if row else DASH
            c.drawRightString(x, y, cell)
        c.setFont(BOLD, 11)
        c.drawRightString(tx["pp"], y, fmt_points(s["placement_points"]))
        c.setFont(FONT, 10)
        c.drawRightString(tx["score"], y, str(s["score_total"]))
        c.drawRightString(tx["chic"], y, str(s["won_chicagos"]))
        d.y -= 32  # room for the id and club under the name
        c.setLineWidth(0.3)
        c.line(MARGIN, d.y, PAGE_W - MARGIN, d.y)
        c.setLineWidth(1)
    d.y -= 10
    if not table.get("finished"):
        d.text(w["table_open"], 9, BOLD)
    ties = tiebreaks(standings, lang=d.lang)
    if ties:
        d.text(w["tiebreak"], 10, BOLD)
        for t in ties:
            d.text(t, 9, x=MARGIN + 8)
    playoff = table.get("playoff")
    if playoff:
        d.text(w["playoff"], 10, BOLD)
        d.text(
            w["playoff_between"].format(players=", ".join(playoff.get("players", [])), deals=playoff.get("deals", "")),
            9,
            x=MARGIN + 8,
        )
        pg = playoff.get("game")
        if pg:
            d.text(", ".join(f"{p} {v}" for p, v in pg.get("scores", {}).items()), 9, x=MARGIN + 8)
    d.y -= 6
    d.text(f"{w['goes_on']}: " + (", ".join(advancing) if advancing else w["none_on"]), 12, BOLD)
    _signatures(d, head, _table_signed(games, facts))


def _table_signed(games: list[GameSheet], facts: LogFacts) -> dict[str, float | None]:
    """A role has signed the table's result when it has signed every game, at its last sign-off."""
    out: dict[str, float | None] = {}
    for role in ("revisor", "tl"):
        times = [facts.signed.get(g.number, {}).get(role, -1.0) for g in games]
        if games and all(t != -1.0 for t in times):
            known = [t for t in times if t is not None]
            out[role] = max(known) if known else None
    return out


def _standings_from_games(games: list[GameSheet]) -> list[dict[str, Any]]:
    tot: dict[str, dict[str, Any]] = {}
    for g in games:
        for r in g.rows:
            t = tot.setdefault(r.name, {"player": r.name, "placement_points": 0, "score_total": 0, "won_chicagos": 0})
            t["placement_points"] += r.placement_points or 0
            t["score_total"] += r.score
            t["won_chicagos"] += r.stars
    rows = sorted(tot.values(), key=lambda t: (-t["placement_points"], -t["score_total"], -t["won_chicagos"]))
    for i, t in enumerate(rows):
        prev = rows[i - 1] if i else None
        same = prev is not None and all(prev[k] == t[k] for k in ("placement_points", "score_total", "won_chicagos"))
        t["rank"] = prev["rank"] if prev is not None and same else i + 1
    return rows


def tiebreaks(standings: Sequence[Mapping[str, Any]], lang: str = "sv") -> list[str]:
    """Why each of two players level on placement points stands where it does (r11)."""
    w = words(lang)
    out = []
    for a, b in pairwise(standings):
        if a["placement_points"] != b["placement_points"]:
            continue
        if a["score_total"] != b["score_total"]:
            key = "tb_score"
        elif a["won_chicagos"] != b["won_chicagos"]:
            key = "tb_chicago"
        elif a["rank"] != b["rank"]:
            key = "tb_playoff"
        else:
            key = "tb_shared"
        who = w["tb_who"].format(
            a=a["player"], pp=fmt_points(a["placement_points"]), score=a["score_total"], chicagos=a["won_chicagos"]
        )
        out.append(f"{who}: " + w[key].format(b=b["player"]))
    return out
