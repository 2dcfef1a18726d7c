"""``chicago-table hub``: clear errors that change nothing, and the exports."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys

import pytest
from pypdf import PdfReader

from table_controller.app.cli import main
from table_controller.tournament.event import register
from table_controller.tournament.hubstore import HubStore
from tests.tournament.tables import RecordedTable, play_as_drawn
from tests.tournament.test_event import sync


def test_bad_input_is_a_clear_error_that_changes_nothing(tmp_path, capsys):
    """The hub's own refusals in the TL's Swedish; the topics', the clocks' and the draw's
    words (another part's) as they were said."""
    hub = str(tmp_path / "ev.hub")
    assert main(["hub", "create", hub, "--event", "sm 2026"]) == 2
    assert "tävlingens id 'sm 2026': använd 1-40 bokstäver" in capsys.readouterr().err  # stop 71: it was English
    assert main(["hub", "create", hub, "--event", "sm2026", "--ruleset", "poker"]) == 2
    assert "okänt regelverk 'poker'" in capsys.readouterr().err  # unknown ruleset
    assert main(["hub", "create", hub, "--event", "sm2026", "--shot-clocks", "play=0"]) == 2
    assert "--shot-clocks: betänketiden play: sekunder över 0 och högst 3600, inte 0" in capsys.readouterr().err
    assert main(["hub", "create", hub, "--event", "sm2026", "--shot-clocks", "play=0", "--lang", "en"]) == 2
    assert "--shot-clocks: shot clock play: seconds above 0 and at most 3600, not 0" in capsys.readouterr().err
    assert not (tmp_path / "ev.hub").exists()
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, "--player", "Anna", "--player", "Anna"]) == 2
    assert "Anna: ett namn anges två gånger" in capsys.readouterr().err  # which name (stop 71)
    # a spreadsheet's "Unicode text" (UTF-16) is read as such; a name with a NUL is refused
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes("Åsa Öberg;Malmö BK\nBo;\n".encode("utf-16"))
    nul = tmp_path / "nul.csv"
    nul.write_bytes("A\x00n\x00;Malmö\n".encode())
    other = str(tmp_path / "other.hub")
    assert main(["hub", "create", other, "--event", "sm2026"]) == 0
    assert main(["hub", "register", other, "--csv", str(nul)]) == 2
    assert "ett tecken som inget namn har" in capsys.readouterr().err
    assert main(["hub", "register", other, "--csv", str(utf16)]) == 0
    with HubStore.open(other, readonly=True) as h:
        assert h.players() == {"Åsa Öberg": "Malmö BK", "Bo": ""}
    assert main(["hub", "web", other, "--tokens", str(tmp_path / "mistyped" / "tokens.json")]) == 2
    assert "mappen" in capsys.readouterr().err and not (tmp_path / "mistyped").exists()
    nowhere = str(tmp_path / "nosuch.csv")  # the system's reason said in Swedish too, not "[Errno 2]"
    assert main(["hub", "register", hub, "--csv", nowhere]) == 2
    assert f"{nowhere}: kan inte läsa spelarfilen (filen eller mappen finns inte)" in capsys.readouterr().err
    assert main(["hub", "export", hub, "--csv", str(tmp_path / "no" / "r.csv")]) == 2
    err = capsys.readouterr().err
    # the missing folder named before anything is written (stop 72; stop 71's check said the file)
    assert f"mappen {tmp_path / 'no'} finns inte; ange en fil i en mapp som finns" in err and "Errno" not in err, err
    assert main(["hub", "register", hub, "--player", "Anna:Malmö", "--player", "Bo"]) == 0
    assert main(["hub", "draw", hub]) == 2  # two players: no table of 3 or 4 (r1)
    assert "r1" in capsys.readouterr().err
    with HubStore.open(hub, readonly=True) as h:
        assert h.tables() == [] and h.draws() == [] and list(h.players()) == ["Anna", "Bo"]
    assert main(["hub", "advance", hub]) == 2
    assert "inget heat är lottat ännu" in capsys.readouterr().err  # no heat is drawn yet
    assert main(["hub", "publish", "--db", "x.sqlite", "--table", "a/b", "--event", "e"]) == 2
    assert "table" in capsys.readouterr().err
    assert main(["hub", "standings", str(tmp_path / "none.hub")]) == 2
    assert "hubbfilen finns inte" in capsys.readouterr().err  # no such hub file
    assert main(["hub", "standings", str(tmp_path / "none.hub"), "--lang", "en"]) == 2
    assert "no such hub file" in capsys.readouterr().err


def test_results_export_as_csv_and_pdf(tmp_path, capsys):
    hub = str(tmp_path / "ev.hub")
    main(["hub", "create", hub, "--event", "sm2026", "--name", "SM i Chicago 2026"])
    main(["hub", "register", hub] + [f"--player=Spelare {i}:Klubb {i % 2}" for i in range(4)])
    assert main(["hub", "draw", hub, "--seed", "s", "--lang", "en"]) == 0
    assert "seed s" in capsys.readouterr().out
    with HubStore.open(hub) as h:
        (t,) = h.tables(1)
        rt = RecordedTable(tmp_path / "t.sqlite", play_as_drawn(t, seed=4))
        rt.play()
        sync(h, rt, t["table"])
        rt.close()
    assert main(["hub", "standings", hub, "--lang", "en"]) == 0
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
    assert main(["hub", "standings", set_, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "shot clocks (D11): exchange 30 s, Chicago question 10 s, play 25 s, four of a kind 20 s\n" in out
    assert main(["hub", "standings", plain, "--lang", "en"]) == 0
    assert (
        "shot clocks (D11): exchange 30 s, Chicago question 10 s, play 20 s, four of a kind 15 s (D11's defaults)"
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
    assert main(["hub", "standings", set_, "--lang", "en"]) == 2
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


# --- the TL's words: Swedish first, English with --lang en (table_controller/app/words.py) ---

SAID = {
    "sv": {
        "created": "skapade {hub} för tävlingen sm2026 (sm2025)\n",
        "exists": "chicago-table hub create: {hub} finns redan\n",
        "no heat": "chicago-table hub advance: inget heat är lottat ännu; kör 'chicago-table hub draw'\n",
        "drawn again": "chicago-table hub draw: heat 1 är redan lottat\n",
        "not over": "chicago-table hub advance: heat 1 är inte slut: h1-t1 spelar fortfarande\n",
        "registered": "registrerade 4 spelare (4 totalt)\n",
        "drawn": "heat 1, slumpfrö s\n  h1-t1: Anna, Bo, Cilla, Dan\n",
        "game": re.compile(r"^    omgång 1: platser (\w+, ){3}\w+; dealerknapp \w+$", re.M),
        "clocks": "betänketider (D11): byte 30 s, Chicagofrågan 10 s, spel 20 s, fyrtal 15 s (D11:s standardvärden)\n",
        "not started": "heat 1\n  h1-t1 (0 poster): inte startat\n",
        "playing": re.compile(r"^  h1-t1 \(\d+ poster\): omgång 1, giv \d, (giv delas ut|byte \d|stickspel)$", re.M),
        "finished": re.compile(
            r"^heat 1: klart\n  h1-t1 \(\d+ poster\): klart\n    1\. \w+: \d+ p, \d+ sidopoäng, \d Chicago \*$", re.M
        ),
        "going on": "  går vidare: ",
        "where": "chicago-table hub export: ange vart resultaten ska skrivas: --csv FILE och/eller --pdf FILE\n",
        "wrote": "skrev 4 rader till {csv}\n",
    },
    "en": {
        "created": "created {hub} for event sm2026 (sm2025)\n",
        "exists": "chicago-table hub create: {hub} already exists\n",
        "no heat": "chicago-table hub advance: no heat is drawn yet; run 'chicago-table hub draw'\n",
        "drawn again": "chicago-table hub draw: heat 1 is already drawn\n",
        "not over": "chicago-table hub advance: heat 1 is not over: h1-t1 still playing\n",
        "registered": "registered 4 players (4 in all)\n",
        "drawn": "heat 1, seed s\n  h1-t1: Anna, Bo, Cilla, Dan\n",
        "game": re.compile(r"^    game 1: seats (\w+, ){3}\w+; button \w+$", re.M),
        "clocks": "shot clocks (D11): exchange 30 s, Chicago question 10 s, play 20 s, four of a kind 15 s (D11's defaults)\n",
        "not started": "heat 1\n  h1-t1 (0 records): not started\n",
        "playing": re.compile(r"^  h1-t1 \(\d+ records\): game 1, deal \d, (dealing|exchange \d|trick play)$", re.M),
        "finished": re.compile(
            r"^heat 1: complete\n  h1-t1 \(\d+ records\): finished\n    1\. \w+: \d+ p, score \d+, \d Chicago \*$", re.M
        ),
        "going on": "  going on: ",
        "where": "chicago-table hub export: say where: --csv FILE and/or --pdf FILE\n",
        "wrote": "wrote 4 rows to {csv}\n",
    },
}


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_the_tls_hub_speaks_swedish_first_and_english_with_lang_en(lang, tmp_path, capsys):
    """The TL's tournament commands say their results, confirmations and errors in Swedish
    unless run with --lang en, as setup and doctor do; --json stays as it is."""
    hub, csv_file, said = str(tmp_path / "sm.hub"), str(tmp_path / "r.csv"), SAID[lang]
    flags = [] if lang == "sv" else ["--lang", "en"]  # Swedish without asking

    def run(*argv: str) -> tuple[int, str]:
        code = main(["hub", *argv, *flags])
        out = capsys.readouterr()
        assert "Traceback" not in out.err
        return code, out.out + out.err

    assert run("create", hub, "--event", "sm2026") == (0, said["created"].format(hub=hub))
    assert run("create", hub, "--event", "sm2026") == (2, said["exists"].format(hub=hub))
    assert run("register", hub, *(f"--player={p}" for p in ("Anna", "Bo", "Cilla", "Dan"))) == (0, said["registered"])
    assert run("advance", hub) == (2, said["no heat"])  # the hub's own refusals too (event.py, hubstore.py)
    code, out = run("draw", hub, "--seed", "s")
    assert code == 0 and out.startswith(said["drawn"]) and len(said["game"].findall(out)) == 1, out
    assert run("draw", hub) == (2, said["drawn again"])
    code, out = run("standings", hub)
    assert code == 0 and out.endswith(said["clocks"] + said["not started"]), out
    with HubStore.open(hub) as h:
        (t,) = h.tables(1)
        rt = RecordedTable(tmp_path / "t.sqlite", play_as_drawn(t, seed=4))
        rt.play(40)
        sync(h, rt, t["table"])
        code, out = run("standings", hub)
        assert code == 0 and said["playing"].search(out), out  # the phase in words, as the pages say it
        assert run("advance", hub) == (2, said["not over"])
        rt.play()
        sync(h, rt, t["table"])
        rt.close()
    code, out = run("standings", hub)
    assert code == 0 and said["finished"].search(out) and said["going on"] in out, out
    assert run("export", hub) == (2, said["where"])
    assert run("export", hub, "--csv", csv_file) == (0, said["wrote"].format(csv=csv_file))


def test_the_hubs_json_is_the_same_in_either_language(tmp_path, capsys):
    """--json is for programs: the same bytes whatever language the command speaks."""
    hub = str(tmp_path / "sm.hub")
    main(["hub", "create", hub, "--event", "sm2026"])
    main(["hub", "register", hub] + [f"--player={p}" for p in ("Anna", "Bo", "Cilla", "Dan")])
    capsys.readouterr()
    outs = {}
    for lang in ("sv", "en"):
        assert main(["hub", "standings", hub, "--json", "--lang", lang]) == 0
        outs[lang] = capsys.readouterr().out
    assert outs["sv"] == outs["en"] and json.loads(outs["sv"])["event"] == "sm2026"
    assert main(["hub", "draw", hub, "--seed", "s", "--json"]) == 0
    drawn = capsys.readouterr().out
    assert json.loads(drawn)["seed"] == "s" and "slumpfrö" not in drawn and "omgång" not in drawn


def test_the_hub_command_line_speaks_swedish_unless_asked_for_english(tmp_path):
    """The real program, as the TL starts it: no language set anywhere is Swedish."""
    outs = {}
    for lang in ([], ["--lang", "en"]):
        proc = subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "hub", "register", str(tmp_path / "sm.hub"), *lang],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and proc.stdout == ""
        outs[tuple(lang)] = proc.stderr
    assert outs[()] == "chicago-table hub register: inga spelare angivna (--player NAME[:CLUB] eller --csv FILE)\n"
    assert (
        outs[("--lang", "en")] == "chicago-table hub register: no players given (--player NAME[:CLUB] or --csv FILE)\n"
    )


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ([], "chicago-table hub draw: 5 spelare kan inte delas upp på bord med 3 eller 4 spelare (r1)\n"),
        (["--lang", "en"], "chicago-table hub draw: 5 players cannot sit at tables of 3 or 4 (r1)\n"),
    ],
)
def test_a_heat_that_cannot_be_drawn_is_said_in_the_tls_language_r1(flags, said, tmp_path, capsys):
    """The draw's refusal is the one a TL meets first (five players registered): it was
    English whatever the console spoke."""
    hub = str(tmp_path / "sm.hub")
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, *(f"--player=P{i}" for i in range(5))]) == 0
    capsys.readouterr()
    assert main(["hub", "draw", hub, *flags]) == 2
    assert capsys.readouterr().err == said


def test_a_count_of_one_is_said_in_the_singular(tmp_path, capsys):
    """English said "registered 1 players" and "(1 records)": a counted text has its
    plural forms in the console's catalogue (``words.say_n``)."""
    hub = str(tmp_path / "sm.hub")
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    capsys.readouterr()
    assert main(["hub", "register", hub, "--player=Anna", "--lang", "en"]) == 0
    assert capsys.readouterr().out == "registered 1 player (1 in all)\n"
    assert main(["hub", "register", hub, "--player=Bo", "--player=Cilla"]) == 0
    assert capsys.readouterr().out == "registrerade 2 spelare (3 totalt)\n"
    assert main(["hub", "register", hub, "--player=Dan", "--lang", "en"]) == 0
    assert capsys.readouterr().out == "registered 1 player (4 in all)\n"


def test_standings_say_a_tables_problem_and_a_conflict_in_the_tls_language(tmp_path, capsys):
    """They said "problem: the table plays heat 2 ..." in English on a Swedish console: the
    hub keeps them in English, the TL reads them as the event screen says them, names put
    back (dashboard.standings_page.in_swedish)."""
    hub = str(tmp_path / "sm.hub")
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, *(f"--player={p}" for p in ("Anna", "Bo", "Cilla", "Dan"))]) == 0
    assert main(["hub", "draw", hub, "--seed", "s"]) == 0
    with HubStore.open(hub) as h:
        (t,) = h.tables(1)
        rt = RecordedTable(tmp_path / "t.sqlite", play_as_drawn({**t, "options": {"heat": 2}}, seed=4))
        rt.play(40)
        sync(h, rt, t["table"])
        sync(h, rt, "h1-t9")  # records from a table the hub has not drawn
        rt.close()
    capsys.readouterr()
    assert main(["hub", "standings", hub]) == 0
    sv = capsys.readouterr().out
    assert "    problem: bordet spelar heat 2 (inställningen 'heat'), hubben lottade det till heat 1\n" in sv
    assert "konflikt: bord h1-t9: poster från bordet 'h1-t9', som hubben inte har lottat\n" in sv
    assert main(["hub", "standings", hub, "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "    problem: the table plays heat 2 (option 'heat'), the hub drew it for heat 1\n" in en
    assert "conflict: table h1-t9: records from table 'h1-t9', which the hub has not drawn\n" in en


def test_a_hub_file_that_cannot_be_made_says_the_systems_reason_in_the_words_spoken(tmp_path, capsys):
    """It said "kan inte skapa ...: Not a directory" (stop 70)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["hub", "create", str(blocker / "ev.hub"), "--event", "sm2026"]) == 2
    assert f"kan inte skapa {blocker / 'ev.hub'}: en del av sökvägen är inte en mapp" in capsys.readouterr().err
    assert main(["hub", "create", str(blocker / "ev.hub"), "--event", "sm2026", "--lang", "en"]) == 2
    assert "a part of the path is not a folder" in capsys.readouterr().err


def test_a_key_a_dashboard_or_the_broadcast_for_a_table_never_drawn_is_refused(tmp_path, capsys):
    """Stop 71's hub run: ``hub key`` registered a key for any id, so a mistyped one left the
    real table's heads unsigned with nothing said. A key, a dashboard and the broadcast's
    table are each refused for a table no heat has drawn, naming the tables there are (before
    any draw: draw first), and nothing is stored."""
    from table_controller.tournament.signing import create_key

    hub = str(tmp_path / "ev.hub")
    public = create_key(tmp_path / "t.key")
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, *[x for p in ("Anna", "Bo", "Cilla", "Dan") for x in ("--player", p)]]) == 0
    capsys.readouterr()
    assert main(["hub", "key", hub, "h1-t1", public]) == 2
    assert "inget heat är lottat ännu; kör 'chicago-table hub draw'" in capsys.readouterr().err
    assert main(["hub", "draw", hub]) == 0
    capsys.readouterr()
    for argv in (
        ["key", hub, "h1-t2", public],
        ["dashboard", hub, "h1-t2", "http://bord2.local:8080"],
        ["feature", hub, "h1-t2"],
    ):
        assert main(["hub", *argv]) == 2, argv
        assert "bordet 'h1-t2' är inte lottat; de lottade borden är h1-t1" in capsys.readouterr().err, argv
    with HubStore.open(hub, readonly=True) as h:
        assert h.key("h1-t2") is None and h.dashboards() == {} and h.key("h1-t1") is None
    assert main(["hub", "key", hub, "h1-t1", public]) == 0
    with HubStore.open(hub, readonly=True) as h:
        assert h.key("h1-t1") == public


def test_withdraw_takes_a_publishers_word_that_its_table_started_and_names_tables_not_heard_from(tmp_path, capsys):
    """Stop 71's hub run: a table that started while its records had not reached the hub
    counted as not started, and a withdrawal drew its heat again under it. A publisher's
    status that its log holds records counts as started; a redraw names the tables the hub
    has never heard from (a table that started before its publisher was up plays the first
    draw, which the hub cannot see), and says nothing of those it has."""
    hub = str(tmp_path / "ev.hub")
    assert main(["hub", "create", hub, "--event", "sm2026"]) == 0
    assert main(["hub", "register", hub, *[x for i in range(8) for x in ("--player", f"P{i}")]]) == 0
    assert main(["hub", "draw", hub, "--seed", "one"]) == 0
    with HubStore.open(hub) as h:
        first = h.tables(1)
        h.set_status(first[0]["table"], True, 12)  # its records not here yet
    capsys.readouterr()
    assert main(["hub", "withdraw", hub, "P0", "--reason", "kom inte"]) == 2
    assert f"heat 1 pågår ({first[0]['table']})" in capsys.readouterr().err
    with HubStore.open(hub, readonly=True) as h:
        assert h.tables(1) == first and h.withdrawn() == {}  # nothing changed
    with HubStore.open(hub) as h:
        h.set_status(first[0]["table"], True, 0)  # its publisher up, its log empty
    assert main(["hub", "withdraw", hub, "P0", "--reason", "kom inte"]) == 0
    err = capsys.readouterr().err
    unheard = [t["table"] for t in first[1:]]
    assert f"inget hört ännu från {', '.join(unheard)}; ett bord som startade innan" in err, err
    assert first[0]["table"] not in err.split("inget hört ännu från")[1].split(";")[0]  # heard from: not named
