"""The printable protocol (RULES.md §12) as a PDF: one A4 page per game.

    >>> data = protocol_pdf(replay_document(engine))   # doctest: +SKIP

ReportLab with ``invariant=1``: the same protocol gives byte-identical files, so an
archived protocol can be checked against a fresh render of the log.
"""

from __future__ import annotations

import io
from typing import Any, Mapping

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from .protocol_model import GameProtocol, ProtocolRow, document_protocols, fences, fmt_points

PAGE_W, PAGE_H = A4
MARGIN = 40
FENCE_W = 22          # one fence of five marks
MARK_GAP = 3.6
MARK_H = 14
TALLY_X = 170
TALLY_W = 250         # fences per line: TALLY_W // FENCE_W
COLS = {"score": 440, "place": 490, "pp": 540}


def protocol_pdf(doc: Mapping[str, Any], title: str = "Chicago", head: Mapping[str, Any] | None = None) -> bytes:
    """Every game of the REPLAY.md document, one page each.  ``head`` (``seq``, ``digest``):
    the log's final chain head, printed with its QR code beside the sign-off (issue 20:
    the signed protocol names the log it was made from; ``log verify`` checks that log)."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle(f"{title}: protocol")
    c.setAuthor("chicago-table")
    games = document_protocols(doc)
    if not games:
        c.setFont("Helvetica", 14)
        c.drawString(MARGIN, PAGE_H - MARGIN - 14, "No game has started yet.")
        c.showPage()
    for g in games:
        _game_page(c, g, title, doc.get("ruleset"), head)
    c.save()
    return buf.getvalue()


def _game_page(c: canvas.Canvas, g: GameProtocol, title: str, ruleset: Any,
               head: Mapping[str, Any] | None = None) -> None:
    y = PAGE_H - MARGIN
    c.setFont("Helvetica-Bold", 18)
    c.drawString(MARGIN, y - 18, f"{title} - Protocol, game {g.number}")
    c.setFont("Helvetica", 10)
    status = f"Winner: {g.winner}" if g.winner else ("Finished" if g.finished else "In progress")
    c.drawString(MARGIN, y - 34, f"Ruleset {ruleset or '-'}    {status}")
    y -= 62
    c.setFont("Helvetica-Bold", 10)
    c.drawString(MARGIN, y, "Player")
    c.drawString(TALLY_X, y, "Points (tally)")
    c.drawRightString(COLS["score"] + 20, y, "Score")
    c.drawRightString(COLS["place"] + 20, y, "Place")
    c.drawRightString(COLS["pp"] + 15, y, "Pl. points")
    y -= 8
    c.line(MARGIN, y, PAGE_W - MARGIN, y)
    for row in g.rows:
        y = _row(c, row, y)
    y -= 10
    if g.out_without_chicago:
        c.setFont("Helvetica", 9)
        c.drawString(MARGIN, y, "Out without Chicago (r21): " + ", ".join(g.out_without_chicago))
        y -= 14
    said = [r.name for r in g.rows if r.said_chicago]
    if said:
        c.setFont("Helvetica", 9)
        c.drawString(MARGIN, y, "Said Chicago (circled): " + ", ".join(said))
        y -= 14
    c.setFont("Helvetica", 8)
    c.drawString(MARGIN, y, "Circled name: said Chicago in this game (r10).  * : one won Chicago.  "
                 "Red marks: points taken away.")
    y -= 18
    y = _deals(c, g, y)
    _signatures(c)
    if head:
        _head(c, head)
    c.showPage()


def _row(c: canvas.Canvas, row: ProtocolRow, y: float) -> float:
    per_line = int(TALLY_W // FENCE_W)
    plus = fences(row.marks)
    minus = fences(row.minus)
    lines = max(1, -(-len(plus) // per_line)) + (max(1, -(-len(minus) // per_line)) if minus else 0)
    height = max(34, lines * (MARK_H + 8) + 16)
    top = y - 6
    base = top - 20
    c.setFont("Helvetica-Bold", 12)
    label = row.name
    c.drawString(MARGIN + 6, base, label)
    w = c.stringWidth(label, "Helvetica-Bold", 12)
    if row.said_chicago:  # r10: a circle round the name
        c.ellipse(MARGIN, base - 6, MARGIN + w + 12, base + 14)
    if row.stars:
        c.drawString(MARGIN + w + 16, base, "*" * row.stars)
    ty = base + 10
    ty = _tally(c, plus, ty, per_line, red=False)
    c.setFont("Helvetica", 8)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(TALLY_X, ty + 2, f"{row.marks} marks")
    if minus:
        ty -= 10
        ty = _tally(c, minus, ty, per_line, red=True)
        c.setFillColorRGB(0.75, 0, 0)
        c.drawString(TALLY_X, ty + 2, f"minus {row.minus}")
        c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica-Bold", 12)
    c.drawRightString(COLS["score"] + 20, base, str(row.score))
    c.drawRightString(COLS["place"] + 20, base, str(row.place) if row.place else "")
    c.drawRightString(COLS["pp"] + 15, base, fmt_points(row.placement_points))
    bottom = top - height
    c.setLineWidth(0.3)
    c.line(MARGIN, bottom, PAGE_W - MARGIN, bottom)
    c.setLineWidth(1)
    return bottom


def _tally(c: canvas.Canvas, groups: list[int], top: float, per_line: int, red: bool) -> float:
    """Draw fences of five: four upright strokes and a fifth across (r9)."""
    if red:
        c.setStrokeColorRGB(0.75, 0, 0)
    y = top
    for i, n in enumerate(groups):
        if i and i % per_line == 0:
            y -= MARK_H + 8
        x = TALLY_X + (i % per_line) * FENCE_W
        for k in range(min(n, 4)):
            c.line(x + k * MARK_GAP, y, x + k * MARK_GAP, y - MARK_H)
        if n == 5:
            c.line(x - 2, y - MARK_H + 2, x + 3 * MARK_GAP + 2, y - 2)
    c.setStrokeColorRGB(0, 0, 0)
    return y - MARK_H - 8


def _deals(c: canvas.Canvas, g: GameProtocol, y: float) -> float:
    c.setFont("Helvetica-Bold", 9)
    c.drawString(MARGIN, y, "Deal by deal (button in brackets)")
    y -= 12
    c.setFont("Helvetica", 7)
    for number, button, awards in g.deals:
        text = f"{number}. ({button}) " + (", ".join(f"{p} {pts:+d} {r}" for p, pts, r in awards) or "-")
        for chunk in [text[i:i + 140] for i in range(0, len(text), 140)]:
            if y < 100:  # the signature lines stay on the last page
                c.showPage()
                c.setFont("Helvetica-Bold", 10)
                c.drawString(MARGIN, PAGE_H - MARGIN - 10, f"Game {g.number}, deal by deal (continued)")
                c.setFont("Helvetica", 7)
                y = PAGE_H - MARGIN - 28
            c.drawString(MARGIN, y, chunk)
            y -= 9
    return y


def _signatures(c: canvas.Canvas) -> None:
    y = 70
    c.setFont("Helvetica", 10)
    for x, who in ((MARGIN, "Revisor"), (PAGE_W / 2 + 10, "TL")):
        c.line(x, y, x + 220, y)
        c.drawString(x, y - 12, f"{who}: signature")


def head_text(head: Mapping[str, Any]) -> str:
    return f"chicago-log-head|{int(head['seq'])}|{head['digest']}"


def _head(c: canvas.Canvas, head: Mapping[str, Any]) -> None:
    """The final head under the sign-off lines, and as a QR code at the bottom right."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    c.setFont("Helvetica", 7)
    c.drawString(MARGIN, 40, f"Loggens huvud / log head: post / record {int(head['seq'])}, {head['digest']}")
    size = 50
    qr = QrCodeWidget(head_text(head))
    x0, y0, x1, y1 = qr.getBounds()
    d = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    d.add(qr)
    renderPDF.draw(d, c, PAGE_W - MARGIN - size + 20, 12)
