"""A second, independent reading of the sm2025 rules for clean bot-played scripts (issue 23).

It works out, from RULES.md alone, the replay document of a script that uses only
table/game/deal/discard/open/receive/quads/chicago/play (no TL actions, revokes or
dealer errors), with phevaluator for hand values instead of the engine's evaluator.
It wrote ``full_table.expected.json`` (2,300 lines are too many to work out by pen); the
small examples' expected documents were written by hand.  It shares no code with the
engine: a wrong rule there is not repeated here.
"""

from __future__ import annotations

import json

from phevaluator import evaluate_cards

from tests.rules.results_oracle import game_result, table_result

RANKS = "23456789TJQKA"
POINTS = {
    "one_pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 6,
    "four_of_a_kind": 8,
}
# phevaluator: 1 (royal) .. 7462; category by rank boundaries
BOUNDS = [
    (1, "royal_flush"),
    (10, "straight_flush"),
    (166, "four_of_a_kind"),
    (322, "full_house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three_of_a_kind"),
    (3325, "two_pair"),
    (6185, "one_pair"),
    (7462, "high_card"),
]
SUIT_ORDER = "SHDC"  # sm2025: between equal straight flushes / royals (§2)


def category(rank: int) -> str:
    return next(c for b, c in BOUNDS if rank <= b)


def value(cards: list[str]) -> tuple[int, int]:
    """Lower is better: phevaluator's rank, then (straight/royal flushes only) the suit."""
    r = evaluate_cards(*[c[0] + c[1].lower() for c in cards])
    suit = SUIT_ORDER.index(cards[0][1]) if category(r) in ("straight_flush", "royal_flush") else 0
    return r, suit


class GameOver(Exception):
    pass


class DealOver(Exception):
    pass


class Table:
    def __init__(self, players):
        self.players = list(players)
        self.games: list[dict] = []

    # --- per game ---------------------------------------------------------------------
    def new_game(self, seats, button):
        self.g = {
            "number": len(self.games) + 1,
            "seats": list(seats),
            "first_button": button,
            "score": {p: 0 for p in seats},
            "said": set(),
            "won": {},
            "out": [],
            "deals": [],
            "finished": False,
            "winner": None,
        }
        self.games.append(self.g)
        self.d = None

    def award(self, p, pts, reason, moment, check=True):
        g = self.g
        new = max(0, g["score"][p] + pts)
        delta = new - g["score"][p]
        if delta == 0 and pts == 0:
            return
        g["score"][p] = new
        self.d["rec"]["awards"].append({"player": p, "points": delta, "reason": reason, "moment": moment})
        if check and new >= 52 and p not in g["out"]:
            if p in g["said"]:  # r20, r30
                self.end_game(p)
            g["out"].append(p)  # r21
            left = [q for q in g["seats"] if q not in g["out"]]
            if len(left) == 1:
                self.end_game(left[0])
            if len(self.live()) < 2:
                self.end_deal()

    def end_deal(self):
        self.d["rec"]["scores_after"] = dict(self.g["score"])
        self.d = None
        raise DealOver

    def end_game(self, winner):
        g = self.g
        g["finished"], g["winner"] = True, winner
        if self.d is not None:
            self.d["rec"]["scores_after"] = dict(g["score"])
        self.d = None
        raise GameOver

    # --- per deal ---------------------------------------------------------------------
    def live(self):
        return [p for p in self.d["order"] if p not in self.g["out"]]

    def new_deal(self, hands):
        g = self.g
        seats = g["seats"]
        if not g["deals"]:
            button = g["first_button"]
        else:
            i = seats.index(g["deals"][-1]["button"])
            button = next(
                seats[(i + k) % len(seats)]
                for k in range(1, len(seats) + 1)
                if seats[(i + k) % len(seats)] not in g["out"]
            )  # r6
        i = seats.index(button)
        order = [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]
        order = [p for p in order if p not in g["out"]]
        rec = {"number": len(g["deals"]) + 1, "button": button, "scores_after": None, "awards": []}
        g["deals"].append(rec)
        self.d = {
            "rec": rec,
            "order": order,
            "hands": {p: list(hands[p]) for p in order},
            "played": {p: [] for p in order},
            "k": 1,
            "placed": set(),
            "owed": {},
            "quads": {},
            "asking": [],
            "chicago": None,
            "phase": "exchange",
            "trick": [],
            "tricks": [],
            "leader": None,
        }

    def stopped(self, p):
        return self.g["score"][p] >= 45  # draw stop, effective at once

    def maybe_end_exchange(self):
        d = self.d
        if any(p not in d["placed"] and not self.stopped(p) for p in self.live()) or any(d["owed"].values()):
            return
        k = d["k"]
        d["placed"], d["owed"] = set(), {}
        self.scoring(f"exchange_{k}", special_only=(k == 3))

    def after_scoring(self, k):
        d = self.d
        if k < 3:
            d["k"] = k + 1
            self.maybe_end_exchange()
        else:
            asked = [p for p in self.live() if self.g["score"][p] >= 15]
            if asked:
                d["phase"], d["asking"] = "chicago", asked
            else:
                self.start_tricks()

    def best(self, hands):
        vals = {p: value(h) for p, h in hands.items() if len(h) == 5}
        if not vals:
            return None, None
        top = min(vals.values())
        leaders = [p for p, v in vals.items() if v == top]
        if category(top[0]) == "high_card" or len(leaders) > 1:  # D2
            return None, None
        return leaders[0], category(top[0])

    def scoring(self, moment, special_only=False, final=False):
        d = self.d
        hands = {p: (d["hands"][p] + d["played"][p]) if final else d["hands"][p] for p in self.live()}
        p, cat = self.best(hands)
        k = int(moment[-1]) if moment.startswith("exchange") else 4
        if p is None:
            return self.after_scoring(k) if not final else None
        if cat == "royal_flush":
            self.award(p, 52 - self.g["score"][p], "royal_flush", moment, check=False)
            for q in self.g["seats"]:
                if q != p and q not in self.g["out"] and self.g["score"][q] > 0:  # r21: out, kept
                    self.award(q, -self.g["score"][q], "zeroed", moment, check=False)
            self.end_game(p)
        if cat == "straight_flush":
            self.award(p, 52 - self.g["score"][p], "straight_flush", moment, check=False)
            self.end_game(p)
        if cat == "four_of_a_kind" and p not in d["quads"] and not final:
            d["phase"], d["asking"] = "quads_choice", [p]
            d["quads_moment"] = k
            return
        if not special_only:
            self.award(p, POINTS[cat], cat, moment)
        if not final:
            self.after_scoring(k)

    def quads(self, p, choice):
        d = self.d
        d["quads"][p] = choice
        k = d.pop("quads_moment")
        d["phase"] = "exchange"
        if choice == "zero":  # r19, D6
            for q in self.g["seats"]:
                if q != p and q not in self.g["out"] and self.g["score"][q] > 0:  # r21: out, kept
                    self.award(q, -self.g["score"][q], "zeroed", f"exchange_{k}", check=False)
            self.end_deal()
        if k < 3:
            self.award(p, 8, "four_of_a_kind", f"exchange_{k}")
        self.after_scoring(k)

    def chicago(self, p, say):
        d = self.d
        assert d["asking"][0] == p
        d["asking"].pop(0)
        if say:
            d["chicago"] = p
            self.g["said"].add(p)
        if say or not d["asking"]:
            self.start_tricks()

    def start_tricks(self):
        d = self.d
        d["phase"] = "tricks"
        d["leader"] = d["chicago"] or self.live()[0]  # r23, r25

    def play(self, p, card):
        d = self.d
        d["hands"][p].remove(card)
        d["played"][p].append(card)
        d["trick"].append((p, card))
        led = d["trick"][0][1][1]
        c = d["chicago"]
        if c and p != c:
            mine = next(x for q, x in d["trick"] if q == c)
            if card[1] == led and RANKS.index(card[0]) > RANKS.index(mine[0]):  # r24, D8
                self.award(c, -15, "chicago_lost", "tricks")
                self.award(p, 10, "chicago_broken", "tricks")
                self.end_deal()
        if len(d["trick"]) < len(self.live()):
            return
        wp, wc = max((x for x in d["trick"] if x[1][1] == led), key=lambda x: RANKS.index(x[1][0]))
        d["tricks"].append((wp, wc))
        d["trick"] = []
        if len(d["tricks"]) < 5:
            return
        if c:  # all five won (a lost trick broke it above)
            self.g["won"][c] = self.g["won"].get(c, 0) + 1  # the star counts even when +15 ends the game
            self.award(c, 15, "chicago_won", "tricks")
            self.end_deal()
        two = wc[0] == "2"  # r27
        self.award(wp, 10 if two else 5, "last_trick_two" if two else "last_trick", "final")  # D7
        for q in self.live():  # quads not yet chosen count as points in the final scoring
            self.d["quads"].setdefault(q, "points")
        self.scoring("final", final=True)
        self.end_deal()

    # --- the script -------------------------------------------------------------------
    def step(self, a):
        do = a["do"]
        try:
            if do == "game":
                self.new_game(a["seats"], a["button"])
            elif do == "deal":
                self.new_deal(a["hands"])
                self.maybe_end_exchange()
            elif do == "discard":
                d = self.d
                for c in a["cards"]:
                    d["hands"][a["player"]].remove(c)
                d["placed"].add(a["player"])
                d["owed"][a["player"]] = len(a["cards"])
                self.maybe_end_exchange()
            elif do == "open":
                if a["take"]:
                    self.d["hands"][a["player"]].append(a["card"])
                    self.d["owed"][a["player"]] -= 1
                self.maybe_end_exchange()
            elif do == "receive":
                self.d["hands"][a["player"]] += a["cards"]
                self.d["owed"][a["player"]] -= len(a["cards"])
                self.maybe_end_exchange()
            elif do == "quads":
                self.quads(a["player"], a["choice"])
            elif do == "chicago":
                self.chicago(a["player"], a["say"])
            elif do == "play":
                self.play(a["player"], a["card"])
            else:
                raise ValueError(f"the reference reads clean scripts only, not {do!r}")
        except (DealOver, GameOver):
            pass


def reference_document(lines: list[str]) -> dict:
    actions = [json.loads(x) for x in lines if x.strip() and not x.startswith("#")]
    first = actions[0]
    assert first["do"] == "table" and first.get("ruleset", "sm2025") == "sm2025"
    t = Table(first["players"])
    for a in actions[1:]:
        t.step(a)
    games = []
    for g in t.games:
        players = [p for p in t.players if p in g["score"]]
        doc = {
            "number": g["number"],
            "finished": g["finished"],
            "winner": g["winner"],
            "scores": {p: g["score"][p] for p in players},
            "said_chicago": [p for p in players if p in g["said"]],
            "won_chicagos": {p: g["won"][p] for p in players if g["won"].get(p)},
            "out_without_chicago": [p for p in g["out"] if p != g["winner"]],
            "places": {},
            "placement_points": {},
            "seats": g["seats"],
            "deals": [dict(r, scores_after={p: r["scores_after"][p] for p in players}) for r in g["deals"]],
        }
        if g["finished"]:
            places, points = game_result("sm2025", doc)
            doc["places"] = dict(sorted(places.items(), key=lambda kv: kv[1]))
            doc["placement_points"] = {p: points[p] for p in doc["places"]}
        games.append(doc)
    standings, advancing = table_result("sm2025", games)
    finished = len(games) == 3 and all(g["finished"] for g in games) and standings[0]["rank"] != standings[1]["rank"]
    table = {"finished": finished, "standings": standings}
    if finished:
        table["advancing"] = advancing
    last = games[-1]
    current = {
        "game": last["number"],
        "deal": len(last["deals"]),
        "phase": "table_over" if finished else "game_over",
        "to_act": [],
        "scores": last["scores"],
    }
    return {"ruleset": "sm2025", "games": games, "table": table, "current": current, "rejected": []}


if __name__ == "__main__":  # python -m tests.rules.reference_sm2025 SCRIPT > EXPECTED
    import sys

    with open(sys.argv[1]) as f:
        print(json.dumps(reference_document(f.read().splitlines()), indent=1, ensure_ascii=False))
