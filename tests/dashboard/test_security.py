"""The web side hardened (issue 13 items 5 and 6), against a real ``chicago-table serve``:
bad input is a clear 4xx that changes nothing, POSTs are rate limited per token, the data
folder is private, TLS works, WebSocket origins are checked, pages carry security headers
the views still work under (in chromium), and tokens are printed only when asked."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import ssl
import stat
import subprocess
import sys
import time

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from table_controller.store import SQLiteStore
from tests.ports import wait_listening

from .harness import CLI, ROOT, free_port

TABLE = [
    {"do": "table", "players": ["Anna", "Bo", "Cilla"]},
    {"do": "game", "seats": ["Anna", "Bo", "Cilla"], "button": "Cilla"},
]


def _post(s, body=None, role="tl", path="/api/action", **kw):
    if body is not None:
        kw["json"] = body
    return httpx.post(f"{s.base}{path}", params={"token": s.token(role)}, timeout=20, **kw)


def _state(s) -> tuple:
    """Accepted actions and the public stream's state: what a rejection must not change."""
    with connect(f"{s.ws_base}/ws?token={s.token('public')}", open_timeout=5, max_size=None) as ws:
        state = json.loads(ws.recv(timeout=5))["state"]
    state.pop("clocks", None)
    return json.dumps(s.actions(), sort_keys=True), json.dumps(state, sort_keys=True)


def test_bad_input_is_a_clear_4xx_and_changes_nothing(make_server):
    s = make_server(command="serve", extra=("--post-rate", "1000"))
    for a in TABLE:
        assert _post(s, a).status_code == 200
    before = _state(s)
    deep = b"[" * 30_000 + b"]" * 30_000  # 60 kB: under the body limit, far over the depth limit
    cases = [
        ("deep JSON", dict(content=deep, headers={"content-type": "application/json"}), 422),
        (
            "5 MB",
            dict(content=b'{"do": "' + b"x" * 5_000_000 + b'"}', headers={"content-type": "application/json"}),
            413,
        ),
        ("chunked 200 kB", dict(content=iter([b'{"do": "'] + [b"x" * 10_000] * 20 + [b'"}'])), 413),
        ("do list", dict(json={"do": ["play"]}), 422),
        ("do object", dict(json={"do": {}}), 422),
        ("not an object", dict(json=[1, 2]), 422),
        ("no JSON", dict(content=b"{nope", headers={"content-type": "application/json"}), 422),
        ("string points", dict(json={"do": "adjust", "player": "Anna", "points": "5"}), 422),
        ("huge points", dict(json={"do": "adjust", "player": "Anna", "points": 1_000_000, "reason": "x"}), 422),
        ("201 points", dict(json={"do": "penalty", "player": "Anna", "kind": "points", "points": -201}), 422),
        (
            "huge int",
            dict(
                content=b'{"do": "adjust", "player": "Anna", "points": 1' + b"0" * 4300 + b"}",
                headers={"content-type": "application/json"},
            ),
            400,
        ),
        ("unknown field", dict(json={"do": "chicago", "player": "Anna", "say": True, "junk": "x" * 1000}), 422),
        ("bool as name", dict(json={"do": "retract", "player": True}), 422),
    ]
    for what, kw, status in cases:
        r = httpx.post(f"{s.base}/api/action", params={"token": s.token("tl")}, timeout=30, **kw)
        assert r.status_code == status, (what, r.status_code, r.text[:200])
        assert r.json()["error"] and "Traceback" not in r.text and len(r.text) < 1000, what
    # the dismiss index of 4,300 digits and an alert id of as many
    r = _post(s, {"text": "dismiss " + "9" * 4300}, path="/api/correct")
    assert r.status_code == 422 and "Traceback" not in r.text
    r = _post(s, {"text": "dismiss " + "9" * 150}, path="/api/correct")
    assert r.status_code == 422, r.text
    r = _post(s, path="/api/alerts/" + "9" * 4300 + "/resolve")
    assert r.status_code == 422 and "Traceback" not in r.text
    assert _post(s, {"reason": 5}, path="/api/pause").status_code == 422
    assert _state(s) == before
    # within the bound it goes in
    assert _post(s, {"do": "adjust", "player": "Anna", "points": 200, "reason": "x"}).status_code == 200


def test_junk_options_never_reach_the_log_and_a_whole_ruleset_still_does(make_server):
    """A refused entry is logged whole (the TL sees what was tried), so its size is bounded
    before the hub: 58 kB of junk ruleset options from the Revisor went into the log with
    every post (200 posts: 14 MB in 7 s, at the default pace about 4 GB an hour)."""
    s = make_server(command="serve", extra=("--post-rate", "1000"))
    ruleset = json.loads(
        subprocess.run([*CLI, "rules", "sm2025", "--json"], capture_output=True, text=True, check=True).stdout
    )
    whole = {k: v for k, v in ruleset.items() if k not in ("name", "description")}
    assert 500 < len(json.dumps(whole)) < 4096
    assert _post(s, {**TABLE[0], "options": whole}).status_code == 200, "a whole ruleset restated goes in"
    assert _post(s, TABLE[1]).status_code == 200
    junk = {"do": "table", "players": ["A", "B", "C"], "options": {f"k{i}": "x" * 900 for i in range(64)}}
    with SQLiteStore.open(s.data / "table.sqlite", readonly=True, check=False) as store:
        before = len(store.read())
    for role in ("revisor", "tl"):
        r = _post(s, junk, role=role)
        assert r.status_code == 422 and "options" in r.json()["error"], r.text[:300]
        assert len(r.text) < 1000
    with SQLiteStore.open(s.data / "table.sqlite", readonly=True, check=False) as store:
        new = store.read()[before:]
    assert all(len(json.dumps(rec.data)) < 4096 for rec in new), [rec.kind for rec in new]
    # a small ill-typed option set is still the engine's to refuse, with its reason
    r = _post(s, {"do": "table", "players": ["A", "B", "C"], "options": {"hand_points": {"one_pair": "x"}}})
    assert r.status_code == 422


def test_points_bound_is_a_serve_option(make_server):
    s = make_server(command="serve", extra=("--max-points", "500"))
    for a in TABLE:
        _post(s, a)
    assert _post(s, {"do": "adjust", "player": "Anna", "points": 300, "reason": "x"}).status_code == 200
    assert _post(s, {"do": "adjust", "player": "Anna", "points": 501, "reason": "x"}).status_code == 422


def test_posts_are_paced_per_token_and_only_a_flood_is_refused(make_server):
    s = make_server(command="serve", extra=("--post-rate", "2"))  # bursts of 6, then one every 0.5 s
    start = time.monotonic()
    codes = [
        _post(s, {"do": "chicago", "player": "Nobody", "say": False}, role="revisor").status_code for _ in range(8)
    ]
    # one request after another is slowed, never refused: the answers stay one answer
    assert codes == [422] * 8
    assert time.monotonic() - start >= 0.9  # the 7th and 8th waited for their slots (a lower bound)

    async def flood() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=30) as client:
            return await asyncio.gather(
                *[
                    client.post(
                        f"{s.base}/api/action",
                        params={"token": s.token("revisor")},
                        json={"do": "chicago", "player": "Nobody", "say": False},
                    )
                    for _ in range(40)
                ]
            )

    answers = asyncio.run(flood())  # 40 at once: more than the burst and 5 s of queue hold
    refused = [r for r in answers if r.status_code == 429]
    assert refused and all(r.status_code in (422, 429) for r in answers)
    assert all(int(r.headers["retry-after"]) >= 1 for r in refused)
    # another token has its own pace
    assert _post(s, TABLE[0]).status_code == 200


def test_the_data_folder_and_its_files_are_private(make_server):
    s = make_server(command="serve")
    for a in TABLE:
        _post(s, a)
    files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in s.data.iterdir()}
    assert stat.S_IMODE(s.data.stat().st_mode) == 0o700
    for name in ("table.sqlite", "table.sqlite-wal", "broadcast.sqlite", "broadcast.sqlite-wal", "tokens.json"):
        assert files.get(name) == 0o600, (name, oct(files.get(name, 0)))
    assert all(mode & 0o077 == 0 for mode in files.values()), files


def test_an_old_world_readable_folder_is_tightened(make_server, tmp_path):
    s = make_server(command="serve")
    _post(s, TABLE[0])
    s.stop()
    os.chmod(s.data, 0o755)
    for p in s.data.iterdir():
        os.chmod(p, 0o644)
    s.start()
    assert stat.S_IMODE(s.data.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in s.data.iterdir())


def _run_serve(tmp_path, *extra: str) -> str:
    """``serve`` until it listens; its printed start text."""
    port = free_port()
    proc = subprocess.Popen(
        CLI + ["serve", "--data", str(tmp_path / "t"), "--port", str(port), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        wait_listening(port, proc, proc.stdout.read, 30)
    finally:
        proc.kill()
    return proc.communicate(timeout=10)[0]


def test_tokens_are_printed_only_when_asked(tmp_path):
    quiet = _run_serve(tmp_path)
    tokens = json.loads((tmp_path / "t" / "tokens.json").read_text())
    assert "/revisor?token=..." in quiet and "--show-tokens" in quiet
    assert not any(t in quiet for t in tokens.values())
    shown = _run_serve(tmp_path, "--show-tokens")
    from dashboard.tokens import ROLES, SEATS, seat_token, table_salt

    salt = table_salt(tmp_path / "t")  # the data folder's own (made by the first serve)
    links = {s: seat_token(tokens[s], "Bord 1", salt) for s in SEATS}  # this table's seat links
    assert all(tokens[r] in shown for r in ROLES)
    assert not any(t in shown for t in [*links.values(), *(tokens[s] for s in SEATS)])  # readers: no seat's page
    # a camera-only table: each seat's own page, where its player declares a hand
    quiet = _run_serve(tmp_path, "--camera-only")
    assert "/seat?token=..." in quiet and not any(t in quiet for t in [*tokens.values(), *links.values()])
    shown = _run_serve(tmp_path, "--camera-only", "--show-tokens")
    assert all(tokens[r] in shown for r in ROLES) and all(t in shown for t in links.values())
    assert not any(tokens[s] in shown for s in SEATS)  # the event's seat secrets: never a link


def test_a_seat_link_of_one_heat_opens_nothing_at_the_same_table_in_the_next(make_server, tmp_path):
    """Stop 63's audit: a seat's link was made from the event's seat secret and the table's
    name alone, and both stay from heat to heat (the event's token file, "Bord 1"), so Anna's
    link to seat 2 in heat 1 opened seat 2 of heat 2, where Erik sat, with his hand. Each
    heat plays in a new data folder, whose own salt goes into its links: the old link is
    refused (401) at the new heat's table, and the new heat's own link works."""
    import httpx

    tokens = tmp_path / "event-tokens.json"
    heat1 = make_server(command="serve", extra=("--tokens", str(tokens)))
    old_link = heat1.token("seat2")
    assert httpx.get(f"{heat1.base}/seat", params={"token": old_link}, timeout=10).status_code == 200
    heat1.stop()
    heat2 = make_server(command="serve", extra=("--tokens", str(tokens)))
    assert heat2.data != heat1.data and heat2.name == heat1.name == "Bord 1"
    assert httpx.get(f"{heat2.base}/seat", params={"token": old_link}, timeout=10).status_code == 401
    assert httpx.get(f"{heat2.base}/seat", params={"token": heat2.token("seat2")}, timeout=10).status_code == 200
    # a restart of the same heat keeps its printed links
    heat2.restart()
    assert httpx.get(f"{heat2.base}/seat", params={"token": heat2.token("seat2")}, timeout=10).status_code == 200


def test_serve_warns_in_words_when_it_listens_beyond_localhost_without_tls(tmp_path):
    """The tokens travel in URLs: beyond this machine without TLS anyone on the network
    reads them.  ``serve`` says so as ``hub web`` does (one helper), Swedish first."""
    local = _run_serve(tmp_path)
    assert "VARNING" not in local and "WARNING" not in local
    lan = _run_serve(tmp_path, "--host", "0.0.0.0")
    sv = lan.index("VARNING: lyssnar på 0.0.0.0 utan TLS")
    assert sv < lan.index("WARNING: listening on 0.0.0.0 without TLS") and "--certfile" in lan
    tokens = json.loads((tmp_path / "t" / "tokens.json").read_text())
    assert not any(t in lan for t in tokens.values())
    cert, key = make_certificate(tmp_path)
    tls = _run_serve(tmp_path, "--host", "0.0.0.0", "--certfile", str(cert), "--keyfile", str(key))
    assert "VARNING" not in tls and "https://" in tls


@pytest.fixture
def certificate(tmp_path):
    return make_certificate(tmp_path)


def make_certificate(folder):
    """A self-signed certificate for 127.0.0.1 made by openssl: (cert, key)."""
    if not shutil.which("openssl"):
        pytest.skip("needs the openssl command to make a test certificate")
    cert, key = folder / "table.crt", folder / "table.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def test_tls_serves_pages_and_streams(make_server, certificate):
    cert, key = certificate
    s = make_server(command="serve", extra=("--certfile", str(cert), "--keyfile", str(key)))
    base = f"https://127.0.0.1:{s.port}"
    ctx = ssl.create_default_context(cafile=str(cert))
    r = httpx.get(f"{base}/revisor", params={"token": s.token("revisor")}, verify=ctx, timeout=30)
    assert (r.status_code == 200 and "strict" not in r.text.lower()) or r.status_code == 200
    assert (
        httpx.post(
            f"{base}/api/action", params={"token": s.token("tl")}, json=TABLE[0], verify=ctx, timeout=30
        ).status_code
        == 200
    )

    # The asyncio client, not the sync one: over TLS the sync client reads in one thread and
    # writes the handshake in another on the same SSL object, and about once in 130 connects
    # beside a busy machine its handshake was never answered and its reader thread hung for
    # good (CI, 26 Nov: 300 s; 3 of 400 connects here, the asyncio client 0 of 1,200).
    async def first_state() -> dict:
        url = f"wss://127.0.0.1:{s.port}/ws?token={s.token('public')}"
        async with ws_connect(url, ssl=ctx, open_timeout=30, origin=base) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 30))

    assert asyncio.run(first_state())["state"]["players"]
    with pytest.raises(httpx.HTTPError):  # plain HTTP on the TLS port gets nothing
        httpx.get(f"http://127.0.0.1:{s.port}/revisor", params={"token": s.token("revisor")}, timeout=5)


def test_a_foreign_origin_is_refused_at_the_handshake(make_server):
    s = make_server(command="serve", extra=("--allow-origin", "http://obs-pc.local:8000"))
    url = f"{s.ws_base}/ws?token={s.token('broadcast')}"
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{s.port + 1}", "https://obs-pc.local:8000"):
        with pytest.raises(InvalidStatus) as e, connect(url, origin=origin, open_timeout=5):
            pass
        assert e.value.response.status_code == 403, origin
    for origin in (s.base, "http://obs-pc.local:8000", None):  # same origin, allowed, no browser
        with connect(url, origin=origin, open_timeout=5) as ws:
            assert json.loads(ws.recv(timeout=5))["role"] == "broadcast"


def test_pages_carry_security_headers(make_server):
    s = make_server(command="serve")
    for path, role in (
        ("/revisor", "revisor"),
        ("/static/common.js", "tl"),
        ("/api/history", "tl"),
        ("/", None),
        ("/api/protocol.pdf", "revisor"),
        ("/api/protocol.html", "public"),
        ("/api/i18n", "revisor"),
    ):
        r = httpx.get(s.base + path, params={"token": s.token(role)} if role else {})
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["cache-control"] == "no-store", path  # the token is in the address
        assert r.headers["x-content-type-options"] == "nosniff"
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp and "frame-ancestors" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


@pytest.mark.browser
def test_every_view_works_under_its_content_security_policy(make_server, chromium):
    """The pages render and stream in chromium with no CSP violation reported."""
    s = make_server(pace=0.05, delay=0.5)
    for view, role in (
        ("revisor", "revisor"),
        ("tl", "tl"),
        ("public", "public"),
        ("dealer", "dealer"),
        ("broadcast", "broadcast"),
        ("protocol", "revisor"),
        ("hall", "tl"),
        ("seat", "seat1"),  # a player's own phone
    ):
        page = chromium.new_page()
        console: list[str] = []
        page.on("console", lambda m, console=console: console.append(m.text))  # this page's list
        page.on("pageerror", lambda e, console=console: console.append(str(e)))
        assert page.goto(s.url(view, role)).status == 200
        if view == "hall":  # the hall's panels follow their tables
            page.wait_for_function(
                "() => Number(document.querySelector('.hall-table')?.dataset.seq) > 2", timeout=30_000
            )
        else:
            page.wait_for_function("() => Number(document.body.dataset.seq ?? -99) > 2", timeout=30_000)
        if view == "protocol":
            page.wait_for_selector("svg.protocol")
        assert not [m for m in console if "Content Security Policy" in m or "Refused" in m], (view, console)
        page.close()


def test_seat_tokens_are_added_to_an_older_token_file_which_stays_private(tmp_path):
    """One token per seat (a player's own phone), beside the roles' in tokens.json (0600); an
    event's file made before them keeps its roles' tokens and gets the seats' added."""
    from dashboard.tokens import ROLES, SEATS, RoleTokens

    path = tmp_path / "tokens.json"
    old = {r: f"old-{r}-token" for r in ROLES}
    path.write_text(json.dumps(old))
    os.chmod(path, 0o600)
    tokens = RoleTokens.load_or_create(path)
    stored = json.loads(path.read_text())
    assert {r: stored[r] for r in ROLES} == old and all(stored[s] for s in SEATS)
    assert len(set(stored.values())) == len(ROLES) + len(SEATS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [tokens.role_of(stored[s]) for s in SEATS] == list(SEATS)
    assert RoleTokens.load_or_create(path).as_dict() == stored  # read again: the same tokens


_RACE = """
import sys
from pathlib import Path
from dashboard.tokens import RoleTokens
folder = Path(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # the test's go, to both at once
out = []
for i in range(40):
    try:
        out.append(RoleTokens.load_or_create(folder / f"t{i}.json").token("tl"))
    except Exception as exc:  # what a process starting beside another met: a traceback before
        out.append(f"error {type(exc).__name__}: {exc}")
print("\\n".join(out))
"""


def test_two_processes_making_the_token_file_at_once_get_the_same_tokens(tmp_path):
    """The service and a command started together on an event without a token file: one
    makes it, the other reads it whole; both answer to the same tokens, and nobody meets a
    half-written file or an error."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _RACE, str(tmp_path)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for p in procs:  # both started and imported: then both are let go together
        assert p.stdout.readline().strip() == "ready", p.stderr.read()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    a, b = (o[0].split("\n") for o in outs)
    assert not [x for x in a + b if x.startswith("error")], [x for x in a + b if x.startswith("error")][:3]
    assert a == b  # the same tokens in both
    for i in range(40):
        path = tmp_path / f"t{i}.json"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert json.loads(path.read_text())["tl"] == a[i]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"t{i}.json" for i in range(40))  # no leftovers
