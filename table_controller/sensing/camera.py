"""The overhead camera's view of each pad, kept for fusion with the RFID readers.

The camera sees face-up cards (open cards, played cards) and counts face-down cards.
Fusion rules: agreement confirms; a face-up card the readers missed is filled in from
the camera; a count or a card that differs raises an alert (never a guess).
"""

from __future__ import annotations

from dataclasses import dataclass

from table_controller.rules.cards import Card
from table_controller.rules.errors import CardError

MIN_CONFIDENCE = 0.8


@dataclass(frozen=True, slots=True)
class PadView:
    at: float
    face_down: int
    face_up: tuple[Card, ...]
    unsure: int  # face-up cards the camera could not name with confidence


class CameraMemory:
    def __init__(self, min_confidence: float = MIN_CONFIDENCE) -> None:
        self.min_confidence = min_confidence
        self.views: dict[str, PadView] = {}

    def update(self, event) -> PadView:
        cards, unsure = [], 0
        for s in event.face_up:
            try:
                card = Card.parse(s.card) if s.card is not None else None
            except CardError:
                card = None
            if card is None or s.confidence < self.min_confidence:
                unsure += 1
            else:
                cards.append(card)
        view = PadView(event.at, max(0, int(event.face_down)), tuple(cards), unsure)
        self.views[event.pad] = view
        return view

    def view(self, pad: str, after: float) -> PadView | None:
        """The pad's latest view, if it was taken at or after ``after``."""
        v = self.views.get(pad)
        return v if v is not None and v.at >= after else None

    def pads_showing(self, card: Card, after: float) -> list[str]:
        return sorted(p for p, v in self.views.items() if v.at >= after and card in v.face_up)
