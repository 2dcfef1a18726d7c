"""A table's files in its data folder, and the live table and dashboard hub wired over them.

The composition root's wiring of one table (``serve``, ``run``, ``demo``): the event log
(the store), the live loop with its deck, sensors, LEDs and clock, the camera, and the
dashboard's hub and broadcast delay over them.  The dashboard receives the hub built here;
it never opens a table itself.

    data/
      table.sqlite      the table's event log (the store, issue 6): actions, events,
                        rejections, alerts, audit entries (reveals, pauses)
      broadcast.sqlite  the broadcast delay and its queued frames
      tokens.json       the role tokens of this event (mode 600), unless --tokens names
                        the file the event's tables share

The folder is its user's alone (0700) and so is every file in it (0600, SQLite's -wal and
-shm files too): the log holds every dealt hand.  A folder made by an older version is
tightened when the table opens.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dashboard.delay import BroadcastDelay
from dashboard.errors import DashboardError
from dashboard.hub import TableHub, start_frame
from dashboard.tokens import SALT_FILE, RoleTokens, table_salt

from .words import os_error_with_file, os_error_words, said_error, say


def check_data_folder(data: Path) -> None:
    """DashboardError when ``data``, the table's folder, is a file (it is made if missing)."""
    if data.exists() and not data.is_dir():
        raise DashboardError(say("{data} is a file; --data names the folder the table keeps its files in", data=data))


def folder_writable(data: Path) -> None:
    """OSError unless ``data`` is a folder this user may write, or may be made as one: the
    nearest folder that is there must be writable (nothing is made here)."""
    there = Path(data)
    while not there.exists() and there != there.parent:
        there = there.parent
    if not there.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(data))
    if not os.access(there, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "Permission denied", str(data))


def folder_problem(data: Path, exc: OSError) -> str:
    """Why the table's folder ``data`` cannot hold its files, in the words spoken (the file
    the system names when it is another)."""
    same = exc.filename is None or Path(exc.filename) == Path(data)
    why = os_error_words(exc) if same else os_error_with_file(exc)
    return say("cannot keep the table's files in {data}: {why}", data=data, why=why)


def open_table(
    data: Path,
    name: str = "Bord 1",
    delay: float | None = None,
    clock: Callable[[], float] = time.time,
    default_delay: float = 60.0,
    *,
    sensors: Any = None,
    leds: Any = None,
    deck: Any = None,
    tokens_file: Path | None = None,
    rfid: bool = True,
    monotonic: Callable[[], float] = time.monotonic,
    table_clock: Any = None,
    camera: Any = None,
    clock_limits: dict[str, float] | None = None,
) -> tuple[TableHub, RoleTokens]:
    """The hub over a live table (issue 5) whose log is ``data/table.sqlite``.  Without
    ``sensors`` the table is played by manual entry alone (cards by the TL, or by the Revisor
    where ``rfid=False``: ``dashboard.entry``).  ``tokens_file``:
    the event's tokens shared by its tables (default ``data/tokens.json``).  ``rfid=False``:
    a camera-only table, whose hidden hands are declared by hand (``dashboard.entry``).
    ``clock``: wall time, only to stamp messages; the broadcast delay runs on ``monotonic``.
    ``table_clock``: the live table's clock (sensing's timers, the shot clocks; a
    ``LoopClock`` on a table in simulated time); monotonic seconds by default.
    ``clock_limits``: the event's shot clocks, seconds per clock (D11's defaults for any not
    given; ``clocks.parse_shot_clocks``)."""
    from table_controller.deck import virtual_deck
    from table_controller.live import LiveTable
    from table_controller.store import StoreError, TableRecorder

    data = Path(data)
    check_data_folder(data)
    tokens_path = Path(tokens_file) if tokens_file else data / "tokens.json"
    try:  # a folder the user may not make or write (stop 72: a traceback)
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(data, 0o700)
        # a seat's link works at this table only, and in this data folder only (a heat's own)
        tokens = RoleTokens.load_or_create(tokens_path).at_table(name, table_salt(data))
        for name_ in ("table.sqlite", "broadcast.sqlite"):
            private_file(data / name_)  # created 0600 before SQLite opens it: its -wal/-shm follow its mode
    except OSError as exc:
        raise DashboardError(folder_problem(data, exc)) from None
    try:
        log, _ = TableRecorder.resume(data / "table.sqlite")  # the live table's clocks read it again
    except StoreError as exc:
        raise DashboardError(
            say("{path}: cannot open the table log: {error}", path=data / "table.sqlite", error=said_error(exc))
        ) from exc
    live = LiveTable(
        log,
        deck if deck is not None else virtual_deck(),
        sensors=sensors,
        leds=leds,
        rfid=rfid,
        clock=table_clock,
        clock_limits=clock_limits,
    )
    hub = TableHub(
        live,
        BroadcastDelay(
            data / "broadcast.sqlite", start_frame(name), delay=delay, default_delay=default_delay, clock=monotonic
        ),
        name=name,
        clock=clock,
        camera=camera,
    )
    for f in [tokens_path, data / SALT_FILE, *data.glob("*.sqlite*")]:
        private_file(f, create=False)
    return hub, tokens


def private_file(path: Path, create: bool = True) -> None:
    """``path`` readable and writable by its owner alone (made empty if ``create``)."""
    if create and not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    if path.exists():
        os.chmod(path, 0o600)
