"""The history of the current deal, as one role may see it (the TL's history pane).

Events carry every card; only those everybody saw at the table keep theirs here (the open
card, played cards, a flashed card, trick winners).  Face-down cards become counts, except
for the hands the role's ``Sight`` shows (the TL's revealed ones, logged in the audit trail).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from table_controller.rules.events import Event, TrickHeld

from .roles import Sight

PUBLIC_CARD_EVENTS = {"open_card_shown", "card_played", "card_retracted", "trick_won", "dealer_erred"}
CARD_KEYS = ("card", "cards", "hand", "hands")


SCOPES = {"deal": "deal_started", "game": "game_started", "table": None}


def deal_history(events: Iterable[Event], seen: Sight, scope: str = "deal") -> list[dict[str, Any]]:
    """The events since the current deal started (``scope`` "game": since the current game
    started, "table": all), card fields filtered for ``seen``.  The hands ``seen`` shows
    (the TL's reveals) are shown in the current deal only: a reveal is for one deal."""
    events = list(events)
    if scope not in SCOPES:
        raise ValueError(f"scope is one of {', '.join(SCOPES)}")

    def last(kind: str | None) -> int:
        return next((i for i in range(len(events) - 1, -1, -1) if events[i].type == kind), 0)

    start, deal = last(SCOPES[scope]), last("deal_started")
    earlier = replace(seen, hands=frozenset()) if seen.hands is not None else seen
    out = []
    for n, e in enumerate(events[start:], start=start + 1):
        if e.type == TrickHeld.type:
            continue  # it changes nothing (events.TrickHeld): a step of the count, no history
        view = seen if n - 1 >= deal else earlier
        d = e.to_dict()
        if e.type not in PUBLIC_CARD_EVENTS:
            for k in CARD_KEYS:
                if k not in d:
                    continue
                if k == "hands":
                    d[k] = {p: (cs if view.shows_hand(p) else len(cs)) for p, cs in d[k].items()}
                elif view.shows_hand(d.get("player")) and k != "card":
                    pass
                else:
                    d[k] = len(d[k]) if isinstance(d[k], list) else None
        d["seq"] = n
        out.append(d)
    return out
