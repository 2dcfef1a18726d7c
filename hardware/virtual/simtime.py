"""Simulated time for the virtual table: an asyncio loop that fast-forwards.

    from hardware.virtual.simtime import run_simulated, LoopClock
    result = run_simulated(main())          # like asyncio.run, on simulated time

The loop's ``time()`` is simulated seconds.  Whenever no callback is ready and no file
descriptor has anything to read, the clock jumps straight to the next timer instead of
sleeping: a table of several simulated minutes runs as fast as the CPU allows, and the
same program gives the same interleaving on every run (no wall-clock race decides which
task goes first).  Everything that waits with ``asyncio.sleep``/``wait_for`` or reads
``loop.time()`` (a :class:`LoopClock`) is on simulated time without knowing it.

Work handed to an executor (``run_in_executor``, ``asyncio.to_thread``) runs inline: a
thread would run on the wall clock while simulated time jumps past it.  Real file
descriptors still work (checked without waiting before each jump); a loop with no timer
left and nothing ready blocks on them for real, as asyncio does.

Why our own loop and not ``looptime`` (PyPI): see hardware/README.md, "Simulated time".
"""

from __future__ import annotations

import asyncio
import selectors
import time
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")


class LoopClock:
    """The one clock of a simulated table: the running asyncio loop's time (monotonic
    seconds on an ordinary loop, simulated seconds on :class:`SimulatedTimeLoop`).
    Outside a running loop: the loop it was bound to, else ``time.monotonic``."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    def now(self) -> float:
        loop = self._loop
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return time.monotonic()
        return loop.time()

    def ms(self) -> int:
        """Milliseconds, as a board's ticks (the firmware's ``clock.ms()``)."""
        return int(self.now() * 1000.0)


class _FastForward:
    """The loop's selector, wrapped: poll without waiting; if nothing is there and the
    loop would sleep until a timer, move simulated time to that timer instead."""

    def __init__(self, inner: selectors.BaseSelector, loop: "SimulatedTimeLoop") -> None:
        self._inner = inner
        self._loop = loop

    def select(self, timeout: float | None = None):
        events = self._inner.select(0)
        if events or timeout == 0:
            return events
        if timeout is None:  # no timer at all: only the outside world can wake us
            return self._inner.select(None)
        self._loop._jump(timeout)
        return []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class SimulatedTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self, start: float = 0.0) -> None:
        super().__init__()
        self._now = float(start)
        self._selector = _FastForward(self._selector, self)
        self.jumps = 0

    def time(self) -> float:
        return self._now

    def _jump(self, timeout: float) -> None:
        # Land exactly on the next timer (now + timeout may round just short of it).
        target = self._now + timeout
        if self._scheduled:
            target = max(target, self._scheduled[0]._when)
        self._now = target
        self.jumps += 1

    def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any) -> asyncio.Future:
        fut = self.create_future()
        try:
            fut.set_result(func(*args))
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task, as an executor would
            fut.set_exception(exc)
        return fut


def run_simulated(main: Awaitable[T], start: float = 0.0, debug: bool | None = None) -> T:
    """``asyncio.run(main)`` on a fresh :class:`SimulatedTimeLoop`."""
    with asyncio.Runner(loop_factory=lambda: SimulatedTimeLoop(start), debug=debug) as runner:
        return runner.run(main)
