"""The expected replay documents of the example scripts, every value worked out by hand
from RULES.md and REPLAY.md (the comment above each says how), then compared with the
engine (tests/rules/test_examples_expected.py).  ``full_table`` is the exception: see
tests/rules/reference_sm2025.py.

    python -m tests.rules.examples_by_hand table_controller/examples   # rewrites the files
"""

import json
import sys

P = ["Anna", "Bo", "Cilla", "Dan"]


def aw(player, points, reason, moment):
    return {"player": player, "points": points, "reason": reason, "moment": moment}


def sc(**kw):
    return {p: kw.get(p, 0) for p in P}


def deal(number, button, scores_after, awards):
    return {"number": number, "button": button, "scores_after": scores_after, "awards": awards}


def game(
    scores, deals, finished=False, winner=None, said=(), won=None, out=(), places=None, pp=None, number=1, seats=P
):
    return {
        "number": number,
        "finished": finished,
        "winner": winner,
        "scores": scores,
        "said_chicago": list(said),
        "won_chicagos": won or {},
        "out_without_chicago": list(out),
        "places": places or {},
        "placement_points": pp or {},
        "seats": list(seats),
        "deals": deals,
    }


def st(*rows, finished=False, advancing=None):
    """rows: (player, rank, placement_points, score_total, won_chicagos)"""
    t = {
        "finished": finished,
        "standings": [
            {"player": p, "rank": r, "placement_points": pp, "score_total": s, "won_chicagos": w}
            for p, r, pp, s, w in rows
        ],
    }
    if advancing is not None:
        t["advancing"] = advancing
    return t


def cur(deal_no, phase, to_act, scores, game_no=1):
    return {"game": game_no, "deal": deal_no, "phase": phase, "to_act": to_act, "scores": scores}


def doc(ruleset, games, table, current, rejected=()):
    return {"ruleset": ruleset, "games": games, "table": table, "current": current, "rejected": list(rejected)}


E = {}

# chicago_broken: Anna 20 (TL), says Chicago (r20), wins tricks 1-4, Cilla's TH beats her 9H in
# trick 5: Anna -15, Cilla +10, trick play ends (r24, D8)
s = sc(Anna=5, Cilla=10)
E["chicago_broken"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Anna", 20, "adjust", "tl"),
                        aw("Anna", -15, "chicago_lost", "tricks"),
                        aw("Cilla", 10, "chicago_broken", "tricks"),
                    ],
                )
            ],
            said=["Anna"],
        )
    ],
    st(("Cilla", 1, 0, 10, 0), ("Anna", 2, 0, 5, 0), ("Bo", 3, 0, 0, 0), ("Dan", 3, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# chicago_won: 20 + 15, one star (r10, r23)
s = sc(Anna=35)
E["chicago_won"] = doc(
    "sm2025",
    [
        game(
            s,
            [deal(1, "Dan", s, [aw("Anna", 20, "adjust", "tl"), aw("Anna", 15, "chicago_won", "tricks")])],
            said=["Anna"],
            won={"Anna": 1},
        )
    ],
    st(("Anna", 1, 0, 35, 1), ("Bo", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0), ("Dan", 2, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# classic: Bo's pair of twos scores after exchanges 1 and 2; Anna's won Chicago gives 15 instead of
# the last trick's 5 and the hands still score: Bo's pair again in the final scoring (§13)
s = sc(Anna=35, Bo=3)
E["classic_chicago_hands_still_score"] = doc(
    "classic",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Anna", 20, "adjust", "tl"),
                        aw("Bo", 1, "one_pair", "exchange_1"),
                        aw("Bo", 1, "one_pair", "exchange_2"),
                        aw("Anna", 15, "chicago_won", "tricks"),
                        aw("Bo", 1, "one_pair", "final"),
                    ],
                )
            ],
            said=["Anna"],
            won={"Anna": 1},
        )
    ],
    st(("Anna", 1, 0, 35, 1), ("Bo", 2, 0, 3, 0), ("Cilla", 3, 0, 0, 0), ("Dan", 3, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# draw_stop: Anna at 46 may not exchange (D5): line 6 refused, nothing changes; no hand scores
s = sc(Anna=46)
E["draw_stop"] = doc(
    "sm2025",
    [game(s, [deal(1, "Dan", s, [aw("Anna", 46, "adjust", "tl")])])],
    st(("Anna", 1, 0, 46, 0), ("Bo", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0), ("Dan", 2, 0, 0, 0)),
    cur(1, "exchange_2", ["Bo", "Cilla", "Dan"], s),
    [
        {
            "line": 6,
            "action": "discard",
            "reason": "draw stop: Anna has 46 points and may not exchange (D5, köpstopp at 45)",
        }
    ],
)

# last_trick_two: no hand scores; Anna wins the last trick with 2S: 10 (r27)
s = sc(Anna=10)
E["last_trick_two"] = doc(
    "sm2025",
    [game(s, [deal(1, "Dan", s, [aw("Anna", 10, "last_trick_two", "final")])])],
    st(("Anna", 1, 0, 10, 0), ("Bo", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0), ("Dan", 2, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# open_card_declined: after exchange 1 Anna has AA, Bo 99, Dan TTT: Dan's three of a kind scores 3
s = sc(Dan=3)
E["open_card_declined"] = doc(
    "sm2025",
    [game(s, [deal(1, "Dan", s, [aw("Dan", 3, "three_of_a_kind", "exchange_1")])])],
    st(("Dan", 1, 0, 3, 0), ("Anna", 2, 0, 0, 0), ("Bo", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0)),
    cur(1, "exchange_2", P, s),
)

# out_without_chicago: Bo 50 + two pair = 52 without Chicago: out (r21); exchange 2: Anna's 4C + 4H
# pair scores 1; the deal goes on at exchange 3 without Bo
s = sc(Anna=1, Bo=52)
E["out_without_chicago"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Bo", 50, "adjust", "tl"),
                        aw("Bo", 2, "two_pair", "exchange_1"),
                        aw("Anna", 1, "one_pair", "exchange_2"),
                    ],
                )
            ],
            out=["Bo"],
        )
    ],
    st(("Bo", 1, 0, 52, 0), ("Anna", 2, 0, 1, 0), ("Cilla", 3, 0, 0, 0), ("Dan", 3, 0, 0, 0)),
    cur(1, "exchange_3", ["Anna", "Cilla", "Dan"], s),
)

# player_dealer_error: three cards for two: one wrong card, 3 points off Dan (r14); corrected, Anna's
# KS with KH KD: three kings score 3
s = sc(Anna=3, Dan=7)
E["player_dealer_error"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Dan", 10, "adjust", "tl"),
                        aw("Dan", -3, "dealer_error", "exchange_1"),
                        aw("Anna", 3, "three_of_a_kind", "exchange_1"),
                    ],
                )
            ],
        )
    ],
    st(("Dan", 1, 0, 7, 0), ("Anna", 2, 0, 3, 0), ("Bo", 3, 0, 0, 0), ("Cilla", 3, 0, 0, 0)),
    cur(1, "exchange_2", P, s),
)

# quads_points: 8 after exchanges 1 and 2 (not 3, D4), Anna's last trick 5, then Dan's quads 8 (D7)
s = sc(Anna=5, Dan=24)
E["quads_points"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Dan", 8, "four_of_a_kind", "exchange_1"),
                        aw("Dan", 8, "four_of_a_kind", "exchange_2"),
                        aw("Anna", 5, "last_trick", "final"),
                        aw("Dan", 8, "four_of_a_kind", "final"),
                    ],
                )
            ],
        )
    ],
    st(("Dan", 1, 0, 24, 0), ("Anna", 2, 0, 5, 0), ("Bo", 3, 0, 0, 0), ("Cilla", 3, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# quads_zero: Bo and Cilla zeroed, the deal ends (r19, D6)
s = sc()
E["quads_zero"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Bo", 12, "adjust", "tl"),
                        aw("Cilla", 30, "adjust", "tl"),
                        aw("Bo", -12, "zeroed", "exchange_1"),
                        aw("Cilla", -30, "zeroed", "exchange_1"),
                    ],
                )
            ],
        )
    ],
    st(("Anna", 1, 0, 0, 0), ("Bo", 1, 0, 0, 0), ("Cilla", 1, 0, 0, 0), ("Dan", 1, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# revoke: Bo's fours score after exchanges 1 and 2; his revoke stands (dead hand, r26); Dan wins
# trick 4 with 7H and the last trick with 2H (10, r27); Bo's dead hand still scores its pair
s = sc(Bo=3, Dan=10)
E["revoke"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Bo", 1, "one_pair", "exchange_1"),
                        aw("Bo", 1, "one_pair", "exchange_2"),
                        aw("Dan", 10, "last_trick_two", "final"),
                        aw("Bo", 1, "one_pair", "final"),
                    ],
                )
            ],
        )
    ],
    st(("Dan", 1, 0, 10, 0), ("Bo", 2, 0, 3, 0), ("Anna", 3, 0, 0, 0), ("Cilla", 3, 0, 0, 0)),
    cur(2, "deal", [], s),
)

# royal_flush: Anna's aces 1 after exchange 1; Cilla's royal flush after exchange 2: out at 52, Anna
# zeroed (r19); Anna, Bo, Dan equal: places 2-4 shared, (12+8+5)/3 each
s = sc(Cilla=52)
third = 25 / 3
E["royal_flush"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Anna", 1, "one_pair", "exchange_1"),
                        aw("Cilla", 52, "royal_flush", "exchange_2"),
                        aw("Anna", -1, "zeroed", "exchange_2"),
                    ],
                )
            ],
            finished=True,
            winner="Cilla",
            places={"Cilla": 1, "Anna": 2, "Bo": 2, "Dan": 2},
            pp={"Cilla": 20, "Anna": third, "Bo": third, "Dan": third},
        )
    ],
    st(("Cilla", 1, 20, 52, 0), ("Anna", 2, third, 0, 0), ("Bo", 2, third, 0, 0), ("Dan", 2, third, 0, 0)),
    cur(1, "game_over", [], s),
)

# shootout_draw_stop_attempt: deal 1 Anna's Chicago won (35, a star); deal 2 (button Anna) 35+15 = 50,
# her exchange at draw stop: score to 0 and her said-Chicago circle cleared (shootout, §4)
s1 = sc(Anna=35)
s = sc()
E["shootout_draw_stop_attempt"] = doc(
    "shootout",
    [
        game(
            s,
            [
                deal(1, "Dan", s1, [aw("Anna", 20, "adjust", "tl"), aw("Anna", 15, "chicago_won", "tricks")]),
                deal(
                    2, "Anna", s, [aw("Anna", 15, "adjust", "tl"), aw("Anna", -50, "draw_stop_attempt", "exchange_1")]
                ),
            ],
            won={"Anna": 1},
        )
    ],
    st(("Anna", 1, 0, 0, 1), ("Bo", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0), ("Dan", 2, 0, 0, 0)),
    cur(2, "exchange_1", ["Bo", "Cilla", "Dan"], s),
)

# shootout_placement_points: Bo's Chicago broken by Anna's 9H (Bo 5, Anna 10); the TL corrections
# after the deal belong to deal 2 (REPLAY.md): Bo 55 with Chicago said wins; 4/3/2/1 (r8)
s1 = sc(Anna=10, Bo=5)
s = sc(Anna=13, Bo=55, Cilla=2, Dan=1)
E["shootout_placement_points"] = doc(
    "shootout",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s1,
                    [
                        aw("Bo", 20, "adjust", "tl"),
                        aw("Bo", -15, "chicago_lost", "tricks"),
                        aw("Anna", 10, "chicago_broken", "tricks"),
                    ],
                ),
                deal(
                    2,
                    "Anna",
                    s,
                    [
                        aw("Anna", 3, "adjust", "tl"),
                        aw("Cilla", 2, "adjust", "tl"),
                        aw("Dan", 1, "adjust", "tl"),
                        aw("Bo", 50, "adjust", "tl"),
                    ],
                ),
            ],
            finished=True,
            winner="Bo",
            said=["Bo"],
            places={"Bo": 1, "Anna": 2, "Cilla": 3, "Dan": 4},
            pp={"Bo": 4, "Anna": 3, "Cilla": 2, "Dan": 1},
        )
    ],
    st(("Bo", 1, 4, 55, 0), ("Anna", 2, 3, 13, 0), ("Cilla", 3, 2, 2, 0), ("Dan", 4, 1, 1, 0)),
    cur(2, "game_over", [], s),
)

# sm2019_revoke_corrected: Bo 5 + his fours twice = 7; the revoke corrected at once costs 2 (r26)
s = sc(Bo=5)
E["sm2019_revoke_corrected"] = doc(
    "sm2019",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Bo", 5, "adjust", "tl"),
                        aw("Bo", 1, "one_pair", "exchange_1"),
                        aw("Bo", 1, "one_pair", "exchange_2"),
                        aw("Bo", -2, "revoke", "tricks"),
                    ],
                )
            ],
        )
    ],
    st(("Bo", 1, 0, 5, 0), ("Anna", 2, 0, 0, 0), ("Cilla", 2, 0, 0, 0), ("Dan", 2, 0, 0, 0)),
    cur(1, "tricks", ["Anna"], s),
)

# sm2019_straight_flush_with_chicago: deal 1 Bo's Chicago broken by Anna (Bo 5, Anna 10); deal 2
# (button Anna) Bo's straight flush: 20, and having said Chicago he goes out and wins (r19);
# Cilla and Dan equal at 0 share 8+5
s1 = sc(Anna=10, Bo=5)
s = sc(Anna=10, Bo=25)
E["sm2019_straight_flush_with_chicago"] = doc(
    "sm2019",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s1,
                    [
                        aw("Bo", 20, "adjust", "tl"),
                        aw("Bo", -15, "chicago_lost", "tricks"),
                        aw("Anna", 10, "chicago_broken", "tricks"),
                    ],
                ),
                deal(2, "Anna", s, [aw("Bo", 20, "straight_flush", "exchange_1")]),
            ],
            finished=True,
            winner="Bo",
            said=["Bo"],
            places={"Bo": 1, "Anna": 2, "Cilla": 3, "Dan": 3},
            pp={"Bo": 20, "Anna": 12, "Cilla": 6.5, "Dan": 6.5},
        )
    ],
    st(("Bo", 1, 20, 25, 0), ("Anna", 2, 12, 10, 0), ("Cilla", 3, 6.5, 0, 0), ("Dan", 3, 6.5, 0, 0)),
    cur(2, "game_over", [], s),
)

# straight_flush: Bo out at 52 (sm2025 r19), the others keep their scores; 20/12/8/5 by score
s = sc(Bo=52, Cilla=7, Dan=3)
E["straight_flush"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [
                        aw("Cilla", 7, "adjust", "tl"),
                        aw("Dan", 3, "adjust", "tl"),
                        aw("Bo", 52, "straight_flush", "exchange_1"),
                    ],
                )
            ],
            finished=True,
            winner="Bo",
            places={"Bo": 1, "Cilla": 2, "Dan": 3, "Anna": 4},
            pp={"Bo": 20, "Cilla": 12, "Dan": 8, "Anna": 5},
        )
    ],
    st(("Bo", 1, 20, 52, 0), ("Cilla", 2, 12, 7, 0), ("Dan", 3, 8, 3, 0), ("Anna", 4, 5, 0, 0)),
    cur(1, "game_over", [], s),
)

# stub_reshuffled: Bo's three kings after exchange 1 (3), Cilla's eights and twos after exchange 2 (2);
# nothing after exchange 3 (D4; Dan's three jacks are not a special hand); nobody has 15: tricks
s = sc(Bo=3, Cilla=2)
E["stub_reshuffled"] = doc(
    "sm2025",
    [
        game(
            s,
            [
                deal(
                    1,
                    "Dan",
                    s,
                    [aw("Bo", 3, "three_of_a_kind", "exchange_1"), aw("Cilla", 2, "two_pair", "exchange_2")],
                )
            ],
        )
    ],
    st(("Bo", 1, 0, 3, 0), ("Cilla", 2, 0, 2, 0), ("Anna", 3, 0, 0, 0), ("Dan", 3, 0, 0, 0)),
    cur(1, "tricks", ["Anna"], s),
)

# tie_at_scoring: equal best hands, nobody scores (D2)
s = sc()
E["tie_at_scoring"] = doc(
    "sm2025",
    [game(s, [deal(1, "Dan", s, [])])],
    st(("Anna", 1, 0, 0, 0), ("Bo", 1, 0, 0, 0), ("Cilla", 1, 0, 0, 0), ("Dan", 1, 0, 0, 0)),
    cur(1, "exchange_2", P, s),
)

if __name__ == "__main__":
    for name, d in E.items():
        with open(f"{sys.argv[1]}/{name}.expected.json", "w") as f:
            json.dump(d, f, indent=1, ensure_ascii=False)
            f.write("\n")
    print(len(E), "written")
