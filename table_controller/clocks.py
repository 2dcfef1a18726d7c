"""Shot clocks (RULES.md §10) on an injected monotonic clock.

    >>> fake = FakeClock()
    >>> clocks = ShotClocks(clock=fake)
    >>> clocks.sync({"Anna": ("exchange", 1)})     # whose clock runs, for what (and which turn)
    >>> fake.advance(29.0); clocks.poll()
    []
    >>> fake.advance(1.0); [a.to_dict() for a in clocks.poll()]   # run out: a timeout action
    [{'do': 'timeout', 'player': 'Anna', 'clock': 'exchange'}]

Defaults are D11 (30 s exchange, all placing players at once; 10 s Chicago question;
20 s per card; 15 s quad choice), configurable per event.  Expiry (D12): the exchange
counts as placing nothing, the Chicago question as "no", the quad choice as "points";
in trick play the clock shows overtime and the TL is alerted (a card cannot be played for
a player).  Each expiry is a ``timeout`` action, so it lands on the player's violation
record.  "Time" (general rules §2.12): 60 s, then a 10 s countdown, then the hand is
dead (a ``time_call`` action).  The TL pauses and resumes all clocks; paused time is
nobody's.  Each seat's LED on the dealer console shows its clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.clock import Clock, MonotonicClock  # the one time-source protocol
from table_controller.rules.actions import Action, TimeCall, Timeout
from table_controller.rules.phases import Phase
from table_controller.rules.rulesets import (  # the setting's words live beside D11's defaults
    DEFAULT_CLOCKS,
    TIME_CALL_SECONDS,
    ClockError,
    parse_shot_clocks,
    shot_clocks_in_force,
    shot_clocks_text,
)

__all__ = [
    "Clock",
    "ClockError",
    "FakeClock",
    "MonotonicClock",
    "ShotClocks",
    "parse_shot_clocks",
    "shot_clocks_in_force",
    "shot_clocks_text",
    "waiting_clocks",
]


class FakeClock:
    """A clock the caller moves by hand (tests, replays)."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class _Running:
    kind: str
    token: Any
    limit: float
    used: float = 0.0  # seconds run while not paused
    since: float | None = None  # when it last resumed (None: stopped by a pause)
    expired: bool = False


@dataclass
class _TimeCall:
    used: float = 0.0
    since: float | None = None


class ShotClocks:
    def __init__(
        self,
        limits: Mapping[str, float] | None = None,
        clock: Clock | None = None,
        time_call: tuple[float, float] = TIME_CALL_SECONDS,
    ) -> None:
        merged = dict(DEFAULT_CLOCKS)
        for k, v in (limits or {}).items():
            if k not in DEFAULT_CLOCKS:
                raise ClockError(f"no shot clock {k!r}; clocks: {', '.join(DEFAULT_CLOCKS)}")
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 < v <= 3600:
                raise ClockError(f"shot clock {k}: seconds in (0, 3600], not {v!r}")
            merged[k] = float(v)
        self.limits = merged
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.time_call_s = time_call
        self.paused = False  # the table's one pause (views.TableView.paused reads it)
        self._running: dict[str, _Running] = {}
        self._calls: dict[str, _TimeCall] = {}

    # --- what runs -----------------------------------------------------------------------
    def sync(self, waiting: Mapping[str, tuple[str, Any]]) -> None:
        """``waiting``: player -> (clock kind, turn token).  A new token restarts the clock."""
        now = self.clock.now()
        for p in list(self._running):
            if p not in waiting or (self._running[p].kind, self._running[p].token) != tuple(waiting[p]):
                del self._running[p]
        for p in list(self._calls):
            if p not in waiting:
                del self._calls[p]  # the player acted: the time call is over
        for p, (kind, token) in waiting.items():
            if kind not in self.limits:
                raise ClockError(f"no shot clock {kind!r}")
            if p not in self._running:
                self._running[p] = _Running(kind, token, self.limits[kind], 0.0, None if self.paused else now)

    def called(self, player: str) -> bool:
        """Whether "time" is called on ``player`` now."""
        return player in self._calls

    def call_time(self, player: str) -> None:
        """Someone called "time" on ``player`` (general rules §2.12)."""
        if player not in self._running:
            raise ClockError(f"no clock runs for {player}: call time on a player who is to act")
        if player in self._calls:
            return
        self._calls[player] = _TimeCall(0.0, None if self.paused else self.clock.now())

    def pause(self) -> None:
        if self.paused:
            return
        now = self.clock.now()
        for r in list(self._running.values()) + list(self._calls.values()):
            if r.since is not None:
                r.used += now - r.since
                r.since = None
        self.paused = True

    def resume(self) -> None:
        if not self.paused:
            return
        now = self.clock.now()
        for r in list(self._running.values()) + list(self._calls.values()):
            r.since = now
        self.paused = False

    def restore(self, remaining: Mapping[str, float], kinds: Mapping[str, str] | None = None) -> None:
        """After a restart: the time each waiting player had left (a stored snapshot),
        paused until the dealer resumes (the time lost is nobody's).  A player whose
        stored clock was of another kind (the turn moved on) keeps a full clock."""
        self.pause()
        for p, left in remaining.items():
            r = self._running.get(p)
            if r is None or (kinds and kinds.get(p, r.kind) != r.kind):
                continue
            r.used = max(0.0, r.limit - float(left))
            r.expired = r.used >= r.limit

    # --- time passing ----------------------------------------------------------------------
    def _used(self, r) -> float:
        return r.used + (self.clock.now() - r.since if r.since is not None else 0.0)

    def poll(self) -> list[Action]:
        """Actions for clocks that ran out since the last poll (each only once)."""
        out: list[Action] = []
        for p, r in self._running.items():
            if not r.expired and self._used(r) >= r.limit:
                r.expired = True
                out.append(Timeout(p, r.kind))
        total = sum(self.time_call_s)
        for p, c in list(self._calls.items()):
            if self._used(c) >= total:
                del self._calls[p]
                out.append(TimeCall(p))
        return out

    # --- what it shows -----------------------------------------------------------------------
    def remaining(self, player: str) -> float | None:
        r = self._running.get(player)
        return None if r is None else r.limit - self._used(r)

    def view(self) -> dict[str, Any]:
        """For the dashboard: every running clock, overtime as a negative remainder."""
        seats = {}
        for p, r in self._running.items():
            seats[p] = {
                "clock": r.kind,
                "remaining": round(r.limit - self._used(r), 1),
                "limit": r.limit,
                "expired": r.expired,
            }
        calls = {}
        first, countdown = self.time_call_s
        for p, c in self._calls.items():
            used = self._used(c)
            calls[p] = {"remaining": round(first + countdown - used, 1), "countdown": used >= first}
        return {"paused": self.paused, "limits": dict(self.limits), "running": seats, "time_calls": calls}

    def led(self, player: str) -> tuple[str, bool]:
        """(colour, blink) for the seat's console LED: off when not waiting, green running,
        yellow in the last third, red blinking when run out, white blinking in a time
        call's countdown, blue while the TL has paused the clocks."""
        c = self._calls.get(player)
        if c is not None and self._used(c) >= self.time_call_s[0]:
            return ("white", True)
        r = self._running.get(player)
        if r is None:
            return ("off", False)
        if self.paused:
            return ("blue", False)
        left = r.limit - self._used(r)
        if left <= 0:
            return ("red", True)
        if left <= r.limit / 3:
            return ("yellow", False)
        return ("green", False)

    def snapshot(self) -> dict[str, Any]:
        """What the log keeps ("clock" records): seconds left per player, paused."""
        return {
            "remaining": {p: max(0.0, round(r.limit - self._used(r), 3)) for p, r in self._running.items()},
            "paused": self.paused,
            "extra": {"kinds": {p: r.kind for p, r in self._running.items()}},
        }


def waiting_clocks(phase: Phase, to_act, placed, asking_trick_token) -> dict[str, tuple[str, Any]]:
    """Whose clock runs for what, from the rules' phase (D11)."""
    if phase.is_exchange:
        return {p: ("exchange", phase) for p in to_act if p not in placed}
    if phase is Phase.CHICAGO:
        return {p: ("chicago", asking_trick_token) for p in list(to_act)[:1]}
    if phase is Phase.QUADS_CHOICE:
        return {p: ("quads", asking_trick_token) for p in list(to_act)[:1]}
    if phase is Phase.TRICKS:
        return {p: ("play", asking_trick_token) for p in list(to_act)[:1]}
    return {}
