"""What sensing needs to know about the game: the engine's answers, as plain values.

Sensing sits below the rules (bridge -> sensing -> rules), so it never imports the
engine; the live loop builds these facts from it after every accepted action
(``table_controller.live.facts``).  Tests build them by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from table_controller.rules.cards import Card
from table_controller.rules.phases import Phase


@dataclass(frozen=True, slots=True)
class TableFacts:
    phase: Phase = Phase.GAME_START  # REPLAY.md's phases (its text is taken too)
    step: tuple = ()  # changes whenever a new sensing step begins
    pads: Mapping[str, str] = field(default_factory=dict)  # player -> pad ("seat1")
    dealt_to: tuple[str, ...] = ()  # deal phase: who gets 5 cards, seat order
    order: tuple[str, ...] = ()  # live players of the deal, in turn
    to_act: tuple[str, ...] = ()
    hands: Mapping[str, frozenset[Card]] = field(default_factory=dict)
    placed: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    awaiting: Mapping[str, int] = field(default_factory=dict)  # replacements owed
    open_next: frozenset[str] = frozenset()  # whose next replacement is an open card (r12)
    declined: Mapping[str, Card] = field(default_factory=dict)  # open card declined this exchange
    drawable: frozenset[Card] = frozenset()  # the stub (and discards a reshuffle may bring, r16)
    stub: frozenset[Card] = frozenset()
    draw_stop: frozenset[str] = frozenset()  # at köpstopp now
    draw_stop_refused: bool = True  # D5 (sm2025): an attempt is refused, not scored
    pending_revoke: tuple[str, Card] | None = None
    # the cards played this deal: face up where everyone sees them.  Not the open cards
    # shown: one taken goes into a hand and may be discarded face down again, one declined
    # may come back from the discards (r16), and where it then lies is hidden.
    public: frozenset[Card] = frozenset()
    # Sensing asks "whose card is this" and "who sits at this pad" for every tag on every pad
    # after every sensor event and tick (issue 15: the hot path of a simulated table), so
    # both are answered from maps made once per facts; the first owner and the first player
    # in the mappings' order win, as a search through them would find.
    _owners: Mapping[Card, str] = field(init=False, repr=False, compare=False)
    _players: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phase", Phase(self.phase))  # ValueError for a phase REPLAY.md lacks
        owners: dict[Card, str] = {}
        for p, hand in self.hands.items():
            for card in hand:
                owners.setdefault(card, p)
        players: dict[str, str] = {}
        for p, q in self.pads.items():
            players.setdefault(q, p)
        object.__setattr__(self, "_owners", owners)
        object.__setattr__(self, "_players", players)

    def pad_of(self, player: str) -> str | None:
        return self.pads.get(player)

    def player_at(self, pad: str) -> str | None:
        return self._players.get(pad)

    def owner(self, card: Card) -> str | None:
        return self._owners.get(card)
