"""Swedish first, English second (issue 18): one catalogue the pages and the server share.

The catalogue's shipped ``.mo`` is the compiled ``.po``; every text the code marks
(Python ``N_``/errors, the pages' ``t()``/``tn()``) has its Swedish; the server answers in
the page's language; browser navigation to a page it cannot open gets an HTML page that
says what to do, the API keeps JSON.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
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


def test_every_t_call_in_the_pages_scripts_has_its_swedish():
    """Every ``t("...")`` and ``tn("...")`` of the pages' scripts, read from the source as
    it is: the extraction above does not see a call inside another's arguments (the TL's
    void question said "score correction" in English on a Swedish page)."""
    import json

    make = (ROOT / "Makefile").read_text()
    sources = make.split("I18N_SOURCES :=", 1)[1].split("\ni18n:", 1)[0].replace("\\\n", " ").split()
    scripts = sorted(p for s in sources if s.endswith(".js") for p in ROOT.glob(s))
    assert len(scripts) > 8
    sv = _swedish()
    missing = []
    for path in scripts:
        code = re.sub(r"(^|\s)//.*$", "", path.read_text(), flags=re.M)  # comments name t("English") too
        for literal in re.findall(r'\bt[n]?\(\s*"((?:[^"\\]|\\.)*)"', code):
            text = json.loads(f'"{literal}"')
            if not any(sv.get(k) for k in sv if (k == text if isinstance(k, str) else k[0] == text)):
                missing.append((path.name, text))
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
            player="Bo", next="Anna", card="7H", n=2, limit=4, score=50, phase="tricks", players="Anna, Bo",
            ruleset="sm2025", least=3, most=4, first="Cia", cards="7H, 8H", points=300,
        )  # fmt: skip
        swedish = tr_reason(english, "sv")
        assert swedish != english and "Bo" in swedish if "{player}" in template else swedish != english, template
    assert tr_reason("it is not Cilla's turn to play", "sv") == "det är inte Cillas tur att spela"
    assert tr_reason("something new", "sv") == "something new"  # unknown: as the engine said it
    # a count the engine writes in words, as REPLAY.md does, comes in digits on a Swedish page
    assert tr_reason("five cards placed; at most 4 (r12)", "sv") == "5 kort lagda; högst 4 (r12)"
    # Swedish's genitive: a name ending in s, x or z takes no s ("Lars tur", "Bos tur")
    assert tr_reason("it is not Lars's turn to play", "sv") == "det är inte Lars tur att spela"
    assert tr_reason("it is not Max's turn to play", "sv") == "det är inte Max tur att spela"
    assert tr_reason("it is not Bo's turn to play", "sv") == "det är inte Bos tur att spela"
    # a phase in words, and a card a role may not see in Swedish too
    assert tr_reason("deal 1 is still in progress (exchange_1)", "sv") == "giv 1 pågår fortfarande (byte 1)"
    assert tr_reason("(card), (card) not in Bo's hand", "sv") == "(kort), (kort) finns inte i Bos hand"


def test_a_rejected_entry_s_alert_says_who_and_what_in_words():
    from dashboard.hub import rejected_alert

    # the label beside it says "avvisad" already: the Swedish sentence says who, what and why
    a = rejected_alert(3, 10, "revisor", "time_call", "it is not Bo's turn to play", True)
    assert a.text_sv == "Revisor: tid begärd: det är inte Bos tur att spela"
    assert a.text == "Revisor: time called rejected: it is not Bo's turn to play"
    assert a.blind_sv == "Revisor: tid begärd (TL ser skälet)"
    a = rejected_alert(4, 11, "seat2", "discard", "(card) not in Bo's hand", True)
    assert a.text_sv == "Plats 2: byte: lagda kort: (kort) finns inte i Bos hand"
    a = rejected_alert(5, 12, "clock", "timeout", "deal 1 is still in progress (exchange_1)", False)
    assert a.text_sv == "Klockan: tiden ute: giv 1 pågår fortfarande (byte 1)"
    assert rejected_alert(6, 13, "players", "deal", "no hand dealt to Bo", True).text_sv.startswith(
        "Spelarnas telefoner: giv (kort): ingen hand given till Bo"
    )


def test_every_refusal_of_the_rules_is_in_the_catalogue():
    """Each sentence the rules refuse with (``IllegalAction``) is one of ``REASONS``, so a
    Swedish page says it in Swedish: found in the rules' source, not listed by hand."""
    import ast

    rules = Path(__file__).resolve().parents[2] / "table_controller" / "rules"

    def shape(text: str) -> str:
        return re.sub(r"\{[^}]*\}", "{}", text)

    def sentence(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return shape(node.value)
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        return None

    known = {shape(r) for r in REASONS}
    found, missing = 0, []
    for f in sorted(rules.glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "IllegalAction" and n.args:
                said = sentence(n.args[0])
                # not for a page: an action type no schema lets through; a ruleset's own words
                if said is None or said in ("unknown action {}", "{}"):
                    continue
                found += 1
                if said not in known:
                    missing.append(f"{f.name}:{n.lineno}: {said}")
    assert found >= 50 and missing == []


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
    # the server's own refusals of an address or a method: said, not Starlette's English
    assert httpx.get(f"{s.base}/api/nope?token={tl}").json()["error"] == "Adressen finns inte."
    assert httpx.get(f"{s.base}/api/nope?token={tl}&lang=en").json()["error"] == "There is no such address."
    r = httpx.put(f"{s.base}/api/action?token={tl}", json={})
    assert (r.status_code, r.json()["error"]) == (405, "Adressen svarar inte på den sortens begäran.")
    big = b'{"do": "adjust", "points": ' + b"9" * 5000 + b"}"
    r = httpx.post(f"{s.base}/api/action?token={tl}", content=big, headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (400, "Begäran gick inte att läsa.")  # not FastAPI's English
    r = httpx.post(f"{s.base}/api/action?token={tl}", json={"player": "Bo", "card": "AS"})
    assert (r.status_code, r.json()["error"]) == (422, "Fältet 'do' saknas.")


# --- the audience's and the protocol's words (issue 18 item 1: every text in one catalogue) ---

AUDIENCE_JS = [ROOT / "dashboard" / "static" / n for n in ("audience.js", "broadcast.js", "public.js")]


def _marked(path: Path) -> list[str]:
    """The texts a page script marks with t()/tn(), as ``make i18n`` extracts them."""
    from babel.messages.extract import extract_from_file

    out = []
    for _, msg, _, _ in extract_from_file("javascript", str(path), keywords={"t": None, "tn": (1, 2)}):
        out += [msg] if isinstance(msg, str) else [m for m in msg if m]
    return out


def _audience_pairs() -> list[tuple[str, str]]:
    """(English, Swedish) of every text the hall screen, the phone view and the overlay show."""
    sv = catalogue("sv")["messages"]
    pairs = []
    for path in AUDIENCE_JS:
        for msgid in _marked(path):
            text = sv.get(msgid)
            pairs.append((msgid, text if isinstance(text, str) else (text or [""])[0]))
    return pairs


def _protocol_pairs() -> list[tuple[str, str]]:
    """(English, Swedish) of every text of the printed protocol (dashboard/scoresheet/words.py)."""
    from dashboard.scoresheet import words

    pairs = [(words.WORDS["en"][k], words.WORDS["sv"][k]) for k in words.WORDS["en"]]
    for table in (words.REASONS, words.PENALTY_KINDS, words.CLOCKS):
        pairs += [(en, sv) for sv, en in table.values()]
    return pairs


def _rules_terms() -> list[tuple[list[str], list[str]]]:
    """RULES.md §1 "Words": (Swedish alternatives, English alternatives) of each row."""
    path = Path(os.environ.get("CHICAGO_RULES_MD", ROOT.parent / "shared" / "RULES.md"))
    if not path.is_file():  # beside the checkout as ../shared, as the photos are
        pytest.skip(f"RULES.md not found at {path} (set CHICAGO_RULES_MD to it)")
    text = path.read_text(encoding="utf-8")
    section = text.split("## 1. Words", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("Swedish", "---"):
            rows.append(([s.strip().lower() for s in cells[0].split("/")], [e.strip() for e in cells[1].split("/")]))
    return rows


# Swedish texts that are the English one on purpose: names, rule references, abbreviations
SAME_IN_SWEDISH = {"Chic.", "Heat", "Id", "TL", "Start"}


def test_audience_and_protocol_words_have_both_languages():
    """No dictionary of its own is left in the audience's script: every text is a t() of
    the catalogue, and every one of them, and every protocol word, has its Swedish."""
    from dashboard.scoresheet import words

    src = (ROOT / "dashboard" / "static" / "audience.js").read_text(encoding="utf-8")
    assert "sv: {" not in src and "en: {" not in src and not re.search(r"\bsv \? \"", src)
    make = (ROOT / "Makefile").read_text()
    assert all(f"dashboard/static/{p.name}" in make for p in AUDIENCE_JS)  # extracted by make i18n
    audience = _audience_pairs()
    assert len(audience) > 90
    assert not [en for en, sv in audience if not sv], "no Swedish in the catalogue (make i18n)"
    assert words.WORDS["sv"].keys() == words.WORDS["en"].keys()
    assert not [k for lang in words.LANGS for k, v in words.WORDS[lang].items() if not v.strip()]
    for table in (words.REASONS, words.PENALTY_KINDS, words.CLOCKS):
        assert all(sv.strip() and en.strip() for sv, en in table.values())


def test_no_swedish_audience_or_protocol_text_is_left_in_english():
    """The people pages' English-word check (test_people_pages) on every Swedish text of
    the audience's views and the protocol, and no Swedish text the same as its English."""
    from .test_people_pages import ENGLISH

    found = []
    for en, sv in _audience_pairs() + _protocol_pairs():
        if ENGLISH.search(re.sub(r"\{\w+\}", "", sv)) or (
            sv == en and sv not in SAME_IN_SWEDISH and re.search(r"[A-Za-z]{2}", sv)
        ):
            found.append((en, sv))
    assert not found, found


def test_audience_and_protocol_use_the_rules_words():
    """RULES.md §1: where an English text names a rule term (draw stop, playoff, placement
    points, game, deal, ...), its Swedish says the term as RULES.md does (köpstopp,
    särspel, omgångspoäng, omgång, giv, ...)."""
    rows = _rules_terms()
    assert (["köpstopp"], ["draw stop"]) in rows and (["särspel"], ["playoff"]) in rows
    wrong = []
    for en, sv in _audience_pairs() + _protocol_pairs():
        for swedish, english in rows:
            # the noun, not the verb ("{pct} % to score")
            said = [e for e in english if re.search(rf"(?<!to )\b{re.escape(e)}s?\b", en, re.IGNORECASE)]
            if said and not any(s in sv.lower() for s in swedish):
                wrong.append((en, sv, swedish))
    assert not wrong, wrong
    sv = dict(_audience_pairs())
    assert sv["draw stop"] == "köpstopp" and sv["Playoff: {p}"] == "Särspel: {p}"
    assert sv["placement points"] == "omgångspoäng" and sv["Score"] == "Sidopoäng"
    assert sv["exchange at draw stop"] == "byte trots köpstopp" and sv["revoke"] == "bekände inte färg"


# --- the console's words for officials (table_controller/app/words.py) --------------------

CONSOLE_PO = LOCALE / "sv" / "LC_MESSAGES" / "console.po"
# the store's errors (table_controller/store/errors.py), each class it raises, and its Phrase
# (what it was doing when an error struck, a check's problem): the table log's words
STORE_KEYWORDS = (
    "StoreError",
    "StoreNotFound",
    "NotATableLog",
    "SchemaError",
    "StoreCorrupt",
    "StoreBusy",
    "StoreWriteError",
    "StoreReadOnly",
    "StoreClosed",
    "RecordError",
    "ExportError",
    "ClockSnapshotError",
    "Phrase",
)
# the camera's errors (vision/errors.py), each class raised with its words (the commands' camera)
VISION_KEYWORDS = ("VisionError", "CameraUnavailable", "CalibrationError", "UnreadableImage")


def test_the_consoles_shipped_mo_is_its_compiled_po():
    assert (LOCALE / "sv" / "LC_MESSAGES" / "console.mo").read_bytes() == compiled(CONSOLE_PO), "run: make i18n"


def test_every_text_the_console_says_has_its_swedish(tmp_path):
    """``setup``'s, ``doctor``'s and ``hub``'s texts (with the hub's own refusals, a
    ``HubError``'s text) extracted afresh as ``make i18n`` does: a new English text without
    Swedish, or an f-string that cannot be translated, fails here."""
    pot = tmp_path / "console.pot"
    make = (ROOT / "Makefile").read_text()
    files = make.split("CONSOLE_SOURCES :=", 1)[1].split("\n#", 1)[0].replace("\\\n", " ").split()
    assert files == [
        "table_controller/app/commands/doctor.py",
        "table_controller/app/commands/setup.py",
        "table_controller/app/commands/hub.py",
        "table_controller/deck.py",
        "table_controller/tournament/event.py",
        "table_controller/tournament/hubstore.py",
        "table_controller/tournament/draw.py",
        "table_controller/tournament/playerfile.py",
        "table_controller/app/commands/run.py",
        "table_controller/app/commands/serve.py",
        "table_controller/app/commands/demo.py",
        "table_controller/app/service.py",
        "table_controller/app/web.py",
        "table_controller/app/table_files.py",
        "table_controller/app/words.py",
        "table_controller/app/config.py",
        "table_controller/app/argtypes.py",
        "table_controller/app/commands/protocol.py",
        "table_controller/tournament/service.py",
        "table_controller/tournament/publisher.py",
        "table_controller/app/argwords.py",
        "table_controller/app/cli.py",
        "table_controller/app/outputs.py",
        "table_controller/store/sqlite.py",
        "table_controller/store/memory.py",
        "table_controller/store/rebuild.py",
        "table_controller/store/recovery.py",
        "table_controller/store/records.py",
        "table_controller/store/sensors.py",
        "table_controller/store/snapshots.py",
        "table_controller/store/transfer.py",
        "table_controller/store/recorder.py",
        "table_controller/store/check.py",
        "table_controller/app/commands/log.py",
        "table_controller/tournament/witness.py",
        "table_controller/app/commands/textinput.py",
        "table_controller/app/commands/replay.py",
        "table_controller/app/commands/analyse.py",
        "table_controller/app/commands/rules.py",
        "table_controller/app/commands/deck.py",
        "table_controller/app/commands/link.py",
        "table_controller/app/commands/camera.py",
        "vision/photo_reader.py",
        "vision/photo/images.py",
        "vision/photo/annotate.py",
        "vision/calibration.py",
        "vision/layout.py",
        "vision/source.py",
        "vision/worker.py",
    ]
    # the keywords make i18n extracts, as here (note:3, fault:2: the hub's and the publisher's
    # notes to their operator; argword: argparse's own words and the command list; the store's
    # errors, each class raised, and its Phrase: what it was doing, a check's problem; the
    # camera's errors, each class raised with its words)
    assert (
        "-k say -k say_n:1,2 -k HubError -k EventOver -k DrawError -k PlayerFileError "
        + " ".join(f"-k {k}" for k in STORE_KEYWORDS)
        + " -k note:3 -k fault:2 -k argword "
        + " ".join(f"-k {k}" for k in VISION_KEYWORDS)
        + " "
        in " ".join(make.replace("\\\n", " ").split())  # its lines joined, as make reads them
    )
    r = subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "say",
            "-k",
            "say_n:1,2",
            "-k",
            "HubError",
            "-k",
            "EventOver",
            "-k",
            "DrawError",
            "-k",
            "PlayerFileError",
            *[a for k in STORE_KEYWORDS for a in ("-k", k)],
            "-k",
            "note:3",
            "-k",
            "fault:2",
            "-k",
            "argword",
            *[a for k in VISION_KEYWORDS for a in ("-k", k)],
        ]
        + ["--no-location", "-o", str(pot), *files],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    assert "Skipping" not in r.stderr, r.stderr  # say(f"...") is said in English only
    with pot.open("rb") as f:
        wanted = [m.id for m in read_po(f) if m.id]
    with CONSOLE_PO.open("rb") as f:
        sv = {m.id: m.string for m in read_po(f, locale="sv") if m.id}
    assert len(wanted) > 80
    # a counted text (say_n) has a Swedish form for each count
    assert not [w for w in wanted if not (sv.get(w) if isinstance(w, str) else all(sv.get(w) or [""]))]
    assert any(not isinstance(w, str) for w in wanted)
    # the console's words stay out of the pages' catalogue (i18n.js)
    assert "the seat controller" not in catalogue("sv")["messages"]


def test_the_console_says_its_words_in_swedish_unless_asked_for_english(tmp_path):
    outs = {}
    for lang in ([], ["--lang", "en"]):
        proc = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "doctor", "--config", str(tmp_path / "no.toml"), *lang],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1
        outs[tuple(lang)] = proc.stdout
    assert outs[()].startswith("FEL   konfigurationen: ")
    assert outs[("--lang", "en")].startswith("FAIL  the configuration: ")


def test_the_doctor_says_the_tables_phase_in_words():
    """It said "vid game_start": the phase as REPLAY.md names it, in an official's Swedish line."""
    from table_controller.app.words import PHASES, phase_word, speaking

    with speaking("sv"):
        assert phase_word("game_start") == "platsdragning" and phase_word("tricks") == "stickspel"
        assert all(phase_word(p) != words for p, words in PHASES.items())  # every phase has its Swedish (the pages')
        assert phase_word("someday") == "someday"
    with speaking("en"):
        assert phase_word("game_start") == "seat draw"


def test_the_console_says_every_alerts_kind_and_every_clocks_name_in_words():
    """``doctor`` said "öppna larm för TL: two_pads, stuck" and "shot clocks (exchange 30 s,
    chicago 10 s, ...)": every kind and clock has its words in both languages, the Swedish
    from the pages' catalogue where the pages say it."""
    from dashboard.i18n import ALERT_LABELS
    from table_controller.app.words import alert_word, clock_word, speaking
    from table_controller.rules.rulesets import DEFAULT_CLOCKS
    from table_controller.sensing.alerts import KINDS

    said = {}
    for lang in ("sv", "en"):
        with speaking(lang):
            said[lang] = {k: alert_word(k) for k in (*KINDS, *ALERT_LABELS)} | {
                c: clock_word(c) for c in DEFAULT_CLOCKS
            }
        assert not [k for k, w in said[lang].items() if "_" in w], (lang, said[lang])  # never a code
    assert [k for k in said["sv"] if said["sv"][k] in (k, said["en"][k])] == []  # each has its Swedish


@pytest.mark.parametrize(
    ("body", "sv", "en"),
    [
        ({"do": "play", "player": "Bo", "card": "ZZ"}, "'play.card' ska vara ett kort, till exempel 10S, QH eller 7D.",
         "'play.card' must be a card, such as 10S, QH or 7D."),
        ({"do": "play", "player": "Bo"}, "Fältet 'play.card' saknas.", "The field 'play.card' is missing."),
        ({"do": "adjust", "player": "Bo", "points": "fem"}, "'adjust.points' ska vara ett heltal.",
         "'adjust.points' must be a whole number."),
        ({"do": "quads", "player": "Bo", "choice": "x"}, "'quads.choice' ska vara något av 'zero' eller 'points'.",
         "'quads.choice' must be one of 'zero' or 'points'."),
        ({"do": "discard", "player": "Bo", "cards": ["AS", "7"]}, "'discard.cards.1' ska vara ett kort, till exempel "
         "10S, QH eller 7D.", "'discard.cards.1' must be a card, such as 10S, QH or 7D."),
        ({"do": "play", "player": "", "card": "AS"}, "'play.player' får inte vara tomt.", "'play.player' must not be empty."),
        ({"do": "deal", "hands": {"Bo": ["AS", "ZZ"]}}, "'deal.hands.Bo.1' ska vara ett kort, till exempel 10S, QH "
         "eller 7D.", "'deal.hands.Bo.1' must be a card, such as 10S, QH or 7D."),
        ({"do": "game", "seats": ["Bo", " "]}, "'game.seats.1' är inte skrivet som det ska.",
         "'game.seats.1' is not written as it should be."),
        ({"do": "play", "player": "Bo", "card": "AS", "x": 1}, "'play.x' är inget fält i den här begäran.",
         "'play.x' is no field of this request."),
    ],
)  # fmt: skip
def test_a_request_that_does_not_fit_is_told_in_words_not_in_pydantics(body, sv, en):
    """Manual entry's mistakes (the TL's, the Revisor's) said as the page's language says
    them, never the pattern a card missed or pydantic's English."""
    from fastapi.exceptions import RequestValidationError
    from pydantic import ValidationError

    from dashboard.app import _validation_text
    from dashboard.bodies import ACTION

    with pytest.raises(ValidationError) as err:
        ACTION.validate_python(body)
    exc = RequestValidationError(err.value.errors())
    assert (_validation_text(exc, "sv"), _validation_text(exc, "en")) == (sv, en)
