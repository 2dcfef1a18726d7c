"""The event's results as CSV and as a printable PDF (ReportLab, like the protocol).

    >>> from table_controller.tournament.event import create_event
    >>> from table_controller.tournament.hubstore import HubStore
    >>> from table_controller.tournament.standings import Standings
    >>> hub = HubStore.open("sm2026.hub.sqlite", create=True)
    >>> create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025")
    >>> doc = Standings(hub).document()
    >>> write_csv(doc, "sm2026.csv")          # rows written: no table has played yet
    0
    >>> write_pdf(doc, "sm2026.pdf")
    >>> open("sm2026.csv").readline().strip()
    'heat,table,rank,player,club,placement_points,score_total,won_chicagos,advancing,finished'

One row per player and table: heat, table, rank, placement points, total score, won
Chicagos, whether they go on (r7).  The PDF is byte-identical for the same standings
(``invariant=1``).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from typing import Any

COLUMNS = (
    "heat",
    "table",
    "rank",
    "player",
    "club",
    "placement_points",
    "score_total",
    "won_chicagos",
    "advancing",
    "finished",
)
HEADINGS_SV = (
    "Heat",
    "Bord",
    "Plats",
    "Spelare",
    "Klubb",
    "Placeringspoäng",
    "Poäng",
    "Vunna Chicago",
    "Går vidare",
    "Klart",
)


def rows(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    clubs = doc.get("clubs", {})
    for heat in doc["heats"]:
        for t in heat["tables"]:
            going = set(t.get("advancing", []))
            for s in t.get("standings", []):
                yield {
                    "heat": heat["heat"],
                    "table": t["table"],
                    "rank": s["rank"],
                    "player": s["player"],
                    "club": clubs.get(s["player"], ""),
                    "placement_points": s["placement_points"],
                    "score_total": s["score_total"],
                    "won_chicagos": s["won_chicagos"],
                    "advancing": "ja" if s["player"] in going else "",
                    "finished": "ja" if t["finished"] else "",
                }


def write_csv(doc: dict[str, Any], path: str | os.PathLike) -> int:
    n = 0
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows(doc):
            w.writerow(r)
            n += 1
    return n


def write_pdf(doc: dict[str, Any], path: str | os.PathLike) -> None:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    story: list[Any] = [Paragraph(f"{doc.get('name') or doc.get('event')}: resultat / results", styles["Title"])]
    for heat in doc["heats"]:
        story.append(
            Paragraph(
                f"Heat {heat['heat']}" + ("" if heat["complete"] else " (pågår / in progress)"), styles["Heading2"]
            )
        )
        data = [list(HEADINGS_SV[1:9])]
        for r in rows({**doc, "heats": [heat]}):
            data.append(
                [
                    r["table"],
                    r["rank"],
                    r["player"],
                    r["club"],
                    r["placement_points"],
                    r["score_total"],
                    r["won_chicagos"],
                    r["advancing"],
                ]
            )
        table = Table(data, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                    ("FONTSIZE", (0, 0), (-1, -1), 8),
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ]
            )
        )
        story += [table, Spacer(1, 8)]
        if heat.get("advancing"):
            story.append(Paragraph("Går vidare / advancing: " + ", ".join(heat["advancing"]), styles["Normal"]))
    SimpleDocTemplate(str(path), pagesize=A4, invariant=1, title=f"{doc.get('event')} results").build(story)
