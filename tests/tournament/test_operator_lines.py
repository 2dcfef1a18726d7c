"""What ``hub serve`` and ``hub publish`` tell their operator (tournament/notes.py): lines in
words, Swedish first (``--lang en``: English), never a dict's keys; an unexpected error is
one worded line, its traceback in the log at debug level only.  The log's own record keeps
the English (a program reading the journal, ``caplog``)."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import sys
from pathlib import Path

from table_controller.app.commands.hub import Said
from table_controller.app.words import speaking
from table_controller.tournament import service as service_module
from table_controller.tournament.event import create_event
from table_controller.tournament.hubstore import HubStore
from table_controller.tournament.service import HubService
from table_controller.tournament.standings import Standings
from tests.ports import free_port
from tests.tournament.broker import until, wait_until

ROOT = Path(__file__).resolve().parents[2]


class Lines(logging.Handler):
    """The operator's console: every record through ``Said``, as ``hub serve`` sets it up."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.addFilter(Said())
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def said(self, level: int = logging.INFO) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno >= level]


def _listening(logger: logging.Logger, lang: str, run) -> Lines:
    lines = Lines()
    logger.addHandler(lines)
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        with speaking(lang):
            run()
    finally:
        logger.removeHandler(lines)
        logger.setLevel(level)
    return lines


def test_the_hubs_count_is_said_in_words_not_its_dicts_keys():
    """It logged "hub: messages 3, stored 5, duplicates 0, out_of_order 0, conflicts 0, bad 1"."""
    stats = {"messages": 3, "stored": 5, "duplicates": 0, "out_of_order": 0, "conflicts": 0, "bad": 1}
    log = service_module.log
    sv = _listening(log, "sv", lambda: HubService._say_stats(stats)).said()
    en = _listening(log, "en", lambda: HubService._say_stats({**stats, "bad_heads": 2})).said()
    assert sv == [
        "hubben: meddelanden 3, lagrade poster 5, redan lagrade 0, i fel ordning 0, konflikter 0, kastade 1, "
        "avvisade signerade huvuden 0"
    ]
    assert en == [
        "hub: messages 3, records stored 5, already held 0, out of order 0, conflicts 0, dropped 1, "
        "signed heads refused 2"
    ]
    assert "out_of_order" not in sv[0] + en[0]


def test_a_standings_fault_is_one_worded_line_and_its_traceback_goes_to_the_debug_log(tmp_path):
    """It printed the traceback (log.exception) into the operator's console."""
    path = tmp_path / "ev.hub"
    with HubStore.open(path, create=True) as h:
        create_event(h, "sm2026", "SM 2026", "sm2025")
    hub = HubService(path, standings_every=3600)
    hub.hub = HubStore.open(path)
    hub.board = Standings(hub.hub)
    hub.event = hub.hub.event_id()

    def broken() -> dict:
        raise KeyError("heats")

    hub.standings = broken  # type: ignore[method-assign]

    class Client:
        async def publish(self, *args, **kwargs) -> None:
            raise AssertionError("nothing to publish: the standings failed")

    async def one_round() -> None:
        hub._dirty_standings = True
        task = asyncio.create_task(hub._tick(Client()))

        def said_an_error() -> bool:
            assert not task.done(), "the tick stopped"
            return any(r.levelno == logging.ERROR for r in lines.records)

        await until(said_an_error, 10, "the standings' error line")
        task.cancel()

    try:
        lines = Lines()
        service_module.log.addHandler(lines)
        service_module.log.setLevel(logging.DEBUG)
        with speaking("sv"):
            asyncio.run(one_round())
    finally:
        service_module.log.removeHandler(lines)
        service_module.log.setLevel(logging.NOTSET)
        hub.hub.close()
    errors = [r for r in lines.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        "hubben: ställningen går inte att bygga (KeyError: 'heats'); posterna är lagrade och kvitterade"
    ]
    assert not any(r.exc_info for r in lines.records if r.levelno > logging.DEBUG)  # no traceback for the operator
    debug = [r for r in lines.records if r.levelno == logging.DEBUG]
    assert len(debug) == 1 and debug[0].exc_info and debug[0].exc_info[0] is KeyError  # the log keeps it


def test_a_conflict_is_said_as_the_tls_screen_says_it():
    log = service_module.log
    conflict = "record 17 differs from the one the hub has"

    def run() -> None:
        service_module.note(log, logging.WARNING, "hub: table {table}: {conflict}", table="h1-t2", conflict=conflict)

    sv = _listening(log, "sv", run)
    assert sv.said() == ["hubben: bord h1-t2: post 17 skiljer sig från den hubben har"]
    en = _listening(log, "en", run)
    assert en.said() == ["hub: table h1-t2: record 17 differs from the one the hub has"]


def test_hub_serve_tells_its_operator_in_swedish_unless_asked_for_english(tmp_path):
    """The real command, its broker not there: what it says on stderr, in words."""
    hub = tmp_path / "ev.hub"
    with HubStore.open(hub, create=True) as h:
        create_event(h, "sm2026", "SM 2026", "sm2025")
    broker = f"127.0.0.1:{free_port()}"  # nothing listens there
    said = {}
    for lang in ("sv", "en"):
        err = tmp_path / f"serve-{lang}.err"
        with open(err, "w") as fh:
            proc = subprocess.Popen(
                [sys.executable, "-m", "table_controller.app.cli", "hub", "serve", str(hub), "--broker", broker]
                + ["--lang", lang],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=fh,
            )

        def retrying(err: Path = err, proc: subprocess.Popen = proc) -> bool:
            text = err.read_text()
            assert proc.poll() is None, text
            return "trying again" in text or "försöker igen" in text

        try:
            wait_until(retrying, 60, "the hub's retry line")
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(30)
        said[lang] = err.read_text()
    assert f"hubben kör {hub} via {broker}" in said["sv"]
    assert "hubben: mäklaren går inte att nå (" in said["sv"] and "); försöker igen" in said["sv"]
    assert "hub: the broker cannot be reached (" in said["en"] and "); trying again" in said["en"]
    assert "Traceback" not in said["sv"] + said["en"]
    assert "Errno" not in said["sv"] + said["en"]  # the system's words, not its number (stop 71)
