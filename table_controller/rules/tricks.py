"""The Chicago question round and trick play (RULES.md §6, §7).

A mixin of :class:`~table_controller.rules.engine.Engine`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table_controller.rules import actions as act
from table_controller.rules import events as ev
from table_controller.rules.cards import Card
from table_controller.rules.errors import IllegalAction
from table_controller.rules.phases import DealPhase, Moment

if TYPE_CHECKING:  # pragma: no cover
    from table_controller.rules.state import DealState

TRICKS = 5


class TrickRules:
    # --- the Chicago question (r22, D3) ------------------------------------------------

    def _start_chicago_round(self, d: "DealState") -> None:
        g = self.state.game
        if g.playoff:  # r11: no Chicago in a särspel
            self._start_tricks(d)
            return
        asked = tuple(p for p in d.in_play()
                      if p not in d.dead and g.players[p].score >= self.rules.chicago_min_score)
        for p in asked:  # D13: who could say Chicago has held deductions applied first
            self._release_held(p, Moment.exchange(d.exchange))
        asked = tuple(p for p in asked if g.players[p].score >= self.rules.chicago_min_score)
        if not asked:
            self._start_tricks(d)
            return
        self._emit(ev.PhaseEntered(DealPhase.CHICAGO, players=asked))

    def _chicago(self, a: act.ChicagoAnswer) -> None:
        d = self._deal()
        g = self.state.game
        score = g.players[a.player].score if a.player in g.players else 0
        if a.say and a.player in g.players and score < self.rules.chicago_min_score:
            raise IllegalAction(f"{a.player} has {score} points; Chicago needs at least {self.rules.chicago_min_score} (r20)")
        if d.phase is not DealPhase.CHICAGO:
            raise IllegalAction(f"no Chicago question now: the deal is at {self.phase}")
        if d.asking[:1] != [a.player]:
            raise IllegalAction(f"the Revisor asks in turn (r22): {d.asking[0]} answers next, not {a.player}")
        self._answer_chicago(d, a.player, a.say)

    def _answer_chicago(self, d: "DealState", player: str, say: bool) -> None:
        self._emit(ev.ChicagoAnswered(player, say))
        if say or not d.asking:  # D3: the first yes stops the questioning
            self._start_tricks(d)

    def _start_tricks(self, d: "DealState") -> None:
        if d.chicago:
            leader = d.chicago  # r23: the Chicago player leads
        else:
            live = [p for p in d.in_play() if p not in d.dead]
            leader = live[0] if live else None  # r25: left of the button
        if leader is None:
            self._end_deal(d, "played")
            return
        self._emit(ev.PhaseEntered(DealPhase.TRICKS, players=(leader,)))

    # --- trick play ----------------------------------------------------------------------

    def _trick_order(self, d: "DealState") -> list[str]:
        """Who plays to the current trick, in order from its leader."""
        order = d.order
        i = order.index(d.leader)
        rotation = [order[(i + k) % len(order)] for k in range(len(order))]
        in_trick = {p for p, _ in d.trick}
        return [p for p in rotation
                if p in in_trick or (p not in d.folded and p not in d.dead)]

    def _trick_complete(self, d: "DealState") -> bool:
        return bool(d.trick) and len(d.trick) == len(self._trick_order(d))

    def _trick_winner(self, d: "DealState") -> tuple[str, Card] | None:
        led = d.trick[0][1].suit
        last = d.trick_number == TRICKS
        best: tuple[str, Card] | None = None
        for p, c in d.trick:
            if c.suit != led or p in d.dead or (last and p in d.revoked):
                continue  # r26: a dead hand cannot win; sm2019: a revoker not the last trick
            if best is None or c.rank > best[1].rank:
                best = (p, c)
        return best or d.trick[0]

    def _next_to_play(self, d: "DealState") -> str | None:
        if d.phase is not DealPhase.TRICKS:
            return None
        if self._trick_complete(d):  # a revoke pending on the trick's last card
            return self._trick_winner(d)[0]
        order = self._trick_order(d)
        return order[len(d.trick)] if len(d.trick) < len(order) else None

    def _play(self, a: act.Play) -> None:
        g = self.state.game
        if g is not None and not g.finished and g.deal is None and g.deals and any(
                x.reason in ("chicago_broken", "chicago_lost") and x.moment == Moment.TRICKS for x in g.deals[-1].awards):
            raise IllegalAction(f"the trick play of deal {g.deals[-1].number} ended when the Chicago was broken "
                                "(D8): no more cards are played; the next action is 'deal'")
        d = self._deal()
        if d.phase is not DealPhase.TRICKS:
            raise IllegalAction(f"no trick play now: the deal is at {self.phase}")
        self._in_play(d, a.player)
        if a.player in d.dead:
            raise IllegalAction(f"{a.player}'s hand is dead (r26) and plays no further cards")
        nxt = self._next_to_play(d)
        if a.player != nxt:
            raise IllegalAction(f"out of turn: {nxt} plays next, not {a.player} (r25)")
        hand = d.hands[a.player]
        if a.card not in hand:
            raise IllegalAction(f"{a.card} is not in {a.player}'s hand")
        if d.pending_revoke:  # the revoke was not corrected before this card (r26)
            self._emit(ev.RevokeStood(d.pending_revoke, dead=self.rules.revoke == "dead_hand"))
            if self._trick_complete(d):
                if self._close_trick(d):
                    return
        revoke = False
        if d.trick:
            led = d.trick[0][1].suit
            revoke = a.card.suit != led and any(c.suit == led for c in hand)
            revoke = revoke and self.rules.revoke != "none"
        self._emit(ev.CardPlayed(a.player, a.card, revoke))
        if self._chicago_broken_by(d, a.player, a.card):
            return
        self._after_play(d)

    def _chicago_broken_by(self, d: "DealState", player: str, card: Card) -> bool:
        """r24: the first player to beat the Chicago player's card breaks it and gets 10;
        D8: the trick play ends at that moment."""
        if not d.chicago or player == d.chicago:
            return False
        mine = next((c for p, c in d.trick if p == d.chicago), None)
        if mine is None or card.suit != d.trick[0][1].suit or card.rank < mine.rank:
            return False
        if mine.suit != d.trick[0][1].suit:
            return False
        r = self.rules
        if self._award(d.chicago, r.chicago_lost, "chicago_lost", Moment.TRICKS):
            return True
        if r.chicago_style == "sm":
            if self._award(player, r.chicago_breaker, "chicago_broken", Moment.TRICKS):
                return True
        if self.state.deal is d:
            if r.chicago_style == "sm":
                self._end_deal(d, "played")
            else:  # classic: failed Chicago scores no hands either
                self._end_deal(d, "played")
        return True

    def _after_play(self, d: "DealState") -> None:
        if self.state.deal is not d or not self._trick_complete(d):
            return
        if d.pending_revoke and d.trick_number < TRICKS:
            return  # the revoker may still correct before the next card (r26)
        if d.pending_revoke:
            self._emit(ev.RevokeStood(d.pending_revoke, dead=self.rules.revoke == "dead_hand"))
        self._close_trick(d)

    def _close_trick(self, d: "DealState") -> bool:
        """Settle the complete trick; True when the deal ended with it."""
        player, card = self._trick_winner(d)
        number = d.trick_number
        self._emit(ev.TrickWon(number, player, card))
        r = self.rules
        if number >= TRICKS or not [p for p in d.in_play() if p not in d.dead and d.hands[p]]:
            if d.chicago:
                won = all(w == d.chicago for w, _ in d.tricks)
                if won:
                    if self._award(d.chicago, r.chicago_won, "chicago_won", Moment.TRICKS):
                        return True
                elif self._award(d.chicago, r.chicago_lost, "chicago_lost", Moment.TRICKS):
                    return True
            if self.state.deal is d:
                self._final_scoring(d)
            return True
        return False

    def _retract(self, a: act.Retract) -> None:
        d = self._deal()
        if d.phase is not DealPhase.TRICKS or not d.trick or d.trick[-1][0] != a.player:
            raise IllegalAction(f"{a.player} did not play the last card; only that card can be taken back")
        if d.pending_revoke != a.player:
            raise IllegalAction("only a revoke can be taken back, before the next card is played (r26)")
        card = d.trick[-1][1]
        self._emit(ev.CardRetracted(a.player, card))
        if self.rules.revoke == "correct_minus_2" and not self._at_draw_stop(d, a.player):
            self._deduct(a.player, self.rules.revoke_points, "revoke", Moment.TRICKS)
