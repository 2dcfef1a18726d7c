"""Scoring: awards, scoring moments, going out, the end of a deal, a game and the table.

Functions of the :class:`~table_controller.rules.ledger.Ledger` the engine judges on: they
decide and emit events.
"""

from __future__ import annotations

from enum import Enum

from table_controller.rules import events as ev
from table_controller.rules.cards import Card
from table_controller.rules.hands import Category, best_hands
from table_controller.rules.ledger import Ledger
from table_controller.rules.phases import DealPhase, Moment
from table_controller.rules.standings import playoff_settled, table_ranking, tie_to_settle
from table_controller.rules.state import DealState, GameState

GOING_OUT = 52


class Outcome(Enum):
    """What a scoring moment left to do."""

    GO_ON = "go_on"  # the deal goes on
    WAITING = "waiting"  # a four-of-a-kind choice is asked first
    ENDED = "ended"  # the deal or the game is over


# --- awards ----------------------------------------------------------------------------


def award(t: Ledger, player: str, points: int, reason: str, moment: Moment, check_out: bool = True) -> bool:
    """Apply one award (floored at 0, r19).  D7: awards go one at a time; returns True
    when this award ended the game."""
    g = t.game
    score = g.players[player].score
    if points > 0 and score + points >= GOING_OUT and holds(t, player):
        # D13: the offender could go out or win with this award: deduct first
        release_held(t, player, moment)
        score = g.players[player].score
    delta = max(0, score + points) - score
    if delta == 0 and points == 0:
        return False
    t.emit(ev.Awarded(player, delta, reason, moment, points))
    if check_out:
        return check_going_out(t, player)
    return False


# --- D13: deductions held to the end of the deal (shootout) ----------------------------


def deduct(t: Ledger, player: str, points: int, reason: str, moment: Moment) -> bool:
    """A point deduction (dealer error, revoke): at once, or held to the end of the
    deal where the ruleset says so (D13).  Returns True when it ended the game."""
    if t.rules.deductions_at_deal_end and t.deal is not None:
        t.emit(ev.DeductionHeld(player, points, reason, moment))
        return False
    return award(t, player, points, reason, moment)


def holds(t: Ledger, player: str) -> bool:
    d = t.deal
    return d is not None and any(h.player == player for h in d.held)


def release_held(t: Ledger, player: str, moment: Moment) -> None:
    """Apply the player's held deductions now, in the order they were incurred."""
    d = t.deal
    assert d is not None
    mine = [h for h in d.held if h.player == player]
    if not mine:
        return
    t.emit(ev.DeductionsReleased(player))
    for h in mine:
        award(t, player, h.points, h.reason, moment, check_out=False)


def release_all_held(t: Ledger, moment: Moment) -> None:
    d = t.deal
    if d is None:
        return
    for player in dict.fromkeys(h.player for h in d.held):
        release_held(t, player, moment)


def end_if_one_left(t: Ledger) -> bool:
    """r21, r33: when one player is left to play the game (the others out or sitting it out,
    whichever came last), that player wins it at once; a game nobody can play on never ends."""
    left = t.game.players_left()
    if len(left) != 1:
        return False
    end_game(t, left[0])
    return True


def check_going_out(t: Ledger, player: str) -> bool:
    g = t.game
    ps = g.players[player]
    if g.finished or ps.out or ps.score < GOING_OUT or not t.rules.chicago_required_to_win:
        return False
    if g.playoff:
        return False  # a särspel is decided by its deals (r11)
    if ps.said_chicago:  # r20, r30: out with Chicago said wins at once
        end_game(t, player)
        return True
    t.emit(ev.PlayerOut(player))  # r21: lost at once, sits out the rest
    if end_if_one_left(t):
        return True
    d = g.deal
    if d is not None and len(d.in_play()) < 2:
        end_deal(t, d, "played")
        return True
    return False


# --- scoring moments ---------------------------------------------------------------------


def score_hands(t: Ledger, moment: Moment, special_only: bool = False, final: bool = False) -> Outcome:
    """Score the single best hand (D2: exact ties score nothing)."""
    d = t.deal
    assert d is not None
    hands = {p: d.hands[p] for p in d.in_play() if len(d.hands[p]) == 5}
    if final:  # r26: a dead hand still scores
        hands = {p: final_hand(d, p) for p in d.in_play()}
        hands = {p: h for p, h in hands.items() if len(h) == 5}
    r = t.rules
    leaders, value = best_hands(hands, r.special_suit_order)
    if value is None or value.category == Category.HIGH_CARD:
        return Outcome.GO_ON
    if len(leaders) > 1 and r.tie_nobody_scores:
        return Outcome.GO_ON
    player = leaders[0]
    cat = value.category
    if cat == Category.ROYAL_FLUSH and r.royal_flush != "points":
        release_held(t, player, moment)  # D13: a chance to win: deduct first
        score = t.game.players[player].score
        award(t, player, GOING_OUT - score, "royal_flush", moment, check_out=False)
        if r.royal_flush == "out_zero_all":  # r19: zero every opponent, all keep Chicagos
            zero_opponents(t, player, moment)
        end_game(t, player)
        return Outcome.ENDED
    if cat == Category.STRAIGHT_FLUSH and r.straight_flush != "points":
        ps = t.game.players[player]
        if r.straight_flush == "out" or ps.said_chicago:
            release_held(t, player, moment)  # D13: a chance to go out or win
        if r.straight_flush == "out":  # r19: out at 52 whether Chicago was said or not
            award(t, player, GOING_OUT - ps.score, "straight_flush", moment, check_out=False)
            end_game(t, player)
            return Outcome.ENDED
        # sm2019: 20 points; a player who has said Chicago this game goes out.  A special
        # hand, so at the check before the Chicago question too (D4, step 7)
        if ps.said_chicago:
            award(t, player, r.points_for(cat), "straight_flush", moment, check_out=False)
            end_game(t, player)
            return Outcome.ENDED
        return _ended_if(award(t, player, r.points_for(cat), "straight_flush", moment))
    if cat == Category.FOUR_OF_A_KIND and r.quads_zero_choice:
        choice = d.quads_choice.get(player)
        if choice is None:
            if final:
                choice = "points"
            elif special_only:
                # Step 7: only a four of a kind that will zero is announced (r28); one kept
                # for points is not, so nobody is asked where the table would see it (stop
                # 64's audit).  Its owner may announce the zero until the Chicago question is
                # answered or the first card played (queries.quads_to_announce); silence is
                # "points", scored at the final scoring if it is still best.
                return Outcome.GO_ON
            else:
                t.emit(ev.PhaseEntered(DealPhase.QUADS_CHOICE, players=(player,)))
                return Outcome.WAITING
        if special_only:
            return Outcome.GO_ON
        return _ended_if(award(t, player, r.points_for(cat), cat.reason, moment))
    if special_only:
        return Outcome.GO_ON
    return _ended_if(award(t, player, r.points_for(cat), cat.reason, moment))


def _ended_if(ended: bool) -> Outcome:
    return Outcome.ENDED if ended else Outcome.GO_ON


def final_hand(d: DealState, player: str) -> list[Card]:
    """The five cards a player held before the tricks (hand + played cards)."""
    return list(d.hands[player]) + list(d.played[player])


def zero_opponents(t: Ledger, player: str, moment: Moment) -> None:
    """Every opponent still in the game to 0 (r19); a player out without Chicago has lost
    it and sits out the rest, their points kept as the protocol wrote them (r21, r31)."""
    g = t.game
    for p in g.seats:
        if p != player and not g.players[p].out and g.players[p].score > 0:
            award(t, p, -g.players[p].score, "zeroed", moment, check_out=False)


# --- the end of a deal -------------------------------------------------------------------


def final_scoring(t: Ledger, d: DealState) -> None:
    """After the tricks (D7): the last trick first, then hands; with Chicago (sm) only
    the Chicago outcome (r23, r27)."""
    r = t.rules
    if d.chicago and r.chicago_style == "sm":
        if not revokes_cost(t, d) and t.deal is d:  # r26: a revoke costs in a Chicago deal too
            end_deal(t, d, "played")
        return
    if d.tricks and not d.chicago:
        winner, card = d.tricks[-1]
        two = card.rank == 2
        if award(
            t,
            winner,
            r.last_trick_two if two else r.last_trick,
            "last_trick_two" if two else "last_trick",
            Moment.FINAL,
        ):
            return
    if t.deal is not d or revokes_cost(t, d):
        return
    if score_hands(t, Moment.FINAL, final=True) is Outcome.ENDED:
        return
    if t.deal is d:
        end_deal(t, d, "played")


def revokes_cost(t: Ledger, d: DealState) -> bool:
    """sm2019/shootout r26: a revoke not corrected, noticed after the last trick (every card
    then lies face up, r29), costs 2 points, whether Chicago was said or not, and at draw
    stop too: RULES.md §7 and the sm2019 text ("endast 2p i poängavdrag") spare a player at
    draw stop only the corrected revoke's deduction.  (A broken Chicago ends the tricks
    before the cards that would show a revoke: nothing there, ``tricks.chicago_broken_by``.)
    True when it ended the game."""
    return any(deduct(t, p, t.rules.revoke_points, "revoke", Moment.FINAL) for p in sorted(d.revoked))


def end_deal(t: Ledger, d: DealState, reason: str) -> None:
    g = t.game
    release_all_held(t, Moment.FINAL)  # D13: held deductions apply when the deal ends
    t.emit(ev.DealEnded(d.number, reason))
    if not t.rules.chicago_required_to_win:  # classic: the game ends after the deal
        top = max(g.players[p].score for p in g.seats)
        if top >= GOING_OUT:
            best = [p for p in g.seats if g.players[p].score == top]
            end_game(t, best[0] if len(best) == 1 else None)
            return
    if g.playoff and len(g.deals) >= t.state.playoff_deals:
        ranked = sorted(g.seats, key=lambda p: -g.players[p].score)
        if playoff_settled(t.state, [g.players[p].score for p in ranked]):
            end_game(t, ranked[0])  # D10: otherwise one more deal at a time


# --- the end of a game and of the table --------------------------------------------------


def end_game(t: Ledger, winner: str | None) -> None:
    g = t.game
    release_all_held(t, Moment.FINAL)  # D13: the deal ends with the game; before placements
    places, points = placements(t, g, winner)
    t.emit(ev.GameEnded(g.number, winner, places, points))
    if g.playoff:
        t.emit(ev.TableEnded(tuple(table_ranking(t.state))))
        return
    regular = sum(1 for x in t.state.games if not x.playoff)
    if regular >= t.rules.games_per_table:
        ranking = table_ranking(t.state)
        tied = tie_to_settle(t.state, ranking)
        if len(tied) > 1 and t.rules.playoff_deals:
            t.emit(ev.PlayoffNeeded(tuple(tied), t.rules.playoff_deals))
        else:
            t.emit(ev.TableEnded(tuple(ranking)))


def placed_again(t: Ledger, g: GameState) -> None:
    """r32 with §8 and §9: a TL correction after the game ``g`` ended places its players
    again by the corrected scores (its winner stays its winner), and after the table ended
    ranks the table again: who goes on follows, and a tie the correction makes where the
    table's result is decided is parted by a särspel, as at the table's end (r11)."""
    places, points = placements(t, g, g.winner)
    if places != g.places or points != g.placement_points:
        t.emit(ev.GamePlacesRevised(g.number, places, points))
    s = t.state
    if not s.finished and not s.playoff_players:
        return  # games are still to be played: the table's end ranks it
    # the table ended, or waits for a särspel not yet begun (the game is the last regular
    # one): ranked again, the särspel as the corrected figures need it, or none
    ranking = table_ranking(s)
    tied = tie_to_settle(s, ranking) if not any(x.playoff for x in s.games) else []
    if len(tied) > 1 and t.rules.playoff_deals:
        if list(tied) != list(s.playoff_players):
            t.emit(ev.PlayoffNeeded(tuple(tied), t.rules.playoff_deals))
    elif not s.finished or ranking != s.ranking:
        t.emit(ev.TableEnded(tuple(ranking)))


def placements(t: Ledger, g: GameState, winner: str | None) -> tuple[dict[str, int], dict[str, float]]:
    """r19 end, D9: winner first; the rest by score, then won Chicagos; equal players
    share their places' points; out without Chicago last with 0.  r33's "sista plats vad
    gäller omgångspoäng" (last place as to the placement points) holds for the winner
    too: the game is still theirs, its points are the last place's."""
    ps = g.players
    last = [p for p in g.seats if ps[p].last_place]
    outs = [p for p in reversed(g.out_order) if p not in last]
    rest = [p for p in g.seats if p != winner and p not in outs and p not in last]
    rest.sort(key=lambda p: (-ps[p].score, -ps[p].won_chicagos))
    groups: list[list[str]] = [[winner]] if winner and winner not in last else []
    for p in rest:
        key = (ps[p].score, ps[p].won_chicagos)
        if groups and groups[-1][0] != winner and (ps[groups[-1][0]].score, ps[groups[-1][0]].won_chicagos) == key:
            groups[-1].append(p)
        else:
            groups.append([p])
    groups += [[p] for p in outs] + [[p] for p in last]
    table = list(t.rules.placement_points) + [0] * len(g.seats)
    places: dict[str, int] = {}
    points: dict[str, float] = {}
    pos = 0
    for grp in groups:
        share = sum(table[pos : pos + len(grp)]) / len(grp)
        for p in grp:
            places[p] = pos + 1
            pts = 0 if (ps[p].out or ps[p].no_placement or g.playoff) else share
            points[p] = int(pts) if float(pts).is_integer() else pts
        pos += len(grp)
    return places, points
