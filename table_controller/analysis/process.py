"""The broadcast's analysis in a process of its own, at a lower priority.

The analysis reads the hidden hands, and how long it takes depends on them (the exchange
odds sample the unseen cards; the solver's search is as long as the position is hard).  Run
in a thread of the server, it shared the interpreter's lock with the event loop that answers
every role, so a blind role timing its answers could tell, faintly, how long an analysis took
(stop 64's audit).  In a child process (``spawn``: a fresh interpreter, no copy of the
server's threads) at ``nice`` 10, as the camera worker runs, it takes none of the server's
turns; on the Pi's four cores it runs beside it.

One child serves every table of a process, one analysis at a time; it is started at the
first analysis (a table nobody watches on the broadcast never starts one) and started again
if it dies.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

NICE = 10  # the child's niceness: the table, its link and its answers come first

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None


def _child_start() -> None:
    """The child at a lower priority, deaf to Ctrl-C: a terminal's Ctrl-C reaches every
    process of its group, and the child printed a traceback as the service stopped cleanly
    (stop 70's run-through); the parent ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICE)


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_child_start
            )
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def run(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the analysis process (``fn`` and its arguments are pickled); a child
    that died is replaced once, and the call tried again."""
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        pool = _executor()
        try:
            return await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            _discard(pool)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")
