"""Rulesets as data (RULES.md §13): one frozen object of parameters and named rule options.

    >>> RULESETS["sm2025"].draw_stop
    45
    >>> ruleset("sm2019", {"draw_stop": 46}).draw_stop
    46

The engine reads parameters and options; it never asks which ruleset it is playing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from .hands import Category


# D11: shot-clock defaults in seconds, configurable per event (RULES.md §10)
DEFAULT_CLOCKS: dict[str, float] = {"exchange": 30.0, "chicago": 10.0, "play": 20.0, "quads": 15.0}
# General rules §2.12: "time" gives 60 s, then a 10 s countdown
TIME_CALL_SECONDS = (60.0, 10.0)


class RulesetError(ValueError):
    """An unknown ruleset or option."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    min_players: int = 3
    max_players: int = 4
    dealer: str = "dedicated"                   # "dedicated" (SM) or "player" (rotating)
    max_exchange_cards: int = 4                 # r12
    exchanges: int = 3
    draw_stop: int = 45                         # köpstopp
    draw_stop_from_next_deal: bool = False      # classic: 46 counts from the next deal
    # What an exchange at draw stop does: "refuse" (D5), "zero_keep_chicago" (sm2019 r19),
    # "zero_clear_chicago" (shootout)
    draw_stop_attempt: str = "refuse"
    chicago_min_score: int = 15                 # r20
    chicago_required_to_win: bool = True        # r20/r21; classic: highest score after the deal
    hand_points: Mapping[str, int] = field(default_factory=lambda: {
        "one_pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
        "full_house": 6, "four_of_a_kind": 8, "straight_flush": 20, "royal_flush": 52})
    quads_zero_choice: bool = True              # "8 or zero" (r19 antingen eller)
    # straight flush: "out" (sm2025: score set to 52, a win), "points_out_if_chicago"
    # (sm2019: 20, out if Chicago said this game), "points" (classic)
    straight_flush: str = "out"
    # royal: "out_zero_all" (sm2025), "win" (sm2019/shootout: immediate win), "points"
    royal_flush: str = "out_zero_all"
    special_suit_order: str | None = "SHDC"     # equal SF/royal: highest suit first
    tie_nobody_scores: bool = True              # D2
    last_trick: int = 5                         # r27
    last_trick_two: int = 10
    chicago_won: int = 15
    chicago_lost: int = -15
    chicago_breaker: int = 10                   # r24
    # "sm": no other points when Chicago is said (r23, r27); "classic": +15 instead of the
    # last trick and hands still score; failed: -15, no hand scoring, no breaker bonus
    chicago_style: str = "sm"
    revoke: str = "dead_hand"                   # sm2025 r26; "correct_minus_2" (sm2019); "none"
    revoke_points: int = -2
    dealer_error_points: int = -3               # per wrong card, only when a player deals (r14)
    placement_points: tuple[int, ...] = (20, 12, 8, 5)
    games_per_table: int = 3
    playoff_deals: int = 3                      # särspel (r11)
    advance_first_heat: int = 2                 # r7: from heat 1 the top 2 go on
    advance_later_heats: int = 1                # from heat 2 on, only the winner
    heat: int = 1                               # which heat this table plays (an event option)

    def points_for(self, category: Category) -> int:
        return self.hand_points.get(category.reason, 0)

    def with_options(self, options: Mapping[str, Any] | None) -> "Ruleset":
        """A copy with parameter overrides (the ``options`` of a ``table`` action)."""
        if not options:
            return self
        names = {f.name: f for f in fields(self)}
        bad = sorted(set(options) - set(names) - {"name"})
        if bad:
            raise RulesetError(f"unknown ruleset option(s) {bad}; known: {sorted(names)}")
        clean = dict(options)
        if "placement_points" in clean:
            clean["placement_points"] = tuple(clean["placement_points"])
        if "hand_points" in clean:
            clean["hand_points"] = {**self.hand_points, **clean["hand_points"]}
        return replace(self, **clean)

    def as_rows(self) -> list[tuple[str, str]]:
        out = []
        for f in fields(self):
            if f.name in ("name", "description"):
                continue
            v = getattr(self, f.name)
            if isinstance(v, Mapping):
                v = ", ".join(f"{k} {p}" for k, p in v.items())
            elif isinstance(v, tuple):
                v = " / ".join(str(x) for x in v)
            out.append((f.name, str(v)))
        return out


SM2025 = Ruleset(
    name="sm2025",
    description="Chicago Regler Juni 2025: the current SM rules (the default)",
    hand_points={"one_pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
                 "full_house": 6, "four_of_a_kind": 8, "straight_flush": 0, "royal_flush": 0},
)

SM2019 = replace(
    SM2025,
    name="sm2019",
    description="Regler Chicago, SM-disciplin 2019",
    dealer="player",
    draw_stop_attempt="zero_keep_chicago",
    hand_points={**SM2025.hand_points, "straight_flush": 20, "royal_flush": 0},
    straight_flush="points_out_if_chicago",
    royal_flush="win",
    special_suit_order="HSDC",
    revoke="correct_minus_2",
    advance_first_heat=1,
)

SHOOTOUT = replace(
    SM2019,
    name="shootout",
    description="Poker Event Chicago Shootout 4-max",
    draw_stop_attempt="zero_clear_chicago",
    dealer_error_points=-2,
    placement_points=(4, 3, 2, 1),
    playoff_deals=1,
    advance_first_heat=1,
)

CLASSIC = replace(
    SM2025,
    name="classic",
    description="The classic home game (pagat.com)",
    min_players=2,
    dealer="player",
    max_exchange_cards=5,
    draw_stop=46,
    draw_stop_from_next_deal=True,
    chicago_required_to_win=False,
    hand_points={"one_pair": 1, "two_pair": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
                 "full_house": 6, "four_of_a_kind": 7, "straight_flush": 8, "royal_flush": 52},
    quads_zero_choice=False,
    straight_flush="points",
    royal_flush="points",
    special_suit_order=None,
    chicago_style="classic",
    revoke="none",
    dealer_error_points=0,
    placement_points=(),
    playoff_deals=0,
    advance_first_heat=0,
    advance_later_heats=0,
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (SM2025, SM2019, SHOOTOUT, CLASSIC)}


def ruleset(name: str = "sm2025", options: Mapping[str, Any] | None = None) -> Ruleset:
    """The named ruleset with option overrides; :class:`RulesetError` for an unknown name."""
    if name not in RULESETS:
        raise RulesetError(f"unknown ruleset {name!r}; choose one of {', '.join(RULESETS)}")
    return RULESETS[name].with_options(options)
