"""Tamper evidence (issue 20, item 4): a key per table signs its chain head, the hub keeps
the heads and every record's digest as a witness, and ``log verify`` names the first
record that is altered or missing, even when the unkeyed chain was recomputed."""

from __future__ import annotations

import json
import shutil
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from table_controller.app.cli import main
from table_controller.store import SQLiteStore
from table_controller.store.records import GENESIS, digest
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.publisher import TablePublisher
from table_controller.tournament.service import HubService
from table_controller.tournament.signing import create_key, load_key, signed_head
from table_controller.tournament.witness import export_witness, verify_log

from .broker import until
from .tables import RecordedTable, play_as_drawn
from .test_publish import hub_head, make_hub, running


def forge(path, seq: int) -> None:
    """What someone who can write the file can do: change record ``seq`` and recompute
    the unkeyed chain from there on, so the file is consistent in itself."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER records_no_update")
    conn.execute("UPDATE records SET source = 'forged' WHERE seq = ?", (seq,))
    rows = conn.execute(
        "SELECT seq, time, source, kind, txn, data FROM records WHERE seq >= ? ORDER BY seq", (seq,)
    ).fetchall()
    prev = conn.execute("SELECT digest FROM records WHERE seq = ?", (seq - 1,)).fetchone()
    prev = prev[0] if prev else GENESIS
    for s, t, src, kind, txn, data in rows:
        prev = digest(prev, s, t, src, kind, txn, data)
        conn.execute("UPDATE records SET digest = ? WHERE seq = ?", (prev, s))
    conn.commit()
    conn.close()


async def test_signed_heads_reach_the_hub_and_the_log_verifies(broker, tmp_path, capsys):
    hub_db = tmp_path / "hub.sqlite"
    tables = make_hub(hub_db)
    public = create_key(tmp_path / "t1.key")
    assert (tmp_path / "t1.key").stat().st_mode & 0o077 == 0  # the table's secret: owner only
    assert main(["hub", "key", str(hub_db), "h1-t1", public]) == 0
    t = RecordedTable(tmp_path / "t1.sqlite", play_as_drawn(tables[0], seed=6))
    t.play(400)
    hub = HubService(hub_db, port=broker.port)
    pub = TablePublisher(t.path, table="h1-t1", event="sm2026", port=broker.port, key=tmp_path / "t1.key", stall=1)

    def witnessed():
        with HubStore.open(hub_db, readonly=True) as h:
            heads = h.signed_heads("h1-t1")
        return heads and heads[-1]["seq"] == t.last_seq()

    async with running(hub, pub):
        await until(witnessed, what="the signed head of the first part")
        t.play()
        await until(witnessed, what="the signed head of the whole table")
    assert hub_head(hub_db, "h1-t1") == t.last_seq() and hub.stats.get("bad_heads", 0) == 0
    t.close()
    capsys.readouterr()
    assert main(["hub", "witness", str(hub_db), "-o", str(tmp_path / "w.json")]) == 0
    assert main(["log", "verify", str(t.path), "--witness", str(tmp_path / "w.json")]) == 0
    assert "HEL OCH OFÖRÄNDRAD" in capsys.readouterr().out  # Swedish first, as the other commands
    copy = tmp_path / "copy.sqlite"
    shutil.copy(t.path, copy)
    forge(copy, 123)
    assert main(["log", "verify", str(copy), "--witness", str(hub_db), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["first_bad"] == 123 and "record 123" in out["problems"][0]


def witness_of(tmp_path, n_actions=300):
    """A table log and the hub's witness of it, without a broker (ingest directly)."""
    hub_db = tmp_path / "hub.sqlite"
    tables = make_hub(hub_db)
    public = create_key(tmp_path / "k.key")
    t = RecordedTable(tmp_path / "t.sqlite", play_as_drawn(tables[0], seed=8))
    t.play(n_actions)
    with HubStore.open(hub_db) as hub, SQLiteStore.open(t.path, readonly=True) as s:
        hub.set_key("h1-t1", public)
        recs = s.read()
        hub.ingest("h1-t1", recs)
        last = recs[-1]
        assert (
            hub.add_signed_head(signed_head(load_key(tmp_path / "k.key"), "sm2026", "h1-t1", last.seq, last.digest))
            is None
        )
        w = export_witness(hub)
    return t, w


_CASE = {}


@settings(max_examples=12)
@given(st.floats(0, 1))
def test_editing_any_record_and_recomputing_the_chain_is_named__item4(tmp_path_factory, where):
    if "t" not in _CASE:
        _CASE["folder"] = tmp_path_factory.mktemp("w")
        _CASE["t"], _CASE["w"] = witness_of(_CASE["folder"])
        _CASE["t"].close()
    t, w = _CASE["t"], _CASE["w"]
    n = w["tables"]["h1-t1"]["have"]
    seq = 1 + int(where * (n - 1))
    copy = _CASE["folder"] / f"copy{seq}.sqlite"
    shutil.copy(t.path, copy)
    forge(copy, seq)
    with SQLiteStore.open(copy, readonly=True) as s:
        assert s.verify() == n  # the unkeyed chain alone sees nothing
    v = verify_log(copy, w)
    assert not v.ok and v.first_bad == seq and f"record {seq}" in v.problems[0]
    copy.unlink()


def test_a_copy_without_its_wal_is_behind_the_witness__item4(tmp_path):
    t, _ = witness_of(tmp_path, 200)
    t.close()  # checkpointed into the main file
    t.play(200)  # the newest records are in the -wal while the table runs
    with HubStore.open(tmp_path / "hub.sqlite") as hub, SQLiteStore.open(t.path, readonly=True) as s:
        hub.ingest("h1-t1", s.read(hub.head("h1-t1")[0] + 1))
        w = export_witness(hub)
    copy = tmp_path / "copy.sqlite"
    shutil.copy(t.path, copy)  # the file alone, as someone might copy it
    assert not (tmp_path / "copy.sqlite-wal").exists()
    v = verify_log(copy, w)
    assert not v.ok and "behind the witness" in v.problems[0] and v.first_bad == v.records + 1
    assert verify_log(t.path, w).ok
    t.close()


def test_a_forged_signature_is_refused_by_the_hub(tmp_path):
    t, w = witness_of(tmp_path, 50)
    create_key(tmp_path / "other.key")
    with HubStore.open(tmp_path / "hub.sqlite") as hub:
        head = signed_head(load_key(tmp_path / "other.key"), "sm2026", "h1-t1", 5, "00" * 16)
        assert "not signed by the table's registered key" in hub.add_signed_head(head)
        assert "no key registered" in hub.add_signed_head({**head, "table": "h1-t2"})
    t.close()


def test_the_protocol_carries_the_final_head_beside_the_sign_off__item4(tmp_path, capsys):
    from pypdf import PdfReader

    t, w = witness_of(tmp_path, 120)
    t.close()
    head = w["tables"]["h1-t1"]
    out = tmp_path / "p.pdf"
    assert main(["protocol", str(t.path), "-o", str(out), "--head"]) == 0
    text = PdfReader(out).pages[0].extract_text()
    # the protocol is Swedish by default ("Loggens huvud: post N, digest"); English on request
    assert f"Loggens huvud: post {head['have']}, {head['digests'][-1]}" in text
    assert "Revisor: underskrift" in text and "TL: underskrift" in text  # on the page of the sign-off
    # and as a QR code on that page, read back from the printed page as a phone would
    assert _qr_text(out) == f"chicago-log-head|{head['have']}|{head['digests'][-1]}"
    assert main(["protocol", str(t.path), "-o", str(out), "--head", "--lang", "en"]) == 0
    assert f"record {head['have']}, {head['digests'][-1]}" in PdfReader(out).pages[0].extract_text()
    assert main(["protocol", str(tmp_path / "nothing.jsonl"), "--head"]) == 2


def _qr_text(pdf) -> str:
    """The QR code at the foot of the PDF's first page (where the sign-off and the head
    are), from a rendering at 300 dpi (pdfplumber's), decoded by OpenCV's ArUco-based
    detector.  The foot alone: a page full of tally marks can hide the code.  OpenCV's
    plain detector missed 2 of 40 printed heads there; this one none of 92."""
    import cv2
    import numpy as np
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        page = np.array(doc.pages[0].to_image(resolution=300).original.convert("RGB"))
    foot = page[page.shape[0] * 4 // 5 :, :, ::-1]
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(np.ascontiguousarray(foot))
    return str(text)


def test_log_verify_says_its_verdict_in_swedish_unless_asked_for_english(tmp_path, capsys):
    """``log verify``'s verdict, its problem and its notes are said in the words spoken (the
    witness's worded Phrases); its --json stays as programs read it, in either language."""
    t, w = witness_of(tmp_path, 100)
    t.close()
    (tmp_path / "w.json").write_text(json.dumps(w))
    copy = tmp_path / "copy.sqlite"
    shutil.copy(t.path, copy)
    forge(copy, 40)
    argv = ["log", "verify", str(copy), "--witness", str(tmp_path / "w.json")]
    capsys.readouterr()
    assert main(argv) == 1
    sv = capsys.readouterr().out
    assert sv.startswith(f"{copy} (bord h1-t1): INTE SOM BEVITTNAD; ") and " poster, " in sv, sv
    assert "\n  problem: post 40 skiljer sig från posten som hubben bevittnade (ändrad, kedjan omräknad)\n" in sv, sv
    assert "\n  senaste signerade huvud: post " in sv, sv
    for english in ("NOT AS WITNESSED", "record", "witness", "differs", "altered", "signed head", "digest "):
        assert english not in sv.replace(str(tmp_path), "FOLDER"), (english, sv)
    assert main([*argv, "--lang", "en"]) == 1
    en = capsys.readouterr().out
    assert en.startswith(f"{copy} (table h1-t1): NOT AS WITNESSED; ") and "\n  problem: record 40 differs " in en, en
    assert len(en.splitlines()) == len(sv.splitlines())
    outs = []
    for lang in ("sv", "en"):
        assert main([*argv, "--json", "--lang", lang]) == 1
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and json.loads(outs[0])["problems"][0].startswith("record 40 differs from"), outs
