"""The official protocol as a form (issue 19): header, Swedish words, every penalty with
its reason, warnings and TL corrections marked, the table's result page, and nothing
drawn over anything else."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from dashboard.scoresheet.head import ZONE, Player, SheetHead
from dashboard.scoresheet.notes import facts_from_script
from dashboard.scoresheet.pdf import scoresheet_pdf, tiebreaks
from table_controller.rules.replay import read_script, replay_lines
from table_controller.store import SQLiteStore
from table_controller.store.recorder import TableRecorder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "table_controller" / "examples"
START = dt.datetime(2026, 5, 16, 10, 30, tzinfo=ZONE).timestamp()  # a Saturday morning at the SM

# TL decisions written into the chicago_won example after its first adjust (r19, §11)
EXTRA = [
    '{"do": "penalty", "player": "Cilla", "kind": "warning", "reason": "pratade under given"}',
    '{"do": "adjust", "player": "Bo", "points": -4, "reason": "fel i protokollet"}',
    '{"do": "adjust", "player": "Dan", "points": 6, "reason": "räknefel"}',
    '{"do": "penalty", "player": "Dan", "kind": "points", "points": 2, "reason": "visade kort"}',
]


def tl_script() -> list[str]:
    lines = (EXAMPLES / "chicago_won.jsonl").read_text().splitlines()
    i = next(i for i, x in enumerate(lines) if '"adjust"' in x) + 1
    return lines[:i] + EXTRA + lines[i:]


def write_log(path: Path, lines: list[str]) -> None:
    t = itertools.count()
    store = SQLiteStore.open(path, create=True, clock=lambda: START + 20 * next(t))  # 20 s a record
    recorder = TableRecorder(store)
    for _, action in read_script(lines):
        recorder.apply(action)
    store.close()


def pages(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def strings(page) -> list[dict]:
    """Every string the page draws (each Tj of the content stream), with its box in PDF
    coordinates from the font's own widths: two strings drawn edge to edge stay two."""
    from pypdf.generic import ContentStream
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fonts = {k: str(v.get_object()["/BaseFont"])[1:] for k, v in page["/Resources"].get("/Font", {}).items()}
    out, font, size, lead = [], "Helvetica", 10.0, 0.0
    x = y = lx = ly = 0.0
    ox = oy = 0.0  # translation by cm (ReportLab translates, never scales, text)
    stack = []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"q":
            stack.append((ox, oy))
        elif op == b"Q" and stack:
            ox, oy = stack.pop()
        elif op == b"cm":
            ox, oy = ox + float(operands[4]), oy + float(operands[5])
        elif op == b"Tf":
            font, size = fonts.get(operands[0], "Helvetica"), float(operands[1])
        elif op == b"TL":
            lead = float(operands[0])
        elif op == b"Tm":
            x = lx = float(operands[4])
            y = ly = float(operands[5])
        elif op == b"Td":
            lx, ly = lx + float(operands[0]), ly + float(operands[1])
            x, y = lx, ly
        elif op == b"T*":
            ly -= lead
            x, y = lx, ly
        elif op in (b"Tj", b"TJ"):
            parts = operands[0] if op == b"TJ" else [operands[0]]
            text = "".join(
                p.get_original_bytes().decode("cp1252") if hasattr(p, "get_original_bytes") else str(p)
                for p in parts
                if not isinstance(p, (int, float))
            )
            wd = stringWidth(text, font, size)
            if text.strip():
                out.append(
                    {
                        "x0": ox + x,
                        "x1": ox + x + wd,
                        "y0": oy + y - 0.21 * size,
                        "y1": oy + y + 0.72 * size,
                        "text": text,
                    }
                )
            x += wd
    return out


def overlaps(data: bytes, gap: float = 1.0) -> list[tuple]:
    """Pairs of drawn strings on a page whose boxes intersect or come closer than ``gap``
    side by side (text running together: "PlacePl. points")."""
    found = []
    for n, page in enumerate(pypdf.PdfReader(io.BytesIO(data)).pages, start=1):
        for a, b in itertools.combinations(strings(page), 2):
            if a["x0"] < b["x1"] + gap and b["x0"] < a["x1"] + gap and a["y0"] < b["y1"] and b["y0"] < a["y1"]:
                found.append((n, a["text"], b["text"]))
    return found


def line_boxes(data: bytes) -> list[tuple]:
    """Strings laid over a tally mark (a short upright stroke): "82 marks" on a fence."""
    found = []
    reader = pypdf.PdfReader(io.BytesIO(data))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for n, (page, ppage) in enumerate(zip(pdf.pages, reader.pages), start=1):
            marks = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 6 and ln["height"] > 8]
            for st in strings(ppage):
                for ln in marks:
                    if st["x0"] - 1 < ln["x0"] < st["x1"] + 1 and st["y0"] < ln["y1"] and ln["y0"] < st["y1"]:
                        found.append((n, st["text"]))
    return found


def test_header_holds_event_heat_table_date_time_and_player_ids__s12(tmp_path):
    log = tmp_path / "bord7.sqlite"
    write_log(log, tl_script())
    players = tmp_path / "players.csv"
    players.write_text("Anna,BK Spader,S-101\nBo,Chicagoklubben Malmö,S-202\nCilla,,S-303\n", encoding="utf-8")
    out = tmp_path / "p.pdf"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "table_controller.app.cli",
            "protocol",
            str(log),
            "-o",
            str(out),
            "--event",
            "SM i Chicago 2026",
            "--heat",
            "2",
            "--table",
            "7",
            "--players",
            str(players),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    first = [x.strip() for x in pages(data)[0].splitlines()]
    for label, value in (("Tävling:", "SM i Chicago 2026"), ("Heat:", "2"), ("Bord:", "7"), ("Datum:", "2026-05-16")):
        assert first[first.index(label) + 1] == value, (label, first[:20])
    assert first[first.index("Tid:") + 1].startswith("10:3")  # the game's own start time, local
    assert "S-101 \u00b7 BK Spader" in first and "S-202 \u00b7 Chicagoklubben Malmö" in first and "S-303" in first
    # the PDF's creation date is the game's, not ReportLab's fixed 2000, and stays reproducible
    info = pypdf.PdfReader(io.BytesIO(data)).metadata
    assert info["/CreationDate"].startswith("D:20260516103")
    assert info["/Creator"] == info["/Author"] == "chicago-table"  # not "anonymous" (stop 72's audit)
    again = tmp_path / "q.pdf"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "table_controller.app.cli",
            "protocol",
            str(log),
            "-o",
            str(again),
            "--event",
            "SM i Chicago 2026",
            "--heat",
            "2",
            "--table",
            "7",
            "--players",
            str(players),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    assert again.read_bytes() == data
    assert not overlaps(data)


def test_penalties_warnings_and_corrections_are_marked_with_their_reasons__r19_s11():
    lines = tl_script()
    _, doc = replay_lines(lines)
    text = " ".join(pages(scoresheet_pdf(doc, facts=facts_from_script(lines)))[0].split())
    assert "Giv 1, Cilla: Varning: \u201dpratade under given\u201d" in text
    assert "Giv 1, Dan: Straff \u2013 poängavdrag -2: \u201dvisade kort\u201d" in text
    assert "Giv 1, Dan: TL-rättelse +6: \u201dräknefel\u201d" in text
    # Bo had 0: the correction asked -4 and the floor kept him at 0 (r19): said so, never "+0"
    assert "Giv 1, Bo: TL-rättelse -4, verkställt 0" in text
    assert "+0" not in text and "adjust" not in text and "_" not in text  # no snake_case reasons
    deals = text.split("Giv för giv")[1]
    assert "Bo TL-RÄTTELSE -4 (verkställt 0" in deals and "Dan STRAFF -2" in deals
    assert "Anna +15 vann Chicago" in deals


def test_a_voided_rulings_correction_says_so_in_words_not_the_logs_number__s11():
    # the correction the hub makes when the TL voids a ruling (TableHub.void): its reason
    # names the ruling's record in the log, which no one at the table can read off the paper
    from dashboard.scoresheet.words import VOID_REASON

    back = VOID_REASON.format(ruling=123, reason="fel spelare")
    lines = tl_script()
    i = lines.index(EXTRA[-1]) + 1
    lines = [*lines[:i], f'{{"do": "adjust", "player": "Dan", "points": 2, "reason": "{back}"}}', *lines[i:]]
    _, doc = replay_lines(lines)
    for lang, said in (
        ("sv", "Giv 1, Dan: TL-rättelse +2 (upphäver ett tidigare TL-beslut): \u201dfel spelare\u201d"),
        ("en", "Deal 1, Dan: TL correction +2 (voids an earlier TL ruling): \u201dfel spelare\u201d"),
    ):
        text = " ".join(pages(scoresheet_pdf(doc, facts=facts_from_script(lines), lang=lang))[0].split())
        assert said in text and "123" not in text and "void" not in text.replace("voids an", ""), text


def test_automatic_penalties_and_revoke_warning_are_marked__r26():
    lines = (EXAMPLES / "revoke.jsonl").read_text().splitlines()
    _, doc = replay_lines(lines)
    text = "\n".join(pages(scoresheet_pdf(doc, facts=facts_from_script(lines))))
    assert "Varning \u2013 bekände inte färg (r26)" in text


def test_summary_page_places_totals_and_who_goes_on__r8_r11():
    lines = (EXAMPLES / "full_table.jsonl").read_text().splitlines()
    _, doc = replay_lines(lines)
    data = scoresheet_pdf(doc, facts=facts_from_script(lines), info=SheetHead(event="SM", heat="1", table="3"))
    summary = pages(data)[-1]
    assert summary.startswith("Bordets resultat \u2013 bord 3")  # a table numbered: "bord 3"
    assert "SM 2025 (reglerna från juni 2025)" in summary and "sm2025" not in summary  # the rules by name
    named = scoresheet_pdf(doc, facts=facts_from_script(lines), info=SheetHead(event="SM", heat="1", table="Bord 7"))
    assert pages(named)[-1].startswith("Bordets resultat \u2013 Bord 7")  # not "bord Bord 7"
    rows = [x.strip() for x in summary.splitlines()]
    for s in doc["table"]["standings"]:
        i = rows.index(s["player"])
        assert rows[i - 1] == f"{s['rank']}."
        cells = [f"{g['places'][s['player']]} / {g['placement_points'][s['player']]}" for g in doc["games"]]
        assert rows[i + 1 : i + 1 + len(cells)] == cells
        assert rows[i + 1 + len(cells) : i + 4 + len(cells)] == [
            str(s["placement_points"]),
            str(s["score_total"]),
            str(s["won_chicagos"]),
        ]
    assert "Går vidare: Anna, Dan" in summary  # r7: heat 1, the top two
    assert not overlaps(data) and not line_boxes(data)


def test_tiebreaks_are_explained__r11():
    st = [
        {"player": "Bo", "rank": 1, "placement_points": 32, "score_total": 80, "won_chicagos": 0},
        {"player": "Anna", "rank": 2, "placement_points": 32, "score_total": 70, "won_chicagos": 2},
        {"player": "Cilla", "rank": 3, "placement_points": 25, "score_total": 70, "won_chicagos": 1},
        {"player": "Dan", "rank": 4, "placement_points": 25, "score_total": 70, "won_chicagos": 0},
    ]
    # each figure named (stop 70: "Bo (0, 19, 0)" said nothing of what the three numbers were)
    assert tiebreaks(st) == [
        "Bo (32 omgångspoäng, 80 sidopoäng, 0 vunna Chicago): före Anna på total sidopoäng (r11)",
        "Cilla (25 omgångspoäng, 70 sidopoäng, 1 vunna Chicago): före Dan på vunna Chicago (r11)",
    ]
    st[3]["won_chicagos"] = 1
    assert (
        tiebreaks(st, "en")[1]
        == "Cilla (25 placement points, 70 score, 1 won Chicagos): ahead of Dan after the playoff (r11)"
    )


@pytest.mark.parametrize("lang", ["sv", "en"])
@pytest.mark.parametrize("example", ["full_table", "chicago_broken", "out_without_chicago", "revoke"])
def test_no_text_overlaps_another_or_a_tally__s12(example, lang):
    lines = (EXAMPLES / f"{example}.jsonl").read_text().splitlines()
    _, doc = replay_lines(lines)
    data = scoresheet_pdf(
        doc,
        facts=facts_from_script(lines),
        lang=lang,
        info=SheetHead(
            event="Svenska mästerskapen i Chicago 2026, Stockholm",
            heat="1",
            table="12",
            players={"Anna": Player("S-1", "Sällskapet Spader")},
        ),
    )
    assert not overlaps(data)
    assert not line_boxes(data)


def test_overlap_check_finds_text_running_together():
    """The check itself: the old header "PlacePl. points" is caught."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    c.setFont("Helvetica-Bold", 10)
    c.drawRightString(510, 700, "Place")
    c.drawRightString(555, 700, "Pl. points")
    c.save()
    assert overlaps(buf.getvalue())


def test_the_server_prints_the_form_with_the_logs_decisions_and_date(make_server):
    """/api/protocol.pdf on a real server: the TL's decisions and the game's date come from
    the table's log; English with ?lang=en."""
    import json

    import httpx

    s = make_server(command="serve")
    # a TL's reason that names a card: the blind roles' form says "(kort)" instead
    lines = [x.replace("visade kort", "visade KH av misstag") for x in tl_script()]
    for line in lines:
        if line.strip() and not line.startswith("#"):
            r = httpx.post(f"{s.base}/api/action", params={"token": s.token("tl")}, json=json.loads(line), timeout=10)
            assert r.status_code == 200 and r.json()["ok"], (line, r.text)
    r = httpx.get(f"{s.base}/api/protocol.pdf", params={"token": s.token("public")}, timeout=20)
    assert r.status_code == 200
    text = " ".join("\n".join(pages(r.content)).split())
    assert "Status: Pågår" in text and "Loggens huvud" not in text  # still playing: no head yet
    assert "Giv 1" in text and "Cilla: Varning: \u201dpratade under given\u201d" in text
    assert "Straff \u2013 poängavdrag -2: \u201dvisade (kort) av misstag\u201d" in text and "Datum:" in text
    assert "KH" not in text
    tl = httpx.get(f"{s.base}/api/protocol.pdf", params={"token": s.token("tl")}, timeout=20)
    assert "visade KH av misstag" in " ".join("\n".join(pages(tl.content)).split())
    assert "Bordets resultat" in text and not overlaps(r.content)
    en = httpx.get(f"{s.base}/api/protocol.pdf", params={"token": s.token("public"), "lang": "en"}, timeout=20)
    assert "Warning: \u201dpratade under given\u201d" in " ".join("\n".join(pages(en.content)).split())


def test_long_names_clubs_and_event_never_run_into_the_next_column():
    import copy
    import json as _json

    sys.path.insert(0, str(Path(__file__).parent))
    from test_scoresheet import HAND_DOC

    long = {"Anna": "Anna-Karin Bergström-Lindqvist af Ekebyholm", "Bo": "Bo", "Cilla": "Cilla Wennerholm-Åkerlund"}
    text = _json.dumps(HAND_DOC)
    for short, full in long.items():
        text = text.replace(f'"{short}"', _json.dumps(full))
    doc = _json.loads(text)
    info = SheetHead(
        event="Svenska mästerskapen i Chicago 2026, final, Stockholms Stadshus, Gyllene salen",
        heat="Finalheat 3 (kvällspasset)",
        table="Bord 12 vid fönstret mot Riddarfjärden",
        players={long["Anna"]: Player("SWE-2026-000123", "Sällskapet för Kortspel och Schack i Ekebyholm")},
    )
    for lang in ("sv", "en"):
        data = scoresheet_pdf(copy.deepcopy(doc), info=info, lang=lang)
        assert not overlaps(data) and not line_boxes(data)
        assert "Bo" in pages(data)[0]


def test_a_finished_tables_form_carries_the_logs_final_head_for_every_reader(make_server, tmp_path):
    """Issue 20 item 4 on the table's own server: once the table is over, the protocol
    printed from the dashboard carries the log's final chain head and its QR code beside
    the sign-off, as ``chicago-table protocol --head`` prints it; ``log verify`` checks a
    log against it."""
    import httpx

    from table_controller.app.cli import main
    from tests.tournament.test_witness import _qr_text

    data = tmp_path / "table0"
    data.mkdir(mode=0o700)
    script = Path(__file__).resolve().parents[2] / "table_controller" / "examples" / "full_table.jsonl"
    assert main(["log", "import", str(script), "--db", str(data / "table.sqlite")]) == 0
    s = make_server(command="serve")
    imported = s.head()["seq"]
    for role in ("public", "revisor", "tl"):
        before = s.head()["seq"]
        r = httpx.get(f"{s.base}/api/protocol.pdf", params={"token": s.token(role)}, timeout=30)
        after = s.head()["seq"]
        text = " ".join("\n".join(pages(r.content)).split())
        printed = re.search(r"Loggens huvud: post (\d+), ([0-9a-f]+)", text)
        assert printed, (role, text[-300:])
        seq, digest = int(printed[1]), printed[2]
        # the head as the PDF was made: the server may write a record (a clock snapshot, an
        # audit) around the request, so it is the head before, after or in between
        assert imported <= before <= seq <= after and s.head(seq) == {"seq": seq, "digest": digest}, role
        out = tmp_path / f"{role}.pdf"
        out.write_bytes(r.content)
        assert _qr_text(out) == f"chicago-log-head|{seq}|{digest}", role


def test_summary_page_shows_the_sarspel_and_who_won_it__r11_s12():
    """The table result page of a table decided by a särspel (issue 19 item 3): the tie,
    the särspel between the tied players, its score, the order it gave and who goes on."""
    from tests.rules.test_rules_pinned import dead_deal, two_tied_at_the_top

    s = two_tied_at_the_top().game(seats=["A", "B"], button="B")
    s.deal(A="2C 3D 4S 6D 8C", B="AS AH QS JS 9H").stand("A", "B")  # B's pair: 1-0
    s.add(do="time_call", player="A").add(do="time_call", player="B")
    dead_deal(s)
    dead_deal(s)
    lines = s.text()
    _, doc = replay_lines(lines)
    assert doc["table"]["finished"] and doc["table"]["advancing"] == ["B", "A"]
    data = scoresheet_pdf(doc, facts=facts_from_script(lines), info=SheetHead(event="SM", heat="1", table="3"))
    rows = [x.strip() for x in pages(data)[-1].splitlines()]
    assert "Särspel" in rows and "Särspel mellan A, B: 3 givar utan Chicago (r11)" in rows, rows
    assert "A 0, B 1" in rows  # the särspel's own score, outside the table's totals
    assert "B (42 omgångspoäng, 57 sidopoäng, 0 vunna Chicago): före A efter särspel (r11)" in rows
    assert "Går vidare: B, A" in rows
    assert not overlaps(data) and not line_boxes(data)
    (ROOT / "build").mkdir(exist_ok=True)
    (ROOT / "build" / "protocol-sarspel.pdf").write_bytes(data)  # to be looked at (pdftoppm)


PLAYERS_CSV = (
    "# namn,klubb,id\nAnna,BK Spader,S-101\nBo,Chicagoklubben Malmö,S-202\nCilla,,S-303\nDan,Kortklubben Norr\n"
)


def test_the_servers_form_carries_the_configs_round_ids_and_clubs(make_server, tmp_path):
    """Issue 19 item 3 on the table's own server: the round and the players' ids and clubs
    of ``[event]`` (here as serve's flags ``--round`` and ``--players-csv``) are in the
    header of the PDF the server prints, beside the heat, and nothing overlaps."""
    import json

    import httpx

    players = tmp_path / "players.csv"
    players.write_text(PLAYERS_CSV, encoding="utf-8")
    flags = ("--event-name", "SM i Chicago 2026", "--heat", "2", "--round", "Kvartsfinal")
    s = make_server(command="serve", extra=(*flags, "--players-csv", str(players)))
    for line in tl_script():
        if line.strip() and not line.startswith("#"):
            r = httpx.post(f"{s.base}/api/action", params={"token": s.token("tl")}, json=json.loads(line), timeout=10)
            assert r.status_code == 200 and r.json()["ok"], (line, r.text)
    for lang, label in (("sv", "Rond:"), ("en", "Round:")):
        r = httpx.get(f"{s.base}/api/protocol.pdf", params={"token": s.token("public"), "lang": lang}, timeout=30)
        assert r.status_code == 200
        first = [x.strip() for x in pages(r.content)[0].splitlines()]
        assert first[first.index(label) + 1] == "Kvartsfinal", first[:20]
        assert first[first.index("Heat:") + 1] == "2"
        # the round is on the heat's line: the two strings share a baseline
        drawn = strings(pypdf.PdfReader(io.BytesIO(r.content)).pages[0])
        heat, rnd = (next(x for x in drawn if x["text"] == t) for t in ("Heat:", label))
        assert abs(heat["y0"] - rnd["y0"]) < 0.5 and rnd["x0"] > heat["x1"], (heat, rnd)
        assert "S-101 \u00b7 BK Spader" in first and "S-202 \u00b7 Chicagoklubben Malmö" in first, first
        assert "S-303" in first and "Kortklubben Norr" in first
        assert not overlaps(r.content) and not line_boxes(r.content)
        (ROOT / "build").mkdir(exist_ok=True)
        (ROOT / "build" / f"protocol-server-{lang}.pdf").write_bytes(r.content)  # to be looked at (pdftoppm)


@pytest.mark.parametrize(
    "text, message",
    [
        ("Anna,BK Spader,S-101\nBo,Malmö,S-2,extra\n", "line 2: expected name,club[,id], got 4 fields"),
        ("Anna,BK Spader\n\nAnna,Malmö\n", "line 3: 'Anna' is on an earlier line already"),
        # not UTF-8 and not Windows-1252 either (0x81 is no character there): a file saved
        # in Windows-1252 is read since stop 65 (Excel's "CSV" on a Swedish Windows)
        (b"Anna,\x81\n", "not a text file"),
    ],
)
@pytest.mark.parametrize("command", ["serve", "demo"])
def test_a_bad_players_file_stops_the_server_naming_the_file_and_line(tmp_path, text, message, command):
    players = tmp_path / "players.csv"
    if isinstance(text, bytes):
        players.write_bytes(text)
    else:
        players.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", command, "--data", str(tmp_path / "d")]
        + ["--port", "1", "--players-csv", str(players)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr, out
    assert f"{players}: {message}" in out.stderr, out.stderr
    assert not (tmp_path / "d").exists()  # nothing started


def test_the_protocol_commands_round_is_beside_the_heat(tmp_path):
    log = tmp_path / "bord7.sqlite"
    write_log(log, tl_script())
    out = tmp_path / "p.pdf"
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "protocol", str(log), "-o", str(out)]
        + ["--heat", "3", "--round", "Semifinal", "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    first = [x.strip() for x in pages(out.read_bytes())[0].splitlines()]
    assert first[first.index("Round:") + 1] == "Semifinal" and first[first.index("Heat:") + 1] == "3"
    assert not overlaps(out.read_bytes())
