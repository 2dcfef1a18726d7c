"""What each pad has held: the current set of UIDs and when each one came and went.

HF readers see only two or three cards of a stack at a time and flicker, so a card's
presence is not a yes/no at one instant: sensing asks "which cards arrived on this pad
since the step began and are still here, or left only moments ago".  Arrivals are
numbered; a step remembers the number at its start (its mark), so cards lying on a pad
from an earlier step never count as new unless they leave and come back.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PadHistory:
    present: set[str] = field(default_factory=set)
    arrived: dict[str, tuple[int, float]] = field(default_factory=dict)   # uid -> (index, at)
    departed: dict[str, float] = field(default_factory=dict)              # uid -> at
    changed_at: float = 0.0


class PadTracker:
    def __init__(self) -> None:
        self.pads: dict[str, PadHistory] = {}
        self.counter = 0

    def pad(self, name: str) -> PadHistory:
        return self.pads.setdefault(name, PadHistory())

    def update(self, pad: str, uids: frozenset[str], at: float) -> tuple[set[str], set[str]]:
        """A reader's new set for ``pad``; returns (arrived, departed) UIDs."""
        h = self.pad(pad)
        came = set(uids) - h.present
        went = h.present - set(uids)
        for u in sorted(came):
            self.counter += 1
            h.arrived[u] = (self.counter, at)
            h.departed.pop(u, None)
        for u in went:
            h.departed[u] = at
        h.present = set(uids)
        if came or went:
            h.changed_at = at
        return came, went

    def mark(self) -> int:
        return self.counter

    def since(self, pad: str, mark: int, now: float, linger_s: float) -> list[str]:
        """UIDs that arrived on ``pad`` after ``mark`` and are here, or left less than
        ``linger_s`` ago (a flicker of the reader), in order of arrival."""
        h = self.pads.get(pad)
        if h is None:
            return []
        out = []
        for u, (i, _) in h.arrived.items():
            if i <= mark:
                continue
            if u in h.present or now - h.departed.get(u, now) < linger_s:
                out.append(u)
        return sorted(out, key=lambda u: h.arrived[u][0])

    def present(self, pad: str) -> set[str]:
        h = self.pads.get(pad)
        return set(h.present) if h else set()

    def arrived_after(self, pad: str, uid: str, mark: int) -> bool:
        h = self.pads.get(pad)
        return bool(h and uid in h.arrived and h.arrived[uid][0] > mark)

    def where(self, uid: str) -> list[str]:
        """The pads whose reader reports this UID now."""
        return sorted(p for p, h in self.pads.items() if uid in h.present)
