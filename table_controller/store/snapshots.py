"""Shot-clock snapshots as stored in "clock" records (RULES.md §10).

The clocks themselves are issue 5's (``table_controller/clocks.py``); the log keeps the
remaining time per seat and the paused flag so that a restarted table resumes with the
time each player had, and with the clock paused until the dealer resumes it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import ClockSnapshotError


@dataclass(frozen=True, slots=True)
class ClockSnapshot:
    remaining: Mapping[str, float]  # seat or player -> seconds left
    paused: bool
    extra: Mapping[str, Any] = field(default_factory=dict)  # anything else the clocks keep
    seq: int = 0  # the clock record's seq, once stored (0: not stored yet)
    time: float = 0.0  # wall clock when it was stored

    def to_dict(self) -> dict[str, Any]:
        return {"remaining": dict(self.remaining), "paused": self.paused, "extra": dict(self.extra)}

    @classmethod
    def from_dict(cls, d: Any, seq: int = 0, time: float = 0.0) -> ClockSnapshot:
        if not isinstance(d, Mapping):
            raise ClockSnapshotError("a clock snapshot must be an object {remaining, paused}")
        remaining = d.get("remaining")
        if not isinstance(remaining, Mapping) or not all(
            isinstance(k, str)
            and isinstance(v, (int, float))
            and not isinstance(v, bool)
            and math.isfinite(v)
            and v >= 0
            for k, v in remaining.items()
        ):
            raise ClockSnapshotError("'remaining' must map each seat to its seconds left (a number >= 0)")
        if not isinstance(d.get("paused"), bool):
            raise ClockSnapshotError("'paused' must be true or false")
        extra = d.get("extra", {})
        if not isinstance(extra, Mapping):
            raise ClockSnapshotError("'extra' must be an object")
        return cls({k: float(v) for k, v in remaining.items()}, d["paused"], dict(extra), seq, time)

    def paused_for_resume(self) -> ClockSnapshot:
        """After a restart the clock waits for the dealer (the time lost is nobody's)."""
        return replace(self, paused=True)
