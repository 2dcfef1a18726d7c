"""Odds during the exchanges (issue 21 item 2): Monte Carlo estimates with a Wilson interval.

    >>> import random
    >>> from table_controller.rules.engine import Engine
    >>> from table_controller.rules import actions as act
    >>> from table_controller.rules.cards import parse_cards
    >>> e = Engine()
    >>> _ = e.apply(act.TableStart(("Anna", "Bo", "Cilla")))
    >>> _ = e.apply(act.GameStart(("Anna", "Bo", "Cilla"), "Cilla"))
    >>> _ = e.apply(act.Deal({"Anna": parse_cards("AS KS QS JS TS".split()),
    ...                       "Bo": parse_cards("2C 3C 4D 6D 8H".split()),
    ...                       "Cilla": parse_cards("2D 5C 7C 9C TH".split())}))
    >>> o = exchange_odds(e.state, random.Random(1), samples=200)
    >>> o.score_next["Anna"].p, o.samples
    (1.0, 200)

**Whose knowledge.**  The broadcast view: every hand is known (the readers see them), so
the unseen cards are the stub's, the cards nobody has seen this deal.  What each player has
done fixes their part of the current exchange: cards placed are out of the hand and out of
the stub (they come back only if the stub runs out and the discards are reshuffled, r16),
an open card shown is known and taken or declined (r12), a broken hand (r17) is just such a
placement.  What is sampled is the order of the stub and, after it, every later decision.

**The players' model** (``Policy``; pluggable): a player keeps what makes the hand (all five
of a straight or better, trips, two pairs, a pair), else four to a flush or to a straight,
else the highest card; and takes an open card that raises the kept cards' category.  A
player at draw stop does not exchange (köpstopp); a four of a kind takes "points"; scores
move with the simulated hand awards (draw stop and the Chicago threshold use them).

**What is estimated** for each player in the deal:

- ``score_next``: to score at the next scoring moment: the single best hand of a pair or
  better (D2: a tie scores nothing) after this exchange (exchanges 1, 2); during the last
  exchange, the final hand scoring (after the tricks; a Chicago aside);
- ``best_after_last``: to hold the best hand after the last exchange (each of tied hands
  counts, so these add up to at most 1 plus the ties, ``best_ties``);
- ``chicago``: that a Chicago stands: some player who may say it (15+, not a särspel) holds
  after the last exchange a hand whose Chicago stands with best play by everyone (the
  solver decides), the first such in question order (r22, D3) counted in ``chicago_by``.

A special hand that ends the game at a scoring moment (straight or royal flush, RULES §5)
ends the sample there: no later exchange, no trick play.  Every estimate carries its hit
count, the sample count and a 95 % Wilson interval.  All randomness comes from ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules.cards import FULL_DECK, Card
from table_controller.rules.hands import CARD_INT, Category, HandValue, evaluate_ints
from table_controller.rules.phases import DealPhase, Moment
from table_controller.rules.rulesets import Ruleset

from .solver import Position, final_hand_award, sm_chicago_stands, solve

Z95 = 1.959963984540054


class OddsError(ValueError):
    """No odds for this moment (not in the exchanges of a deal)."""


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (hits of n), clipped to [0, 1]."""
    if n <= 0:
        return 0.0, 1.0
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if hits == 0 else max(0.0, centre - half)  # exact ends: no rounding dust
    hi = 1.0 if hits == n else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class Estimate:
    hits: int
    n: int

    @property
    def p(self) -> float:
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.n)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"p": round(self.p, 4), "low": round(lo, 4), "high": round(hi, 4), "hits": self.hits, "n": self.n}


@dataclass(frozen=True)
class Odds:
    samples: int
    exchange: int  # the exchange in progress
    next_moment: Moment  # "exchange_1", "exchange_2" or "final"
    score_next: dict[str, Estimate]
    best_after_last: dict[str, Estimate] = field(default_factory=dict)
    best_ties: int = 0  # extra holders of tied best hands, summed over samples
    chicago: Estimate | None = None
    chicago_by: dict[str, Estimate] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "exchange": self.exchange,
            "next_moment": self.next_moment,
            "score_next": {p: e.to_dict() for p, e in self.score_next.items()},
            "best_after_last": {p: e.to_dict() for p, e in self.best_after_last.items()},
            "best_ties": self.best_ties,
            "chicago": self.chicago.to_dict() if self.chicago else None,
            "chicago_by": {p: e.to_dict() for p, e in self.chicago_by.items()},
        }


# --- the players' model --------------------------------------------------------------------


class Policy:
    """How a simulated player exchanges (see the module docstring).  Decisions depend only
    on the player's own cards, so they are cached."""

    def __init__(self) -> None:
        self._discards: dict[tuple[frozenset[Card], int], tuple[Card, ...]] = {}
        self._takes: dict[tuple[frozenset[Card], Card], bool] = {}

    def discard(self, hand: Sequence[Card], max_cards: int) -> tuple[Card, ...]:
        k = (frozenset(hand), max_cards)
        d = self._discards.get(k)
        if d is None:
            keep = _keep(list(hand))
            d = tuple(sorted(c for c in hand if c not in keep))
            if len(d) > max_cards:  # keep the highest of the rest (r12: at most 4)
                d = tuple(sorted(d, key=lambda c: (c.rank, c.suit)))[:max_cards]
            self._discards[k] = d
        return d

    def take_open(self, kept: Sequence[Card], card: Card) -> bool:
        k = (frozenset(kept), card)
        t = self._takes.get(k)
        if t is None:
            t = _category(list(kept) + [card]) > _made(kept)
            self._takes[k] = t
        return t


def _category(cards: Sequence[Card]) -> Category:
    return HandValue(evaluate_ints(*(CARD_INT[c] for c in cards))).category


def _made(cards: Sequence[Card]) -> Category:
    """The category the kept cards make on their own (pairs, trips, quads)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    if shape[0] >= 4:
        return Category.FOUR_OF_A_KIND
    if shape[0] == 3:
        return Category.FULL_HOUSE if len(shape) > 1 and shape[1] >= 2 else Category.THREE_OF_A_KIND
    if shape[0] == 2:
        return Category.TWO_PAIR if len(shape) > 1 and shape[1] == 2 else Category.ONE_PAIR
    return Category.HIGH_CARD


def _keep(hand: list[Card]) -> set[Card]:
    cat = _category(hand)
    if cat >= Category.STRAIGHT:
        return set(hand)
    counts: dict[int, int] = {}
    for c in hand:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    if cat > Category.HIGH_CARD:
        return {c for c in hand if counts[c.rank] >= 2}
    suits: dict[str, list[Card]] = {}
    for c in hand:
        suits.setdefault(c.suit, []).append(c)
    flush4 = [cs for cs in suits.values() if len(cs) == 4]
    if flush4:
        return set(flush4[0])
    ranks = sorted({c.rank for c in hand} | ({1} if any(c.rank == 14 for c in hand) else set()))
    for lo in range(len(ranks) - 3):
        if ranks[lo + 3] - ranks[lo] == 3:  # four in a row (the ace low too, D1)
            run = set(ranks[lo : lo + 4])
            return {c for c in hand if c.rank in run or (c.rank == 14 and 1 in run)}
    return {max(hand, key=lambda c: (c.rank, c.suit))}


# --- the simulation ------------------------------------------------------------------------


def at_draw_stop(rules: Ruleset, deal: Any, player: str, score: int) -> bool:
    """Köpstopp (RULES §5): at the limit now (sm), or from the deal's start (classic).  A pure
    copy of the engine's check (the rules' public API has no query for it yet)."""
    if rules.draw_stop_from_next_deal:
        return player in deal.draw_stop
    return score >= rules.draw_stop


_DECK = FULL_DECK
_IDX = {c: i for i, c in enumerate(FULL_DECK)}
_INT = [CARD_INT[c] for c in FULL_DECK]


class _Sample:
    """One simulated rest of the deal (cards as indices into the deck: no hashing of Cards
    on the hot path)."""

    def __init__(self, ctx: _Context, rng: random.Random):
        self.ctx = ctx
        self.rng = rng
        self.hands = {p: list(h) for p, h in ctx.hands.items()}
        self.scores = dict(ctx.scores)
        self.stub = list(ctx.stub)
        self.earlier = list(ctx.earlier)
        self.now: list[int] = []

    def draw(self) -> int:
        """A uniformly random card of the stub (a partial Fisher-Yates shuffle)."""
        stub = self.stub
        if not stub:  # r16: the dealer shuffles the earlier discards and deals on
            if not self.earlier:
                raise OddsError("no cards left to deal")
            stub = self.stub = sorted(self.earlier)
            self.earlier = []
        i = int(self.rng.random() * len(stub))
        stub[i], stub[-1] = stub[-1], stub[i]
        return stub.pop()

    def replace(self, p: str, placed: int, owed: int, open_pending: bool) -> None:
        hand = self.hands[p]
        if owed and open_pending and placed == 1:  # r12: the open card
            c = self.draw()
            if self.ctx.take_open(hand, c):
                hand.append(c)
                return
            self.now.append(c)
        for _ in range(owed):
            hand.append(self.draw())

    def place(self, p: str) -> None:
        """p places by the policy, then the dealer replaces (the order of replacements does
        not matter for a uniformly random stub)."""
        hand = self.hands[p]
        d = self.ctx.discard(hand)
        if d:
            for c in d:
                hand.remove(c)
            self.now.extend(d)
            self.replace(p, len(d), len(d), True)

    def exchange(self) -> None:
        """A whole later exchange: everyone not at draw stop places and is served."""
        ctx = self.ctx
        for p in ctx.players:
            if not at_draw_stop(ctx.rules, ctx.deal, p, self.scores[p]):
                self.place(p)
        self.end_exchange()

    def end_exchange(self) -> None:
        self.earlier.extend(self.now)
        self.now = []

    def best(self) -> tuple[list[str], int]:
        """The holders of the best hand and its value (RULES §2; suits only for equal
        straight and royal flushes)."""
        top, leaders = -1, []
        for p, h in self.hands.items():
            v = evaluate_ints(_INT[h[0]], _INT[h[1]], _INT[h[2]], _INT[h[3]], _INT[h[4]])
            if v > top:
                top, leaders = v, [p]
            elif v == top:
                leaders.append(p)
        cat = Category(HandValue(top).category)
        if len(leaders) > 1 and cat >= Category.STRAIGHT_FLUSH and self.ctx.rules.special_suit_order:
            order = self.ctx.rules.special_suit_order
            leaders = [min(leaders, key=lambda q: order.index(_DECK[self.hands[q][0]].suit))]
        return leaders, top

    def scoring(self, special_only: bool, final: bool = False) -> tuple[str | None, bool]:
        """(who scores, whether the game ended) at a scoring moment (D2, D4, RULES §5)."""
        r = self.ctx.rules
        leaders, top = self.best()
        cat = HandValue(top).category
        if cat == Category.HIGH_CARD or (len(leaders) > 1 and r.tie_nobody_scores):
            return None, False
        p = leaders[0]
        if cat == Category.ROYAL_FLUSH and r.royal_flush != "points":
            return p, True
        if (
            cat == Category.STRAIGHT_FLUSH
            and r.straight_flush != "points"
            and (r.straight_flush == "out" or self.ctx.said.get(p))
        ):
            return p, True
        if special_only:
            return None, False
        if not final:
            self.scores[p] += r.points_for(cat)
        return p, False


@dataclass
class _Context:
    rules: Ruleset
    deal: Any
    players: list[str]
    hands: dict[str, list[int]]
    scores: dict[str, int]
    said: dict[str, bool]
    stub: list[int]
    earlier: list[int]
    policy: Policy
    pending: list[tuple[str, int, int, bool]]  # (player, placed, owed, open pending)
    unplaced: list[str]
    chicago_ok: bool
    discards: dict = field(default_factory=dict)
    takes: dict = field(default_factory=dict)

    def discard(self, hand: list[int]) -> tuple[int, ...]:
        k = tuple(sorted(hand))
        d = self.discards.get(k)
        if d is None:
            cards = self.policy.discard([_DECK[i] for i in k], self.rules.max_exchange_cards)
            d = self.discards[k] = tuple(_IDX[c] for c in cards)
        return d

    def take_open(self, kept: list[int], card: int) -> bool:
        k = (tuple(sorted(kept)), card)
        t = self.takes.get(k)
        if t is None:
            t = self.takes[k] = self.policy.take_open([_DECK[i] for i in kept], _DECK[card])
        return t


def _context(state: Any, policy: Policy) -> _Context:
    rules = state.rules
    g = state.game
    d = g.deal if g is not None else None
    if rules is None or d is None or d.phase != DealPhase.EXCHANGE:
        raise OddsError("odds are for the exchanges of a deal in progress")
    players = d.in_play()
    scores = {p: g.players[p].score for p in players}
    pending, unplaced = [], []
    for p in players:
        if p in d.placed:
            placed, owed = len(d.placed[p]), d.awaiting.get(p, 0)
            if owed:
                pending.append((p, placed, owed, p not in d.open_declined))
        elif not at_draw_stop(rules, d, p, scores[p]):
            unplaced.append(p)
    ix = lambda cs: sorted(_IDX[c] for c in cs)  # noqa: E731 - sorted: set order is per process
    return _Context(
        rules,
        d,
        players,
        {p: ix(d.hands[p]) for p in players},
        scores,
        {p: g.players[p].said_chicago for p in players},
        ix(d.stub),
        ix(d.discards_earlier),
        policy,
        pending,
        unplaced,
        not g.playoff,
    )


def exchange_odds(
    state: Any,
    rng: random.Random,
    samples: int = 2000,
    horizon: str = "last",
    policy: Policy | None = None,
    chicago: bool = True,
) -> Odds:
    """Estimate the odds at a moment of the exchanges (see the module docstring).

    ``state`` is the engine's ``TableState`` (its deal must be in an exchange); ``horizon``
    "next" stops every sample at the next scoring moment (``score_next`` only), "last" plays
    on to the end of the last exchange; ``chicago`` also solves the Chicago chances."""
    if samples < 1:
        raise OddsError("at least one sample")
    if horizon not in ("next", "last"):
        raise OddsError("horizon is 'next' or 'last'")
    ctx = _context(state, policy or Policy())
    rules, d = ctx.rules, ctx.deal
    k = d.exchange
    last = rules.exchanges
    players = ctx.players
    score_hits = dict.fromkeys(players, 0)
    best_hits = dict.fromkeys(players, 0)
    chicago_hits = dict.fromkeys(players, 0)
    ties = 0
    solved: dict[tuple, bool] = {}
    now = sorted(_IDX[c] for c in d.discards_now)  # this exchange's discards so far
    for _ in range(samples):
        s = _Sample(ctx, rng)
        s.now = list(now)
        for p in ctx.unplaced:  # they place now, by the policy
            s.place(p)
        for p, placed, owed, open_pending in ctx.pending:
            s.replace(p, placed, owed, open_pending)
        s.end_exchange()
        who, ended = s.scoring(special_only=k >= last)
        if k >= last and not ended:
            who, _ = s.scoring(special_only=False, final=True)
        if who is not None:
            score_hits[who] += 1
        if horizon == "next":
            continue
        j = k
        while not ended and j < last:
            j += 1
            s.exchange()
            _, ended = s.scoring(special_only=j >= last)
        leaders, _ = s.best()
        for p in leaders:
            best_hits[p] += 1
        ties += len(leaders) - 1
        if chicago and not ended and ctx.chicago_ok:
            c = _chicago_stands(ctx, s, solved)
            if c is not None:
                chicago_hits[c] += 1
    n = samples
    nxt = Moment.exchange(k) if k < last else Moment.FINAL
    score = {p: Estimate(score_hits[p], n) for p in players}
    if horizon == "next":
        return Odds(n, k, nxt, score)
    return Odds(
        n,
        k,
        nxt,
        score,
        {p: Estimate(best_hits[p], n) for p in players},
        ties,
        Estimate(sum(chicago_hits.values()), n) if chicago else None,
        {p: Estimate(chicago_hits[p], n) for p in players} if chicago else {},
    )


def _chicago_stands(ctx: _Context, s: _Sample, solved: dict) -> str | None:
    """The first player in question order (r22, D3) whose Chicago stands with best play."""
    rules = ctx.rules
    for p in ctx.players:
        if s.scores[p] < rules.chicago_min_score:
            continue
        key = (p, tuple(sum(1 << c for c in s.hands[q]) for q in ctx.players))
        hit = solved.get(key)
        if hit is None:
            hit = solved[key] = _stands(ctx, key[1], ctx.players.index(p))
        if hit:
            return p
    return None


def _stands(ctx: _Context, masks: tuple[int, ...], i: int) -> bool:
    if ctx.rules.chicago_style == "sm":
        # every opponent would rather see it broken (r24: +10 to the breaker; to the others
        # the Chicago player's -15): max^n is a two-sided game here
        return sm_chicago_stands(masks[i], tuple(m for j, m in enumerate(masks) if j != i))
    hands = {q: [_DECK[c] for c in range(52) if masks[j] >> c & 1] for j, q in enumerate(ctx.players)}
    award = final_hand_award(ctx.rules, hands)
    pos = Position(
        ctx.rules,
        tuple(ctx.players),
        {q: tuple(h) for q, h in hands.items()},
        ctx.players[i],
        chicago=ctx.players[i],
        hand_award=award,
    )
    return bool(solve(pos).chicago_stands)
