"""The read side: what each audience sees of a table (ARCHITECTURE.md §2-4).

    >>> from table_controller.rules.engine import Engine
    >>> message = for_role(build_view(Engine()), "public").message("Table 1", at=None)
    >>> message["role"], message["state"]["players"]
    ('public', [])

One path: ``build_view`` makes the typed view model (``model``) once from the engine's
state, the open alerts and the shot clocks; ``for_role`` (``roles``: the one role filter)
makes of it what one role may see; the dashboard serialises that and nothing else.  The
deal's history for the TL goes through the same ``sight`` (``history``); rule reasons that
may name a card are made card-free where they become an alert or an answer (``redact``).

May import the rules, sensing's alert type and the clocks; never the dashboard.
"""

from .alerts import table_alert
from .history import deal_history
from .model import ClocksView, PlayerView, TableView, build_view, hidden_deal, snapshot
from .redact import CARD_CODE, without_cards
from .roles import ROLES, SEATS, RoleView, ShownAlert, Sight, for_role, seat_number, sight

__all__ = [
    "CARD_CODE",
    "ROLES",
    "SEATS",
    "ClocksView",
    "PlayerView",
    "RoleView",
    "ShownAlert",
    "Sight",
    "TableView",
    "build_view",
    "deal_history",
    "for_role",
    "hidden_deal",
    "seat_number",
    "sight",
    "snapshot",
    "table_alert",
    "without_cards",
]
