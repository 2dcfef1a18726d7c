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

``loop.follow_wall_clock()`` ends the fast-forward: from then on the loop's time runs on
from where it stands at the wall clock's pace and the loop waits for its timers as asyncio
does (``chicago-table demo --fast``: the bots' table in simulated time, then the dashboard
served at an ordinary pace).

Why our own loop and not ``looptime`` (PyPI): see hardware/README.md, "Simulated time".
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import math
import selectors
import time
from collections.abc import Callable, Coroutine, Mapping
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, TypeVar, TypeVarTuple, Unpack

if TYPE_CHECKING:
    from _typeshed import FileDescriptorLike

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class LoopClock:
    """The one clock of a simulated table: the running asyncio loop's time (monotonic
    seconds on an ordinary loop, simulated seconds on :class:`SimulatedTimeLoop`).
    Outside a running loop: the loop it was bound to, else ``time.monotonic``."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    def now(self) -> float:
        # asyncio's own lookup without its exception: called for every scan of the
        # simulated board, every link message and every shot-clock reading (issue 15)
        loop = self._loop or asyncio._get_running_loop()
        if loop is None:
            return time.monotonic()
        return loop.time()

    def ms(self) -> int:
        """Milliseconds, as a board's ticks (the firmware's ``clock.ms()``)."""
        return int(self.now() * 1000.0)


class _FastForward(selectors.BaseSelector):
    """The loop's selector, wrapped: poll without waiting; if nothing is there, no
    callback is ready and a timer is pending, move simulated time to that timer."""

    def __init__(self, inner: selectors.BaseSelector, loop: SimulatedTimeLoop) -> None:
        self._inner = inner
        self._loop = loop
        # the descriptors registered since the wrap: all but the loop's own self-pipe
        # (registered by the loop's __init__, before the wrap)
        self._outside: set[int] = set()

    # the rest is the wrapped selector's
    def register(self, fileobj: FileDescriptorLike, events: int, data: Any = None) -> selectors.SelectorKey:
        key = self._inner.register(fileobj, events, data)
        self._outside.add(key.fd)
        return key

    def unregister(self, fileobj: FileDescriptorLike) -> selectors.SelectorKey:
        key = self._inner.unregister(fileobj)
        self._outside.discard(key.fd)
        return key

    def modify(self, fileobj: FileDescriptorLike, events: int, data: Any = None) -> selectors.SelectorKey:
        return self._inner.modify(fileobj, events, data)

    def get_map(self) -> Mapping[FileDescriptorLike, selectors.SelectorKey]:
        return self._inner.get_map()

    def close(self) -> None:
        self._inner.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        loop = self._loop
        if loop._wall_offset is not None:  # following the wall clock: an ordinary loop
            return self._inner.select(timeout)
        if (loop._ready or loop._stopping) and not self._outside:
            # Callbacks are ready and only the self-pipe is watched: its wake-ups (another
            # thread's call_soon_threadsafe, whose callback is in _ready already, or a
            # signal) are read before the next jump.  A poll per callback was a system call
            # per step of the simulation (issue 15: 5% of a bot table's CPU).
            return []
        events = self._inner.select(0)
        if events or loop._ready or loop._stopping:
            return events
        if timeout is None and not loop._scheduled:  # only the outside world can wake us
            return self._inner.select(None)
        loop._jump()
        return []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class SimulatedTimeLoop(asyncio.SelectorEventLoop):
    # The base loop's own state this loop reads (CPython's asyncio/base_events.py and
    # selector_events.py; typeshed does not list private attributes).
    _ready: collections.deque[asyncio.Handle]
    _scheduled: list[asyncio.TimerHandle]
    _stopping: bool
    _timer_cancelled_count: int
    _selector: selectors.BaseSelector

    def __init__(self, start: float = 0.0) -> None:
        super().__init__()
        self._now = float(start)
        self._selector = _FastForward(self._selector, self)
        # asyncio runs a timer due within the clock's resolution at once; on a clock that
        # only moves by jumps, a timer a hair ahead (1e-13 s: a deadline's rounding) would
        # then fire with time standing still, and a task waiting for that deadline would
        # wait again for ever.  So: no resolution, and a jump lands just past the timer.
        self._clock_resolution = 0.0
        self.jumps = 0
        self._wall_offset: float | None = None  # set by follow_wall_clock

    def time(self) -> float:
        offset = self._wall_offset
        return self._now if offset is None else time.monotonic() + offset

    def follow_wall_clock(self) -> None:
        """No more jumps: time runs on from where it stands at the wall clock's pace, and
        the loop sleeps until its next timer like any asyncio loop.  For good."""
        if self._wall_offset is None:
            self._wall_offset = self._now - time.monotonic()

    @property
    def fast_forward(self) -> bool:
        """True until :meth:`follow_wall_clock`."""
        return self._wall_offset is None

    def _jump(self) -> None:
        while self._scheduled and self._scheduled[0]._cancelled:
            # what BaseEventLoop._run_once does with a cancelled timer it drops (a private
            # flag of CPython's TimerHandle that typeshed does not list)
            self._scheduled[0]._scheduled = False  # type: ignore[attr-defined]
            heapq.heappop(self._scheduled)
            self._timer_cancelled_count -= 1
        if not self._scheduled:
            return
        # strictly after the timer (it fires when its time is < now) and never backwards
        self._now = max(self._now, math.nextafter(self._scheduled[0].when(), math.inf))
        self.jumps += 1

    def run_in_executor(
        self, executor: Executor | None, func: Callable[[Unpack[Ts]], T], *args: *Ts
    ) -> asyncio.Future[T]:
        fut: asyncio.Future[T] = self.create_future()
        try:
            fut.set_result(func(*args))
        except BaseException as exc:
            fut.set_exception(exc)
        return fut


def run_simulated(main: Coroutine[Any, Any, T], start: float = 0.0, debug: bool | None = None) -> T:
    """``asyncio.run(main)`` on a fresh :class:`SimulatedTimeLoop`."""
    with asyncio.Runner(loop_factory=lambda: SimulatedTimeLoop(start), debug=debug) as runner:
        return runner.run(main)
