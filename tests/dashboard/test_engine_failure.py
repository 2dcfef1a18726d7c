"""A bug in the engine or a log that cannot be written (issue 13): a real
``chicago-table serve`` whose engine is made to fail, and whose log meets a full disk
(tests/dashboard/faulty_serve.py: switched by files, unreachable from HTTP).

The answer is a fixed text (422 for the engine, 503 for the log) in the request's
language, never a 500, never the failure's own message (it names a card here); the table
is unchanged (the same action is accepted once the failure is gone), the TL is alerted,
and the log passes ``chicago-table log check``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import httpx

from table_controller.store import SQLiteStore

from .harness import CARD_RE, CLI, ROOT

HANDS = {
    "Anna": ["2S", "3S", "4S", "5S", "6S"],
    "Bo": ["2H", "3H", "4H", "5H", "6H"],
    "Cilla": ["2D", "3D", "4D", "5D", "6D"],
    "Dan": ["2C", "3C", "4C", "5C", "6C"],
}
NOT_JUDGED = {
    "en": "The table could not judge this action; nothing was changed. The TL has been alerted.",
    "sv": "Bordet kunde inte bedöma åtgärden; ingenting ändrades. TL har larmats.",
}


def _table(s) -> list:
    """The table's actions and events (not the shot clocks' records, which run meanwhile)."""
    with SQLiteStore.open(s.data / "table.sqlite", readonly=True, check=False) as store:
        return [
            (r.kind, json.dumps(r.data, sort_keys=True))
            for r in store.read(kinds=["action", "event"])
            if r.source != "clock"
        ]


def test_an_engine_bug_or_a_full_disk_is_a_clear_answer_and_changes_nothing(make_server, tmp_path):
    flags = tmp_path / "faults"
    flags.mkdir()
    s = make_server(
        command="serve",
        cli=[sys.executable, str(ROOT / "tests" / "dashboard" / "faulty_serve.py")],
        env={"CHICAGO_TEST_FAULTS": str(flags)},
        extra=("--post-rate", "10000"),
    )
    client = httpx.Client(base_url=s.base, timeout=20)

    def post(body, lang=None):
        params = {"token": s.token("tl"), **({"lang": lang} if lang else {})}
        return client.post("/api/action", params=params, json=body)

    for a in (
        {"do": "table", "players": list(HANDS)},
        {"do": "game", "seats": list(HANDS), "button": "Dan"},
        {"do": "deal", "hands": HANDS},
    ):
        assert post(a).status_code == 200
    bo = {"do": "discard", "player": "Bo", "cards": ["2H", "3H"]}
    cilla = {"do": "discard", "player": "Cilla", "cards": ["2D"]}

    (flags / "engine").touch()  # a bug: after the action's first event, a KeyError naming AS
    before = _table(s)
    for lang in ("en", "sv"):
        r = post(bo, lang)
        assert r.status_code == 422, r.text
        assert r.json() == {"ok": False, "error": NOT_JUDGED[lang]}
        assert not CARD_RE.findall(r.text) and "AS" not in r.text and "KeyError" not in r.text
    assert _table(s) == before
    (flags / "engine").unlink()
    assert post(bo).status_code == 200, "the failed action left nothing behind: it is accepted now"

    (flags / "disk").touch()  # the OS refuses the log's write (EFBIG)
    before = _table(s)
    for lang, word in (("en", "cannot be written"), ("sv", "kan inte skrivas")):
        r = post(cilla, lang)
        assert r.status_code == 503, r.text
        assert word in r.json()["error"] and not CARD_RE.findall(r.text)
    assert _table(s) == before
    (flags / "disk").unlink()
    assert post(cilla).status_code == 200

    client.close()
    s.stop()  # killed, as a crash would
    with SQLiteStore.open(s.data / "table.sqlite", readonly=True) as store:
        alerts = [r.data for r in store.read(kinds=["alert"]) if r.data.get("kind") == "engine_failed"]
    assert [(a["action"]["player"], a["error"]) for a in alerts] == [("Bo", "KeyError")] * 2
    assert all("AS" not in a["text"] for a in alerts)
    check = subprocess.run(
        CLI + ["log", "check", str(s.data / "table.sqlite")], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert check.returncode == 0, check.stdout + check.stderr
