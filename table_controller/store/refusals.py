"""How many bytes a refused entry may cost the table's log (issue 13: "unbounded").

Every refused line is evidence for the TL (who tried what, when, why), and the log is
append-only, so a token holder posting junk at the paced 20 a second used to grow it by
10-100 MB an hour.  What is stored now:

- A refusal is stored whole when its action's compact JSON is at most ``TEXT_MAX`` bytes
  (every ordinary refusal: a typo, a card at the wrong time).  A longer one keeps its first
  ``TEXT_MAX`` bytes as text, with ``"truncated": <the whole length in bytes>`` and the
  action's ``do`` (when it is short text) beside it; the reason is cut to ``TEXT_MAX`` too.
- Per source (the role), refusals are counted in windows of ``WINDOW_S`` seconds (the
  live loop's clock).  In a window, a refusal identical to that source's last stored one
  (the same action; for the TL, ``SIGHTED``, the same reason too) is counted, not stored
  again; a different one is stored, up to ``STORED_MAX`` records a window, and beyond that
  counted by its reason.  For anyone but the TL the reason, which may say where a hidden
  card lies ("KC is in Bo's hand"), never decides whether a record is stored: a new record
  is a new alert and a new seq on the Revisor's tablet, and an identical entry sent twice
  told the Revisor whether a card had moved face down in between (stop 63's audit).  A
  repeat with another reason is counted by that reason (``unstored``).
- At the window's end (the next refusal after it, the live table's tick, or close) one
  "rejected" record sums up what was counted: ``{"refusals": n, "repeats": {seq: n},
  "unstored": {reason: n}, "since": t, "until": t}`` (wall times of the first and last
  counted one).  A crash loses at most one window's counts, never a stored refusal.

So a flood costs a source at most ``STORED_MAX`` refusals of about 0.8 kB and one summary
a window, whatever it sends.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

TEXT_MAX = 512  # bytes of an action's JSON kept whole
WINDOW_S = 60.0  # seconds a source's refusals are counted together
STORED_MAX = 20  # refusals stored one by one per source and window
REASONS_MAX = 20  # distinct reasons counted per summary (beyond: under "...")


def _cut(text: str, limit: int = TEXT_MAX) -> str:
    """At most ``limit`` UTF-8 bytes of ``text``, never half a character."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def bounded(data: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's record data ({"action", "reason"}) within ``TEXT_MAX`` bytes a field."""
    out = dict(data)
    action = out.get("action")
    text = action if isinstance(action, str) else json.dumps(action, ensure_ascii=False, separators=(",", ":"))
    size = len(text.encode("utf-8"))
    if size > TEXT_MAX:
        out["action"] = _cut(text)
        out["truncated"] = size
        do = action.get("do") if isinstance(action, Mapping) else None
        if isinstance(do, str) and len(do) <= 40:
            out["do"] = do
    reason = out.get("reason")
    if isinstance(reason, str) and len(reason.encode("utf-8")) > TEXT_MAX:
        out["reason"] = _cut(reason) + "..."
    return out


SIGHTED = frozenset({"tl"})  # the sources whose refusals' reasons may tell a repeat apart


def key_of(data: Mapping[str, Any], source: str = "tl") -> str:
    """What makes a refusal of ``source``'s a repeat of another: what was sent, and, for a
    ``SIGHTED`` source, why it was refused."""
    same = data if source in SIGHTED else {k: v for k, v in data.items() if k != "reason"}
    return json.dumps(same, sort_keys=True, ensure_ascii=False, default=repr)


@dataclass
class Window:
    """One source's refusals since ``started`` (loop seconds)."""

    started: float
    stored: int = 0
    last_key: str | None = None
    last_seq: int = 0
    repeats: dict[str, int] = field(default_factory=dict)
    unstored: dict[str, int] = field(default_factory=dict)
    since: float | None = None
    until: float | None = None

    def _at(self, wall: float) -> None:
        self.since = wall if self.since is None else self.since
        self.until = wall

    def repeat(self, wall: float) -> None:
        key = str(self.last_seq)
        self.repeats[key] = self.repeats.get(key, 0) + 1
        self._at(wall)

    def beyond(self, reason: str, wall: float) -> None:
        reason = _cut(reason, 200)
        if reason not in self.unstored and len(self.unstored) >= REASONS_MAX:
            reason = "..."
        self.unstored[reason] = self.unstored.get(reason, 0) + 1
        self._at(wall)

    def summary(self) -> dict[str, Any] | None:
        """The record data that sums up what was counted, or None when nothing was."""
        n = sum(self.repeats.values()) + sum(self.unstored.values())
        if not n:
            return None
        return {
            "refusals": n,
            "repeats": dict(self.repeats),
            "unstored": dict(self.unstored),
            "since": self.since,
            "until": self.until,
        }


def is_summary(data: Mapping[str, Any]) -> bool:
    """A "rejected" record that counts refusals not stored one by one."""
    return "refusals" in data and "action" not in data
