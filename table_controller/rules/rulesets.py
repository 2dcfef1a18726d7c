"""Rulesets as data (RULES.md §13): one frozen object of parameters and named rule options.

    >>> RULESETS["sm2025"].draw_stop
    45
    >>> ruleset("sm2019", {"draw_stop": 46}).draw_stop
    46

The engine reads parameters and options; it never asks which ruleset it is playing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from table_controller.rules.actions import shown
from table_controller.rules.errors import RulesetError
from table_controller.rules.hands import Category

# D11: shot-clock defaults in seconds, configurable per event (RULES.md §10)
DEFAULT_CLOCKS: dict[str, float] = {"exchange": 30.0, "chicago": 10.0, "play": 20.0, "quads": 15.0}
# General rules §2.12: "time" gives 60 s, then a 10 s countdown
TIME_CALL_SECONDS = (60.0, 10.0)


class ClockError(ValueError):
    """A bad clock setting or request (``clocks.ShotClocks``, ``parse_shot_clocks``).
    ``kind`` and ``params``, where given, let the console say it in its own words
    (``app.words.clock_error_words``)."""

    def __init__(self, text: str, kind: str = "", **params: str) -> None:
        super().__init__(text)
        self.kind, self.params = kind, params


def parse_shot_clocks(text: str) -> dict[str, float]:
    """An event's shot clocks (D11: "configurable per event") as the flags and ``table.toml``
    give them: ``"play=30,exchange=45"``, seconds per clock; a clock not named keeps its
    D11 default.  ``ClockError`` says what is wrong.

    >>> parse_shot_clocks("play=30, exchange=45")
    {'play': 30.0, 'exchange': 45.0}
    >>> parse_shot_clocks("")
    {}
    >>> parse_shot_clocks("spel=30")
    Traceback (most recent call last):
    ...
    table_controller.rules.rulesets.ClockError: no shot clock 'spel'; the clocks are exchange, chicago, play, quads
    """
    limits: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, eq, value = (x.strip() for x in part.partition("="))
        if not eq or not name:
            raise ClockError(f"{part!r} is not CLOCK=SECONDS (e.g. play=30)", "form", part=repr(part))
        if name not in DEFAULT_CLOCKS:
            clocks = ", ".join(DEFAULT_CLOCKS)
            raise ClockError(
                f"no shot clock {name!r}; the clocks are {clocks}", "unknown", name=repr(name), clocks=clocks
            )
        if name in limits:
            raise ClockError(f"shot clock {name} is given twice", "twice", name=name)
        try:
            seconds = float(value)
        except ValueError:
            raise ClockError(
                f"shot clock {name}: {value!r} is not a number of seconds", "number", name=name, value=repr(value)
            ) from None
        if not 0 < seconds <= 3600:
            raise ClockError(
                f"shot clock {name}: seconds above 0 and at most 3600, not {value}", "range", name=name, value=value
            )
        limits[name] = seconds
    return limits


def shot_clocks_in_force(setting: str) -> dict[str, float]:
    """Every clock's seconds under ``setting`` (``parse_shot_clocks``' text): D11's, with the
    setting's over them.

    >>> shot_clocks_in_force("play=30")
    {'exchange': 30.0, 'chicago': 10.0, 'play': 30.0, 'quads': 15.0}
    """
    return {**DEFAULT_CLOCKS, **parse_shot_clocks(setting)}


def shot_clocks_text(limits: Mapping[str, float]) -> str:
    """The text ``parse_shot_clocks`` reads back to ``limits`` (in D11's order).

    >>> shot_clocks_text({"play": 30.0, "exchange": 45})
    'exchange=45,play=30'
    """
    return ",".join(f"{k}={_seconds_text(limits[k])}" for k in DEFAULT_CLOCKS if k in limits)


def _seconds_text(seconds: float) -> str:
    short = f"{seconds:g}"  # 30, not 30.0; every digit kept where it needs more than six
    return short if float(short) == seconds else repr(float(seconds))


@dataclass(frozen=True)
class Ruleset:
    name: str
    description: str
    min_players: int = 3
    max_players: int = 4
    dealer: str = "dedicated"  # "dedicated" (SM) or "player" (rotating)
    max_exchange_cards: int = 4  # r12
    exchanges: int = 3
    draw_stop: int = 45  # köpstopp
    draw_stop_from_next_deal: bool = False  # classic: 46 counts from the next deal
    # What an exchange at draw stop does: "refuse" (D5), "zero_keep_chicago" (sm2019 r19),
    # "zero_clear_chicago" (shootout)
    draw_stop_attempt: str = "refuse"
    chicago_min_score: int = 15  # r20
    chicago_required_to_win: bool = True  # r20/r21; classic: highest score after the deal
    hand_points: Mapping[str, int] = field(
        default_factory=lambda: {
            "one_pair": 1,
            "two_pair": 2,
            "three_of_a_kind": 3,
            "straight": 4,
            "flush": 5,
            "full_house": 6,
            "four_of_a_kind": 8,
            "straight_flush": 20,
            "royal_flush": 52,
        }
    )
    quads_zero_choice: bool = True  # "8 or zero" (r19 antingen eller)
    # straight flush: "out" (sm2025: score set to 52, a win), "points_out_if_chicago"
    # (sm2019: 20, out if Chicago said this game), "points" (classic)
    straight_flush: str = "out"
    # royal: "out_zero_all" (sm2025), "win" (sm2019/shootout: immediate win), "points"
    royal_flush: str = "out_zero_all"
    special_suit_order: str | None = "SHDC"  # equal SF/royal: highest suit first
    tie_nobody_scores: bool = True  # D2
    last_trick: int = 5  # r27
    last_trick_two: int = 10
    chicago_won: int = 15
    chicago_lost: int = -15
    chicago_breaker: int = 10  # r24
    # "sm": no other points when Chicago is said (r23, r27); "classic": +15 instead of the
    # last trick and hands still score; failed: -15, no hand scoring, no breaker bonus
    chicago_style: str = "sm"
    revoke: str = "dead_hand"  # sm2025 r26; "correct_minus_2" (sm2019); "none"
    revoke_points: int = -2
    dealer_error_points: int = -3  # per wrong card, only when a player deals (r14)
    # a flashed open card: put aside until the exchange completes, then back into the stub
    # (sm2025 r15), or back into the stub at once (sm2019 r16)
    flashed_aside: bool = True
    placement_points: tuple[int, ...] = (20, 12, 8, 5)
    games_per_table: int = 3
    playoff_deals: int = 3  # särspel (r11)
    advance_first_heat: int = 2  # r7: from heat 1 the top 2 go on
    advance_later_heats: int = 1  # from heat 2 on, only the winner
    heat: int = 1  # which heat this table plays (an event option)
    # Issue 13: the most points one TL `adjust` or `penalty` may move (either way)
    tl_points_limit: int = 200
    # D13 (shootout): deductions (dealer error, revoke) held to the end of the deal unless
    # the offender could go out, win or say Chicago first
    deductions_at_deal_end: bool = False

    def points_for(self, category: Category) -> int:
        return self.hand_points.get(category.reason, 0)

    def with_options(self, options: Mapping[str, Any] | None) -> Ruleset:
        """A copy with parameter overrides (the ``options`` of a ``table`` action)."""
        if not options:
            return self
        if not isinstance(options, Mapping):
            raise RulesetError("'options' must be an object of ruleset parameters")
        # a ruleset's name and description say which rules these are (the replay document's
        # "ruleset"): no option renames them (stop 71: {"name": "sm2019"} printed sm2019
        # for a table that played sm2025)
        named = sorted(k for k in ("name", "description") if k in options)
        if named:
            raise RulesetError(f"{named[0]!r} is no ruleset parameter: 'ruleset' names the rules")
        names = {f.name: f for f in fields(self) if f.name not in ("name", "description")}
        bad = sorted(str(k)[:40] for k in set(options) - set(names))
        if bad:
            raise RulesetError(f"unknown ruleset option(s) {bad}; known: {sorted(names)}")
        # Issue 13: every value is checked here, at the table action, so a bad one is a
        # clear rejection naming the option instead of a crash deals later.
        clean = {k: check_option(k, v) for k, v in options.items()}
        if "hand_points" in clean:
            clean["hand_points"] = {**self.hand_points, **clean["hand_points"]}
        rules = replace(self, **clean)
        if rules.min_players > rules.max_players:
            raise RulesetError(
                f"option min_players ({rules.min_players}) is more than max_players ({rules.max_players})"
            )
        return rules

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


# --- option checks (issue 13): type and range of every parameter a table may set ------

_HAND_CATEGORIES = (
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)


def _int(lo: int, hi: int) -> Callable[[str, Any], int]:
    def check(name: str, v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise RulesetError(f"option {name} must be a whole number from {lo} to {hi}, not {shown(v)}")
        return v

    return check


def _flag(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise RulesetError(f"option {name} must be true or false, not {shown(v)}")
    return v


def _one_of(*choices: str) -> Callable[[str, Any], str]:
    def check(name: str, v: Any) -> str:
        if not isinstance(v, str) or v not in choices:
            raise RulesetError(f"option {name} must be one of {', '.join(choices)}, not {shown(v)}")
        return v

    return check


def _suit_order(name: str, v: Any) -> str | None:
    if v is None or (isinstance(v, str) and len(v) == 4 and sorted(v) == sorted("SHDC")):
        return v
    raise RulesetError(f'option {name} must be the four suits S, H, D, C in an order (e.g. "SHDC") or null')


def _hand_points(name: str, v: Any) -> dict[str, int]:
    if not isinstance(v, Mapping):
        raise RulesetError(f'option {name} must be an object like {{"one_pair": 1}}')
    out = {}
    for k, x in v.items():
        if k not in _HAND_CATEGORIES:
            raise RulesetError(f"option {name}.{str(k)[:40]} is not a hand; hands: {', '.join(_HAND_CATEGORIES)}")
        out[k] = _int(0, 52)(f"{name}.{k}", x)
    return out


def _placement_points(name: str, v: Any) -> tuple[int | float, ...]:
    if not isinstance(v, (list, tuple)) or len(v) > 8:
        raise RulesetError(f"option {name} must be a list of at most 8 numbers (points for 1st, 2nd, ...)")
    for i, x in enumerate(v):
        if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x) or not 0 <= x <= 1000:
            raise RulesetError(f"option {name}[{i}] must be a number from 0 to 1000, not {shown(x)}")
    return tuple(v)


_SCORE = _int(0, 52)  # points of one award: a protocol draws each one (r9)
_THRESHOLD = _int(0, 100)  # a score limit; above 52 it never applies (a way to turn it off)
_DEDUCTION = _int(-52, 0)
OPTION_CHECKS: dict[str, Any] = {
    "min_players": _int(2, 8),
    "max_players": _int(2, 8),
    "dealer": _one_of("dedicated", "player"),
    "max_exchange_cards": _int(0, 5),
    "exchanges": _int(1, 3),
    "draw_stop": _THRESHOLD,
    "draw_stop_from_next_deal": _flag,
    "draw_stop_attempt": _one_of("refuse", "zero_keep_chicago", "zero_clear_chicago"),
    "chicago_min_score": _THRESHOLD,
    "chicago_required_to_win": _flag,
    "hand_points": _hand_points,
    "quads_zero_choice": _flag,
    "straight_flush": _one_of("out", "points_out_if_chicago", "points"),
    "royal_flush": _one_of("out_zero_all", "win", "points"),
    "special_suit_order": _suit_order,
    "tie_nobody_scores": _flag,
    "last_trick": _SCORE,
    "last_trick_two": _SCORE,
    "chicago_won": _SCORE,
    "chicago_lost": _DEDUCTION,
    "chicago_breaker": _SCORE,
    "chicago_style": _one_of("sm", "classic"),
    "revoke": _one_of("dead_hand", "correct_minus_2", "none"),
    "revoke_points": _DEDUCTION,
    "dealer_error_points": _DEDUCTION,
    "flashed_aside": _flag,
    "placement_points": _placement_points,
    "games_per_table": _int(1, 10),
    "playoff_deals": _int(0, 10),
    "advance_first_heat": _int(0, 8),
    "advance_later_heats": _int(0, 8),
    "heat": _int(1, 99),
    "tl_points_limit": _int(1, 1000),
    "deductions_at_deal_end": _flag,
}


def check_option(name: str, value: Any) -> Any:
    """The option's value as the ruleset keeps it, or :class:`RulesetError` naming it."""
    check = OPTION_CHECKS.get(name)
    if check is None:
        raise RulesetError(f"unknown ruleset option {str(name)[:40]!r}")
    return check(name, value)


SM2025 = Ruleset(
    name="sm2025",
    description="Chicago Regler Juni 2025: the current SM rules (the default)",
    hand_points={
        "one_pair": 1,
        "two_pair": 2,
        "three_of_a_kind": 3,
        "straight": 4,
        "flush": 5,
        "full_house": 6,
        "four_of_a_kind": 8,
        "straight_flush": 0,
        "royal_flush": 0,
    },
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
    flashed_aside=False,  # r16: shuffled back, new cards dealt
    advance_first_heat=1,
)

SHOOTOUT = replace(
    SM2019,
    name="shootout",
    description="Poker Event Chicago Shootout 4-max",
    draw_stop_attempt="zero_clear_chicago",
    dealer_error_points=-2,
    deductions_at_deal_end=True,  # D13: "Poängavdrag genomförs alltid efter avslutad giv"
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
    hand_points={
        "one_pair": 1,
        "two_pair": 2,
        "three_of_a_kind": 3,
        "straight": 4,
        "flush": 5,
        "full_house": 6,
        "four_of_a_kind": 7,
        "straight_flush": 8,
        "royal_flush": 52,
    },
    quads_zero_choice=False,
    straight_flush="points",
    royal_flush="points",
    special_suit_order=None,
    chicago_style="classic",
    revoke="none",
    dealer_error_points=0,
    flashed_aside=False,
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
