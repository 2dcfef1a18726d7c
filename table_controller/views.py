"""What each audience may see: the one role filter (ARCHITECTURE.md §3-4).

    >>> view = for_role(snapshot(engine), "public")   # doctest: +SKIP

``snapshot`` is the privileged state of a table; ``for_role`` is the only place that
decides what leaves it.  Hidden cards (hands, face-down discards, hand names) go to the
broadcast role (which the server delays, and holds until their deal has ended at the live
table: ``hidden_deal``, dashboard/delay.py) and to the TL only for hands revealed on request.
"""

from __future__ import annotations

from typing import Any, Iterable

from table_controller.rules.engine import Engine
from table_controller.rules.hands import evaluate
from table_controller.rules.replay import current_document, game_document, table_document

ROLES = ("tl", "revisor", "public", "dealer", "broadcast")
HIDDEN_KEYS = ("hand", "hand_name", "placed")
# What a non-privileged role may receive: anything else (a key added later, live alerts
# with sensing evidence) is dropped unless it is added here on purpose.
PUBLIC_KEYS = ("ruleset", "seq", "game", "deal", "phase", "button", "to_act", "players",
               "open_card", "trick", "chicago", "last_award", "games", "table",
               "clocks")  # the live loop's shot clocks: who, which clock, time left; no cards
PLAYER_KEYS = ("name", "seat", "score", "said_chicago", "won_chicagos", "draw_stop", "out",
               "dead_hand", "hand", "hand_name", "placed", "hand_count", "placed_count", "played",
               "violations", "warnings")


def snapshot(engine: Engine) -> dict[str, Any]:
    """The whole state of the table, hidden cards included (privileged)."""
    s = engine.state
    g = s.game
    d = g.deal if g else None
    cur = current_document(engine)
    players = []
    for name in s.players:
        pg = g.players.get(name) if g else None
        entry: dict[str, Any] = {
            "name": name,
            "seat": (g.seats.index(name) + 1) if g and name in g.seats else None,
            "score": pg.score if pg else 0,
            "said_chicago": bool(pg and pg.said_chicago),
            "won_chicagos": pg.won_chicagos if pg else 0,
            "draw_stop": bool(pg and d and name in d.order and engine.at_draw_stop(name)),
            "out": bool(pg and pg.out),
            "dead_hand": bool(d and (name in d.dead or name in d.folded)),
            "hand": None, "hand_name": None, "placed": None,
            "hand_count": 0, "placed_count": 0, "played": [],
            "violations": len(pg.violations) if pg else 0,
            "warnings": pg.warnings if pg else 0,
        }
        if d and name in d.hands:
            hand = d.hands[name]
            entry["hand"] = [c.code for c in hand]
            entry["hand_count"] = len(hand)
            if len(hand) == 5:
                entry["hand_name"] = evaluate(hand).describe()
            placed = d.placed.get(name, ())
            entry["placed"] = [c.code for c in placed]
            entry["placed_count"] = len(placed)
            entry["played"] = [c.code for c in d.played.get(name, [])]
        players.append(entry)
    open_card = None
    trick = None
    if d is not None:
        trick = {"number": d.trick_number, "leader": d.leader,
                 "cards": [{"player": p, "card": c.code} for p, c in d.trick]} if d.phase == "tricks" else None
    last_open = _last_open_card(engine)
    if last_open:
        open_card = last_open
    awards = [a for rec in (g.deals if g else []) for a in rec.awards] + (g.between_deals if g else [])
    last = awards[-1] if awards else None
    return {
        "ruleset": s.rules.name if s.rules else None,
        "seq": s.seq,
        "game": cur["game"],
        "deal": cur["deal"],
        "phase": cur["phase"],
        "button": d.button if d else None,
        "to_act": cur["to_act"],
        "players": players,
        "open_card": open_card,
        "trick": trick,
        "chicago": {"player": d.chicago if d else None,
                    "asking": d.asking[0] if d and d.phase == "chicago" and d.asking else None},
        "last_award": {"player": last.player, "points": last.points, "reason": last.reason,
                       "moment": last.moment} if last else None,
        "games": [game_document(engine, x) for x in s.games if not x.playoff],
        "table": table_document(engine) if s.rules else {"finished": False, "standings": []},
    }


def _last_open_card(engine: Engine) -> dict[str, str] | None:
    """The open card of the current exchange (shown face up to everyone, r12)."""
    d = engine.state.deal
    if d is None or d.phase != "exchange":
        return None
    for e in reversed(engine.events):
        if e.type == "open_card_shown":
            return {"player": e.player, "card": e.card.code, "taken": e.taken}
        if e.type in ("exchange_ended", "deal_started"):
            return None
    return None


def hidden_deal(snap: dict[str, Any]) -> str | None:
    """The deal ("game.deal") whose hidden cards the snapshot holds, None if it holds none.

    The broadcast shows a frame's hidden cards only once this deal is no longer the live
    table's ``hidden_deal`` (it has ended): until then delayed hands minus the cards played
    live since would be the live hands (ARCHITECTURE.md §3)."""
    if any(p.get(k) is not None for p in snap.get("players", ()) for k in HIDDEN_KEYS):
        return f"{snap['game']}.{snap['deal']}"
    return None


def for_role(snap: dict[str, Any], role: str, revealed: Iterable[str] = frozenset()) -> dict[str, Any]:
    """The snapshot as ``role`` may see it.  Unknown roles see what the public sees.

    The result is a new top-level dict with new player entries; the public parts
    (history, table) are shared with the snapshot and must be treated as read-only."""
    if role == "broadcast":
        out = dict(snap)
        out["players"] = [dict(p) for p in snap["players"]]
        return out
    out = {k: snap[k] for k in PUBLIC_KEYS if k in snap}
    shown = set(revealed) if role == "tl" else set()
    players = []
    for p in snap.get("players", ()):
        q = {k: p[k] for k in PLAYER_KEYS if k in p}
        if q.get("name") not in shown:
            for k in HIDDEN_KEYS:
                q[k] = None
        players.append(q)
    out["players"] = players
    return out
