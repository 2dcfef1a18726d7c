"""The hall's public standings page (issue 20, item 3), a real server beside the hub file:
standings as the engine folds them, updated as records arrive, never a card or the TL's
problems; rendered by Debian's chromium."""

from __future__ import annotations

import json
import re
import socket
import ssl
import subprocess

import httpx
import pytest

from table_controller.rules.replay import table_document
from table_controller.store.rebuild import resume
from table_controller.tournament.hubstore import HubStore
from tests.dashboard.harness import CARD_RE, cards_in_text, launch_chromium
from tests.dashboard.test_security import make_certificate

from .broker import free_port, wait_until
from .procs import CLI, Proc
from .tables import RecordedTable, play_as_drawn
from .test_event import sync
from .test_publish import make_hub


@pytest.fixture
def hall(tmp_path):
    hub_db = tmp_path / "hub.sqlite"
    tables = make_hub(hub_db, seed="page")
    played = []
    with HubStore.open(hub_db) as hub:
        for k, t in enumerate(tables):
            rt = RecordedTable(tmp_path / f"{t['table']}.sqlite", play_as_drawn(t, seed=20 + k))
            rt.play(None if k == 0 else 200)  # one table finished, two playing
            sync(hub, rt, t["table"])
            played.append(rt)
    port = free_port()
    server = Proc(
        ["hub", "web", str(hub_db), "--port", str(port), "--tokens", str(tmp_path / "tokens.json")],
        tmp_path / "web.log",
    ).start()
    base = f"http://127.0.0.1:{port}"

    def up():
        try:
            return httpx.get(base + "/api/standings", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    wait_until(up, 30, "the standings page")
    yield base, hub_db, tables, played
    server.stop()
    for rt in played:
        rt.close()


def test_public_standings_follow_the_tables_and_show_no_card(hall):
    base, hub_db, tables, played = hall
    r = httpx.get(base + "/api/standings")
    doc = r.json()
    assert r.status_code == 200 and doc["event"] == "sm2026"
    (heat,) = doc["heats"]
    t1 = heat["tables"][0]
    assert t1["finished"] and t1["standings"] == table_document(resume(played[0].path)[0])["standings"]
    assert not heat["tables"][1]["finished"] and heat["tables"][1]["current"]["phase"]
    assert not CARD_RE.search(r.text) and "problems" not in r.text and "conflicts" not in r.text
    assert doc["withdrawn"] == []  # names the TL withdrew (hub withdraw), none here
    with HubStore.open(hub_db) as hub:  # more records reach the hub: the next request shows them
        played[1].play(300)
        sync(hub, played[1], tables[1]["table"])
    later = httpx.get(base + "/api/standings").json()["heats"][0]["tables"][1]
    assert later["current"] != heat["tables"][1]["current"]  # the table moved on
    # the log's length is the TL's: it grows with hidden things too (a sensing alert, a
    # face-down exchange's events), so the hall is not told it
    assert "records" not in later
    tokens = json.loads((hub_db.parent / "tokens.json").read_text())
    tl = httpx.get(base + "/api/tl", params={"token": tokens["tl"]}).json()
    (mine,) = [t for h in tl["heats"] for t in h["tables"] if t["table"] == tables[1]["table"]]
    assert mine["records"] == played[1].last_seq()


def _answering(status: int, body: str):
    """A route handler that answers ``status`` with ``body``."""

    def handle(route) -> None:
        route.fulfill(status=status, body=body)

    return handle


@pytest.mark.browser
def test_the_hall_screen_renders_every_table(hall, tmp_path):
    from playwright.sync_api import sync_playwright

    base, hub_db, tables, played = hall
    with sync_playwright() as p:
        ctx = launch_chromium(p)
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        console: list[str] = []
        page.on("console", lambda m: console.append(m.text))
        page.goto(base + "/")
        page.wait_for_selector("body[data-loaded='1']")
        shown = page.locator("[data-table]").all_inner_texts()
        assert len(shown) == len(tables) and "Ställning" in page.title()
        winner = table_document(resume(played[0].path)[0])["standings"][0]["player"]
        assert winner in shown[0] and "klart" in shown[0]
        assert not cards_in_text(page.inner_text("body"))
        tl = json.loads((tmp_path / "tokens.json").read_text())["tl"]
        from table_controller.app.cli import main

        assert main(["hub", "dashboard", str(hub_db), tables[1]["table"], "http://table2.local:8080"]) == 0
        page.goto(base + "/tl?token=" + tl)  # the TL's event screen
        page.wait_for_selector("body[data-loaded='1']")
        assert page.locator("[data-table]").count() == len(tables)
        assert "offline" in page.inner_text("body")  # no publisher runs in this test
        # ... but a finished table is not down: it has sent its last record (stop 71)
        done = page.inner_text(f"[data-table='{tables[0]['table']}']")
        assert "offline" not in done and "klart, inte uppkopplat" in done and "Heat 1 · Bord 1" in done, done
        assert "nere / offline" in page.inner_text(f"[data-table='{tables[1]['table']}']")
        # the TL acts on a table through that table's own TL view, with the event's TL token
        acts = page.locator("[data-table] a.act")
        assert acts.count() == 1 and "öppna bordet" in acts.inner_text()
        assert acts.get_attribute("href") == "http://table2.local:8080/tl?token=" + tl
        assert page.locator(f"[data-table='{tables[1]['table']}'] a.act").count() == 1
        # an answer that is not the hub's (a proxy's error page) or is cut off: the screen is
        # kept until the next try (it threw reading the page as JSON), then drawn again
        title = page.inner_text("#title")
        for status, body in ((502, "<html>Bad Gateway</html>"), (200, '{"event": "sm')):
            page.route("**/api/tl?*", _answering(status, body))
            for _ in range(2):  # two polls answered so: the first surely read whole
                with page.expect_response("**/api/tl?*", timeout=30_000):
                    pass
            page.unroute("**/api/tl?*")
            assert page.inner_text("#title") == title and page.locator("[data-table]").count() == len(tables)
        page.goto(base + "/tl?token=wrong")
        assert "token" in page.inner_text("body")
        # the final's one who goes on is the event's winner, said so (stop 71: "Går vidare")
        final = {
            "table": "h2-t1",
            "number": 1,
            "started": True,
            "finished": True,
            "players": ["Ida", "Jonas", "Bo"],
            "advancing": ["Ida"],
            "standings": [{"player": "Ida", "rank": 1, "placement_points": 40, "score_total": 120, "won_chicagos": 1}],
            "playoff": {"players": ["Ida", "Jonas"], "deals": 3, "game": 4},  # tied, then parted (r11)
        }
        doc = {
            "event": "sm2026",
            "name": "SM",
            "heats": [
                {"heat": 1, "complete": True, "advancing": ["Ida", "Eva"], "tables": []},
                {"heat": 2, "complete": True, "advancing": ["Ida"], "tables": [final]},
            ],
            "withdrawn": ["Eva"],  # went on from heat 1, then withdrawn by the TL
        }
        page.route("**/api/standings", lambda route: route.fulfill(json=doc))
        page.goto(base + "/")
        page.wait_for_selector(".winner")
        assert page.inner_text(".winner") == "Vinnare / winner: Ida" and "Går vidare" not in page.inner_text(
            "[data-heat='2']"
        )
        assert page.inner_text("#goes-on-1") == "Går vidare / advancing: Ida, Eva (struken / withdrawn)"
        settled = page.inner_text("[data-settled]")  # the places on equal figures are the särspel's
        assert settled.startswith("Särspel mellan Ida, Jonas avgjorde placeringen"), settled
        assert errors == []
        assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], console
        ctx.close()


def test_log_verify_against_the_hub_url__item4(hall, tmp_path, capsys):
    import shutil

    from table_controller.app.cli import main

    from .test_witness import forge

    base, hub_db, tables, played = hall
    t = played[0]
    t.close()
    assert main(["log", "verify", str(t.path), "--hub", base, "--table", tables[0]["table"], "--lang", "en"]) == 0
    assert "WHOLE AND UNALTERED" in capsys.readouterr().out
    copy = tmp_path / "copy.sqlite"
    shutil.copy(t.path, copy)
    forge(copy, 77)
    assert main(["log", "verify", str(copy), "--hub", base, "--table", tables[0]["table"], "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    # the public witness holds each finished deal's end (stop 63): the altered record is found
    # at the first deal's end after it, and said to lie in that deal
    ends = [seq for seq, _ in httpx.get(base + "/api/witness").json()["tables"][tables[0]["table"]]["deal_ends"]]
    after, before = min(e for e in ends if e >= 77), max((e for e in ends if e < 77), default=0)
    assert out["first_bad"] == after and out["bad_from"] == before + 1 and out["witnessed_records"] == "deal_ends"
    assert f"a record from {before + 1} to {after} differs" in out["problems"][0]
    # the hub's own file (the TL's witness) names the record
    assert main(["log", "verify", str(copy), "--witness", str(hub_db), "--table", tables[0]["table"], "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["first_bad"] == out["bad_from"] == 77 and out["witnessed_records"] == "every"
    assert main(["log", "verify", str(copy), "--hub", base, "--table", "h9-t9"]) == 2
    assert "holds nothing of table 'h9-t9'" in capsys.readouterr().err
    assert main(["log", "verify", str(copy), "--hub", "ftp://x", "--table", "h1-t1"]) == 2
    assert "http://HOST:PORT" in capsys.readouterr().err


def test_the_public_witness_gives_no_two_digests_in_a_row_only_finished_deals_ends(hall, tmp_path, capsys):
    """The hub's web witness needs no token. Every record's digest let anyone work out a
    face-down card: the chain is unkeyed, a record's time is its transaction's public records'
    own, and a received card is one of 52, so the digests of two records in a row were enough
    (stop 63's audit found a received JC QD in 6.6 s). It gives each finished deal's last
    record only: between two of them a whole deal, nothing to try record by record."""
    from table_controller.app.cli import main
    from table_controller.tournament.witness import ENDS

    base, hub_db, tables, played = hall
    shown = 0
    for t in tables:
        tid = t["table"]
        r = httpx.get(base + "/api/witness", params={"table": tid})
        w = r.json()["tables"][tid]
        assert r.json()["witness"] == 2 and set(w) == {"public_key", "deal_ends", "heads"}, w.keys()
        with HubStore.open(hub_db, readonly=True) as hub:
            recs = {rec.seq: rec for rec in hub.records(tid)}
        seqs = [seq for seq, _ in w["deal_ends"]]
        for seq, dg in w["deal_ends"]:
            rec = recs[seq]
            assert dg == rec.digest and seq - 1 not in seqs
            same = [x for x in recs.values() if x.txn == rec.txn]
            assert any(x.kind == "event" and x.data["type"] in ENDS for x in same)  # a deal ended in it
            assert max(x.seq for x in same) == seq  # its transaction's last record...
            # ... held whole: a later transaction is held (or the table ended in it)
            assert seq + 1 in recs or any(x.data.get("type") == "table_ended" for x in same)
        assert {h["seq"] for h in w["heads"]} <= set(seqs)
        shown += len(seqs)
    assert shown >= 3  # deals ended at every table: the test looked at something
    # 'hub witness --public' writes the same; the TL's whole witness is written owner-only
    assert main(["hub", "witness", str(hub_db), "-o", str(tmp_path / "pub.json"), "--public"]) == 0
    assert (
        json.loads((tmp_path / "pub.json").read_text())["tables"] == httpx.get(base + "/api/witness").json()["tables"]
    )
    assert main(["hub", "witness", str(hub_db), "-o", str(tmp_path / "all.json")]) == 0
    assert (tmp_path / "all.json").stat().st_mode & 0o077 == 0
    assert "(läsbart bara för ägaren: det är TL:s)" in capsys.readouterr().out  # owner-only, said in Swedish


def test_the_tl_event_screen_puts_open_alerts_first_and_needs_the_tl_token(hall, tmp_path):
    base, hub_db, tables, played = hall
    assert httpx.get(base + "/api/tl").status_code == 401
    tokens = json.loads((tmp_path / "tokens.json").read_text())
    assert httpx.get(base + "/api/tl", params={"token": tokens["public"]}).status_code == 403
    # said in Swedish unless English is asked for; a browser gets a page that says what to do
    assert httpx.get(base + "/api/tl").json() == {"error": "TL-sidan kräver tävlingens TL-länk (tokens.json)"}
    assert "event's TL link" in httpx.get(base + "/api/tl", params={"lang": "en"}).json()["error"]
    browser = {"accept": "text/html,application/xhtml+xml"}
    for path, params, status, head in (
        ("/tl", {}, 401, "Sidan öppnas bara med sin länk"),
        ("/tl", {"token": tokens["public"]}, 403, "Din länk öppnar inte den här sidan"),
        ("/broadcast", {"token": tokens["tl"]}, 403, "Din länk öppnar inte den här sidan"),
        ("/tables", {}, 404, "Sidan finns inte"),
    ):
        r = httpx.get(base + path, params=params, headers=browser)
        assert (r.status_code, r.headers["content-type"].split(";")[0]) == (status, "text/html"), path
        assert f"<h1>{head}</h1>" in r.text and "token=" + tokens["tl"] not in r.text
    assert "hubbens sidor är / (ställningen), /tl och /broadcast" in r.text  # the hub's pages, not a table's
    assert httpx.get(base + "/nope").json() == {"error": "Sidan finns inte"}  # a script: JSON, not FastAPI's English
    assert httpx.post(base + "/api/tl").json() == {"error": "Adressen svarar inte på den sortens begäran."}
    third = played[2]
    third.store.append_one(
        "alert",
        {"id": 4, "kind": "two_pads", "text": "7H seen at pads 1 and 3", "pad": "pad1", "state": "raised"},
        "sensing",
    )
    third.store.append_one("alert", {"id": 5, "kind": "pad", "text": "pad 2 silent", "state": "raised"}, "sensing")
    third.store.append_one("alert", {"id": 5, "kind": "pad", "state": "ended"}, "sensing")
    with HubStore.open(hub_db) as hub:
        sync(hub, third, tables[2]["table"])
    doc = httpx.get(base + "/api/tl", params={"token": tokens["tl"]}).json()
    assert doc["attention"][0] == tables[2]["table"]  # the table that needs the TL first
    first = next(t for t in doc["heats"][0]["tables"] if t["table"] == tables[2]["table"])
    # sensing's text names its evidence's card (for the log): the TL's screen says what the
    # table's own TL view says, the kind and the place, never the card (README "Security")
    assert [a["text"] for a in first["alerts"]] == ["A card read on two pads at pad1"] and first["online"] is False
    # and in Swedish first, as the table's own TL view says it
    assert [(a["label_sv"], a["text_sv"]) for a in first["alerts"]] == [
        ("avläsning", "Ett kort läst på två plattor vid pad1")
    ]
    assert "7H" not in httpx.get(base + "/api/tl", params={"token": tokens["tl"]}).text
    assert "problems" in first and "conflicts" in doc
    assert httpx.get(base + "/tl", params={"token": tokens["tl"]}).status_code == 200
    from table_controller.app.cli import main

    assert main(["hub", "dashboard", str(hub_db), tables[2]["table"], "ftp://x"]) == 2
    assert main(["hub", "dashboard", str(hub_db), tables[2]["table"], "http://table3.local:8080/"]) == 0
    doc = httpx.get(base + "/api/tl", params={"token": tokens["tl"]}).json()
    first = next(t for t in doc["heats"][0]["tables"] if t["table"] == tables[2]["table"])
    assert first["dashboard"] == "http://table3.local:8080"  # where the TL acts on that table
    assert "7H" not in httpx.get(base + "/api/standings").text  # the alert is the TL's, not the hall's


@pytest.mark.browser
def test_the_broadcast_follows_the_featured_table(hall, tmp_path):
    from playwright.sync_api import sync_playwright

    from table_controller.app.cli import main

    base, hub_db, tables, _ = hall
    tokens = json.loads((tmp_path / "tokens.json").read_text())
    assert httpx.get(base + "/broadcast", params={"token": tokens["public"]}).status_code == 403
    for k, t in enumerate(tables[:2]):
        assert main(["hub", "dashboard", str(hub_db), t["table"], f"http://127.0.0.{k + 2}:9"]) == 0
    assert main(["hub", "feature", str(hub_db), "h9-t9"]) == 2
    assert main(["hub", "feature", str(hub_db), tables[0]["table"]]) == 0
    with sync_playwright() as p:
        ctx = launch_chromium(p)
        page = ctx.new_page()
        console: list[str] = []
        page.on("console", lambda m: console.append(m.text))
        page.goto(base + "/broadcast?token=" + tokens["broadcast"])
        page.wait_for_selector(f"body[data-table='{tables[0]['table']}']")
        src = page.get_attribute("#overlay", "src")
        assert src == "http://127.0.0.2:9/broadcast?token=" + tokens["broadcast"]  # the table's own overlay
        assert main(["hub", "feature", str(hub_db), tables[1]["table"]]) == 0  # the producer switches
        page.wait_for_selector(f"body[data-table='{tables[1]['table']}']", timeout=10_000)
        assert page.get_attribute("#overlay", "src").startswith("http://127.0.0.3:9/broadcast?")
        assert not [m for m in console if "Content Security Policy" in m], console
        # a table whose dashboard the hub learns after the page was served: the page's policy
        # does not name it, so the page reloads and frames it under a policy that does
        assert main(["hub", "dashboard", str(hub_db), tables[2]["table"], "http://127.0.0.4:9"]) == 0
        assert main(["hub", "feature", str(hub_db), tables[2]["table"]]) == 0
        page.wait_for_selector(f"body[data-table='{tables[2]['table']}']", timeout=20_000)
        assert page.get_attribute("#overlay", "src").startswith("http://127.0.0.4:9/broadcast?")
        assert "http://127.0.0.4:9" in (page.get_attribute("body", "data-frames") or "")
        ctx.close()


def test_hub_pages_carry_a_strict_content_security_policy(hall, tmp_path):
    """Issue 13 item 6 for 'hub web': no inline script or style on any page, and a policy
    that forbids them (scripts, styles and fetches from the hub alone); the broadcast
    source may frame the dashboards the hub knows, and nothing else."""
    import re

    from table_controller.app.cli import main

    base, hub_db, tables, _ = hall
    tokens = json.loads((tmp_path / "tokens.json").read_text())
    assert main(["hub", "dashboard", str(hub_db), tables[0]["table"], "http://table1.local:8080/"]) == 0
    for path, token in (("/", None), ("/tl", "tl"), ("/broadcast", "broadcast"), ("/static/hub-tl.js", None)):
        r = httpx.get(base + path, params={"token": tokens[token]} if token else {})
        assert r.status_code == 200, path
        policy = dict(d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";"))
        assert policy["default-src"] == "'none'" and policy["script-src"] == "'self'", path
        assert policy["style-src"] == "'self'" and policy["connect-src"] == "'self'", path
        assert "unsafe" not in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"
        if path == "/broadcast":
            assert policy["frame-src"] == "http://table1.local:8080"
        else:
            assert "frame-src" not in policy
        if not path.startswith("/static"):
            assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>|<style|\son[a-z]+=", r.text), path
            for ref in re.findall(r'(?:src|href)="(static/[^"]+)"', r.text):
                assert httpx.get(f"{base}/{ref}").status_code == 200, ref
    assert httpx.get(base + "/static/../standings_page.py").status_code == 404
    assert httpx.get(base + "/static/revisor.js").status_code == 404  # the hub's own files only


def test_hub_web_over_tls_and_a_warning_without_it(tmp_path):
    """Issue 13 item 6: 'hub web' serves HTTPS with --certfile/--keyfile (real TLS, the
    client checks the certificate), says in words when it listens beyond localhost in plain
    HTTP, and prints no token unless asked."""
    cert, key = make_certificate(tmp_path)  # as serve's TLS test
    hub_db = tmp_path / "hub.sqlite"
    make_hub(hub_db, seed="tls")
    tokens_file = tmp_path / "tokens.json"
    port = free_port()
    server = Proc(
        ["hub", "web", str(hub_db), "--port", str(port), "--tokens", str(tokens_file)]
        + ["--certfile", str(cert), "--keyfile", str(key)],
        tmp_path / "web-tls.log",
    ).start()
    base = f"https://127.0.0.1:{port}"
    ctx = ssl.create_default_context(cafile=str(cert))
    try:

        def up():
            try:
                return httpx.get(base + "/api/standings", verify=ctx, timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, 30, "the standings page over TLS")
        tokens = json.loads(tokens_file.read_text())
        r = httpx.get(base + "/api/tl", params={"token": tokens["tl"]}, verify=ctx, timeout=10)
        assert r.status_code == 200 and r.json()["heats"]
        page = httpx.get(base + "/tl", params={"token": tokens["tl"]}, verify=ctx, timeout=10)
        assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
        with pytest.raises(httpx.HTTPError):  # a client that does not trust the certificate
            httpx.get(base + "/api/standings", timeout=5)
        with pytest.raises(httpx.HTTPError):  # plain HTTP on the TLS port gets nothing
            httpx.get(f"http://127.0.0.1:{port}/api/standings", timeout=5)
    finally:
        server.stop()
    said = (tmp_path / "web-tls.log").read_text()
    assert f"{base}/tl?token=..." in said and tokens["tl"] not in said and "VARNING" not in said

    # beyond localhost without TLS: a warning in words, before anything is served (the
    # port is held here, so the server stops at once after saying it)
    with socket.socket() as held:
        held.bind(("0.0.0.0", 0))
        held.listen()
        busy = str(held.getsockname()[1])
        plain = subprocess.run(
            [*CLI, "hub", "web", str(hub_db), "--host", "0.0.0.0", "--port", busy, "--tokens", str(tokens_file)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert "VARNING: lyssnar på 0.0.0.0 utan TLS" in plain.stderr and "--certfile" in plain.stderr
    assert tokens["tl"] not in plain.stderr
    half = subprocess.run(
        [*CLI, "hub", "web", str(hub_db), "--certfile", str(cert)], capture_output=True, text=True, timeout=60
    )
    assert half.returncode == 2 and "--certfile och --keyfile anges tillsammans" in half.stderr  # go together


def test_the_tl_screen_says_alerts_problems_and_conflicts_in_swedish_first():
    from dashboard.standings_page import in_swedish
    from table_controller.tournament import texts

    names = {"error": "KeyError: 'x'", "players": "Anna, Bo", "drawn": "Cia, Dan", "heat": "2", "game": "1",
             "seats": "Anna, Bo, Cia, Dan", "button": "Anna", "drawn_button": "Bo", "table": "h1-t9", "seq": "17"}  # fmt: skip
    made = {t: t.format(**names) for t in texts.PROBLEMS + texts.CONFLICTS}
    alerts = [
        {"kind": "unsure_count", "text": "...", "sensing": True, "pad": "seat3", "player": "Cia"},
        {"kind": "camera_offline", "text": "...", "sensing": True, "pad": "tray", "player": None},
        {"kind": "stuck", "text": "Väntar på Bo: byte 1 / Waiting for Bo: exchange 1", "sensing": True},
        {"kind": "engine_failed", "text": "The table could not judge this action; nothing was changed. "
         "The TL has been alerted.", "sensing": False},
    ]  # fmt: skip
    doc = {
        "heats": [{"tables": [{"alerts": alerts, "problems": [made[t] for t in texts.PROBLEMS]}]}],
        "conflicts": [{"table": "h1-t9", "detail": made[t]} for t in texts.CONFLICTS],
    }
    in_swedish(doc)
    t = doc["heats"][0]["tables"][0]
    assert [(a["label_sv"], a["text_sv"]) for a in t["alerts"]] == [
        ("avläsning", "Antalet stämmer inte: bred ut korten vid platta 3 (Cia)"),
        ("kameran ur drift", "Kameran är ur drift: bordet spelar vidare med RFID-läsarna"),
        ("avläsning", "Väntar på Bo: byte 1 / Waiting for Bo: exchange 1"),  # in both languages already
        ("larm", "Bordet kunde inte bedöma åtgärden; ingenting ändrades. TL har larmats."),
    ]
    assert t["alerts"][0]["text"] == "A count that does not add up: spread the cards at pad 3 (Cia)"
    # every problem and conflict in Swedish, every name put back
    said = t["problems_sv"] + [c["detail_sv"] for c in doc["conflicts"]]
    assert said[1] == "spelarna Anna, Bo är inte de lottade (Cia, Dan)"
    assert said[5] == "post 17 skiljer sig från den hubben har"
    for template, sv in zip(texts.PROBLEMS + texts.CONFLICTS, said, strict=True):
        assert sv != made[template]
        for name in re.findall(r"\{(\w+)\}", template):
            assert names[name] in sv, (template, sv)


def test_the_hub_pages_name_every_phase_in_swedish():
    from pathlib import Path

    from table_controller.rules.phases import Phase

    static = Path(__file__).resolve().parents[2] / "dashboard" / "static"
    for name in ("hub-standings.js", "hub-tl.js"):
        table = re.search(r"const PHASE = \{(.*?)\};", (static / name).read_text(), re.S)
        assert table, name
        named = dict(re.findall(r'(\w+): "([^"]+)"', table.group(1)))
        assert {p.value for p in Phase} <= set(named), (name, {p.value for p in Phase} - set(named))
        assert all(not re.fullmatch(r"[a-z_0-9]+", v) or v == "chicago?" for v in named.values())
