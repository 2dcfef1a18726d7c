"""The join sheet: each view's address as a QR code, to print and tape under the table
(``chicago-table setup``), so a tablet joins by scanning.

    >>> from dashboard.tokens import RoleTokens
    >>> links = join_links("http://bord7.local:8080", RoleTokens.generate())
    >>> [link.view for link in links]
    ['tl', 'revisor', 'public', 'broadcast', 'dealer', 'protocol']
    >>> [link.view for link in links if link.on_sheet]
    ['revisor', 'public', 'dealer', 'protocol']
    >>> join_sheet_pdf("Bord 7", links)[:5]
    b'%PDF-'

The TL's and the broadcast's codes are never printed: those views show hidden cards (the
broadcast after its delay), and a sheet under the table is read by whoever finds it.
They are shown on the set-up terminal only.  The Revisor's code is printed: the Revisor
is a player at this table and sees no hidden card; it lets the table's tablet enter
actions, as the Revisor does anyway.

QR codes by segno (pure Python, no dependencies, maintained, ISO 18004 conformant):
drawn as vector squares on the page (sharp at any printer resolution) and as text
blocks on the terminal.  Texts Swedish first, English second (``dashboard/i18n.py``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import segno
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from .i18n import N_, ROLE_NAMES, tr
from .tokens import RoleTokens, view_urls

__all__ = ["HIDDEN_CARD_VIEWS", "JoinLink", "join_links", "join_sheet_pdf", "print_join_codes"]

# views that show hidden cards: kept off the printed sheet
HIDDEN_CARD_VIEWS = frozenset({"tl", "broadcast"})

VIEW_NAMES = dict(ROLE_NAMES, protocol=N_("Protocol"))
HINTS = {
    "revisor": N_("the Revisor's tablet: the protocol, the Chicago question, entries by hand"),
    "public": N_("the scoreboard for players and spectators"),
    "dealer": N_("the dealer's screen: whose turn, the shot clocks"),
    "protocol": N_("the printable protocol"),
    "tl": N_("the TL: every card, decisions and penalties"),
    "broadcast": N_("the broadcast overlay (every card, delayed)"),
}
TITLE = N_("Scan to join the table")
LEFT_OFF = N_("The TL's and the broadcast's codes are not on this sheet: those views show hidden cards.")
NOT_ON_SHEET = N_("not on the printed sheet: shows hidden cards")
KEEP = N_("Keep this sheet at the table. A new sheet: chicago-table setup.")


@dataclass(frozen=True, slots=True)
class JoinLink:
    view: str  # a role, or "protocol"
    url: str

    @property
    def on_sheet(self) -> bool:
        return self.view not in HIDDEN_CARD_VIEWS

    def qr(self) -> segno.QRCode:
        return segno.make(self.url, error="m", micro=False)


def join_links(base: str, tokens: RoleTokens) -> list[JoinLink]:
    """Every view's address with its token (the dashboard's own list)."""
    return [JoinLink(view, url) for view, url in view_urls(base.rstrip("/"), tokens)]


def both(text: str, **params: str) -> str:
    """Swedish / English."""
    sv, en = tr(text, "sv", **params), tr(text, "en", **params)
    return sv if sv == en else f"{sv} / {en}"


def print_join_codes(links: Sequence[JoinLink], out: TextIO) -> None:
    """Each view's address and its QR code on the terminal (every view: the person at the
    terminal sets the table up)."""
    for link in links:
        note = "" if link.on_sheet else f"  ({both(NOT_ON_SHEET)})"
        print(f"{both(VIEW_NAMES[link.view])}: {link.url}{note}", file=out)
        link.qr().terminal(out=out, compact=True, border=2)
        print(file=out)
    out.flush()


def join_sheet_pdf(table: str, links: Sequence[JoinLink]) -> bytes:
    """One A4 page: the table's name and a QR code per view that may be printed."""
    shown = [link for link in links if link.on_sheet]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle(f"{table}: {tr(TITLE, 'sv')}")
    w, h = A4
    margin = 40
    c.setFont("Helvetica-Bold", 26)
    c.drawString(margin, h - margin - 22, table)
    c.setFont("Helvetica", 13)
    c.drawString(margin, h - margin - 44, both(TITLE))
    cols, rows = 2, max(1, (len(shown) + 1) // 2)
    top = h - margin - 70
    cell_w = (w - 2 * margin) / cols
    cell_h = (top - margin - 50) / rows
    size = min(cell_w - 40, cell_h - 95)
    for i, link in enumerate(shown):
        x0 = margin + (i % cols) * cell_w
        y_top = top - (i // cols) * cell_h
        c.setFont("Helvetica-Bold", 15)
        c.drawString(x0 + 10, y_top - 18, both(VIEW_NAMES[link.view]))
        y = y_top - 31
        for lang, font in (("sv", "Helvetica"), ("en", "Helvetica-Oblique")):
            c.setFont(font, 8)
            for line in _wrap(c, tr(HINTS[link.view], lang), cell_w - 20, font, 8):
                c.drawString(x0 + 10, y, line)
                y -= 10
        _draw_qr(c, link.qr(), x0 + (cell_w - size) / 2, y_top - 72 - size, size)
        c.setFont("Courier", 6)
        c.drawString(x0 + 10, y_top - 80 - size, _fit(c, link.url, cell_w - 20, "Courier", 6))
    y = margin + 40
    for text in (LEFT_OFF, KEEP):
        for lang, font in (("sv", "Helvetica"), ("en", "Helvetica-Oblique")):
            c.setFont(font, 9)
            c.drawString(margin, y, _fit(c, tr(text, lang), w - 2 * margin, font, 9))
            y -= 11
    c.showPage()
    c.save()
    return buf.getvalue()


def _wrap(c: canvas.Canvas, text: str, width: float, font: str, size: float, most: int = 2) -> list[str]:
    """``text`` in lines that fit ``width``, at most ``most`` (the last cut with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        if lines and c.stringWidth(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = lines[: most - 1] + [_fit(c, " ".join(lines[most - 1 :]), width, font, size)]
    return lines


def _fit(c: canvas.Canvas, text: str, width: float, font: str = "Helvetica", size: float = 8.5) -> str:
    if c.stringWidth(text, font, size) <= width:
        return text
    while text and c.stringWidth(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text + "\u2026"


def _draw_qr(c: canvas.Canvas, qr: segno.QRCode, x: float, y: float, size: float) -> None:
    """The code's dark modules as filled squares, its quiet zone (4 modules) around."""
    border = 4
    n = qr.symbol_size(border=border)[0]
    m = size / n
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(qr.matrix_iter(scale=1, border=border)):
        start = None
        for col, dark in enumerate([*row, 0]):  # runs of dark modules as one rectangle
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                c.rect(x + start * m, y + size - (r + 1) * m, (col - start) * m, m, stroke=0, fill=1)
                start = None
