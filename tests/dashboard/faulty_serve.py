"""``chicago-table`` with failures a test switches on by files (never by HTTP): run as
``python tests/dashboard/faulty_serve.py serve ...`` with ``CHICAGO_TEST_FAULTS=DIR``.

- ``DIR/engine``: the engine raises a bug (a ``KeyError`` whose message names a card)
  just after the next action's first event was emitted and folded;
- ``DIR/disk``: every write of an action to the table's log meets a full disk: the file
  size limit (RLIMIT_FSIZE) is 0 for that write, so the OS itself refuses it (EFBIG)
  inside SQLite.  Only actions: the shot clocks' writes go on, so a test is deterministic.

Nothing of this is in the package: the hooks are patched in here, in the server's own
process, before the command runs.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from pathlib import Path

from table_controller.app.cli import main
from table_controller.rules.ledger import Ledger
from table_controller.store.sqlite import SQLiteStore

FLAGS = Path(os.environ["CHICAGO_TEST_FAULTS"])
_emit = Ledger.emit
_append_batches = SQLiteStore.append_batches


def emit(self, event) -> None:
    _emit(self, event)
    if (FLAGS / "engine").exists():
        raise KeyError("AS is in Bo's hand")


def append_batches(self, batches):
    actions = any(r.kind == "action" for b in batches for r in b)
    if not (FLAGS / "disk").exists() or self.path.name != "table.sqlite" or not actions:
        return _append_batches(self, batches)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, limits[1]))
    try:
        return _append_batches(self, batches)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)


if __name__ == "__main__":
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    Ledger.emit = emit  # type: ignore[method-assign]
    SQLiteStore.append_batches = append_batches  # type: ignore[method-assign]
    sys.exit(main(sys.argv[1:]))
