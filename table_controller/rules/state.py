"""Table state and the fold that builds it from events (``evolve``).

``evolve`` applies one decided fact; it never judges.  The engine decides events and
folds each one in as it emits it, so live state and a replay of the log are one path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any

from table_controller.rules import events as ev
from table_controller.rules.cards import FULL_DECK, Card
from table_controller.rules.phases import DealPhase, Moment
from table_controller.rules.rulesets import Ruleset, ruleset


@dataclass
class AwardRecord:
    player: str
    points: int
    reason: str
    moment: str


@dataclass
class DealRecord:
    number: int
    button: str
    awards: list[AwardRecord] = field(default_factory=list)
    scores_after: dict[str, int] | None = None
    # the deal's last trick, closed as the deal ended (its number, who took it, its cards face
    # up): the pages show it until the next deal is dealt, as the table does (stop 72: the
    # card that ended a deal reached no audience)
    last_trick: tuple[int, str, tuple[tuple[str, Card], ...]] | None = None


@dataclass
class PlayerInGame:
    score: int = 0
    said_chicago: bool = False
    won_chicagos: int = 0
    out: bool = False  # r21: 52+ without Chicago, sits out the rest
    sit_out_game: bool = False
    sit_out_next_deal: bool = False
    last_place: bool = False
    no_placement: bool = False
    violations: list[str] = field(default_factory=list)
    warnings: int = 0


@dataclass
class DealState:
    number: int
    button: str
    order: list[str]  # in the deal, turn order
    hands: dict[str, list[Card]]
    folded: set[str] = field(default_factory=set)
    draw_stop: set[str] = field(default_factory=set)
    phase: DealPhase = DealPhase.EXCHANGE
    exchange: int = 1
    placed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    awaiting: dict[str, int] = field(default_factory=dict)  # replacements still owed
    open_declined: set[str] = field(default_factory=set)
    stub: set[Card] = field(default_factory=set)  # cards nobody has seen this deal
    discards_earlier: set[Card] = field(default_factory=set)
    discards_now: set[Card] = field(default_factory=set)
    aside: set[Card] = field(default_factory=set)  # flashed this exchange, back at its end (r15)
    last_scorer: str | None = None
    last_scoring_cards: tuple[Card, ...] = ()
    quads_choice: dict[str, str] = field(default_factory=dict)
    asking: list[str] = field(default_factory=list)  # quads chooser or Chicago queue
    chicago_answers: int = 0  # answers to the Chicago question so far (closes step 7's window)
    chicago: str | None = None
    chicago_broken: bool = False
    trick_number: int = 0
    leader: str | None = None
    trick: list[tuple[str, Card]] = field(default_factory=list)
    played: dict[str, list[Card]] = field(default_factory=dict)
    pending_revoke: str | None = None
    closed: list[tuple[str, Card]] = field(default_factory=list)  # the last trick closed, to reopen on a take-back
    dead: set[str] = field(default_factory=set)  # r26 dead hands (still score)
    revoked: set[str] = field(default_factory=set)  # sm2019: revoked, may not win last trick
    tricks: list[tuple[str, Card]] = field(default_factory=list)
    broken: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    dealer_errors: list[tuple[str, str, int]] = field(default_factory=list)
    held: list[AwardRecord] = field(default_factory=list)  # D13: deductions held to the deal's end

    def in_play(self) -> list[str]:
        """Players whose hands are live in this deal, in turn order."""
        return [p for p in self.order if p not in self.folded]


@dataclass
class GameState:
    number: int
    seats: list[str]
    first_button: str
    playoff: bool
    players: dict[str, PlayerInGame]
    deals: list[DealRecord] = field(default_factory=list)
    deal: DealState | None = None
    # REPLAY.md: a score change between deals (a TL adjust or penalty after a deal ended,
    # or before the first) belongs to the next deal: it waits here for that deal's record
    between_deals: list[AwardRecord] = field(default_factory=list)
    out_order: list[str] = field(default_factory=list)
    finished: bool = False
    winner: str | None = None
    places: dict[str, int] = field(default_factory=dict)
    placement_points: dict[str, float] = field(default_factory=dict)

    def scores(self) -> dict[str, int]:
        return {p: s.score for p, s in self.players.items()}

    def players_left(self) -> list[str]:
        """The players still playing the game, in seat order: not out (r21), not sitting it
        out (r33).  They are dealt to, the button passes among them (r6), and the last of
        them wins (scoring.end_if_one_left)."""
        return [p for p in self.seats if not self.players[p].out and not self.players[p].sit_out_game]


@dataclass
class TableState:
    rules: Ruleset | None = None
    players: list[str] = field(default_factory=list)
    dealer: str = "dedicated"
    options: dict[str, Any] = field(default_factory=dict)
    games: list[GameState] = field(default_factory=list)
    playoff_players: list[str] = field(default_factory=list)
    playoff_deals: int = 0
    finished: bool = False
    ranking: list[str] = field(default_factory=list)
    seq: int = 0

    @property
    def game(self) -> GameState | None:
        return self.games[-1] if self.games else None

    @property
    def deal(self) -> DealState | None:
        g = self.game
        return g.deal if g else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = _plain(self)
        return out


def _plain(v: Any) -> Any:
    if isinstance(v, Enum):  # DealPhase: its text
        return v.value
    if isinstance(v, Card):
        return v.code
    if isinstance(v, Ruleset):
        return v.name
    if is_dataclass(v):
        return {f.name: _plain(getattr(v, f.name)) for f in fields(v)}
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return sorted(_plain(x) for x in v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


# --- the fold --------------------------------------------------------------------------


def _game(s: TableState) -> GameState:
    g = s.game
    assert g is not None, "an event of a game before any game_started"
    return g


def _deal(s: TableState) -> DealState:
    d = s.deal
    assert d is not None, "an event of a deal outside a deal"
    return d


def _table_opened(s: TableState, e: ev.TableOpened) -> None:
    s.rules = ruleset(e.ruleset, e.options)
    s.players = list(e.players)
    s.dealer = e.dealer
    s.options = dict(e.options)


def _game_started(s: TableState, e: ev.GameStarted) -> None:
    s.games.append(GameState(e.number, list(e.seats), e.button, e.playoff, {p: PlayerInGame() for p in e.seats}))


def next_button(g: GameState, eligible: list[str]) -> str:
    """Who holds the button for the game's next deal: the game's first button, then one seat
    clockwise every deal, skipping those not in ``eligible`` (r6)."""
    if not g.deals:
        return g.first_button
    prev = g.deals[-1].button
    i = g.seats.index(prev)
    for k in range(1, len(g.seats) + 1):
        cand = g.seats[(i + k) % len(g.seats)]
        if cand in eligible:
            return cand
    return prev


def _deal_started(s: TableState, e: ev.DealStarted) -> None:
    g = _game(s)
    seen = {c for cs in e.hands.values() for c in cs}
    g.deal = DealState(
        e.number,
        e.button,
        list(e.order),
        {p: list(cs) for p, cs in e.hands.items()},
        folded=set(e.folded),
        draw_stop=set(e.draw_stop),
        stub=set(FULL_DECK) - seen,
        played={p: [] for p in e.order},
    )
    g.deals.append(DealRecord(e.number, e.button, awards=g.between_deals))  # listed first
    g.between_deals = []
    # r35: the deal is sat out by a player dealt a hand that is folded at once, and as
    # much by one the dealer dealt no hand: either way it is served with this deal
    for ps in g.players.values():
        ps.sit_out_next_deal = False


def _cards_placed(s: TableState, e: ev.CardsPlaced) -> None:
    d = _deal(s)
    for c in e.cards:
        d.hands[e.player].remove(c)
    d.placed[e.player] = e.cards
    d.discards_now.update(e.cards)
    if e.cards:
        d.awaiting[e.player] = len(e.cards)


def _open_card_shown(s: TableState, e: ev.OpenCardShown) -> None:
    d = _deal(s)
    d.stub.discard(e.card)
    if e.taken:
        d.hands[e.player].append(e.card)
        d.awaiting.pop(e.player, None)
    else:
        d.discards_now.add(e.card)
        d.open_declined.add(e.player)


def _cards_received(s: TableState, e: ev.CardsReceived) -> None:
    d = _deal(s)
    for c in e.cards:
        d.stub.discard(c)
        d.hands[e.player].append(c)
    left = d.awaiting.get(e.player, 0) - len(e.cards)
    if left > 0:
        d.awaiting[e.player] = left
    else:
        d.awaiting.pop(e.player, None)


def _stub_reshuffled(s: TableState, e: ev.StubReshuffled) -> None:
    d = _deal(s)
    d.stub = set(e.cards)
    d.discards_earlier -= set(e.cards)


def _dealer_erred(s: TableState, e: ev.DealerErred) -> None:
    d = _deal(s)
    d.dealer_errors.append((e.player, e.kind, e.wrong_cards))
    # a flashed card is put aside until the exchange completes (sm2025 r15), or shuffled
    # back into the stub at once (sm2019 r16)
    if s.rules is not None and s.rules.flashed_aside:
        d.stub -= set(e.cards)
        d.aside.update(e.cards)
    else:
        d.stub.update(e.cards)


def _exchange_ended(s: TableState, e: ev.ExchangeEnded) -> None:
    d = _deal(s)
    d.discards_earlier |= d.discards_now
    d.discards_now = set()
    d.stub |= d.aside  # r15: the flashed cards shuffled back once the exchange is done
    d.aside = set()
    d.placed = {}
    d.awaiting = {}
    d.open_declined = set()


def _phase_entered(s: TableState, e: ev.PhaseEntered) -> None:
    d = _deal(s)
    d.phase = DealPhase(e.phase)
    if d.phase is DealPhase.EXCHANGE:
        d.exchange = e.exchange
    elif d.phase in (DealPhase.QUADS_CHOICE, DealPhase.CHICAGO):
        d.asking = list(e.players)
    elif d.phase is DealPhase.TRICKS:
        d.asking = []
        d.trick_number = 1
        d.leader = e.players[0] if e.players else None
        d.trick = []


def _awarded(s: TableState, e: ev.Awarded) -> None:
    g = _game(s)
    g.players[e.player].score += e.points
    if e.reason == "chicago_won":
        g.players[e.player].won_chicagos += 1
    record = AwardRecord(e.player, e.points, e.reason, e.moment)
    if g.deal is not None:
        g.deals[-1].awards.append(record)
    elif g.finished and g.deals:  # r32: a TL correction after the game: its last deal's record
        g.deals[-1].awards.append(record)
        g.deals[-1].scores_after = g.scores()
    else:  # between deals: it belongs to the next deal (REPLAY.md)
        g.between_deals.append(record)
    d = g.deal
    if d is not None and e.moment in _EXCHANGE_MOMENTS and e.reason in _HAND_REASONS:
        d.last_scorer = e.player
        d.last_scoring_cards = tuple(d.hands.get(e.player, ()))


_EXCHANGE_MOMENTS = frozenset(m.value for m in Moment if m.is_exchange)
_HAND_REASONS = {
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
}


def _deduction_held(s: TableState, e: ev.DeductionHeld) -> None:
    _deal(s).held.append(AwardRecord(e.player, e.points, e.reason, e.moment))


def _deductions_released(s: TableState, e: ev.DeductionsReleased) -> None:
    d = _deal(s)
    d.held = [h for h in d.held if h.player != e.player]


def _hand_broken(s: TableState, e: ev.HandBroken) -> None:
    _deal(s).broken[e.player] = e.cards


def _chicago_mark_cleared(s: TableState, e: ev.ChicagoMarkCleared) -> None:
    _game(s).players[e.player].said_chicago = False


def _quads_chosen(s: TableState, e: ev.QuadsChosen) -> None:
    d = _deal(s)
    d.quads_choice[e.player] = e.choice
    if d.phase is DealPhase.QUADS_CHOICE:  # a four of a kind announced at step 7 asks nobody
        d.asking = []


def _chicago_answered(s: TableState, e: ev.ChicagoAnswered) -> None:
    d = _deal(s)
    d.chicago_answers += 1
    if d.asking and d.asking[0] == e.player:
        d.asking.pop(0)
    if e.say:
        d.chicago = e.player
        d.asking = []
        _game(s).players[e.player].said_chicago = True


def _card_played(s: TableState, e: ev.CardPlayed) -> None:
    d = _deal(s)
    if d.pending_revoke:  # the next card: a revoke not taken back stands (r26); where the hand
        d.revoked.add(d.pending_revoke)  # dies, RevokeStood came first and said so
    if not d.trick:
        d.leader = e.player
    d.hands[e.player].remove(e.card)
    d.trick.append((e.player, e.card))
    d.played[e.player].append(e.card)
    d.pending_revoke = e.player if e.revoke else None


def _card_retracted(s: TableState, e: ev.CardRetracted) -> None:
    d = _deal(s)
    if not d.trick:  # a revoke on a trick's last card: the trick closed as any does, and opens again
        d.trick = list(d.closed)
        d.tricks.pop()
        d.trick_number -= 1
        d.leader = d.trick[0][0]
    d.trick.pop()
    d.played[e.player].pop()
    d.hands[e.player].append(e.card)
    d.pending_revoke = None


def _revoke_stood(s: TableState, e: ev.RevokeStood) -> None:
    d = _deal(s)
    d.pending_revoke = None
    if e.dead:
        d.dead.add(e.player)
        _game(s).players[e.player].warnings += 1
    else:
        d.revoked.add(e.player)


def _trick_won(s: TableState, e: ev.TrickWon) -> None:
    d = _deal(s)
    d.tricks.append((e.player, e.card))
    d.closed = d.trick
    d.trick = []
    d.trick_number = e.number + 1
    d.leader = e.player
    if d.chicago and e.player != d.chicago:
        d.chicago_broken = True


def _hand_folded(s: TableState, e: ev.HandFolded) -> None:
    d = _deal(s)
    d.folded.add(e.player)
    d.awaiting.pop(e.player, None)
    if e.player in d.asking:
        d.asking.remove(e.player)


def _player_out(s: TableState, e: ev.PlayerOut) -> None:
    g = _game(s)
    g.players[e.player].out = True
    g.out_order.append(e.player)
    if g.deal is not None and e.player in g.deal.order:
        g.deal.folded.add(e.player)
        g.deal.awaiting.pop(e.player, None)
        if e.player in g.deal.asking:
            g.deal.asking.remove(e.player)


def _violation(s: TableState, e: ev.ViolationRecorded) -> None:
    _game(s).players[e.player].violations.append(e.clock)


def _penalty_given(s: TableState, e: ev.PenaltyGiven) -> None:
    p = _game(s).players[e.player]
    if e.kind == "warning":
        p.warnings += 1
    elif e.kind == "sit_out_deal":
        p.sit_out_next_deal = True
    elif e.kind == "sit_out_game":
        p.sit_out_game = True
    elif e.kind == "last_place":
        p.last_place = True
    elif e.kind == "no_placement":
        p.no_placement = True


TRICKS = 5  # tricks in a deal (r23)


def trick_winner(d: DealState) -> tuple[str, Card]:
    """The highest card of the led suit (r25)."""
    led = d.trick[0][1].suit
    last = d.trick_number == TRICKS
    best: tuple[str, Card] | None = None
    for p, c in d.trick:
        if c.suit != led or p in d.dead or (last and p in d.revoked):
            continue  # r26: a dead hand cannot win; sm2019: a revoker not the last trick
        if best is None or c.rank > best[1].rank:
            best = (p, c)
    return best or d.trick[0]


def trick_taken(d: DealState) -> tuple[int, str, tuple[tuple[str, Card], ...]] | None:
    """The trick ``d`` closed last, when no card of the next lies: its number, who took it
    (as its TrickWon said) and its cards, face up."""
    if not d.trick and d.closed and d.tricks:
        return d.trick_number - 1, d.tricks[-1][0], tuple(d.closed)
    return None


def _closed_trick(d: DealState) -> tuple[int, str, tuple[tuple[str, Card], ...]] | None:
    """The trick the deal ended on: taken, or cut short by a Chicago broken at once (D8),
    held by whoever holds it then (the breaker).  The views show it until the next deal
    (``queries.closed_trick`` within a deal)."""
    if d.trick:
        return d.trick_number, trick_winner(d)[0], tuple(d.trick)
    return trick_taken(d)


def _deal_ended(s: TableState, e: ev.DealEnded) -> None:
    g = _game(s)
    d = _deal(s)
    d.phase = DealPhase.OVER
    g.deals[-1].scores_after = g.scores()
    g.deals[-1].last_trick = _closed_trick(d)
    g.deal = None


def _game_ended(s: TableState, e: ev.GameEnded) -> None:
    g = _game(s)
    if g.deal is not None:
        g.deals[-1].scores_after = g.scores()
        g.deals[-1].last_trick = _closed_trick(g.deal)
        g.deal = None
    elif g.between_deals:
        # A TL change between deals ended the game: it belongs to the next deal all the same
        # (REPLAY.md: never the deal that had ended), a deal that is recorded but never dealt
        eligible = g.players_left()
        g.deals.append(
            DealRecord(len(g.deals) + 1, next_button(g, eligible), awards=g.between_deals, scores_after=g.scores())
        )
        g.between_deals = []
    g.finished = True
    g.winner = e.winner
    g.places = dict(e.places)
    g.placement_points = dict(e.placement_points)


def _game_places_revised(s: TableState, e: ev.GamePlacesRevised) -> None:
    g = next(x for x in s.games if x.number == e.number)
    g.places = dict(e.places)
    g.placement_points = dict(e.placement_points)


def _table_ended(s: TableState, e: ev.TableEnded) -> None:
    s.finished = True
    s.ranking = list(e.ranking)
    if not any(g.playoff for g in s.games):  # a särspel called for, then not needed (r32)
        s.playoff_players, s.playoff_deals = [], 0


def _playoff_needed(s: TableState, e: ev.PlayoffNeeded) -> None:
    s.playoff_players = list(e.players)
    s.playoff_deals = e.deals
    s.finished = False  # a TL correction after the table's end may tie it again (r32, r11)
    s.ranking = []


def _nothing(s: TableState, e: ev.Event) -> None:
    pass


_FOLD: dict[type, Callable[[TableState, Any], None]] = {
    ev.TableOpened: _table_opened,
    ev.GameStarted: _game_started,
    ev.DealStarted: _deal_started,
    ev.CardsPlaced: _cards_placed,
    ev.OpenCardShown: _open_card_shown,
    ev.CardsReceived: _cards_received,
    ev.StubReshuffled: _stub_reshuffled,
    ev.DealerErred: _dealer_erred,
    ev.ExchangeEnded: _exchange_ended,
    ev.PhaseEntered: _phase_entered,
    ev.Awarded: _awarded,
    ev.HandBroken: _hand_broken,
    ev.DeductionHeld: _deduction_held,
    ev.DeductionsReleased: _deductions_released,
    ev.QuadsChosen: _quads_chosen,
    ev.ChicagoMarkCleared: _chicago_mark_cleared,
    ev.ChicagoAnswered: _chicago_answered,
    ev.CardPlayed: _card_played,
    ev.CardRetracted: _card_retracted,
    ev.RevokeStood: _revoke_stood,
    ev.TrickWon: _trick_won,
    ev.TrickHeld: _nothing,
    ev.HandFolded: _hand_folded,
    ev.PlayerOut: _player_out,
    ev.ViolationRecorded: _violation,
    ev.PenaltyGiven: _penalty_given,
    ev.DealEnded: _deal_ended,
    ev.GameEnded: _game_ended,
    ev.GamePlacesRevised: _game_places_revised,
    ev.TableEnded: _table_ended,
    ev.PlayoffNeeded: _playoff_needed,
}


def evolve(state: TableState, event: ev.Event) -> None:
    """Fold one event into the state (in place)."""
    _FOLD[type(event)](state, event)
    state.seq += 1
