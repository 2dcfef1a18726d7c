"""The analysis along a replayed action script (``chicago-table analyse``, issue 21).

For every deal: the odds before each exchange begins (``odds``); for each player asked the
Chicago question, whether her Chicago would stand with best play (``chicago_options``); the
solver's verdict at the start of the trick play; and a "blunder" list for commentators:
every card after which best play gives someone other points than before (``loss``: the
player's own card was worth less than her best).

    >>> from importlib.resources import files
    >>> script = files("table_controller") / "examples" / "chicago_broken.jsonl"   # shipped with the package
    >>> doc = analyse_lines(script.open(), samples=50)
    >>> d = doc["deals"][0]
    >>> d["verdict"]["outcome"], d["verdict"]["breaker"]
    ('chicago_broken', 'Cilla')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from table_controller.rules.actions import Play
from table_controller.rules.engine import Engine
from table_controller.rules.judge import judge as judge_action
from table_controller.rules.phases import DealPhase
from table_controller.rules.replay import Rejection, read_script

from .odds import OddsError, exchange_odds
from .solver import AnalysisError, chicago_position, position_from_deal, solve


def analyse_lines(
    lines: Iterable[str],
    samples: int = 2000,
    seed: int = 0,
    odds: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Replay a script and analyse it (see the module docstring).  Deterministic: the odds
    of the n-th exchange analysed use ``random.Random(seed + n)``.  ``progress(game, deal)``
    is called as each deal's analysis begins (long work: a command shows where it is)."""
    engine = Engine()
    rejected: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    seen_exchanges: set[tuple[int, int, int]] = set()
    n_odds = 0

    def deal_entry() -> dict[str, Any]:
        nonlocal current
        g = engine.state.game
        d = g.deal if g is not None else None
        assert g is not None and d is not None  # asked about a deal that is on
        key = (g.number, d.number)
        if current is None or (current["game"], current["deal"]) != key:
            current = {
                "game": g.number,
                "deal": d.number,
                "ruleset": engine.rules.name,
                "odds": [],
                "chicago_options": {},
                "verdict": None,
                "blunders": [],
            }
            deals.append(current)
            if progress is not None:
                progress(g.number, d.number)
        return current

    def look() -> None:
        nonlocal n_odds
        d, g = engine.state.deal, engine.state.game
        if d is None or g is None:
            return
        if odds and d.phase == DealPhase.EXCHANGE and not d.placed and not d.awaiting:
            key = (g.number, d.number, d.exchange)
            if key not in seen_exchanges:
                seen_exchanges.add(key)
                try:
                    o = exchange_odds(engine.state, random.Random(seed + n_odds), samples=samples)
                except OddsError:
                    return
                n_odds += 1
                deal_entry()["odds"].append(o.to_dict())
        if d.phase == DealPhase.CHICAGO and d.asking:  # r22: would her Chicago stand?
            entry = deal_entry()
            p = d.asking[0]
            if p not in entry["chicago_options"]:
                try:
                    v = solve(chicago_position(d, engine.rules, p))
                except AnalysisError:
                    return
                entry["chicago_options"][p] = {
                    "stands": v.chicago_stands,
                    "breaker": v.breaker,
                    "values": dict(v.values),
                }
        if d.phase == DealPhase.TRICKS and d.trick_number == 1 and not d.trick:
            entry = deal_entry()
            if entry["verdict"] is None:
                try:
                    entry["verdict"] = solve(position_from_deal(d, engine.rules)).to_dict()
                except AnalysisError:
                    pass

    def judge(a: Play) -> None:
        d = engine.state.deal
        if d is None or d.phase != DealPhase.TRICKS:
            return
        try:
            v = solve(position_from_deal(d, engine.rules))
        except AnalysisError:
            return
        if a.player != v.to_act:
            return
        values = v.card_values()
        move = next((m for m in v.moves if m.card == a.card), None)
        if move is None or move.values == v.values:
            return
        best = max(values.values())
        # a blunder costs the player points; otherwise the card still changed the result
        # of best play for the others (a player indifferent for herself chose another line)
        deal_entry()["blunders"].append(
            {
                "trick": d.trick_number,
                "player": a.player,
                "card": a.card.code,
                "value": values[a.card],
                "best": best,
                "loss": values[a.card] < best,
                "best_cards": [c.code for c, x in values.items() if x == best],
                "before": dict(v.values),
                "after": dict(move.values),
            }
        )

    for n, item in read_script(lines):
        if isinstance(item, Rejection):
            rejected.append(item.to_dict())
            continue
        if isinstance(item, Play):
            judge(item)
        verdict = judge_action(engine, item)
        if verdict.reason is not None:
            rejected.append(Rejection(n, item.do, verdict.reason).to_dict())
            continue
        look()
    return {
        "ruleset": engine.state.rules.name if engine.state.rules else None,
        "samples": samples,
        "seed": seed,
        "deals": deals,
        "rejected": rejected,
    }


def render(doc: dict[str, Any]) -> str:
    """The analysis as text for a commentator."""
    out: list[str] = []
    for d in doc["deals"]:
        out.append(f"Game {d['game']}, deal {d['deal']}")
        for o in d["odds"]:
            out.append(f"  before exchange {o['exchange']} ({o['samples']} samples, 95 % intervals):")
            out.append("    scores at the next scoring moment: " + _pcts(o["score_next"]))
            if o["best_after_last"]:
                out.append("    best hand after the last exchange: " + _pcts(o["best_after_last"]))
            if o["chicago"]:
                c = o["chicago"]
                out.append(f"    a Chicago that stands: {_pct(c)}")
        for p, c in d.get("chicago_options", {}).items():
            what = "would stand" if c["stands"] else f"would be broken by {c['breaker']}"
            out.append(f"  asked for Chicago: {p}'s Chicago {what} with best play")
        v = d["verdict"]
        if v:
            out.append("  trick play, best play by everyone:")
            if v["chicago"]:
                if v["chicago_stands"]:
                    out.append(f"    Chicago by {v['chicago']} stands")
                else:
                    out.append(f"    Chicago by {v['chicago']} is broken by {v['breaker']}")
            else:
                lt = v["last_trick"]
                pts = v["values"][lt["player"]]
                out.append(f"    {lt['player']} takes the last trick with {lt['card']} ({pts} points)")
            out.append("    points: " + ", ".join(f"{p} {x:+d}" for p, x in v["values"].items() if x))
            out.append("    line: " + _line(v["line"]))
        for b in d["blunders"]:
            if b["loss"]:
                out.append(
                    f"  blunder: trick {b['trick']}, {b['player']} played {b['card']} "
                    f"(worth {b['value']}; {'/'.join(b['best_cards'])} was worth {b['best']})"
                )
            else:
                moved = ", ".join(
                    f"{p} {b['before'][p]:+d} -> {x:+d}" for p, x in b["after"].items() if x != b["before"][p]
                )
                out.append(f"  changed: trick {b['trick']}, {b['player']} played {b['card']} ({moved})")
    for r in doc["rejected"]:
        out.append(f"line {r['line']}: {r['action']} rejected: {r['reason']}")
    return "\n".join(out) + "\n"


def _pct(e: dict[str, Any]) -> str:
    return f"{100 * e['p']:.0f} % [{100 * e['low']:.0f}-{100 * e['high']:.0f}]"


def _pcts(m: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{p} {_pct(e)}" for p, e in m.items())


def _line(line: list[dict[str, str]]) -> str:
    return " ".join(f"{x['player']}:{x['card']}" for x in line)
