"""Sign-offs on the protocol (issue 19 item 3, RULES.md §12 "Revisorn intygar"): a game the
Revisor and the TL have signed in the app carries the sign-off, with its time, on its
signature lines, in the printed PDF (from the table's own log) and in the app's SVG form;
the table's result page once every game is signed.  The in-app form speaks Swedish first."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from dashboard.scoresheet.head import stamp
from dashboard.scoresheet.notes import facts_from_records
from dashboard.scoresheet.pdf import scoresheet_pdf
from dashboard.scoresheet.svg import scoresheet_html
from table_controller.app.table_files import open_table

from .test_hub import FakeClock
from .test_scoresheet import pdf_text
from .test_scoresheet_form import overlaps
from .test_tl_decisions import _start

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"


async def _finished_game(tmp_path: Path):
    hub, _ = open_table(tmp_path, delay=0, clock=FakeClock())
    await _start(hub)
    for p in ("Anna", "Bo"):  # r21: the game ends with Cilla left
        await hub.post({"do": "adjust", "player": p, "points": 52, "reason": "to the end"}, "tl")
    return hub


def _pages(data: bytes) -> list[str]:
    import io

    import pypdf

    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_signed_game_carries_each_sign_off_and_its_time_on_the_pdf_s12(tmp_path):
    async def run():
        hub = await _finished_game(tmp_path)
        state = hub.view.to_dict()
        doc = {"ruleset": "sm2025", "games": state["games"], "table": state.get("table") or {}}
        unsigned = scoresheet_pdf(doc, facts=facts_from_records(hub.log.records("action", "event", "audit")))
        assert "Signerat i appen" not in pdf_text(unsigned)
        hub.sign(1, "revisor")
        facts = facts_from_records(hub.log.records("action", "event", "audit"))
        assert set(facts.signed[1]) == {"revisor"}
        half = pdf_text(scoresheet_pdf(doc, facts=facts))
        date, time = stamp(facts.signed[1]["revisor"])
        assert half.count(f"Signerat i appen {date} kl. {time}") == 2  # the game's form and the result page
        hub.sign(1, "tl")
        facts = facts_from_records(hub.log.records("action", "event", "audit"))
        data = scoresheet_pdf(doc, facts=facts)
        game_page, summary = _pages(data)[0], _pages(data)[-1]
        assert game_page.count("Signerat i appen") == 2 and summary.count("Signerat i appen") == 2
        assert not overlaps(data)
        english = pdf_text(scoresheet_pdf(doc, facts=facts, lang="en"))
        assert english.count("Signed in the app") == 4
        hub.log.close()

    asyncio.run(run())


def test_protocol_command_prints_the_sign_offs_from_the_log_s12(tmp_path):
    async def run():
        hub = await _finished_game(tmp_path)
        hub.sign(1, "revisor")
        hub.log.close()

    asyncio.run(run())
    out = tmp_path / "p.pdf"
    r = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "protocol", str(tmp_path / "table.sqlite"), "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    first = _pages(out.read_bytes())[0]
    assert first.count("Signerat i appen") == 1  # the Revisor's line; the TL has not countersigned


def test_a_table_result_page_is_signed_only_when_every_game_is_s12(tmp_path):
    from dashboard.scoresheet.notes import LogFacts
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines((ROOT / "table_controller/examples/full_table.jsonl").read_text().splitlines())
    facts = LogFacts(signed={1: {"revisor": 1.8e9}, 2: {"revisor": 1.8e9 + 3600}})
    pages = _pages(scoresheet_pdf(doc, facts=facts))
    assert "Signerat i appen" not in pages[-1]  # game 3 is not signed
    facts.signed[3] = {"revisor": 1.8e9 + 7200}
    pages = _pages(scoresheet_pdf(doc, facts=facts))
    date, time = stamp(1.8e9 + 7200)  # the last of the three sign-offs
    assert f"Signerat i appen {date} kl. {time}" in pages[-1]


def test_app_protocol_is_swedish_first_and_shows_the_sign_offs_s12(tmp_path):
    from table_controller.rules.replay import replay_lines

    _, doc = replay_lines((ROOT / "table_controller/examples/full_table.jsonl").read_text().splitlines())
    sv = scoresheet_html(doc, signed={1: {"revisor": None, "tl": None}, 2: {"revisor": None}})
    svgs = [
        ET.fromstring(s.split(">", 1)[1].rsplit("</section>", 1)[0])
        for s in sv.split('<section class="game-protocol"')[1:]
    ]
    texts = [" ".join(t.text or "" for t in s.iter(SVG + "text")) for s in svgs]
    assert texts[0].startswith("Omgång 1") and "Spelare" in texts[0] and "streck" in texts[0]
    assert "Game" not in texts[0] and "marks" not in texts[0]
    signed = [[t.get("data-signed") for t in s.iter(SVG + "text") if t.get("data-signed")] for s in svgs]
    assert signed == [["revisor", "tl"], ["revisor"], []]
    en = scoresheet_html(doc, lang="en")
    assert "Game 1" in en and "Player" in en and "Omgång" not in en
    assert scoresheet_html({"games": []}) == '<p class="empty">Ingen omgång har startat än.</p>'
