"""The random bot with the table's incidents mixed in (issue 23): shot clocks running out,
"time" called, TL penalties and corrections (also between deals), revokes and retracts.

``RandomBot`` plays clean games for the demo and the virtual table; this wrapper keeps that
bot as it is and, at a seeded rate, acts instead of it with an incident that the rules
allow at that moment, so the property tests cover the paths the clean bot never takes.
"""

from __future__ import annotations

import random

from table_controller.rules import actions as act
from table_controller.rules.engine import Engine
from table_controller.sim.bots import RandomBot

PENALTIES = ("warning", "points", "sit_out_deal", "sit_out_game", "last_place", "no_placement")


class IncidentBot:
    def __init__(self, seed: int, ruleset: str = "sm2025", rate: float = 0.06):
        self.bot = RandomBot(seed, ruleset=ruleset)
        self.rng = random.Random(seed * 7919 + 1)
        self.rate = rate
        self.sat_out: set[tuple[int, str]] = set()  # (game, player) sent out for the game
        self.kinds: list[str] = []  # what was produced, for the coverage check
        self.last_was_incident = False

    def next_action(self, engine: Engine) -> act.Action | None:
        self.last_was_incident = False
        a = self.bot.next_action(engine)
        if a is None or self.rng.random() >= self.rate:
            return a
        incident = self.incident(engine)
        if incident is None:
            return a
        self.last_was_incident = True
        self.kinds.append(incident.do if not isinstance(incident, act.Play) else "revoke")
        return incident

    def incident(self, engine: Engine) -> act.Action | None:
        rng = self.rng
        s = engine.state
        g = s.game
        if g is None or g.finished or s.finished:
            return None
        d = g.deal
        phase = engine.phase
        live = [p for p in g.seats if not g.players[p].out]
        options: list[act.Action] = []
        who = rng.choice(live)
        # TL decisions, in a deal or between deals (REPLAY.md: a change between deals
        # belongs to the next deal)
        options.append(act.Adjust(who, rng.choice([-7, -3, -1, 1, 2, 5, 9]), "recount"))
        kind = rng.choice(PENALTIES)
        if kind == "sit_out_game":
            if any(k[0] == g.number for k in self.sat_out) or len(live) < 3:
                kind = "warning"  # one per game: the table still plays on
            else:
                self.sat_out.add((g.number, who))
        options.append(act.Penalty(who, kind, rng.randint(0, 6) if kind == "points" else None, "r33"))
        if d is not None:
            to_act = engine.to_act()
            if phase.startswith("exchange"):
                placing = [p for p in to_act if p not in d.placed]
                if placing:
                    options.append(act.Timeout(placing[0], "exchange"))
            elif phase == "chicago" and d.asking:
                options.append(act.Timeout(d.asking[0], "chicago"))
            elif phase == "quads_choice" and d.asking:
                options.append(act.Timeout(d.asking[0], "quads"))
            elif phase == "tricks" and to_act:
                p = to_act[0]
                options.append(act.Timeout(p, "play"))
                if d.pending_revoke and d.trick and d.trick[-1][0] == d.pending_revoke:
                    options += [act.Retract(d.pending_revoke)] * 3
                elif d.trick and not engine.trick_complete and p in d.hands:
                    led = d.trick[0][1].suit
                    hand = d.hands[p]
                    off = sorted(c for c in hand if c.suit != led)
                    if off and any(c.suit == led for c in hand):
                        options += [act.Play(p, rng.choice(off))] * 2  # a revoke (r26)
            in_play = [p for p in d.in_play() if p not in d.dead]
            if len(in_play) > 2 and rng.random() < 0.3:
                options.append(act.TimeCall(rng.choice(in_play)))
        return rng.choice(options)
