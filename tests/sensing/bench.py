"""Sensing and the rules engine without the loop: feed pad sets by hand, take proposals."""

from __future__ import annotations

from table_controller.deck import virtual_deck
from table_controller.live.facts import facts_from_engine
from table_controller.rules import actions as act
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.sensing import Sensing
from table_controller.sensor_events import ButtonPressed, CameraPad, CardSighting, PadContents, ReaderStatus

SEATS = ("Anna", "Bo", "Cilla", "Dan")  # Anna at seat1 .. Dan at seat4; Dan holds the button


def C(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(x) for x in codes.split())


class Bench:
    def __init__(self, sensing: type[Sensing] = Sensing, **options) -> None:
        self.deck = virtual_deck()
        self.engine = Engine()
        self.sensing = sensing(self.deck, **options)
        self.t = 10.0
        self.accepted: list[act.Action] = []
        self.refusals: list[str] = []
        self.apply(act.TableStart(SEATS))
        self.apply(act.GameStart(SEATS, "Dan"))

    def uid(self, code: str) -> str:
        return self.deck.uid_of(Card.parse(code))

    def apply(self, a: act.Action) -> None:
        self.engine.apply(a)
        self.accepted.append(a)
        self.sensing.sync(facts_from_engine(self.engine))

    def run(self) -> list[act.Action]:
        """Apply what sensing proposes until it proposes nothing; returns those actions."""
        out = []
        for _ in range(50):
            a = self.sensing.propose()
            if a is None:
                break
            try:
                self.apply(a)
                out.append(a)
            except IllegalAction as exc:
                self.refusals.append(exc.reason)
                self.sensing.refused(a, exc.reason)
        return out

    def later(self, dt: float = 0.01) -> None:
        self.t += dt
        self.sensing.tick(self.t)

    def pad(self, pad: str, codes: str = "", extra=()) -> None:
        self.later()
        uids = {self.uid(c) for c in codes.split()} | set(extra)
        self.sensing.observe(PadContents(self.t, pad, frozenset(uids)))

    def press(self, name: str) -> None:
        self.later()
        self.sensing.observe(ButtonPressed(self.t, name))

    def reader(self, pad: str, ok: bool) -> None:
        self.later()
        self.sensing.observe(ReaderStatus(self.t, pad, ok))

    def camera(self, pad: str, face_down: int, face_up: str = "", confidence: float = 0.95) -> None:
        self.later()
        ups = tuple(CardSighting(c, confidence) for c in face_up.split())
        self.sensing.observe(CameraPad(self.t, pad, face_down, ups))

    def kinds(self) -> list[str]:
        return [a.kind for a in self.sensing.alerts.open]

    def deal(self, hands: dict[str, str]) -> None:
        """Deal by the pads: each seat's pad gets its 5 cards, then players pick up."""
        for i, p in enumerate(SEATS):
            self.pad(f"seat{i + 1}", hands[p])
        got = self.run()
        assert got and isinstance(got[0], act.Deal), (got, self.kinds())
        for i in range(4):
            self.pad(f"seat{i + 1}", "")
        self.later(1.0)

    def bo_places_two(self) -> list[act.Action]:
        """After the deal: Bo places 7D and 5C, the dealer closes the placement (every
        discard taken, returned) and the pads are cleared: Bo is owed two replacements."""
        self.pad("seat2", "7D 5C")
        self.press("next")
        got = self.run()
        self.pad("seat2", "")
        return got


HANDS = {"Anna": "AS KS QS JS 9H", "Bo": "2C 3C 4C 5C 7D", "Cilla": "2H 3H 4H 5H 7S", "Dan": "8D 9D TD JD 2D"}
