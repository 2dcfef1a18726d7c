"""The time source the bridge stamps events with (monotonic seconds by default);
tests and replays hand in their own."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()
