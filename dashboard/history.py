"""The history of the current deal for the TL, without hidden cards.

Events carry every card; only those everybody saw at the table keep theirs here (the open
card, played cards, a flashed card, trick winners).  Face-down cards become counts, except
for the players the TL has revealed (logged in the audit trail).
"""

from __future__ import annotations

from typing import Any, Iterable

from table_controller.rules.events import Event

PUBLIC_CARD_EVENTS = {"open_card_shown", "card_played", "card_retracted", "trick_won", "dealer_erred"}
CARD_KEYS = ("card", "cards", "hand", "hands")


def deal_history(events: Iterable[Event], revealed: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The events since the current deal started, card fields filtered."""
    events = list(events)
    start = 0
    for i in range(len(events) - 1, -1, -1):
        if events[i].type == "deal_started":
            start = i
            break
    shown = set(revealed)
    out = []
    for n, e in enumerate(events[start:], start=start + 1):
        d = e.to_dict()
        if e.type not in PUBLIC_CARD_EVENTS:
            for k in CARD_KEYS:
                if k not in d:
                    continue
                if k == "hands":
                    d[k] = {p: (cs if p in shown else len(cs)) for p, cs in d[k].items()}
                elif d.get("player") in shown and k != "card":
                    pass
                else:
                    d[k] = len(d[k]) if isinstance(d[k], list) else None
        d["seq"] = n
        out.append(d)
    return out
