"""The printable protocol (RULES.md §12): tally marks, circles, stars, totals, places."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdf
import pytest

from dashboard.errors import DashboardError
from dashboard.scoresheet.model import fences, game_sheet
from dashboard.scoresheet.pdf import scoresheet_pdf
from dashboard.scoresheet.svg import game_svg, scoresheet_html
from table_controller.rules.replay import replay_lines

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "table_controller" / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def _award(player, points, reason="one_pair", moment="exchange_1"):
    return {"player": player, "points": points, "reason": reason, "moment": moment}


# A game written by hand: Bo says Chicago twice, wins one; Cilla loses one (-15).
HAND_DOC = {
    "ruleset": "sm2025",
    "games": [
        {
            "number": 1,
            "finished": True,
            "winner": "Bo",
            "scores": {"Anna": 31, "Bo": 57, "Cilla": 0},
            "said_chicago": ["Bo", "Cilla"],
            "won_chicagos": {"Bo": 1},
            "out_without_chicago": [],
            "places": {"Bo": 1, "Anna": 2, "Cilla": 3},
            "placement_points": {"Bo": 20, "Anna": 12, "Cilla": 8},
            "deals": [
                {
                    "number": 1,
                    "button": "Cilla",
                    "scores_after": {"Anna": 31, "Bo": 42, "Cilla": 15},
                    "awards": [
                        _award("Anna", 31, "adjust", "tl"),
                        _award("Bo", 42, "adjust", "tl"),
                        _award("Cilla", 15, "adjust", "tl"),
                    ],
                },
                {
                    "number": 2,
                    "button": "Anna",
                    "scores_after": {"Anna": 31, "Bo": 57, "Cilla": 0},
                    "awards": [
                        _award("Cilla", -15, "chicago_lost", "tricks"),
                        _award("Bo", 15, "chicago_won", "tricks"),
                    ],
                },
            ],
        }
    ],
}


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def test_fences_of_five__r9():
    assert fences(0) == [] and fences(4) == [4] and fences(5) == [5] and fences(12) == [5, 5, 2]


def test_rows_of_a_hand_written_game__r9_r10():
    g = game_sheet(HAND_DOC["games"][0])
    rows = {r.name: r for r in g.rows}
    assert rows["Bo"].marks == 57 and rows["Bo"].minus == 0 and rows["Bo"].stars == 1
    assert rows["Cilla"].marks == 15 and rows["Cilla"].minus == 15 and rows["Cilla"].said_chicago
    assert not rows["Anna"].said_chicago and rows["Anna"].stars == 0


def test_pdf_holds_totals_marks_and_placement_points__s12():
    text = pdf_text(scoresheet_pdf(HAND_DOC))  # Swedish words by default (RULES.md §1)
    assert "Protokoll \u2013 omgång 1 av 3" in text and "Vinnare: Bo" in text
    for needle in (
        "57 streck",
        "31 streck",
        "15 streck",
        "avdrag 15",
        "Sade Chicago (ringad): Bo, Cilla",
        "Revisor: underskrift",
        "TL: underskrift",
    ):
        assert needle in text, needle
    # each player's block: name, stars, marks, (minus), score, place, placement points
    lines = [x.strip() for x in text.splitlines()]
    assert lines[lines.index("Anna") :][:5] == ["Anna", "31 streck", "31", "2", "12"]
    assert lines[lines.index("Bo") :][:6] == ["Bo", "*", "57 streck", "57", "1", "20"]
    assert lines[lines.index("Cilla") :][:6] == ["Cilla", "15 streck", "avdrag 15", "0", "3", "8"]


def test_pdf_in_english_on_request__s12():
    text = pdf_text(scoresheet_pdf(HAND_DOC, lang="en"))
    for needle in (
        "Protocol \u2013 game 1 of 3",
        "Winner: Bo",
        "57 marks",
        "minus 15",
        "Said Chicago (circled): Bo, Cilla",
        "Revisor: signature",
        "Table result",
    ):
        assert needle in text, needle
    with pytest.raises(ValueError):
        scoresheet_pdf(HAND_DOC, lang="de")


def test_pdf_is_byte_identical_for_the_same_protocol():
    assert scoresheet_pdf(HAND_DOC) == scoresheet_pdf(HAND_DOC)


def test_pdf_of_the_chicago_won_example__r10_r23():
    _, doc = replay_lines((EXAMPLES / "chicago_won.jsonl").read_text().splitlines())
    text = pdf_text(scoresheet_pdf(doc))
    assert "35 streck" in text  # 20 (adjust) + 15 (Chicago won)
    assert "Sade Chicago (ringad): Anna" in text
    assert "Anna\n*\n" in text  # one star beside the name


def test_pdf_of_a_full_table_has_every_game_and_its_placement_points__r8():
    _, doc = replay_lines((EXAMPLES / "full_table.jsonl").read_text().splitlines())
    data = scoresheet_pdf(doc)
    text = pdf_text(data)
    for g in doc["games"]:
        head = f"Protokoll \u2013 omgång {g['number']} av 3"
        assert head in text
        page = text.split(head)[1].split("Protokoll \u2013 omgång")[0]
        lines = [x.strip() for x in page.splitlines()]
        for name, score in g["scores"].items():
            marks = sum(a["points"] for d in g["deals"] for a in d["awards"] if a["player"] == name and a["points"] > 0)
            i = lines.index(name)
            block = lines[i : i + 8]
            assert f"{marks} streck" in block, (name, block)
            assert str(score) in block and str(g["places"][name]) in block
            assert str(g["placement_points"][name]) in block, (name, block)


def test_svg_draws_one_stroke_per_mark_and_red_strokes_for_minus():
    svg = ET.fromstring(game_svg(game_sheet(HAND_DOC["games"][0])))
    rows = {g.get("data-player"): g for g in svg.iter(SVG + "g")}
    for name, marks, minus in (("Anna", 31, 0), ("Bo", 57, 0), ("Cilla", 15, 15)):
        lines = [x.get("class") for x in rows[name].iter(SVG + "line")]
        assert sum(1 for c in lines if c.startswith("mark") and "minus" not in c) == marks
        assert sum(1 for c in lines if c.startswith("mark minus")) == minus
    circled = {n for n, g in rows.items() if list(g.iter(SVG + "ellipse"))}
    assert circled == {"Bo", "Cilla"}
    stars = {
        n: "".join(t.text or "" for t in g.iter(SVG + "text") if t.get("class") == "star") for n, g in rows.items()
    }
    assert stars == {"Anna": "", "Bo": "\u2605", "Cilla": ""}


def test_bad_document_is_a_clear_error_not_a_traceback():
    with pytest.raises(DashboardError):
        scoresheet_pdf({"ruleset": "sm2025"})
    with pytest.raises(DashboardError):
        scoresheet_html({"games": [{"number": 1}]})
