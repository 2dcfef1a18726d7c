"""A brute-force oracle for the solver: every line of play, no memo, no pruning, no card
grouping, plain Card objects.  It implements RULES.md §6-7 from the text, independently of
the solver's bit tricks, and the same preference the solver documents: own points first,
then the lower sum of the others' points, then the lowest card (♠ ♥ ♦ ♣, 2 to ace)."""

from __future__ import annotations

from table_controller.analysis.solver import Position
from table_controller.rules.cards import FULL_DECK, Card

ORDER = {c: i for i, c in enumerate(FULL_DECK)}


def rotation(pos: Position, leader: str, in_trick: list[str]) -> list[str]:
    order = list(pos.order)
    i = order.index(leader)
    rot = [order[(i + k) % len(order)] for k in range(len(order))]
    return [p for p in rot if p in in_trick or p not in pos.out]


def outcome(pos: Position, kind: str, who: str | None = None, two: bool = False) -> dict[str, int]:
    r = pos.rules
    v = {p: 0 for p in pos.order}
    if kind == "last":  # r27
        v[who] += r.last_trick_two if two else r.last_trick
    elif kind == "stands":  # r23
        v[pos.chicago] += r.chicago_won
        if r.chicago_style != "sm" and pos.hand_award:
            v[pos.hand_award[0]] += pos.hand_award[1]
    else:  # r24: broken by `who`
        v[pos.chicago] += r.chicago_lost
        if r.chicago_style == "sm":
            v[who] += r.chicago_breaker
    return v


def key(v: dict[str, int], p: str) -> tuple[int, int]:
    return v[p], -(sum(v.values()) - v[p])


def legal(hand: list[Card], trick: list[tuple[str, Card]]) -> list[Card]:
    if trick:
        follow = [c for c in hand if c.suit == trick[0][1].suit]
        if follow:
            return sorted(follow, key=ORDER.get)
    return sorted(hand, key=ORDER.get)


def breaks(pos: Position, trick, p: str, c: Card) -> bool:
    """r24: the first card that beats the Chicago player's card of the led suit."""
    if not pos.chicago or p == pos.chicago:
        return False
    mine = next((x for q, x in trick if q == pos.chicago), None)
    led = trick[0][1].suit if trick else None
    return mine is not None and mine.suit == led and c.suit == led and c.rank > mine.rank


def value(pos: Position, hands, trick, leader: str, number: int) -> dict[str, int]:
    in_trick = [p for p, _ in trick]
    rest = [p for p in rotation(pos, leader, in_trick) if p not in in_trick]
    if not rest:
        led = trick[0][1].suit
        last = number == 5
        eligible = [
            (p, c) for p, c in trick if c.suit == led and p not in pos.dead and not (last and p in pos.no_last_trick)
        ]
        win, card = max(eligible, key=lambda pc: pc[1].rank) if eligible else trick[0]
        if last:
            return outcome(pos, "stands") if pos.chicago else outcome(pos, "last", win, card.rank == 2)
        return value(pos, hands, [], win, number + 1)
    return best_move(pos, hands, trick, leader, number)[1]


def card_values(pos: Position, hands, trick, leader: str, number: int) -> dict[Card, dict[str, int]]:
    in_trick = [p for p, _ in trick]
    p = next(q for q in rotation(pos, leader, in_trick) if q not in in_trick)
    out = {}
    for c in legal(hands[p], trick):
        if breaks(pos, trick, p, c):
            out[c] = outcome(pos, "broken", p)
            continue
        h2 = dict(hands)
        h2[p] = [x for x in hands[p] if x != c]
        out[c] = value(pos, h2, trick + [(p, c)], leader, number)
    return out


def best_move(pos: Position, hands, trick, leader: str, number: int) -> tuple[Card, dict[str, int]]:
    in_trick = [p for p, _ in trick]
    p = next(q for q in rotation(pos, leader, in_trick) if q not in in_trick)
    best = None
    for c, v in card_values(pos, hands, trick, leader, number).items():
        if best is None or key(v, p) > key(best[1], p):
            best = (c, v)
    return best


def solve_brute(pos: Position) -> tuple[dict[str, int], dict[Card, dict[str, int]]]:
    hands = {p: list(pos.hands.get(p, ())) for p in pos.order}
    cv = card_values(pos, hands, list(pos.trick), pos.leader, pos.trick_number)
    in_trick = [p for p, _ in pos.trick]
    p = next(q for q in rotation(pos, pos.leader, in_trick) if q not in in_trick)
    best = None
    for v in cv.values():
        if best is None or key(v, p) > key(best, p):
            best = v
    return best, cv
