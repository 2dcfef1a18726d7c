"""The rules engine: actions in, domain events out (pure: no I/O, clock or randomness).

    >>> engine = Engine()
    >>> engine.apply(act.TableStart(("Anna", "Bo", "Cilla")))[0].type
    'table_opened'

``apply`` judges one action.  It either returns the events the action caused (already
folded into ``engine.state``) or raises :class:`IllegalAction` naming the rule, and then
nothing has changed: every check runs before the first event is emitted.  All or nothing
also holds against any other exception (a bug, a fold that fails half-way): the state and
the event list are put back exactly as they were before the action, then it is raised.

Beside ``apply``, the engine answers questions and never changes for them: ``phase``,
``to_act()``, ``at_draw_stop(player)``, ``trick_complete``, ``legal_actions()``,
``standings()``, and ``snapshot()`` (a copy of the state for a reader in another thread).  The rules themselves are composed, not inherited: the engine judges the
table and game actions and the exchanges here, and calls the plain functions of
``tricks`` (the Chicago question, trick play) and ``scoring`` on its :class:`Ledger`.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterable
from dataclasses import fields, replace
from typing import Any

from table_controller.rules import actions as act
from table_controller.rules import events as ev
from table_controller.rules import tricks
from table_controller.rules.cards import Card
from table_controller.rules.errors import IllegalAction, RulesetError
from table_controller.rules.hands import Category, scoring_cards
from table_controller.rules.ledger import Ledger
from table_controller.rules.phases import DealPhase, Moment, Phase
from table_controller.rules.queries import (
    LegalActions,
    all_placed,
    at_draw_stop,
    legal_actions,
    next_to_play,
    phase,
    quads_to_announce,
    step7_open,
    still_placing,
    to_act,
    trick_complete,
)
from table_controller.rules.rulesets import Ruleset, ruleset
from table_controller.rules.scoring import (
    Outcome,
    award,
    deduct,
    end_deal,
    end_if_one_left,
    placed_again,
    score_hands,
    zero_opponents,
)
from table_controller.rules.standings import Standing, Totals, standings, table_totals
from table_controller.rules.state import DealState, TableState, evolve, next_button

__all__ = ["Engine", "IllegalAction", "LegalActions", "Standing"]


class Engine:
    def __init__(self, ledger: Callable[[TableState, list[ev.Event]], Ledger] = Ledger) -> None:
        """``ledger`` makes the ledger every event is emitted through (a test injects a
        failure at any event with its own)."""
        self.state = TableState()
        self.events: list[ev.Event] = []
        # the state and the event list, shared (never rebound): rollback restores in place
        self._t = ledger(self.state, self.events)
        # rollback's checkpoint: (n, the pickled fold of the first n events), made by a
        # rollback from a fold of its own, never from the live state
        self._kept: tuple[int, bytes] | None = None

    # --- the public face -------------------------------------------------------------

    @classmethod
    def from_events(cls, events: Iterable[ev.Event]) -> Engine:
        """Fold stored events into a new engine (crash recovery, replay checks)."""
        engine = cls()
        for e in events:
            evolve(engine.state, e)
            engine.events.append(e)
        return engine

    def apply(self, action: act.Action) -> list[ev.Event]:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"unknown action {action!r}")
        if self.state.rules is None and not isinstance(action, act.TableStart):
            raise IllegalAction("the first action must be 'table'")
        start = len(self.events)
        try:
            handler(self, action)
        except BaseException:
            self.rollback(start)
            raise
        return self.events[start:]

    def rollback(self, length: int) -> None:
        """Put the table back as it was when the log held ``length`` events.

        The fold is the only way state changes, so folding the kept events rebuilds it
        exactly.  Fields are copied into the same ``TableState`` object, so whoever holds
        ``engine.state`` sees the restored table.  Costs nothing unless an action fails;
        then the fold starts from the last rollback's checkpoint (a pickled fold of the
        events up to there, still a prefix of the log: events are only ever appended or
        cut back here) instead of the empty table, so failures in a row cost the events
        since the last one, not the whole table."""
        if len(self.events) <= length and self.state.seq == length:
            return  # nothing was emitted or folded
        del self.events[length:]
        kept = self._kept if self._kept is not None and self._kept[0] <= length else None
        fresh = pickle.loads(kept[1]) if kept is not None else TableState()
        for e in self.events[kept[0] if kept is not None else 0 :]:
            evolve(fresh, e)
        if kept is None or kept[0] != length:
            self._kept = (length, pickle.dumps(fresh, pickle.HIGHEST_PROTOCOL))
        for f in fields(TableState):
            setattr(self.state, f.name, getattr(fresh, f.name))

    # --- questions (they change nothing) -----------------------------------------------

    @property
    def rules(self) -> Ruleset:
        """The table's ruleset (once the table has started)."""
        return self._t.rules

    @property
    def phase(self) -> Phase:
        """One of REPLAY.md's phases.

        >>> e = Engine()
        >>> e.phase
        'game_start'
        >>> _ = e.apply(act.TableStart(("Anna", "Bo", "Cilla")))
        >>> _ = e.apply(act.GameStart(("Anna", "Bo", "Cilla"), "Cilla"))
        >>> e.phase == "deal"
        True
        """
        return phase(self.state)

    def to_act(self) -> list[str]:
        """Whose action the table waits for, in turn order (empty: the dealer's).

        >>> from table_controller.rules.sample import first_deal
        >>> e = first_deal()
        >>> e.to_act()  # the exchange waits for every live hand to place (r13)
        ['Anna', 'Bo', 'Cilla']
        """
        return to_act(self.state)

    def at_draw_stop(self, player: str) -> bool:
        """Köpstopp: ``player`` is dealt into the deal in progress and may not exchange
        (D5; sm: at the ruleset's limit now, classic: from the deal's start).

            >>> from table_controller.rules.sample import first_deal
            >>> e = first_deal()
            >>> e.at_draw_stop("Anna"), e.at_draw_stop("Nobody")
            (False, False)
            >>> _ = e.apply(act.Adjust("Anna", 45, "r32"))
            >>> e.at_draw_stop("Anna")
            True
        """
        d = self.state.deal
        return d is not None and player in d.order and at_draw_stop(self.state, d, player)

    @property
    def trick_complete(self) -> bool:
        """Trick play is on and every hand in the trick has played to it, the trick not yet
        closed (a trick closes at its last card; only a log from before stop 64 held one open).

            >>> from table_controller.rules.sample import first_deal
            >>> first_deal().trick_complete
            False
        """
        d = self.state.deal
        return d is not None and d.phase is DealPhase.TRICKS and trick_complete(d)

    def legal_actions(self) -> LegalActions:
        """What the player or dealer to act may do now.

            >>> from table_controller.rules.sample import first_deal
            >>> e = first_deal()
            >>> legal = e.legal_actions()
            >>> legal.actions, legal.places  # each may place up to 4 cards (r12)
            (('discard',), {'Anna': 4, 'Bo': 4, 'Cilla': 4})
            >>> for p in ("Anna", "Bo", "Cilla"):
            ...     _ = e.apply(act.Discard(p, ()))
            >>> e.phase, e.to_act()   # nobody exchanged: on to exchange 2
            ('exchange_2', ['Anna', 'Bo', 'Cilla'])

        In trick play, the cards each may play: the led suit when they hold it (r25).

            >>> e = first_deal(in_tricks=True)
            >>> _ = e.apply(act.Play("Anna", Card.parse("2S")))
            >>> e.legal_actions().plays
            {'Bo': (Card('3S'),)}
        """
        return legal_actions(self.state)

    def standings(self) -> list[Standing]:
        """The table's standings (r11): placement points, total score, won Chicagos;
        equal players share a rank until the table is over.

            >>> from table_controller.rules.sample import first_deal
            >>> e = first_deal()
            >>> [(s.player, s.rank, s.score_total) for s in e.standings()]
            [('Anna', 1, 0), ('Bo', 1, 0), ('Cilla', 1, 0)]
        """
        return standings(self.state)

    def table_totals(self) -> dict[str, Totals]:
        """Each player's placement points, total score and won Chicagos over the regular
        games (not the särspel, r11)."""
        return table_totals(self.state)

    def snapshot(self) -> TableState:
        """The table as it is now, in a state of its own that later actions leave alone: for
        a reader in another thread (the broadcast's analysis works on one while the table
        plays on).  The current (last) game is copied whole; the games before it are shared (a
        game before the last is never changed: the fold only appends games, a TL's correction
        after a game's end changes the last one alone, and a rollback puts new objects in
        place of the old ones).

            >>> from table_controller.rules.sample import first_deal
            >>> e = first_deal()
            >>> snap = e.snapshot()
            >>> snap.deal is not e.state.deal, snap.deal.hands == e.state.deal.hands, snap.seq == e.state.seq
            (True, True, True)
        """
        s = self.state
        return replace(
            s,
            players=list(s.players),
            options=copy.deepcopy(s.options),
            games=[*s.games[:-1], *(copy.deepcopy(s.games[-1:]))],
            playoff_players=list(s.playoff_players),
            ranking=list(s.ranking),
        )

    # --- table and game ----------------------------------------------------------------

    def _table(self, a: act.TableStart) -> None:
        if self.state.rules is not None:
            raise IllegalAction("the table has already started")
        try:
            rules = ruleset(a.ruleset, a.options)
        except RulesetError as exc:
            raise IllegalAction("{error}", error=exc) from None  # its words echo the options typed
        n = len(a.players)
        if not rules.min_players <= n <= rules.max_players:
            raise IllegalAction(f"{n} players; {rules.name} plays {rules.min_players}-{rules.max_players} (r1)")
        self._t.emit(ev.TableOpened(a.ruleset, a.players, a.dealer or rules.dealer, dict(a.options or {})))

    def _game_start(self, a: act.GameStart) -> None:
        s = self.state
        if s.finished:
            raise IllegalAction("the table is over")
        if s.game is not None and not s.game.finished:
            raise IllegalAction(f"game {s.game.number} is still in progress")
        expected = s.playoff_players or s.players
        if sorted(a.seats) != sorted(expected):
            who = ", ".join(expected)
            if s.playoff_players:
                raise IllegalAction(f"seats must name each player once: the särspel is between {who}")
            raise IllegalAction(f"seats must name each player once: the table's players are {who}")
        if a.button not in a.seats:
            raise IllegalAction(f"the button must be at one of the seats, not {a.button!r}")
        regular = sum(1 for g in s.games if not g.playoff)
        playoff = bool(s.playoff_players)
        if not playoff and regular >= self._t.rules.games_per_table:
            raise IllegalAction(f"a table plays {self._t.rules.games_per_table} games (r2)")
        self._t.emit(ev.GameStarted(len(s.games) + 1, a.seats, a.button, playoff))

    # --- the deal ----------------------------------------------------------------------

    def _deal_start(self, a: act.Deal) -> None:
        g = self._t.game_in_progress()
        if g.deal is not None:
            raise IllegalAction(f"deal {g.deal.number} is still in progress ({self.phase})")
        unknown = [p for p in a.hands if p not in g.players]
        if unknown:
            raise IllegalAction(f"hands for players not in this game: {', '.join(unknown)}")
        eligible = g.players_left()
        missing = [p for p in eligible if p not in a.hands and not g.players[p].sit_out_next_deal]
        if missing:
            raise IllegalAction(f"no hand dealt to {', '.join(missing)}")
        # a hand for a player out of the game (r21) or sitting it out (r33) was taken and
        # ignored, its cards unchecked (a card given to them and to another was no "card
        # seen twice"): stop 71's audit
        gone = [p for p in a.hands if p not in eligible]
        if gone:
            raise IllegalAction(f"no hand is dealt to {', '.join(gone)}: out of this game (r21, r33)")
        seen: dict[Card, str] = {}
        for p, cards in a.hands.items():
            if len(cards) != 5:
                raise IllegalAction(f"{p} was dealt {len(cards)} cards; a hand is 5 (r12)")
            for c in cards:
                if c in seen:
                    raise IllegalAction(
                        "card seen twice: {card} dealt to {first} and {player}", card=c, first=seen[c], player=p
                    )
                seen[c] = p
        button = next_button(g, eligible)  # r6: one seat clockwise, skipping those out
        i = g.seats.index(button)
        rotation = [g.seats[(i + k) % len(g.seats)] for k in range(1, len(g.seats) + 1)]
        order = tuple(p for p in rotation if p in eligible and p in a.hands)
        folded = tuple(p for p in order if g.players[p].sit_out_next_deal)
        stop = tuple(p for p in order if g.players[p].score >= self._t.rules.draw_stop)
        hands = {p: tuple(a.hands[p]) for p in order}
        self._t.emit(
            ev.DealStarted(
                len(g.deals) + 1, button, hands, order, folded, stop if self._t.rules.draw_stop_from_next_deal else ()
            )
        )
        d = g.deal
        assert d is not None, "DealStarted opens the deal"
        self._maybe_end_exchange(d)  # everyone at draw stop: nobody to wait for

    # --- exchanges ---------------------------------------------------------------------

    def _exchange(self, player: str) -> DealState:
        d = self._t.deal_in_progress()
        if d.phase is not DealPhase.EXCHANGE:
            raise IllegalAction(f"no exchange now: the deal is at {self.phase}")
        self._t.check_in_play(d, player)
        return d

    def _discard(self, a: act.Discard) -> None:
        d = self._t.deal_in_progress()
        if (
            not a.cards
            and d.phase in (DealPhase.EXCHANGE, DealPhase.QUADS_CHOICE, DealPhase.CHICAGO)
            and a.player in d.in_play()
            and at_draw_stop(self.state, d, a.player)
            and (a.player in d.placed or d.phase is not DealPhase.EXCHANGE)
        ):
            return  # a draw-stop player "places nothing": the exchange did not wait for it
        d = self._exchange(a.player)
        self._place(d, a.player, a.cards)
        self._maybe_end_exchange(d)

    def _place(self, d: DealState, player: str, cards: tuple[Card, ...]) -> None:
        if player in d.placed:
            raise IllegalAction(
                f"{player} has already placed for exchange {d.exchange}; placed cards cannot be taken back (r18)"
            )
        if d.awaiting or any(p in d.open_declined for p in d.order):
            pass  # replacements have begun only when all had placed; nothing to check
        limit = self._t.rules.max_exchange_cards
        if len(cards) > limit:
            raise IllegalAction(f"{_count_word(len(cards))} cards placed; at most {limit} (r12)")  # REPLAY.md's words
        hand = d.hands[player]
        missing = tuple(c for c in cards if c not in hand)
        if missing:
            raise IllegalAction("{cards} not in {player}'s hand", cards=missing, player=player)
        if cards and at_draw_stop(self.state, d, player):
            self._draw_stop_attempt(d, player)
            return
        self._t.emit(ev.CardsPlaced(player, tuple(cards), d.exchange))
        if player == d.last_scorer and d.last_scoring_cards:
            made = set(scoring_cards(d.last_scoring_cards))
            broken = tuple(c for c in cards if c in made)
            if broken:  # r17: "jag bryter mitt par"
                self._t.emit(ev.HandBroken(player, broken))

    def _draw_stop_attempt(self, d: DealState, player: str) -> None:
        rule = self._t.rules.draw_stop_attempt
        score = self._t.game.players[player].score
        if rule == "refuse":  # D5: refused, the cards go back, the TL is alerted
            raise IllegalAction(
                f"draw stop: {player} has {score} points and may not exchange (D5, köpstopp at {self._t.rules.draw_stop})"
            )
        # sm2019 r19 / shootout: the score drops to 0; the cards go back
        moment = Moment.exchange(d.exchange)
        award(self._t, player, -score, "draw_stop_attempt", moment, check_out=False)
        if rule == "zero_clear_chicago" and self._t.game.players[player].said_chicago:
            self._t.emit(ev.ChicagoMarkCleared(player))
        self._t.emit(ev.CardsPlaced(player, (), d.exchange))

    def _replacement(self, player: str) -> DealState:
        d = self._exchange(player)
        if not all_placed(self.state, d):
            waiting = still_placing(self.state, d)
            raise IllegalAction(f"every player places before any replacement (r13); waiting for {', '.join(waiting)}")
        return d

    def _draw(self, d: DealState, cards: tuple[Card, ...]) -> None:
        """Check that the cards can come from the stub; reshuffle the discards when it is
        empty (r16).  Emits the reshuffle only when all cards check out."""
        stub = set(d.stub)
        reshuffle: tuple[Card, ...] = ()
        for c in cards:
            if not stub and not reshuffle:
                reshuffle = tuple(sorted(d.discards_earlier))
                stub = set(reshuffle)
            if c not in stub:
                raise self._where(d, c)
            stub.discard(c)
        if reshuffle:
            self._t.emit(ev.StubReshuffled(reshuffle))

    def _where(self, d: DealState, c: Card) -> IllegalAction:
        for p, hand in d.hands.items():
            if c in hand:
                return IllegalAction("card seen twice: {card} is in {player}'s hand", card=c, player=p)
        if c in d.discards_now or c in d.discards_earlier:
            return IllegalAction("card seen twice: {card} is in the discards", card=c)
        if c in d.aside:
            return IllegalAction(
                "card seen twice: {card} was flashed; it is put aside until the exchange ends (r15)", card=c
            )
        return IllegalAction("card seen twice: {card} has already been dealt", card=c)

    def _open(self, a: act.OpenCard) -> None:
        d = self._replacement(a.player)
        owed = d.awaiting.get(a.player, 0)
        if len(d.placed.get(a.player, ())) != 1 or owed != 1 or a.player in d.open_declined:
            # r15: a flashed card is put aside until the exchange ends (r16: back at once)
            self._draw(d, (a.card,))
            self._dealer_error(d, a.player, "flashed", 1, (a.card,))
            return
        self._draw(d, (a.card,))
        self._t.emit(ev.OpenCardShown(a.player, a.card, a.take))
        self._maybe_end_exchange(d)

    def _receive(self, a: act.Receive) -> None:
        d = self._replacement(a.player)
        owed = d.awaiting.get(a.player, 0)
        if len(a.cards) > owed or not a.cards:
            # r14: wrong number of cards; logged and corrected by the dealer
            self._dealer_error(d, a.player, "wrong_count", abs(len(a.cards) - owed), ())
            return
        self._draw(d, a.cards)
        self._t.emit(ev.CardsReceived(a.player, a.cards))
        self._maybe_end_exchange(d)

    def _dealer_error(self, d: DealState, player: str, kind: str, wrong: int, cards: tuple[Card, ...]) -> None:
        dealer = d.button if self.state.dealer == "player" else None
        self._t.emit(ev.DealerErred(dealer, player, kind, wrong, cards))
        if dealer and not at_draw_stop(self.state, d, dealer) and self._t.rules.dealer_error_points:
            deduct(
                self._t, dealer, self._t.rules.dealer_error_points * wrong, "dealer_error", Moment.exchange(d.exchange)
            )

    def _maybe_end_exchange(self, d: DealState) -> None:
        if self.state.deal is not d or d.phase is not DealPhase.EXCHANGE:
            return
        if not all_placed(self.state, d) or d.awaiting:
            return
        k = d.exchange
        self._t.emit(ev.ExchangeEnded(k))
        self._after_scoring_moment(k)

    def _after_scoring_moment(self, k: int) -> None:
        """D4: hands score after exchanges 1 and 2; after exchange 3 only special hands
        (step 7, r28), then the Chicago question."""
        outcome = score_hands(self._t, Moment.exchange(k), special_only=(k >= self._t.rules.exchanges))
        if outcome is not Outcome.GO_ON:
            return
        self._continue_after(k)

    def _continue_after(self, k: int) -> None:
        d = self.state.deal
        if d is None:
            return
        if k < self._t.rules.exchanges:
            self._t.emit(ev.PhaseEntered(DealPhase.EXCHANGE, exchange=k + 1))
            self._maybe_end_exchange(d)  # everyone at draw stop: nothing to wait for
        else:
            tricks.start_chicago_round(self._t, d)

    def _quads(self, a: act.QuadsChoice) -> None:
        d = self._t.deal_in_progress()
        if step7_open(self.state, d):
            self._step7_quads(d, a.player, a.choice)
            return
        if d.phase is not DealPhase.QUADS_CHOICE or d.asking[:1] != [a.player]:
            raise IllegalAction(f"{a.player} is not asked for a four-of-a-kind choice now")
        self._choose_quads(d, a.player, a.choice)

    def _step7_quads(self, d: DealState, player: str, choice: str) -> None:
        """Step 7 (r28, D4): a four of a kind announced to zero ends the deal at once.
        "points" is what silence says: taken for any player in the deal and changing
        nothing (no event), since an answer that differed with the hand would tell who holds
        four of a kind (stop 64's fourth audit); it scores at the final scoring if best."""
        self._t.check_in_play(d, player)
        if choice != "zero":
            return
        if quads_to_announce(self.state, d) != player:
            raise IllegalAction(f"{player} holds no four of a kind that may zero now (r28)")
        self._t.emit(ev.QuadsChosen(player, choice))
        zero_opponents(self._t, player, Moment.exchange(d.exchange))
        end_deal(self._t, d, "zeroed")

    def _choose_quads(self, d: DealState, player: str, choice: str) -> None:
        self._t.emit(ev.QuadsChosen(player, choice))
        k = d.exchange
        moment = Moment.exchange(k)
        if choice == "zero":  # the deal ends at once; a new deal starts (RULES §5, D6)
            zero_opponents(self._t, player, moment)
            end_deal(self._t, d, "zeroed")
            return
        points = self._t.rules.points_for(Category.FOUR_OF_A_KIND)
        if k < self._t.rules.exchanges and award(self._t, player, points, "four_of_a_kind", moment):
            return
        self._continue_after(k)

    # --- shot clocks, "time", TL -------------------------------------------------------

    def _timeout(self, a: act.Timeout) -> None:
        d = self._t.deal_in_progress()
        p = a.player
        if a.clock == "exchange":
            self._exchange(p)
            if p in d.placed:
                raise IllegalAction(f"{p} has already placed; no exchange clock runs")
            self._t.emit(ev.ViolationRecorded(p, a.clock))  # D12: every expiry, cards placed or not
            self._place(d, p, a.cards or ())  # D12: the player exchanges what was placed (nothing, if nothing)
            self._maybe_end_exchange(d)
        elif a.clock == "chicago":
            if d.phase is not DealPhase.CHICAGO or d.asking[:1] != [p]:
                raise IllegalAction(f"{p} is not being asked the Chicago question")
            self._t.emit(ev.ViolationRecorded(p, a.clock))
            tricks.answer_chicago(self._t, d, p, False)  # D12: counts as "no"
        elif a.clock == "quads" and step7_open(self.state, d):
            self._t.check_in_play(d, p)  # no quads clock runs at step 7: nothing to record
        elif a.clock == "quads":
            if d.phase is not DealPhase.QUADS_CHOICE or d.asking[:1] != [p]:
                raise IllegalAction(f"{p} is not choosing for a four of a kind")
            self._t.emit(ev.ViolationRecorded(p, a.clock))
            self._choose_quads(d, p, "points")  # D12: "points"
        else:
            if d.phase is not DealPhase.TRICKS or next_to_play(d) != p:
                raise IllegalAction(f"it is not {p}'s turn to play")
            self._t.emit(ev.ViolationRecorded(p, a.clock))  # D12: logged, the TL alerted

    def _time_call(self, a: act.TimeCall) -> None:
        d = self._t.deal_in_progress()
        self._t.check_in_play(d, a.player)
        if d.phase is DealPhase.TRICKS and trick_complete(d):
            raise IllegalAction("the trick is complete; call time on the next player to act")
        self._t.emit(ev.HandFolded(a.player, "time"))  # general rules §2.12: the hand is dead
        self._after_fold(d)

    def _after_fold(self, d: DealState) -> None:
        """The table may no longer wait for someone (folded, out, at draw stop): go on."""
        if self.state.deal is not d:
            return
        if d.phase is DealPhase.EXCHANGE:
            self._maybe_end_exchange(d)
        elif d.phase is DealPhase.QUADS_CHOICE and not d.asking:
            self._continue_after(d.exchange)  # the chooser is gone: no choice, no points
        elif d.phase is DealPhase.CHICAGO and not d.asking:
            tricks.start_tricks(self._t, d)
        elif d.phase is DealPhase.TRICKS:
            tricks.after_play(self._t, d)

    def _tl_points(self, points: int, penalty: bool) -> None:
        """Issue 13: one TL decision (a ``penalty`` or an adjustment) moves at most
        ``tl_points_limit`` points (200 by default, a table option), so a slip of the
        finger cannot wreck the protocol."""
        limit = self._t.rules.tl_points_limit
        if abs(points) <= limit:
            return
        if penalty:  # whole sentences, each one the dashboard's catalogue says in Swedish
            raise IllegalAction(
                f"a penalty of {points} points: at most {limit} either way (the table option tl_points_limit)"
            )
        raise IllegalAction(
            f"an adjustment of {points} points: at most {limit} either way (the table option tl_points_limit)"
        )

    def _penalty(self, a: act.Penalty) -> None:
        # r32, r33: the TL's decision also after the game has ended (before the next starts):
        # the last game's; a deal or a game to sit out is one still to be played
        g = self.state.game
        if g is None:
            raise IllegalAction("no game is in progress: start one with 'game'")
        if a.player not in g.players:
            raise IllegalAction(f"{a.player} does not play in this game")
        if g.finished and a.kind in ("sit_out_deal", "sit_out_game"):
            raise IllegalAction(
                "game {n} is over: a deal or a game to sit out is one still to be played (r33)", n=g.number
            )
        if a.kind == "points":
            # A penalty deducts: `points` is the size of the deduction and its sign is
            # ignored (5 and -5 both take 5 away; to add points the TL uses `adjust`).
            # The floor at 0 (r19) still applies: the Awarded event keeps the 5 asked.
            if not a.points:
                raise IllegalAction("a points penalty deducts at least 1 point")
            self._tl_points(a.points, penalty=True)
        self._t.emit(ev.PenaltyGiven(a.player, a.kind, a.reason))
        if a.kind == "points":
            award(self._t, a.player, -abs(a.points or 0), "penalty", Moment.TL, check_out=not g.finished)
        if g.finished:  # its places again: a deduction, last place, no placement points (r33)
            placed_again(self._t, g)
        elif a.kind == "sit_out_game":
            d = g.deal
            if d is not None and a.player in d.in_play():
                self._t.emit(ev.HandFolded(a.player, "sit_out_game"))
                self._after_fold(d)
            if not g.finished:
                end_if_one_left(self._t)  # the last player still playing wins (r21, r33)

    def _adjust(self, a: act.Adjust) -> None:
        # r32: the TL corrects a score also after the game (or the table) has ended: the
        # last game's score; it does not end a game again
        g = self.state.game
        if g is None:
            raise IllegalAction("no game is in progress: start one with 'game'")
        if a.player not in g.players:
            raise IllegalAction(f"{a.player} does not play in this game")
        if a.points == 0:
            raise IllegalAction("an adjustment of 0 points changes nothing")
        self._tl_points(a.points, penalty=False)
        d = g.deal
        award(self._t, a.player, a.points, "adjust", Moment.TL, check_out=not g.finished)
        if g.finished:
            placed_again(self._t, g)
        if d is not None:
            # The player may now be out (r21) or at draw stop while the table waited for
            # them: without this the deal waited for nobody (found by tests/rules/test_atomic.py)
            self._after_fold(d)


_HANDLERS: dict[type, Callable[[Engine, Any], None]] = {
    act.TableStart: Engine._table,
    act.GameStart: Engine._game_start,
    act.Deal: Engine._deal_start,
    act.Discard: Engine._discard,
    act.OpenCard: Engine._open,
    act.Receive: Engine._receive,
    act.QuadsChoice: Engine._quads,
    act.ChicagoAnswer: lambda e, a: tricks.chicago(e._t, a),
    act.Play: lambda e, a: tricks.play(e._t, a),
    act.Retract: lambda e, a: tricks.retract(e._t, a),
    act.Timeout: Engine._timeout,
    act.TimeCall: Engine._time_call,
    act.Penalty: Engine._penalty,
    act.Adjust: Engine._adjust,
}


COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count_word(n: int) -> str:
    """A small count in words, as REPLAY.md writes a refusal ("five cards placed; at most 4")."""
    return COUNT_WORDS[n] if 0 <= n < len(COUNT_WORDS) else str(n)
