"""``chicago-table hub``: clear errors that change nothing, and the exports."""

from __future__ import annotations

import csv

from pypdf import PdfReader

from table_controller.app.cli import main
from table_controller.tournament.event import register
from table_controller.tournament.hubstore import HubStore
from tests.tournament.tables import RecordedTable, play_as_drawn
from tests.tournament.test_event import sync


def test_bad_input_is_a_clear_error_that_changes_nothing(tmp_path, capsys):
    hub = str(tmp_path / "ev.hub")
    assert main(["hub", "create", hub, "--event", "sm 2026"]) == 2
    assert "event id" in capsys.readouterr().err
    assert main(["hub", "create", hub, "--event", "sm2026", "--ruleset", "poker"]) == 2
    assert "unknown ruleset" in capsys.readouterr().err
    assert main(["hub", "create", hub, "--event", "sm2026", "--shot-clocks", "play=0"]) == 2
    assert "--shot-clocks: shot clock play: seconds above 0 and at most 3600, not 0" in capsys.readouterr().err
    assert not (tmp_path / "ev.hub").exists()
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, "--player", "Anna", "--player", "Anna"]) == 2
    assert "twice" in capsys.readouterr().err
    assert main(["hub", "register", hub, "--player", "Anna:Malmö", "--player", "Bo"]) == 0
    assert main(["hub", "draw", hub]) == 2  # two players: no table of 3 or 4 (r1)
    assert "r1" in capsys.readouterr().err
    with HubStore.open(hub, readonly=True) as h:
        assert h.tables() == [] and h.draws() == [] and list(h.players()) == ["Anna", "Bo"]
    assert main(["hub", "advance", hub]) == 2
    assert "no heat" in capsys.readouterr().err
    assert main(["hub", "publish", "--db", "x.sqlite", "--table", "a/b", "--event", "e"]) == 2
    assert "table" in capsys.readouterr().err
    assert main(["hub", "standings", str(tmp_path / "none.hub")]) == 2
    assert "no such hub file" in capsys.readouterr().err


def test_results_export_as_csv_and_pdf(tmp_path, capsys):
    hub = str(tmp_path / "ev.hub")
    main(["hub", "create", hub, "--event", "sm2026", "--name", "SM i Chicago 2026"])
    main(["hub", "register", hub] + [f"--player=Spelare {i}:Klubb {i % 2}" for i in range(4)])
    assert main(["hub", "draw", hub, "--seed", "s"]) == 0
    assert "seed s" in capsys.readouterr().out
    with HubStore.open(hub) as h:
        (t,) = h.tables(1)
        rt = RecordedTable(tmp_path / "t.sqlite", play_as_drawn(t, seed=4))
        rt.play()
        sync(h, rt, t["table"])
        rt.close()
    assert main(["hub", "standings", hub]) == 0
    out = capsys.readouterr().out
    assert "h1-t1" in out and "finished" in out
    assert main(["hub", "export", hub, "--csv", str(tmp_path / "r.csv"), "--pdf", str(tmp_path / "r.pdf")]) == 0
    with open(tmp_path / "r.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4"]
    assert sum(r["advancing"] == "ja" for r in rows) == 2  # heat 1: top 2 (r7)
    assert {r["club"] for r in rows} == {"Klubb 0", "Klubb 1"}
    text = PdfReader(tmp_path / "r.pdf").pages[0].extract_text()
    assert "SM i Chicago 2026" in text and rows[0]["player"] in text


def test_standings_name_the_events_shot_clocks_d11(tmp_path, capsys):
    """D11 "configurable per event": the terminal's standings say which shot clocks every
    table runs, as the TL's screen does; the hub's setting over D11's defaults."""
    import json

    set_, plain = str(tmp_path / "set.hub"), str(tmp_path / "plain.hub")
    assert main(["hub", "create", set_, "--event", "sm2026", "--shot-clocks", "play=25,quads=20"]) == 0
    assert main(["hub", "create", plain, "--event", "sm2026"]) == 0
    capsys.readouterr()
    assert main(["hub", "standings", set_]) == 0
    out = capsys.readouterr().out
    assert "shot clocks (D11): exchange 30 s, chicago 10 s, play 25 s, quads 20 s\n" in out
    assert main(["hub", "standings", plain]) == 0
    assert (
        "shot clocks (D11): exchange 30 s, chicago 10 s, play 20 s, quads 15 s (D11's defaults)"
        in capsys.readouterr().out
    )
    assert main(["hub", "standings", set_, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shot_clocks"] == {
        "exchange": 30,
        "chicago": 10,
        "play": 25,
        "quads": 20,
    }
    with HubStore.open(set_) as h:  # edited by hand: said in words, not a traceback
        h.set_meta(shot_clocks="spel=5")
    assert main(["hub", "standings", set_]) == 2
    assert "the hub's shot clocks 'spel=5' cannot be read (no shot clock 'spel'" in capsys.readouterr().err


def test_the_hub_file_is_its_owners_alone_as_a_tables_log_is(tmp_path):
    """The hub keeps a copy of every table's log, every dealt hand in it (README
    "Security"): created 0600 with its -wal, under the usual umask 022 too."""
    import os

    hub = tmp_path / "ev.hub"
    old = os.umask(0o022)
    try:
        assert main(["hub", "create", str(hub), "--event", "sm2026"]) == 0
        with HubStore.open(hub) as h:
            register(h, [("Anna", "Malmö BK")])  # a write: the -wal and -shm exist while it is open
            modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    finally:
        os.umask(old)
    assert set(modes) == {"ev.hub", "ev.hub-wal", "ev.hub-shm"}
    assert all(m == 0o600 for m in modes.values()), modes
