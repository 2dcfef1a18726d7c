"""The Chicago question round and trick play (RULES.md §6, §7).

Functions of the :class:`~table_controller.rules.ledger.Ledger` the engine judges on; the
questions about the trick in play (whose turn, complete, who wins) are in ``queries``.
"""

from __future__ import annotations

from table_controller.rules import actions as act
from table_controller.rules import events as ev
from table_controller.rules.cards import Card
from table_controller.rules.errors import IllegalAction
from table_controller.rules.ledger import Ledger
from table_controller.rules.phases import DealPhase, Moment
from table_controller.rules.queries import (
    at_draw_stop,
    last_card,
    next_to_play,
    phase,
    trick_complete,
)
from table_controller.rules.scoring import (
    award,
    deduct,
    end_deal,
    final_scoring,
    release_held,
)
from table_controller.rules.state import TRICKS, DealState, trick_winner

# --- the Chicago question (r22, D3) ----------------------------------------------------


def start_chicago_round(t: Ledger, d: DealState) -> None:
    g = t.game
    if g.playoff:  # r11: no Chicago in a särspel
        start_tricks(t, d)
        return
    asked = tuple(p for p in d.in_play() if p not in d.dead and g.players[p].score >= t.rules.chicago_min_score)
    for p in asked:  # D13: who could say Chicago has held deductions applied first
        release_held(t, p, Moment.exchange(d.exchange))
    asked = tuple(p for p in asked if g.players[p].score >= t.rules.chicago_min_score)
    if not asked:
        start_tricks(t, d)
        return
    t.emit(ev.PhaseEntered(DealPhase.CHICAGO, players=asked))


def chicago(t: Ledger, a: act.ChicagoAnswer) -> None:
    d = t.deal_in_progress()
    g = t.game
    score = g.players[a.player].score if a.player in g.players else 0
    if a.say and a.player in g.players and score < t.rules.chicago_min_score:
        raise IllegalAction(f"{a.player} has {score} points; Chicago needs at least {t.rules.chicago_min_score} (r20)")
    if d.phase is not DealPhase.CHICAGO:
        raise IllegalAction(f"no Chicago question now: the deal is at {phase(t.state)}")
    if d.asking[:1] != [a.player]:
        raise IllegalAction(f"the Revisor asks in turn (r22): {d.asking[0]} answers next, not {a.player}")
    answer_chicago(t, d, a.player, a.say)


def answer_chicago(t: Ledger, d: DealState, player: str, say: bool) -> None:
    t.emit(ev.ChicagoAnswered(player, say))
    if say or not d.asking:  # D3: the first yes stops the questioning
        start_tricks(t, d)


def start_tricks(t: Ledger, d: DealState) -> None:
    if d.chicago:
        leader: str | None = d.chicago  # r23: the Chicago player leads
    else:
        live = [p for p in d.in_play() if p not in d.dead]
        leader = live[0] if live else None  # r25: left of the button
    if leader is None:
        end_deal(t, d, "played")
        return
    t.emit(ev.PhaseEntered(DealPhase.TRICKS, players=(leader,)))


# --- trick play --------------------------------------------------------------------------


def play(t: Ledger, a: act.Play) -> None:
    g = t.state.game
    if (
        g is not None
        and not g.finished
        and g.deal is None
        and g.deals
        and any(
            x.reason in ("chicago_broken", "chicago_lost") and x.moment == Moment.TRICKS for x in g.deals[-1].awards
        )
    ):
        raise IllegalAction(
            f"the trick play of deal {g.deals[-1].number} ended when the Chicago was broken "
            "(D8): no more cards are played; the next action is 'deal'"
        )
    d = t.deal_in_progress()
    if d.phase is not DealPhase.TRICKS:
        raise IllegalAction(f"no trick play now: the deal is at {phase(t.state)}")
    t.check_in_play(d, a.player)
    if a.player in d.dead:
        raise IllegalAction(f"{a.player}'s hand is dead (r26) and plays no further cards")
    nxt = next_to_play(d)
    if a.player != nxt:
        raise IllegalAction(f"out of turn: {nxt} plays next, not {a.player} (r25)")
    hand = d.hands[a.player]
    if a.card not in hand:
        raise IllegalAction("{card} is not in {player}'s hand", card=a.card, player=a.player)
    if d.pending_revoke:  # the revoke was not corrected before this card (r26)
        if t.rules.revoke == "dead_hand":  # the hand dies, as everyone sees
            t.emit(ev.RevokeStood(d.pending_revoke, dead=True))
        # else this card settles it (state._card_played): an event of its own would be a step
        # of the count every view carries, where a legal card has none (stop 64's audit)
        if trick_complete(d) and close_trick(t, d):  # a trick held open by a log before stop 64
            return
    revoke = False
    if d.trick:
        led = d.trick[0][1].suit
        revoke = a.card.suit != led and any(c.suit == led for c in hand)
        revoke = revoke and t.rules.revoke != "none"
    t.emit(ev.CardPlayed(a.player, a.card, revoke))
    if chicago_broken_by(t, d, a.player, a.card):
        return
    after_play(t, d)


def chicago_broken_by(t: Ledger, d: DealState, player: str, card: Card) -> bool:
    """r24: the first player to beat the Chicago player's card breaks it and gets 10;
    D8: the trick play ends at that moment."""
    if not d.chicago or player == d.chicago:
        return False
    mine = next((c for p, c in d.trick if p == d.chicago), None)
    if mine is None or card.suit != d.trick[0][1].suit or card.rank < mine.rank:
        return False
    if mine.suit != d.trick[0][1].suit:
        return False
    r = t.rules
    if award(t, d.chicago, r.chicago_lost, "chicago_lost", Moment.TRICKS):
        return True
    if r.chicago_style == "sm" and award(t, player, r.chicago_breaker, "chicago_broken", Moment.TRICKS):
        return True
    if t.deal is d:
        # sm: the deal ends at the broken Chicago (D8); classic: a failed Chicago scores no
        # hands either.  A revoke that stood costs nothing here (sm2019, shootout): the cards
        # that would show it are never played, so a deduction would tell the table a hidden
        # card (stop 66's audit); after the last trick every card lies face up (r26, r29).
        end_deal(t, d, "played")
    return True


def after_play(t: Ledger, d: DealState) -> None:
    if t.deal is not d or not trick_complete(d):
        return
    ends = d.trick_number >= TRICKS or not [p for p in d.in_play() if p not in d.dead and d.hands[p]]
    if d.pending_revoke and ends:  # no next card to wait for: the revoke stands now
        t.emit(ev.RevokeStood(d.pending_revoke, dead=t.rules.revoke == "dead_hand"))
    # A revoke on a trick's last card closes it as a legal card does: whether a player could
    # follow suit is a fact of their hidden hand.  A take-back before the next card opens it
    # again (r26; retract, state._card_retracted).
    close_trick(t, d)


def close_trick(t: Ledger, d: DealState) -> bool:
    """Settle the complete trick; True when the deal ended with it."""
    player, card = trick_winner(d)
    number = d.trick_number
    t.emit(ev.TrickWon(number, player, card))
    r = t.rules
    if number >= TRICKS or not [p for p in d.in_play() if p not in d.dead and d.hands[p]]:
        if d.chicago:
            won = all(w == d.chicago for w, _ in d.tricks)
            if won:
                if award(t, d.chicago, r.chicago_won, "chicago_won", Moment.TRICKS):
                    return True
            elif award(t, d.chicago, r.chicago_lost, "chicago_lost", Moment.TRICKS):
                return True
        if t.deal is d:
            final_scoring(t, d)
        return True
    return False


def retract(t: Ledger, a: act.Retract) -> None:
    d = t.deal_in_progress()
    last = last_card(d)
    if d.phase is not DealPhase.TRICKS or last is None or last[0] != a.player:
        raise IllegalAction(f"{a.player} did not play the last card; only that card can be taken back")
    if d.pending_revoke != a.player:
        raise IllegalAction("only a revoke can be taken back, before the next card is played (r26)")
    card = last[1]
    t.emit(ev.CardRetracted(a.player, card))
    if t.rules.revoke == "correct_minus_2" and not at_draw_stop(t.state, d, a.player):
        deduct(t, a.player, t.rules.revoke_points, "revoke", Moment.TRICKS)
