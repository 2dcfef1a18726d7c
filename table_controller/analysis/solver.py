"""A double-dummy solver for Chicago's trick play (RULES.md §6-7, issue 21 item 1).

With every hand known the trick play is a game of perfect information.  ``solve`` plays
it out with best play by everyone (max^n: every player maximises their own points) and
says whether a Chicago stands or who breaks it, who takes the last trick and with which
card, and what each legal card is worth to the player to act.

    >>> from table_controller.rules.cards import parse_cards
    >>> from table_controller.rules.rulesets import ruleset
    >>> pos = Position(ruleset("sm2025"), ("Anna", "Bo"),
    ...                {"Anna": parse_cards(["AS"]), "Bo": parse_cards(["2S"])},
    ...                leader="Bo", trick_number=5)
    >>> v = solve(pos)
    >>> v.last_trick, v.values
    (('Anna', Card('AS')), {'Anna': 5, 'Bo': 0})

**The value a player maximises** is their own points from the trick play, as the engine
awards them at the end of the deal:

- no Chicago: the last trick's winner gets ``last_trick`` (5), or ``last_trick_two`` (10)
  when the winning card is a 2 (r27); nobody else gets anything from the tricks;
- Chicago, SM style (r23, r24, r27): it stands: the Chicago player +15; it is broken: the
  Chicago player -15 and the first player to beat the Chicago player's card +10 (r24; D8:
  the trick play ends at that card); no last-trick points either way;
- Chicago, classic style: stands: +15 and the final hand scoring still pays the single
  best hand (``Position.hand_award``); broken: -15, no breaker bonus and no hand scoring.

Hand points of a deal without Chicago are paid whatever happens in the tricks, so they
are left out.  The value is points, not the game: a score's floor at 0 and going out at
52 (D7) are not modelled (the Chicago player has 15+ so -15 never hits the floor).

**Ties.**  A player choosing between cards of equal own value prefers the one that leaves
the others the fewest points in sum (opponents of a Chicago help break it; a player who
cannot take the last trick prefers it not be won with a 2); still equal: the lowest card
in the order ♠ ♥ ♦ ♣, 2 to ace.  The result is therefore one well-defined line of play.

The search memoises positions at trick starts (hands with ranks relative to the cards
still held, leader), treats touching cards of one suit in one hand as one card (except a
2, which counts 10 in the last trick), stops looking at a player's cards once one reaches
the best that player could ever get, and leaves a card's subtree early once the player
who chose the card before it in the trick already has better (shallow max^n pruning).
A tie prunes too: q keeps its lower card on a tie, so a subtree that can give q only
as much is dropped.  A full 4-player deal searches ~4,600 nodes (median; p99 ~26,000),
nearly all in tricks 3 and 4: a hard deal reaches ~3,000 distinct trick-4 starts, hardly
any shared between deals.

**Two kernels, one search.**  ``_kernel.c`` is this search written out in C (the same
nodes in the same order, the same memo, grouping, pruning and ties: the same verdict and
the same node count, tests/analysis/test_solver_kernel.py), built at install by setup.py;
``solve`` runs it when it is built (``KERNEL``) and this Python search otherwise, which
stays the reference.  A full deal from trick 1: C 0.15 ms median, p99 0.83 ms; Python
8 ms median, p99 44 ms (``tests/bench/analysis.py`` on a busy machine).  Python spends
~1.9 us a node, C ~25-30 ns, most of it on branches the predictor cannot guess (the same
deal solved again right away takes half the time).

Tried, measured and not kept: trying cards highest first or by a history
of cut-offs (more nodes: a reordered card can no longer prune on a tie, and the lowest
card must win ties), relative-rank keys skipped at trick 4 (no gain), and a two-sided
"can p take the last trick whatever the others do" search before max^n (2.7x fewer max^n
nodes, slower in all: the proofs cost more than they save).  An SM-style Chicago's yes/no
alone: ``sm_chicago_stands``.  In C, tried and not kept: a cache of exact hands in front
of the relative-rank memo (7 % of its lookups hit), selects instead of branches for the
first card of a trick and the legal cards (slower), branch hints and the pruning table
kept between searches (no gain measured).

Legal-play solver: follow suit if you can (r25).  A pending sm2025 revoke (r26) is not
solved; a hand that is dead (r26), folded or out simply plays no further cards, and a
sm2019 revoker cannot win the last trick, as in the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Any

from table_controller.rules.cards import FULL_DECK, Card
from table_controller.rules.hands import Category, best_hands
from table_controller.rules.phases import DealPhase
from table_controller.rules.rulesets import Ruleset

try:  # the search in C, built at install (pyproject.toml); without it, the same search in Python
    from . import _kernel as _ckernel
except ImportError:
    _ckernel = None  # type: ignore[assignment]

KERNEL = "c" if _ckernel is not None else "python"  # the search ``solve`` runs by default
TRICKS = 5  # r25: five tricks a deal

_INDEX: dict[Card, int] = {c: i for i, c in enumerate(FULL_DECK)}  # suit-major: S, H, D, C; 2..A
_SUIT_BASE = {suit: 13 * i - 2 for i, suit in enumerate("SHDC")}  # _INDEX[c] == _SUIT_BASE[c.suit] + c.rank
_SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
_TWOS = sum(1 << (13 * s) for s in range(4))
_KEY_SPAN = 1024  # key = own * span + (offset - others): a lexicographic pair as one int
_KEY_OFFSET = 512


class AnalysisError(ValueError):
    """A position the solver cannot judge (not reachable in legal play, or incomplete)."""


def trick_order(
    order: Sequence[str], leader: str, in_trick: Sequence[str], out: frozenset[str] | set[str]
) -> list[str]:
    """Who plays to a trick, from its leader (r25): clockwise from the leader, those who
    have played to it plus those still in play.  A pure copy of the engine's rotation
    (the rules' public API has no query for it yet)."""
    i = list(order).index(leader)
    rotation = [order[(i + k) % len(order)] for k in range(len(order))]
    played = set(in_trick)
    return [p for p in rotation if p in played or p not in out]


@dataclass(frozen=True)
class Position:
    """A moment of the trick play, every hand known.

    ``order`` is the deal's turn order (all its players); ``out`` are those who play no
    further cards (folded, or dead after a revoke, r26); ``dead`` hands' cards cannot win
    a trick (r26); ``no_last_trick`` are sm2019 revokers (RULES.md §7).  ``hand_award`` is
    the final hand scoring's award (player, points), needed only for a classic-style
    Chicago, where it is paid only if the Chicago stands."""

    rules: Ruleset
    order: tuple[str, ...]
    hands: Mapping[str, Sequence[Card]]
    leader: str
    trick: tuple[tuple[str, Card], ...] = ()
    trick_number: int = 1
    chicago: str | None = None
    out: frozenset[str] = frozenset()
    dead: frozenset[str] = frozenset()
    no_last_trick: frozenset[str] = frozenset()
    hand_award: tuple[str, int] | None = None

    def to_act(self) -> str:
        in_trick = [p for p, _ in self.trick]
        seq = trick_order(self.order, self.leader, in_trick, self.out)
        rest = [p for p in seq if p not in in_trick]
        return rest[0]


@dataclass(frozen=True)
class Move:
    """One legal card of the player to act and where best play goes after it."""

    card: Card
    value: int  # the player's own points
    values: dict[str, int]  # everyone's points
    outcome: str  # "last_trick", "chicago_stands", "chicago_broken"
    breaker: str | None  # who breaks the Chicago (r24)
    last_trick: str | None  # who takes the last trick


@dataclass(frozen=True)
class Verdict:
    """The solver's answer for a position: best play by everyone from here."""

    to_act: str
    values: dict[str, int]
    outcome: str  # "last_trick", "chicago_stands", "chicago_broken"
    chicago: str | None
    breaker: str | None  # who breaks the Chicago first (r24), if it breaks
    last_trick: tuple[str, Card] | None  # winner and card; None when a Chicago breaks (D8)
    line: tuple[tuple[str, Card], ...]  # the best-play line, card by card
    moves: tuple[Move, ...]  # every legal card of ``to_act``, in card order
    nodes: int = field(default=0, compare=False)

    @property
    def chicago_stands(self) -> bool | None:
        return None if self.chicago is None else self.outcome == "chicago_stands"

    def card_values(self) -> dict[Card, int]:
        return {m.card: m.value for m in self.moves}

    def to_dict(self) -> dict[str, Any]:
        def lt(x):
            return None if x is None else {"player": x[0], "card": x[1].code}

        return {
            "to_act": self.to_act,
            "values": dict(self.values),
            "outcome": self.outcome,
            "chicago": self.chicago,
            "chicago_stands": self.chicago_stands,
            "breaker": self.breaker,
            "last_trick": lt(self.last_trick),
            "line": [{"player": p, "card": c.code} for p, c in self.line],
            "moves": [
                {
                    "card": m.card.code,
                    "value": m.value,
                    "outcome": m.outcome,
                    "breaker": m.breaker,
                    "last_trick": m.last_trick,
                }
                for m in self.moves
            ],
        }


def position_from_deal(deal: Any, rules: Ruleset) -> Position:
    """The position of a deal in its trick play, from the state the engine exposes
    (``DealState``'s public fields).  Raises :class:`AnalysisError` outside trick play or
    with a revoke pending (r26: the revoker may still take the card back)."""
    if deal is None or deal.phase != DealPhase.TRICKS:
        raise AnalysisError("the deal is not in its trick play")
    if deal.pending_revoke:
        raise AnalysisError(f"a revoke by {deal.pending_revoke} is pending (r26); solve after it is settled")
    if deal.leader is None:
        raise AnalysisError("nobody leads: the trick play has no players")
    out = frozenset(deal.folded) | frozenset(deal.dead)
    award = None
    if deal.chicago and rules.chicago_style != "sm":
        award = final_hand_award(
            rules, {p: list(deal.hands[p]) + list(deal.played[p]) for p in deal.order if p not in deal.folded}
        )
    return Position(
        rules,
        tuple(deal.order),
        {p: tuple(deal.hands[p]) for p in deal.order},
        deal.leader,
        tuple(deal.trick),
        deal.trick_number,
        deal.chicago,
        out,
        frozenset(deal.dead),
        frozenset(deal.revoked),
        award,
    )


def chicago_position(deal: Any, rules: Ruleset, player: str) -> Position:
    """The trick play's first position if ``player`` says Chicago now (r23: she leads),
    from a deal at its Chicago question (or any moment after the last exchange)."""
    if (
        deal is None
        or deal.phase not in (DealPhase.CHICAGO, DealPhase.QUADS_CHOICE, DealPhase.TRICKS)
        or deal.trick_number > 1
        or deal.trick
    ):
        raise AnalysisError("no Chicago can be said now: the question comes after the last exchange")
    out = frozenset(deal.folded) | frozenset(deal.dead)
    if player not in deal.order or player in out:
        raise AnalysisError(f"{player} is not in play in this deal")
    award = None
    if rules.chicago_style != "sm":
        award = final_hand_award(rules, {p: deal.hands[p] for p in deal.order if p not in deal.folded})
    return Position(
        rules,
        tuple(deal.order),
        {p: tuple(deal.hands[p]) for p in deal.order},
        player,
        chicago=player,
        out=out,
        dead=frozenset(deal.dead),
        hand_award=award,
    )


def final_hand_award(rules: Ruleset, hands: Mapping[str, Sequence[Card]]) -> tuple[str, int] | None:
    """The final hand scoring's award (player, points) for a classic-style deal: the single
    best hand of a pair or better (D2: a tie scores nothing)."""
    full = {p: h for p, h in hands.items() if len(h) == 5}
    leaders, value = best_hands(full, rules.special_suit_order)
    if value is None or value.category == Category.HIGH_CARD:
        return None
    if len(leaders) > 1 and rules.tie_nobody_scores:
        return None
    return leaders[0], rules.points_for(value.category)


# --- validation --------------------------------------------------------------------------


def _check(pos: Position) -> None:
    order = list(pos.order)
    if len(set(order)) != len(order) or not 2 <= len(order) <= 4:
        raise AnalysisError(f"2-4 distinct players, got {order}")
    unknown = [p for p in pos.hands if p not in order]
    if unknown:
        raise AnalysisError(f"hands of players not in the deal: {unknown}")
    if pos.leader not in order:
        raise AnalysisError(f"the leader {pos.leader!r} is not in the deal")
    if not 1 <= pos.trick_number <= TRICKS:
        raise AnalysisError(f"trick number {pos.trick_number}: a deal has tricks 1-{TRICKS}")
    seen = 0  # the cards as bits (_INDEX), not a set of Cards: their hash is Python code
    for c in [c for h in pos.hands.values() for c in h] + [c for _, c in pos.trick]:
        bit = 1 << (_SUIT_BASE[c.suit] + c.rank)
        if seen & bit:
            raise AnalysisError(f"card seen twice: {c}")
        seen |= bit
    in_trick = [p for p, _ in pos.trick]
    if len(set(in_trick)) != len(in_trick) or any(p not in order for p in in_trick):
        raise AnalysisError("each player plays at most one card to a trick")
    if pos.trick and pos.trick[0][0] != pos.leader:
        raise AnalysisError(f"the trick was led by {pos.trick[0][0]}, not {pos.leader}")
    live = [p for p in order if p not in pos.out]
    if not live:
        raise AnalysisError("nobody plays on")
    left = TRICKS - pos.trick_number + 1
    for p in live:
        want = left - (1 if p in in_trick else 0)
        have = len(pos.hands.get(p, ()))
        if have != want:
            raise AnalysisError(f"{p} holds {have} cards at trick {pos.trick_number}; {want} expected")
    seq = trick_order(order, pos.leader, in_trick, pos.out)
    if len(in_trick) >= len(seq):
        raise AnalysisError("the trick is complete: nobody is to act in it")
    if pos.trick:  # follow suit (r25): a legal-play position has no revoke in the trick
        led = pos.trick[0][1].suit
        for p, c in pos.trick[1:]:
            if c.suit != led and any(x.suit == led for x in pos.hands.get(p, ())) and p not in pos.dead:
                raise AnalysisError(f"{p} played {c} while holding {led}: a revoke (r26) is not solved")
    if pos.chicago is not None:
        if pos.chicago not in live:
            raise AnalysisError(f"the Chicago player {pos.chicago} is not in play")
        if pos.leader != pos.chicago:  # r23: leads the first trick, wins (and leads) the rest
            raise AnalysisError(f"with Chicago unbroken {pos.chicago} leads every trick (r23)")
        for p, c in pos.trick[1:]:  # a dead hand's card wins nothing, so breaks nothing (r26)
            mine = pos.trick[0][1]
            if c.suit == mine.suit and c.rank > mine.rank and p not in pos.dead:
                raise AnalysisError(f"the Chicago was already broken by {p} (r24, D8)")


# --- the search --------------------------------------------------------------------------

_NO_TWOS = tuple(m & ~_TWOS for m in _SUIT_MASK)


def _relative(hands: tuple[int, ...], alive: int) -> int:
    """The hands, ranks made relative to the cards still held (a 2 stays a 2: it counts 10
    in the last trick), packed in one int with 52 bits a hand: positions that differ only in
    which cards are gone play alike, and share one memo entry."""
    key = 0
    shift = 0
    for h in hands:
        x = 0
        while h:
            low = h & -h
            h ^= low
            b = low.bit_length() - 1
            s = b // 13
            if b == 13 * s:
                x |= low
            else:  # one above the 2's place, plus the alive non-2 cards below it in its suit
                x |= 1 << (13 * s + 1 + (alive & _NO_TWOS[s] & (low - 1)).bit_count())
        key |= x << shift
        shift += 52
    return key


# n, chic, keys, o_last, o_stands, o_broken, static_bound, dead, nolast, rot (``_kernel.search``)
_KernelTables = tuple[
    int,
    int,
    list[int],
    list[int],
    int,
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[Sequence[int]],
]


class _Tables:
    """What a search needs besides the hands: who plays on, and the outcomes (ids into
    parallel tables of points per player, kind, and the key each player maximises).  The
    same for every position of a deal's kind: built once (``_tables``)."""

    def __init__(
        self,
        n: int,
        chic: int,
        live: tuple[bool, ...],
        dead: tuple[bool, ...],
        nolast: tuple[bool, ...],
        points: tuple[int, int, int, int, int, str | None],
        award: tuple[int, int] | None,
    ):
        last_trick, last_trick_two, chicago_won, chicago_lost, chicago_breaker, style = points
        self.live, self.dead, self.nolast = list(live), list(dead), list(nolast)
        self.rot = [tuple(j for j in ((i + k) % n for k in range(n)) if live[j]) for i in range(n)]
        self.vec: list[tuple[int, ...]] = []
        self.kind: list[tuple[str, int]] = []
        zero = [0] * n
        self.o_last: list[list[int]] = []
        for w in range(n):
            pair = []
            for two in (False, True):
                v = list(zero)
                v[w] = last_trick_two if two else last_trick
                pair.append(self._add(v, ("last_trick", w)))
            self.o_last.append(pair)
        self.o_stands = -1
        self.o_broken: list[int] = []
        self.static_bound: list[int] = []
        if chic >= 0:
            v = list(zero)
            v[chic] += chicago_won
            if award is not None:  # classic style: the final hand scoring, paid if it stands
                v[award[0]] += award[1]
            self.o_stands = self._add(v, ("chicago_stands", chic))
            for b in range(n):
                v = list(zero)
                v[chic] += chicago_lost
                if style == "sm" and b != chic:
                    v[b] += chicago_breaker
                self.o_broken.append(self._add(v, ("chicago_broken", b)))
        self.key = [[vec[p] * _KEY_SPAN + _KEY_OFFSET - (sum(vec) - vec[p]) for p in range(n)] for vec in self.vec]
        if chic >= 0:
            ids = [self.o_stands] + [self.o_broken[b] for b in range(n) if b != chic]
            self.static_bound = [max(self.key[o][p] for o in ids) for p in range(n)]
        # the C kernel's first arguments (_kernel.search)
        self.kernel: _KernelTables = (
            n,
            chic,
            [k for row in self.key for k in row],
            [o for pair in self.o_last for o in pair],
            self.o_stands,
            self.o_broken,
            self.static_bound,
            self.dead,
            self.nolast,
            self.rot,
        )

    def _add(self, v: list[int], kind: tuple[str, int]) -> int:
        self.vec.append(tuple(v))
        self.kind.append(kind)
        return len(self.vec) - 1


_tables = lru_cache(maxsize=256)(_Tables)  # a deal's kind: the same tables for all its positions


class _Search:
    def __init__(self, pos: Position):
        self.pos = pos
        r = pos.rules
        self.names = list(pos.order)
        n = len(self.names)
        ix = {p: i for i, p in enumerate(self.names)}
        self.n = n
        self.chic = ix[pos.chicago] if pos.chicago is not None else -1
        award = None
        if self.chic >= 0 and r.chicago_style != "sm" and pos.hand_award and pos.hand_award[0] in ix:
            award = (ix[pos.hand_award[0]], pos.hand_award[1])
        t = _tables(
            n,
            self.chic,
            tuple(p not in pos.out for p in self.names),
            tuple(p in pos.dead for p in self.names),
            tuple(p in pos.no_last_trick for p in self.names),
            (r.last_trick, r.last_trick_two, r.chicago_won, r.chicago_lost, r.chicago_breaker, r.chicago_style),
            award,
        )
        self.live, self.dead, self.nolast, self.rot = t.live, t.dead, t.nolast, t.rot
        self.vec, self.kind, self.key, self.o_last = t.vec, t.kind, t.key, t.o_last
        self.o_stands, self.o_broken, self.static_bound = t.o_stands, t.o_broken, t.static_bound
        self.kernel_tables = t.kernel
        self.memo: dict[int, int] = {}
        self.caps: dict[tuple[int, int, int], int] = {}
        self.raw: dict[tuple[tuple[int, ...], int], int] = {}  # before the relative ranks
        self.nodes = 0

    def cap(self, p: int, q: int, best_p: int) -> int:
        """The best key q can get from a node where p already has ``best_p``: p will pick
        an outcome at least that good for p (shallow max^n pruning)."""
        k = (p, q, best_p)
        v = self.caps.get(k)
        if v is None:
            keys = self.key
            v = max((keys[o][q] for o in range(len(keys)) if keys[o][p] >= best_p), default=-(1 << 60))
            self.caps[k] = v
        return v

    def trick_start(self, hands: tuple[int, ...], leader: int, trick_no: int) -> int:
        if trick_no == TRICKS:  # one card each: no choice is left
            rot = self.rot[leader]
            first = rot[0]  # the leader (a trick's winner is always still in play)
            lead = hands[first].bit_length() - 1
            led = lead // 13
            if self.chic >= 0:  # she leads: the first to beat her card breaks it (r24)
                for p in rot:
                    c = hands[p].bit_length() - 1
                    if c // 13 == led and c > lead:
                        return self.o_broken[p]
                return self.o_stands
            nolast = self.nolast
            win, wc = -1, -1
            for p in rot:  # r27; a sm2019 revoker cannot take it
                c = hands[p].bit_length() - 1
                if c // 13 == led and c > wc and not nolast[p]:
                    win, wc = p, c
            if win < 0:
                win, wc = first, lead
            return self.o_last[win][1 if wc % 13 == 0 else 0]
        raw = (hands, leader)
        hit = self.raw.get(raw)
        if hit is not None:
            return hit
        alive = 0
        for h in hands:
            alive |= h
        k = _relative(hands, alive) << 2 | leader
        hit = self.memo.get(k)
        if hit is None:
            hit = self.memo[k] = self.play(hands, (), self.rot[leader], trick_no, alive, -1, 0)
        self.raw[raw] = hit
        return hit

    def moves(self, hands, trick, p, alive):
        """The legal cards of p worth looking at, lowest first: one of each run of touching
        cards of a suit in p's hand (a 2 stays itself: it counts 10 in the last trick)."""
        hand = hands[p]
        legal = (hand & _SUIT_MASK[trick[0][1] // 13] or hand) if trick else hand
        out = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if c % 13:
                below = alive & _SUIT_MASK[c // 13] & (low - 1)
                if below:
                    top = below.bit_length() - 1
                    if (legal >> top) & 1 and top % 13:
                        continue
            out.append(c)
        return out

    def child(self, hands, trick, to_play, trick_no, alive, c, q, best_q) -> int:
        """The outcome after the player to act plays card c."""
        p = to_play[0]
        if self.chic >= 0 and p != self.chic and trick and trick[0][0] == self.chic:
            cc = trick[0][1]
            if c // 13 == cc // 13 and c > cc:
                return self.o_broken[p]  # r24, D8: broken, the trick play ends at this card
        h2 = hands[:p] + (hands[p] ^ (1 << c),) + hands[p + 1 :]
        return self.play(h2, trick + ((p, c),), to_play[1:], trick_no, alive, q, best_q)

    def play(self, hands, trick, to_play, trick_no, alive, q, best_q) -> int:
        """The outcome of best play from here; -1 when the player q who chose this node
        (earlier in the same trick) will not take it whatever happens here.  (The hot
        loop: ``moves`` and ``child`` written out.)"""
        self.nodes += 1
        if not to_play:
            return self.close(hands, trick, trick_no)
        p = to_play[0]
        rest = to_play[1:]
        hand = hands[p]
        chic = self.chic
        if chic >= 0:
            bound = self.static_bound[p]
        elif self.nolast[p]:
            bound = 1 << 40
        else:
            bound = self.key[self.o_last[p][1 if hand & _TWOS else 0]][p]
        if trick:
            legal = hand & _SUIT_MASK[trick[0][1] // 13] or hand
            cc = trick[0][1] if chic >= 0 and p != chic and trick[0][0] == chic else -1
        else:
            legal = hand
            cc = -1
        keys = self.key
        best = -1
        best_key = -(1 << 60)
        head, tail = hands[:p], hands[p + 1 :]
        closing = not rest and trick
        if closing:  # the trick's best card so far, to settle it card by card below
            last = trick_no >= TRICKS
            led = trick[0][1] // 13
            dead, nolast = self.dead, self.nolast
            tw, twc = -1, -1
            for x, xc in trick:
                if xc // 13 == led and xc > twc and not dead[x] and not (last and nolast[x]):
                    tw, twc = x, xc
            mine = not dead[p] and not (last and nolast[p])
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if c % 13:  # touching cards of one suit in one hand are one card (not a 2)
                below = alive & _SUIT_MASK[c // 13] & (low - 1)
                if below:
                    top = below.bit_length() - 1
                    if (legal >> top) & 1 and top % 13:
                        continue
            if cc >= 0 and c // 13 == cc // 13 and c > cc:
                o = self.o_broken[p]  # r24, D8: broken, the trick play ends at this card
            elif rest:
                o = self.play(head + (hand ^ low,) + tail, trick + ((p, c),), rest, trick_no, alive, p, best_key)
                if o < 0:
                    continue
            elif closing:  # the trick's last card: who takes it (r25, r26)
                if mine and c // 13 == led and c > twc:
                    w, wc = p, c
                elif tw >= 0:
                    w, wc = tw, twc
                else:
                    w, wc = trick[0]
                if not last:
                    o = self.trick_start(head + (hand ^ low,) + tail, w, trick_no + 1)
                elif chic >= 0:
                    o = self.o_stands  # not broken by the last card: she won every trick (r23)
                else:
                    o = self.o_last[w][1 if wc % 13 == 0 else 0]  # r27
            else:  # a trick of one: everyone else is out
                o = self.close(head + (hand ^ low,) + tail, trick + ((p, c),), trick_no)
            kk = keys[o][p]
            if kk > best_key:
                best_key, best = kk, o
                if kk >= bound:
                    break
                if q >= 0 and self.cap(p, q, kk) <= best_q:
                    return -1  # q has as good already (from a lower card, which wins ties): not needed
        return best

    def close(self, hands, trick, trick_no) -> int:
        if trick_no >= TRICKS:
            if self.chic >= 0:
                return self.o_stands  # not broken by the last card: C won every trick (r23)
            win, wc = self.winner(trick, True)
            return self.o_last[win][1 if wc % 13 == 0 else 0]
        win, _ = self.winner(trick, False)
        return self.trick_start(hands, win, trick_no + 1)

    def winner(self, trick, last: bool) -> tuple[int, int]:
        """The highest card of the led suit (r25), not a dead hand's (r26), nor on the last
        trick a sm2019 revoker's; none such: the leader's card, as in the engine."""
        led = trick[0][1] // 13
        win, wc = -1, -1
        for p, c in trick:
            if c // 13 != led or self.dead[p] or (last and self.nolast[p]):
                continue
            if c > wc:
                win, wc = p, c
        return (win, wc) if win >= 0 else trick[0]

    def line(self, hands, trick, to_play, trick_no, alive, first: int | None = None) -> list[tuple[int, int]]:
        """The best-play line from a node: at every turn the first card (in card order)
        with the best key, as the search chooses; ``first`` fixes the first card."""
        out: list[tuple[int, int]] = []
        while True:
            if not to_play:
                if trick_no >= TRICKS:
                    return out
                win, _ = self.winner(trick, False)
                trick_no += 1
                alive = 0
                for h in hands:
                    alive |= h
                trick, to_play = (), self.rot[win]
                continue
            p = to_play[0]
            if first is not None:
                c, first = first, None
            else:
                best_key, c = -(1 << 60), -1
                for x in self.moves(hands, trick, p, alive):
                    kk = self.key[self.child(hands, trick, to_play, trick_no, alive, x, -1, 0)][p]
                    if kk > best_key:
                        best_key, c = kk, x
            out.append((p, c))
            if self.chic >= 0 and p != self.chic and trick and trick[0][0] == self.chic:
                cc = trick[0][1]
                if c // 13 == cc // 13 and c > cc:
                    return out
            hands = hands[:p] + (hands[p] ^ (1 << c),) + hands[p + 1 :]
            trick, to_play = trick + ((p, c),), to_play[1:]


def solve(pos: Position, *, kernel: str | None = None) -> Verdict:
    """Solve a position: best play by everyone from here (see the module docstring).

    ``kernel`` picks the search: ``"c"`` (the C extension ``_kernel``), ``"python"`` (the
    search above), or None: ``KERNEL``, the C one when it is built.  Both give the same
    verdict, node count included."""
    _check(pos)
    use = KERNEL if kernel is None else kernel
    if use not in ("c", "python"):
        raise ValueError(f"kernel {kernel!r}: 'c' or 'python'")
    if use == "c" and _ckernel is None:
        raise RuntimeError("the solver's C kernel is not built (pip install -e . builds it)")
    s = _Search(pos)
    names = s.names
    ix = {p: i for i, p in enumerate(names)}
    base = _SUIT_BASE
    hands = tuple(sum(1 << (base[c.suit] + c.rank) for c in pos.hands.get(p, ())) for p in names)
    trick = tuple((ix[p], base[c.suit] + c.rank) for p, c in pos.trick)
    in_trick = [p for p, _ in pos.trick]
    seq = trick_order(pos.order, pos.leader, in_trick, pos.out)
    to_play = tuple(ix[p] for p in seq if p not in in_trick)
    me = to_play[0]
    alive = 0
    for h in hands:
        alive |= h
    for _, c in trick:
        alive |= 1 << c
    if use == "c":
        children, line, s.nodes = _ckernel.search(*s.kernel_tables, hands, trick, to_play, pos.trick_number, alive)
        rep_oid = dict(children)
    else:
        rep_oid = {
            c: s.child(hands, trick, to_play, pos.trick_number, alive, c, -1, 0)
            for c in s.moves(hands, trick, me, alive)
        }
    hand = hands[me]
    legal = (hand & _SUIT_MASK[trick[0][1] // 13] or hand) if trick else hand
    moves = []
    best_key, best, best_oid = -(1 << 60), -1, -1
    oid = -1
    for c in range(52):  # every legal card, touching ones too: each gets its value
        if not (legal >> c) & 1:
            continue
        # a card touching a lower one of hers plays alike (the same outcome)
        oid = rep_oid.get(c, oid)
        kind, who = s.kind[oid]
        values = {names[i]: v for i, v in enumerate(s.vec[oid])}
        moves.append(
            Move(
                FULL_DECK[c],
                values[names[me]],
                values,
                kind,
                names[who] if kind == "chicago_broken" else None,
                names[who] if kind != "chicago_broken" else None,
            )
        )
        if s.key[oid][me] > best_key:
            best_key, best, best_oid = s.key[oid][me], c, oid
    if use == "python":
        line = s.line(hands, trick, to_play, pos.trick_number, alive, first=best)
    m = _move(s, best_oid, line, pos)
    return Verdict(names[me], m.values, m.outcome, pos.chicago, m.breaker, m.last_trick, m.line, tuple(moves), s.nodes)


def _move(s: _Search, oid: int, line: Sequence[tuple[int, int]], pos: Position) -> _Line:
    names = s.names
    kind, who = s.kind[oid]
    cards = tuple((names[p], FULL_DECK[c]) for p, c in line)
    values = {names[i]: v for i, v in enumerate(s.vec[oid])}
    breaker = names[who] if kind == "chicago_broken" else None
    last = None
    if kind in ("last_trick", "chicago_stands"):
        last = _last_trick_card(pos, cards, names[who])
    return _Line(values, kind, breaker, last, cards)


@dataclass(frozen=True)
class _Line:
    values: dict[str, int]
    outcome: str
    breaker: str | None
    last_trick: tuple[str, Card] | None
    line: tuple[tuple[str, Card], ...]


def _last_trick_card(pos: Position, line, winner: str) -> tuple[str, Card]:
    """The winner's card in the last trick: the last card the winner plays in the line
    (the line ends with the last trick), or their card already in the trick at trick 5."""
    for p, c in reversed(line):
        if p == winner:
            return winner, c
    return winner, next(c for p, c in pos.trick if p == winner)


def sm_chicago_stands(mine: int, others: tuple[int, ...]) -> bool:
    """Does an SM-style Chicago stand with best play, from a trick start, hands as card
    bitmasks (``FULL_DECK`` order)?  Every opponent would rather see it broken (r24: +10 to
    the breaker; to the others the Chicago player's -15), so max^n comes down to a two-sided
    game: she must lead, every trick, a card nobody can beat (an opponent holding a higher
    card of the suit beats it, r24), whatever cards the opponents keep.  Much cheaper than
    ``solve`` when only the yes/no is wanted (the odds)."""
    memo: dict[tuple[int, tuple[int, ...]], bool] = {}

    def bits(m: int) -> list[int]:
        out = []
        while m:
            low = m & -m
            m ^= low
            out.append(low)
        return out

    def lead(c: int, opps: tuple[int, ...]) -> bool:
        if not c:
            return True
        k = (c, opps)
        hit = memo.get(k)
        if hit is not None:
            return hit
        res = False
        for low in bits(c):
            suit = _SUIT_MASK[(low.bit_length() - 1) // 13]
            above = suit & ~((low << 1) - 1)
            if any(o & above for o in opps):
                continue  # r24: someone beats this card
            answers = [bits(o & suit or o) for o in opps]  # follow suit, or discard anything
            if all(lead(c ^ low, tuple(o ^ a for o, a in zip(opps, combo))) for combo in product(*answers)):
                res = True
                break
        memo[k] = res
        return res

    return lead(mine, tuple(others))
