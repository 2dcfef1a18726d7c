"""The analysis of a table's current moment, with overlay texts (Swedish first, then English).

``analyse_state`` is the entry point a broadcast hook would call after a state change:
odds while an exchange is about to begin, whether the Chicago of the player asked would
stand, the solver's verdict during the trick play, nothing otherwise.  The result shows what hidden cards make: it must be held back like
every hidden card (not before the deal has ended live and the broadcast delay has passed);
that holding is the caller's job (the dashboard's hub puts it in the whole broadcast frame
only, held with its deal), and the odds and a solve without the C kernel (~50 ms at the
first trick) take long enough to belong off the event loop: ``analysable`` asks the typed
view model whether there is anything to analyse, and the worker thread gets a copy of the
state (``Engine.snapshot``, the rules' public query), never the live table's own.

    >>> from table_controller.rules.cards import parse_cards
    >>> from table_controller.rules.rulesets import ruleset
    >>> from table_controller.analysis.solver import Position, solve
    >>> v = solve(Position(ruleset("sm2025"), ("Anna", "Bo"), {"Anna": parse_cards(["AS"]),
    ...           "Bo": parse_cards(["2S"])}, leader="Bo", trick_number=5))
    >>> verdict_texts(v)[0]
    {'sv': 'Med bästa spel tar Anna sista sticket med A♠ (5 poäng)', 'en': 'With best play Anna takes the last trick with A♠ (5 points)'}
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from table_controller.rules.phases import DealPhase, Phase

from .odds import Odds, OddsError, exchange_odds
from .solver import AnalysisError, Verdict, chicago_position, position_from_deal, solve

if TYPE_CHECKING:  # the view model is only read: no import of the read side at run time
    from table_controller.views.model import TableView


def verdict_texts(v: Verdict) -> list[dict[str, str]]:
    if v.chicago is not None:
        if v.chicago_stands:
            return [
                {
                    "sv": f"Chicago håller med bästa spel ({v.chicago})",
                    "en": f"Chicago holds with best play ({v.chicago})",
                }
            ]
        return [
            {
                "sv": f"Chicago spricker med bästa spel: {v.breaker} bryter {_genitive(v.chicago)} Chicago",
                "en": f"The Chicago breaks with best play: {v.breaker} breaks {v.chicago}'s Chicago",
            }
        ]
    assert v.last_trick is not None  # no Chicago: someone takes the last trick
    p, card = v.last_trick
    pts = v.values[p]
    return [
        {
            "sv": f"Med bästa spel tar {p} sista sticket med {card.pretty()} ({pts} poäng)",
            "en": f"With best play {p} takes the last trick with {card.pretty()} ({pts} points)",
        }
    ]


def _genitive(name: str) -> str:
    """Swedish genitive: Annas, but Lars, Max (no s after s, x, z)."""
    return name if name[-1:].lower() in ("s", "x", "z") else name + "s"


def odds_texts(o: Odds) -> list[dict[str, str]]:
    out = []
    for p, e in o.score_next.items():
        pct = round(100 * e.p)
        out.append({"sv": f"{p} {pct} % att få poäng", "en": f"{p} {pct} % to score"})
    if o.chicago is not None and o.chicago.hits:
        pct = round(100 * o.chicago.p)
        out.append({"sv": f"Chicago som håller: {pct} %", "en": f"A Chicago that stands: {pct} %"})
    return out


def analysable(view: TableView) -> bool:
    """May ``analyse_state`` have something to say about the moment ``view`` (the typed view
    model, ``table_controller.views``) shows?  Cheap: a caller asks before it takes a copy
    of the table's state for a worker (``Engine.snapshot``): odds at an exchange's start
    (nobody has placed yet), the Chicago question, the trick play.  Yes wherever
    ``analyse_state`` answers; now and then yes where it answers None (a draw-stop player
    who placed nothing has placed, and the view cannot tell), which costs one copy and
    shows nothing."""
    if view.ruleset is None:
        return False
    if view.phase.is_exchange:
        return all(p.placed_count == 0 for p in view.players)
    return view.chicago_asking is not None or view.phase is Phase.TRICKS


def broadcast_analysis(a: dict[str, Any]) -> dict[str, Any]:
    """The part of an analysis the broadcast overlay shows, without its texts (the overlay
    words them from the dashboard's catalogue) and without the card-by-card detail."""
    out: dict[str, Any] = {k: a[k] for k in ("seq", "game", "deal", "kind") if k in a}
    if "player" in a:
        out["player"] = a["player"]
    if "verdict" in a:
        v = a["verdict"]
        out["verdict"] = {k: v[k] for k in ("outcome", "chicago", "chicago_stands", "breaker", "last_trick", "values")}
    if "odds" in a:
        o = a["odds"]
        out["odds"] = {"samples": o["samples"], "next_moment": o["next_moment"], "score_next": o["score_next"]}
        out["exchange"] = a.get("exchange")
    return out


def analyse_state(state: Any, rng: random.Random, samples: int = 2000, horizon: str = "last") -> dict[str, Any] | None:
    """The analysis of the state's current moment, or None when there is none: odds at the
    start of an exchange (before anyone has placed), the verdict at any moment of the trick
    play.  ``seq`` ties it to the state it describes (for holding it back); ``horizon``
    "next" samples the odds only to the next scoring moment (fast, no Chicago chance)."""
    g = state.game
    d = g.deal if g is not None else None
    if d is None or state.rules is None:
        return None
    base = {"seq": state.seq, "game": g.number, "deal": d.number}
    if d.phase == DealPhase.EXCHANGE and not d.placed and not d.awaiting:
        try:
            o = exchange_odds(state, rng, samples=samples, horizon=horizon)
        except OddsError:
            return None
        return {**base, "kind": "odds", "exchange": d.exchange, "odds": o.to_dict(), "texts": odds_texts(o)}
    if d.phase == DealPhase.CHICAGO and d.asking:  # r22: the player asked now
        p = d.asking[0]
        try:
            v = solve(chicago_position(d, state.rules, p))
        except AnalysisError:
            return None
        if v.chicago_stands:
            texts = [
                {
                    "sv": f"Säger {p} Chicago håller den med bästa spel",
                    "en": f"If {p} says Chicago, it stands with best play",
                }
            ]
        else:
            texts = [
                {
                    "sv": f"Säger {p} Chicago bryter {v.breaker} den med bästa spel",
                    "en": f"If {p} says Chicago, {v.breaker} breaks it with best play",
                }
            ]
        return {**base, "kind": "chicago_question", "player": p, "verdict": v.to_dict(), "texts": texts}
    if d.phase == DealPhase.TRICKS:
        try:
            v = solve(position_from_deal(d, state.rules))
        except AnalysisError:
            return None
        return {**base, "kind": "verdict", "trick": d.trick_number, "verdict": v.to_dict(), "texts": verdict_texts(v)}
    return None
