"""The history of the current deal, as one role may see it (the TL's history pane).

Events carry every card; only those everybody saw at the table keep theirs here (the open
card, played cards, a flashed card, trick winners).  Face-down cards become counts, except
for the hands the role's ``Sight`` shows (the TL's revealed ones, logged in the audit trail).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from table_controller.rules.events import Event

from .roles import Sight

PUBLIC_CARD_EVENTS = {"open_card_shown", "card_played", "card_retracted", "trick_won", "dealer_erred"}
CARD_KEYS = ("card", "cards", "hand", "hands")


def deal_history(events: Iterable[Event], seen: Sight) -> list[dict[str, Any]]:
    """The events since the current deal started, card fields filtered for ``seen``."""
    events = list(events)
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].type == "deal_started":
            start = i
            break
    out = []
    for n, e in enumerate(events[start:], start=start + 1):
        d = e.to_dict()
        if e.type not in PUBLIC_CARD_EVENTS:
            for k in CARD_KEYS:
                if k not in d:
                    continue
                if k == "hands":
                    d[k] = {p: (cs if seen.shows_hand(p) else len(cs)) for p, cs in d[k].items()}
                elif seen.shows_hand(d.get("player")) and k != "card":
                    pass
                else:
                    d[k] = len(d[k]) if isinstance(d[k], list) else None
        d["seq"] = n
        out.append(d)
    return out
