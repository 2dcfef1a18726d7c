"""Scoring: awards, scoring moments, going out, the end of a deal, a game and the table.

A mixin of :class:`~table_controller.rules.engine.Engine`; it decides and emits events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table_controller.rules import events as ev
from table_controller.rules.hands import Category, best_hands
from table_controller.rules.phases import DealPhase, Moment

if TYPE_CHECKING:  # pragma: no cover
    from table_controller.rules.state import DealState, GameState

GOING_OUT = 52


class ScoringRules:
    # --- awards --------------------------------------------------------------------------

    def _award(self, player: str, points: int, reason: str, moment: str, check_out: bool = True) -> bool:
        """Apply one award (floored at 0, r19).  D7: awards go one at a time; returns True
        when this award ended the game."""
        g = self.state.game
        score = g.players[player].score
        if points > 0 and score + points >= GOING_OUT and self._holds(player):
            # D13: the offender could go out or win with this award: deduct first
            self._release_held(player, moment)
            score = g.players[player].score
        delta = max(0, score + points) - score
        if delta == 0 and points == 0:
            return False
        self._emit(ev.Awarded(player, delta, reason, moment, points))
        if check_out:
            return self._check_going_out(player)
        return False

    # --- D13: deductions held to the end of the deal (shootout) ------------------------

    def _deduct(self, player: str, points: int, reason: str, moment: str) -> bool:
        """A point deduction (dealer error, revoke): at once, or held to the end of the
        deal where the ruleset says so (D13).  Returns True when it ended the game."""
        if self.rules.deductions_at_deal_end and self.state.deal is not None:
            self._emit(ev.DeductionHeld(player, points, reason, moment))
            return False
        return self._award(player, points, reason, moment)

    def _holds(self, player: str) -> bool:
        d = self.state.deal
        return d is not None and any(h.player == player for h in d.held)

    def _release_held(self, player: str, moment: str) -> None:
        """Apply the player's held deductions now, in the order they were incurred."""
        d = self.state.deal
        mine = [h for h in d.held if h.player == player]
        if not mine:
            return
        self._emit(ev.DeductionsReleased(player))
        for h in mine:
            self._award(player, h.points, h.reason, moment, check_out=False)

    def _release_all_held(self, moment: str) -> None:
        d = self.state.deal
        if d is None:
            return
        for player in dict.fromkeys(h.player for h in d.held):
            self._release_held(player, moment)

    def _check_going_out(self, player: str) -> bool:
        g = self.state.game
        ps = g.players[player]
        if g.finished or ps.out or ps.score < GOING_OUT or not self.rules.chicago_required_to_win:
            return False
        if g.playoff:
            return False  # a särspel is decided by its deals (r11)
        if ps.said_chicago:  # r20, r30: out with Chicago said wins at once
            self._end_game(player)
            return True
        self._emit(ev.PlayerOut(player))  # r21: lost at once, sits out the rest
        left = [p for p in g.seats if not g.players[p].out and not g.players[p].sit_out_game]
        if len(left) == 1:
            self._end_game(left[0])
            return True
        d = g.deal
        if d is not None and len(d.in_play()) < 2:
            self._end_deal(d, "played")
            return True
        return False

    # --- scoring moments -------------------------------------------------------------

    def _score_hands(self, moment: str, special_only: bool = False, final: bool = False) -> str:
        """Score the single best hand (D2: exact ties score nothing).  Returns "go_on",
        "waiting" (a quads choice is asked) or "ended" (deal or game over)."""
        d = self.state.deal
        hands = {p: d.hands[p] for p in d.in_play() if len(d.hands[p]) == 5}
        if final:  # r26: a dead hand still scores
            hands = {p: self._final_hand(d, p) for p in d.in_play()}
            hands = {p: h for p, h in hands.items() if len(h) == 5}
        leaders, value = best_hands(hands, self.rules.special_suit_order)
        if value is None or value.category == Category.HIGH_CARD:
            return "go_on"
        if len(leaders) > 1 and self.rules.tie_nobody_scores:
            return "go_on"
        player = leaders[0]
        cat = value.category
        r = self.rules
        if cat == Category.ROYAL_FLUSH and r.royal_flush != "points":
            self._release_held(player, moment)  # D13: a chance to win: deduct first
            score = self.state.game.players[player].score
            self._award(player, GOING_OUT - score, "royal_flush", moment, check_out=False)
            if r.royal_flush == "out_zero_all":  # r19: zero every opponent, all keep Chicagos
                self._zero_opponents(player, moment)
            self._end_game(player)
            return "ended"
        if cat == Category.STRAIGHT_FLUSH and r.straight_flush != "points":
            ps = self.state.game.players[player]
            if r.straight_flush == "out" or (ps.said_chicago and not special_only):
                self._release_held(player, moment)  # D13: a chance to go out or win
            if r.straight_flush == "out":  # r19: out at 52 whether Chicago was said or not
                self._award(player, GOING_OUT - ps.score, "straight_flush", moment, check_out=False)
                self._end_game(player)
                return "ended"
            if special_only:
                return "go_on"
            # sm2019: 20 points; a player who has said Chicago this game goes out
            if ps.said_chicago:
                self._award(player, r.points_for(cat), "straight_flush", moment, check_out=False)
                self._end_game(player)
                return "ended"
            return "ended" if self._award(player, r.points_for(cat), "straight_flush", moment) else "go_on"
        if cat == Category.FOUR_OF_A_KIND and r.quads_zero_choice:
            choice = d.quads_choice.get(player)
            if choice is None:
                if final:
                    choice = "points"
                else:
                    self._emit(ev.PhaseEntered(DealPhase.QUADS_CHOICE, players=(player,)))
                    return "waiting"
            if special_only:
                return "go_on"
            return "ended" if self._award(player, r.points_for(cat), cat.reason, moment) else "go_on"
        if special_only:
            return "go_on"
        return "ended" if self._award(player, r.points_for(cat), cat.reason, moment) else "go_on"

    def _final_hand(self, d: "DealState", player: str):
        """The five cards a player held before the tricks (hand + played cards)."""
        return list(d.hands[player]) + list(d.played[player])

    def _zero_opponents(self, player: str, moment: str) -> None:
        g = self.state.game
        for p in g.seats:
            if p != player and g.players[p].score > 0:
                self._award(p, -g.players[p].score, "zeroed", moment, check_out=False)

    def _choose_quads(self, d: "DealState", player: str, choice: str) -> None:
        self._emit(ev.QuadsChosen(player, choice))
        k = d.exchange
        moment = Moment.exchange(k)
        if choice == "zero":  # the deal ends at once; a new deal starts (RULES §5, D6)
            self._zero_opponents(player, moment)
            self._end_deal(d, "zeroed")
            return
        if k < self.rules.exchanges:
            if self._award(player, self.rules.points_for(Category.FOUR_OF_A_KIND), "four_of_a_kind", moment):
                return
        self._continue_after(k)

    # --- the end of a deal -----------------------------------------------------------

    def _final_scoring(self, d: "DealState") -> None:
        """After the tricks (D7): the last trick first, then hands; with Chicago (sm) only
        the Chicago outcome (r23, r27)."""
        r = self.rules
        if d.chicago and r.chicago_style == "sm":
            self._end_deal(d, "played")
            return
        if d.tricks and not d.chicago:
            winner, card = d.tricks[-1]
            two = card.rank == 2
            if self._award(winner, r.last_trick_two if two else r.last_trick,
                           "last_trick_two" if two else "last_trick", Moment.FINAL):
                return
        if self.state.deal is not d:
            return
        for p in sorted(d.revoked):  # sm2019: a revoke not corrected costs 2 (not at draw stop)
            if not self._at_draw_stop(d, p) and self._deduct(p, r.revoke_points, "revoke", Moment.FINAL):
                return
        if self._score_hands(Moment.FINAL, final=True) == "ended":
            return
        if self.state.deal is d:
            self._end_deal(d, "played")

    def _end_deal(self, d: "DealState", reason: str) -> None:
        g = self.state.game
        self._release_all_held(Moment.FINAL)  # D13: held deductions apply when the deal ends
        self._emit(ev.DealEnded(d.number, reason))
        if not self.rules.chicago_required_to_win:  # classic: the game ends after the deal
            top = max(g.players[p].score for p in g.seats)
            if top >= GOING_OUT:
                best = [p for p in g.seats if g.players[p].score == top]
                self._end_game(best[0] if len(best) == 1 else None)
                return
        if g.playoff and len(g.deals) >= self.state.playoff_deals:
            ranked = sorted(g.seats, key=lambda p: -g.players[p].score)
            if g.players[ranked[0]].score > g.players[ranked[1]].score:
                self._end_game(ranked[0])  # D10: otherwise one more deal at a time

    # --- the end of a game and of the table ------------------------------------------

    def _end_game(self, winner: str | None) -> None:
        g = self.state.game
        self._release_all_held(Moment.FINAL)  # D13: the deal ends with the game; before placements
        places, points = self._placements(g, winner)
        self._emit(ev.GameEnded(g.number, winner, places, points))
        if g.playoff:
            self._emit(ev.TableEnded(tuple(self._table_ranking())))
            return
        regular = sum(1 for x in self.state.games if not x.playoff)
        if regular >= self.rules.games_per_table:
            ranking = self._table_ranking()
            tied = self._tied_at_top(ranking)
            if len(tied) > 1 and self.rules.playoff_deals:
                self._emit(ev.PlayoffNeeded(tuple(tied), self.rules.playoff_deals))
            else:
                self._emit(ev.TableEnded(tuple(ranking)))

    def _placements(self, g: "GameState", winner: str | None) -> tuple[dict[str, int], dict[str, float]]:
        """r19 end, D9: winner first; the rest by score, then won Chicagos; equal players
        share their places' points; out without Chicago last with 0."""
        ps = g.players
        last = [p for p in g.seats if ps[p].last_place and p != winner]
        outs = [p for p in reversed(g.out_order) if p not in last]
        rest = [p for p in g.seats if p != winner and p not in outs and p not in last]
        rest.sort(key=lambda p: (-ps[p].score, -ps[p].won_chicagos))
        groups: list[list[str]] = [[winner]] if winner else []
        for p in rest:
            key = (ps[p].score, ps[p].won_chicagos)
            if groups and groups[-1][0] != winner and (ps[groups[-1][0]].score, ps[groups[-1][0]].won_chicagos) == key:
                groups[-1].append(p)
            else:
                groups.append([p])
        groups += [[p] for p in outs] + [[p] for p in last]
        table = list(self.rules.placement_points) + [0] * len(g.seats)
        places: dict[str, int] = {}
        points: dict[str, float] = {}
        pos = 0
        for grp in groups:
            share = sum(table[pos:pos + len(grp)]) / len(grp)
            for p in grp:
                places[p] = pos + 1
                pts = 0 if (ps[p].out or ps[p].no_placement or g.playoff) else share
                points[p] = int(pts) if float(pts).is_integer() else pts
            pos += len(grp)
        return places, points

    def _standing_key(self, totals: dict[str, dict], p: str):
        t = totals[p]
        return (-t["placement_points"], -t["score_total"], -t["won_chicagos"])

    def table_totals(self) -> dict[str, dict]:
        s = self.state
        totals = {p: {"placement_points": 0, "score_total": 0, "won_chicagos": 0} for p in s.players}
        for g in s.games:
            if g.playoff:
                continue
            for p, pg in g.players.items():
                totals[p]["score_total"] += pg.score
                totals[p]["won_chicagos"] += pg.won_chicagos
                if g.finished:
                    totals[p]["placement_points"] += g.placement_points.get(p, 0)
        for t in totals.values():
            v = t["placement_points"]
            t["placement_points"] = int(v) if float(v).is_integer() else v
        return totals

    def _table_ranking(self) -> list[str]:
        """r11: placement points, then total score, then won Chicagos, then the särspel."""
        totals = self.table_totals()
        ranking = sorted(self.state.players, key=lambda p: self._standing_key(totals, p))
        playoff = next((g for g in self.state.games if g.playoff and g.finished), None)
        if playoff and playoff.winner:
            ranking.remove(playoff.winner)
            ranking.insert(0, playoff.winner)
        return ranking

    def _tied_at_top(self, ranking: list[str]) -> list[str]:
        totals = self.table_totals()
        top = self._standing_key(totals, ranking[0])
        return [p for p in ranking if self._standing_key(totals, p) == top]
