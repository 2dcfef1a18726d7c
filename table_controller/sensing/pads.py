"""What each pad has held: the current set of UIDs and when each one came and went.

HF readers see only two or three cards of a stack at a time and flicker, so a card's
presence is not a yes/no at one instant: sensing asks "which cards arrived on this pad
since the step began and are still here, or left only moments ago".  Arrivals are
numbered; a step remembers the number at its start (its mark) and the cards lying on
each pad then (its baseline), so cards from an earlier step never count as new unless
they were really gone (for ``return_s`` at least, longer than any flicker of the reader)
and came back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class PadHistory:
    present: set[str] = field(default_factory=set)
    # uid -> (index, at, back), in order of index (a card that arrives again moves to the end)
    arrived: dict[str, tuple[int, float, bool]] = field(default_factory=dict)
    departed: dict[str, float] = field(default_factory=dict)  # uid -> at
    changed_at: float = 0.0


class PadTracker:
    def __init__(self, return_s: float = 0.5) -> None:
        self.pads: dict[str, PadHistory] = {}
        self.counter = 0
        self.return_s = return_s

    def pad(self, name: str) -> PadHistory:
        return self.pads.setdefault(name, PadHistory())

    def update(self, pad: str, uids: frozenset[str], at: float) -> tuple[set[str], set[str]]:
        """A reader's new set for ``pad``; returns (arrived, departed) UIDs."""
        h = self.pad(pad)
        came = set(uids) - h.present
        went = h.present - set(uids)
        for u in sorted(came):
            self.counter += 1
            gone = h.departed.pop(u, None)
            if gone is not None and at - gone < self.return_s and u in h.arrived:
                continue  # a flicker: the card never left; it keeps its arrival
            h.arrived.pop(u, None)  # re-inserted: ``arrived`` stays in order of arrival
            h.arrived[u] = (self.counter, at, gone is not None)
        for u in went:
            h.departed[u] = at
        h.present = set(uids)
        if came or went:
            h.changed_at = at
        return came, went

    def mark(self) -> int:
        return self.counter

    def baseline(self, now: float, linger_s: float) -> dict[str, frozenset[str]]:
        """What lies on each pad now (or left moments ago): a new step's baseline."""
        return {
            p: frozenset(h.present | {u for u, t in h.departed.items() if now - t < linger_s})
            for p, h in self.pads.items()
        }

    def since(
        self,
        pad: str,
        mark: int,
        waited: Callable[[float, float], bool],
        linger_s: float,
        baseline: frozenset[str] = frozenset(),
    ) -> list[str]:
        """UIDs that arrived on ``pad`` after ``mark`` and are here, or left less than
        ``linger_s`` ago (a flicker of the reader), in order of arrival.  A card of the
        step's ``baseline`` counts only if it was really gone and came back.  ``waited(t,
        span)`` says whether ``span`` has passed since ``t`` (sensing's clock, which notes
        when the answer will change)."""
        h = self.pads.get(pad)
        if h is None:
            return []
        out = []
        arrived, present, departed = h.arrived, h.present, h.departed
        for u in reversed(arrived):  # newest first, up to the mark (``arrived`` is in order)
            i, _, back = arrived[u]
            if i <= mark:
                break
            if u in baseline and not back:
                continue
            if u in present or (linger_s > 0 and not waited(departed.get(u, float("inf")), linger_s)):
                out.append(u)
        out.reverse()
        return out

    def present(self, pad: str) -> set[str]:
        h = self.pads.get(pad)
        return set(h.present) if h else set()

    def arrived_after(self, pad: str, uid: str, mark: int) -> bool:
        h = self.pads.get(pad)
        return bool(h and uid in h.arrived and h.arrived[uid][0] > mark)

    def where(self, uid: str) -> list[str]:
        """The pads whose reader reports this UID now."""
        return sorted(p for p, h in self.pads.items() if uid in h.present)
