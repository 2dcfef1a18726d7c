"""Swedish first, English second (issue 18): one catalogue the pages and the server share.

The catalogue's shipped ``.mo`` is the compiled ``.po``; every text the code marks
(Python ``N_``/errors, the pages' ``t()``/``tn()``) has its Swedish; the server answers in
the page's language; browser navigation to a page it cannot open gets an HTML page that
says what to do, the API keeps JSON.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
from babel.messages.pofile import read_po

from dashboard.i18n import LOCALE, REASONS, catalogue, tr, tr_reason
from dashboard.i18n_update import compiled

ROOT = Path(__file__).resolve().parents[2]

PO = LOCALE / "sv" / "LC_MESSAGES" / "messages.po"
HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def _swedish() -> dict:
    with PO.open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale="sv") if m.id}


def test_the_shipped_mo_is_the_compiled_po():
    assert (LOCALE / "sv" / "LC_MESSAGES" / "messages.mo").read_bytes() == compiled(PO), "run: make i18n"


def test_every_marked_text_has_its_swedish(tmp_path):
    """Extracted afresh from the sources: a new English text without Swedish fails here."""
    pot = tmp_path / "messages.pot"
    make = (ROOT / "Makefile").read_text()
    sources = make.split("I18N_SOURCES :=", 1)[1].split("\ni18n:", 1)[0].replace("\\\n", " ").split()
    files = sorted({str(p.relative_to(ROOT)) for s in sources for p in ROOT.glob(s)})
    assert "dashboard/static/revisor.js" in files and "dashboard/hub.py" in files
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "N_",
            "-k",
            "t",
            "-k",
            "tn:1,2",
            "-k",
            "DashboardError",
            "-k",
            "Refused",
            "-k",
            "Denied:2",
            "--no-location",
            "-o",
            str(pot),
            *files,
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        wanted = [m.id for m in read_po(f) if m.id]
    sv = _swedish()
    assert len(wanted) > 200
    missing = [w for w in wanted if not (sv.get(w) if isinstance(w, str) else all(sv.get(w) or ()))]
    assert not missing, missing


def test_rules_words_and_reasons_in_swedish():
    sv = catalogue("sv")["messages"]
    assert sv["draw stop"] == "köpstopp" and sv["Chicago broken"] == "Chicago sprucken"
    assert sv["last trick with a two"] == "sista sticket med en tvåa"
    assert tr("Särspel between {players}", "sv", players="Anna, Bo") == "Särspel mellan Anna, Bo"
    assert sv["{n} card"] == ["{n} kort", "{n} kort"]
    # every engine reason the catalogue knows comes back in Swedish with its names put back
    for template in REASONS:
        english = template.format(
            player="Bo", next="Anna", card="7H", n=2, limit=4, score=50, phase="tricks", players="Anna, Bo"
        )
        swedish = tr_reason(english, "sv")
        assert swedish != english and "Bo" in swedish if "{player}" in template else swedish != english, template
    assert tr_reason("it is not Cilla's turn to play", "sv") == "det är inte Cillas tur att spela"
    assert tr_reason("something new", "sv") == "something new"  # unknown: as the engine said it


def test_answers_in_the_page_s_language_and_error_pages_for_browsers(make_server):
    s = make_server(command="serve")
    tl = s.token("tl")
    r = httpx.post(f"{s.base}/api/action?token={tl}", json={"do": "game", "seats": ["A"], "button": "A"})
    assert r.status_code == 422 and r.json()["error"].startswith("Avvisad:")  # Swedish by default
    r = httpx.post(f"{s.base}/api/action?token={tl}&lang=en", json={"do": "game", "seats": ["A"], "button": "A"})
    assert r.status_code == 422 and r.json()["error"].startswith("Rejected:")
    r = httpx.post(f"{s.base}/api/pause?token={s.token('revisor')}", json={})
    assert r.status_code == 403 and r.json()["error"] == "Rollen Revisor får inte göra detta."
    # the pages' catalogue, as JSON and as the script the pages load first
    assert httpx.get(f"{s.base}/api/i18n?token={s.token('public')}").json()["messages"]["Pause"] == "Paus"
    assert httpx.get(f"{s.base}/api/i18n?token={s.token('public')}&lang=en").json() == {"lang": "en", "messages": {}}
    js = httpx.get(f"{s.base}/static/i18n.js?token={s.token('dealer')}")
    assert js.status_code == 200 and js.text.startswith('"use strict";\nconst I18N = {"lang": "sv"')
    assert httpx.get(f"{s.base}/static/i18n.js").status_code == 401
    # browser navigation: HTML that says what to do; the API keeps JSON
    for path, status, words in (
        ("/revisor", 401, "?token="),
        ("/revisor?token=nope", 401, "Länkens token"),
        (f"/tl?token={s.token('revisor')}", 403, "Varje roll har sin egen länk"),
        (f"/nowhere?token={tl}", 404, "/revisor, /tl"),
        ("/", 401, "QR-koden"),
    ):
        r = httpx.get(s.base + path, headers=HTML)
        assert r.status_code == status and r.headers["content-type"].startswith("text/html"), path
        assert '<html lang="sv">' in r.text and words in r.text and "<script" not in r.text, (path, r.text)
        assert "script-src" not in r.headers["content-security-policy"]  # no script may run at all
        j = httpx.get(s.base + path)  # a client that does not ask for HTML
        assert j.status_code == status and "error" in j.json(), path
    r = httpx.get(f"{s.base}/revisor?lang=en", headers=HTML)
    assert r.status_code == 401 and '<html lang="en">' in r.text and "Open the link or QR code" in r.text
    assert httpx.get(f"{s.base}/api/history", headers=HTML).headers["content-type"] == "application/json"
    # the page itself: the language and the catalogue script
    page = httpx.get(f"{s.base}/dealer?token={s.token('dealer')}&lang=en").text
    assert '<html lang="en">' in page and "/static/i18n.js?lang=en&amp;token=" in page
    assert '<html lang="sv">' in httpx.get(f"{s.base}/dealer?token={s.token('dealer')}&lang=xx").text
