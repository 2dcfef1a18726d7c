"""Questions asked of the table state, never changing it: the phase, whose turn it is, who
is at draw stop, the trick in play, and what may be done now.

Plain functions of the state (``Engine`` offers them as its public query API), used by the
engine's own checks as well, so the rules and what the table is told agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from table_controller.rules.cards import Card
from table_controller.rules.hands import Category, best_hands
from table_controller.rules.phases import DealPhase, Phase
from table_controller.rules.state import DealState, TableState, trick_taken, trick_winner


def phase(s: TableState) -> Phase:
    """One of REPLAY.md's phases."""
    if s.rules is None or not s.games:
        return Phase.GAME_START
    if s.finished:
        return Phase.TABLE_OVER
    g = s.games[-1]
    if g.finished:
        return Phase.GAME_OVER
    d = g.deal
    if d is None:
        return Phase.DEAL
    if d.phase is DealPhase.EXCHANGE:
        return Phase.exchange(d.exchange)
    return Phase(d.phase.value)


def at_draw_stop(s: TableState, d: DealState, player: str) -> bool:
    """Köpstopp: at the ruleset's limit now (sm), or from the deal's start (classic)."""
    rules = s.rules
    assert rules is not None and s.games
    if rules.draw_stop_from_next_deal:
        return player in d.draw_stop
    return s.games[-1].players[player].score >= rules.draw_stop


def all_placed(s: TableState, d: DealState) -> bool:
    """Every live hand has placed for this exchange (or places nothing: draw stop)."""
    return all(p in d.placed or at_draw_stop(s, d, p) for p in d.in_play())


def still_placing(s: TableState, d: DealState) -> list[str]:
    """Who the exchange waits for to place, in turn order (r13)."""
    return [p for p in d.in_play() if p not in d.placed and not at_draw_stop(s, d, p)]


# --- trick play ----------------------------------------------------------------------


def trick_order(d: DealState) -> list[str]:
    """Who plays to the current trick, in order from its leader."""
    order = d.order
    assert d.leader is not None
    i = order.index(d.leader)
    rotation = [order[(i + k) % len(order)] for k in range(len(order))]
    in_trick = {p for p, _ in d.trick}
    return [p for p in rotation if p in in_trick or (p not in d.folded and p not in d.dead)]


def trick_complete(d: DealState) -> bool:
    """Everyone who plays to the trick has played to it."""
    return bool(d.trick) and len(d.trick) == len(trick_order(d))


def closed_trick(d: DealState) -> tuple[int, str, tuple[tuple[str, Card], ...]] | None:
    """The trick the table shows taken in a deal while no card of the next lies: its number,
    who takes it and its cards (all face up).  A trick held open by a log of stop 63
    (TrickHeld) is shown closed, as a legal last card closes it (whether a player could
    follow suit is hidden).  A deal that has ended keeps its own (``DealRecord.last_trick``)."""
    if d.trick and trick_complete(d) and d.pending_revoke:
        return d.trick_number, trick_winner(d)[0], tuple(d.trick)
    return trick_taken(d)


def last_card(d: DealState) -> tuple[str, Card] | None:
    """The trick play's last card and who played it: in the open trick, or the last card of
    the trick just closed when the next has none yet (a revoke on a trick's last card closes it
    as any card does, and may be taken back until the next card, r26)."""
    if d.trick:
        return d.trick[-1]
    return d.closed[-1] if d.closed else None


def retractable(d: DealState) -> tuple[str, Card] | None:
    """The revoke that may still be taken back (r26): its player and card."""
    last = last_card(d)
    return last if d.pending_revoke and last is not None and last[0] == d.pending_revoke else None


def step7_open(s: TableState, d: DealState) -> bool:
    """Step 7 (r28, D4): after the last exchange, before the first answer to the Chicago
    question or the first card, a four of a kind that zeroes may be announced.  Public: every
    deal has this moment, whatever the hands."""
    r = s.rules
    return (
        r is not None
        and r.quads_zero_choice
        and d.exchange >= r.exchanges
        and d.phase in (DealPhase.CHICAGO, DealPhase.TRICKS)
        and not d.chicago_answers
        and not any(d.played.values())
    )


def quads_to_announce(s: TableState, d: DealState) -> str | None:
    """Who may announce a four of a kind that zeroes now (``step7_open``): the owner of the
    single best hand, a four of a kind with no choice made.  Nobody is asked."""
    r = s.rules
    if r is None or not step7_open(s, d):
        return None
    hands = {p: d.hands[p] for p in d.in_play() if len(d.hands[p]) == 5}
    leaders, value = best_hands(hands, r.special_suit_order)
    if value is None or value.category != Category.FOUR_OF_A_KIND or len(leaders) != 1:
        return None
    return None if leaders[0] in d.quads_choice else leaders[0]


def next_to_play(d: DealState) -> str | None:
    """Who plays the next card, if trick play is on."""
    if d.phase is not DealPhase.TRICKS:
        return None
    if trick_complete(d):  # a revoke pending on the trick's last card
        return trick_winner(d)[0]
    order = trick_order(d)
    return order[len(d.trick)] if len(d.trick) < len(order) else None


def playable(d: DealState, player: str) -> tuple[Card, ...]:
    """The cards ``player`` may play now without revoking, sorted: the led suit when they
    hold it (r25), else any card; any card when they lead.  (The engine takes any card of
    the hand, a card off the led suit as a revoke, r26.)"""
    hand = d.hands[player]
    if d.trick and not trick_complete(d):
        led = d.trick[0][1].suit
        follow = [c for c in hand if c.suit == led]
        return tuple(sorted(follow or hand))
    return tuple(sorted(hand))


# --- whose turn, and what may be done --------------------------------------------------


def to_act(s: TableState) -> list[str]:
    """Whose action the table waits for, in turn order (empty: the dealer's)."""
    d = s.deal
    if d is None:
        return []
    if d.phase is DealPhase.EXCHANGE:
        waiting = still_placing(s, d)
        if waiting:
            return waiting
        return [p for p in d.in_play() if p in d.awaiting]
    if d.phase in (DealPhase.QUADS_CHOICE, DealPhase.CHICAGO):
        return d.asking[:1]
    if d.phase is DealPhase.TRICKS:
        nxt = next_to_play(d)
        return [nxt] if nxt else []
    return []


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What may be done now, besides the TL's actions (penalty, adjust) and the clocks.

    ``actions`` names the actions the rules take now (their ``do`` words, REPLAY.md);
    the fields say for whom and with what."""

    phase: Phase
    to_act: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    # exchange (r12, r13): who still places, and how many cards at most (0: at draw stop,
    # places nothing, D5; sm2019 and shootout zero the score of one who places anyway)
    places: dict[str, int] = field(default_factory=dict)
    # exchange, once all have placed: replacement cards the dealer still owes each player
    owed: dict[str, int] = field(default_factory=dict)
    open_card: tuple[str, ...] = ()  # owed one card, which is dealt open (r15)
    # trick play: the cards the player to play may play without revoking (r25)
    plays: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    retract: str | None = None  # may take back a revoke before the next card (r26)
    chicago: str | None = None  # asked the Chicago question now (r22)
    may_say_chicago: bool = False  # ... and has the points to say yes (r20)
    quads: str | None = None  # chooses points or zero for a four of a kind


def legal_actions(s: TableState) -> LegalActions:
    """What the player or dealer to act may do now (see :class:`LegalActions`)."""
    ph = phase(s)
    if s.rules is None:
        return LegalActions(ph, actions=("table",))
    if ph is Phase.TABLE_OVER:
        return LegalActions(ph)
    if ph in (Phase.GAME_START, Phase.GAME_OVER):
        return LegalActions(ph, actions=("game",))
    if ph is Phase.DEAL:
        return LegalActions(ph, actions=("deal",))
    rules = s.rules
    g = s.games[-1]
    d = g.deal
    assert d is not None
    waiting = tuple(to_act(s))
    if d.phase is DealPhase.EXCHANGE:
        if not all_placed(s, d):
            places = {
                p: 0 if at_draw_stop(s, d, p) else rules.max_exchange_cards for p in d.in_play() if p not in d.placed
            }
            return LegalActions(ph, waiting, ("discard",), places=places)
        owed = {p: d.awaiting[p] for p in waiting}
        open_card = tuple(
            p for p in waiting if len(d.placed.get(p, ())) == 1 and owed[p] == 1 and p not in d.open_declined
        )
        return LegalActions(
            ph, waiting, ("open", "receive") if open_card else ("receive",), owed=owed, open_card=open_card
        )
    if d.phase is DealPhase.QUADS_CHOICE:
        return LegalActions(ph, waiting, ("quads",), quads=d.asking[0] if d.asking else None)
    if d.phase is DealPhase.CHICAGO:
        asked = d.asking[0] if d.asking else None
        may = asked is not None and g.players[asked].score >= rules.chicago_min_score
        return LegalActions(ph, waiting, ("chicago",), chicago=asked, may_say_chicago=may)
    plays = {p: playable(d, p) for p in waiting if p not in d.dead}
    back = retractable(d)
    retract = back[0] if back else None
    actions = ("play", "retract") if retract else ("play",)
    return LegalActions(ph, waiting, actions, plays=plays, retract=retract)
