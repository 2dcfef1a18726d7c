"""The read side: what each audience sees of a table (ARCHITECTURE.md §2-4).

    >>> from table_controller.rules.engine import Engine
    >>> message = for_role(build_view(Engine()), "public").message("Table 1", at=None)
    >>> message["role"], message["state"]["players"]
    ('public', [])

One path: ``build_view`` makes the typed view model (``model``) once from the engine's
state, the open alerts and the shot clocks; ``for_role`` (``roles``: the one role filter)
makes of it what one role may see; the dashboard serialises that and nothing else.  The
deal's history for the TL goes through the same ``sight`` (``history``).  A refused entry's
reason is a typed ``Refusal`` (its cards are fields) that ``Sight.refusal`` words for the role
it answers; the TL's typed words (a penalty's reason) are ``Sight.words``.  Free text that may
name a card (an alert's, words echoed from outside) is made card-free here (``redact``),
never in the dashboard.

May import the rules, sensing's alert type and the clocks; never the dashboard.
"""

from .alerts import table_alert
from .history import deal_history
from .model import ClocksView, PlayerView, TableView, build_view, hidden_deal, snapshot
from .refusals import Refusal
from .roles import (
    ROLES,
    SEATS,
    RoleView,
    ShownAlert,
    Sight,
    alert_shown,
    blind_alert_id,
    for_role,
    seat_number,
    sight,
    tl_only,
)

__all__ = [
    "ROLES",
    "SEATS",
    "ClocksView",
    "PlayerView",
    "Refusal",
    "RoleView",
    "ShownAlert",
    "Sight",
    "TableView",
    "alert_shown",
    "blind_alert_id",
    "build_view",
    "deal_history",
    "for_role",
    "hidden_deal",
    "seat_number",
    "sight",
    "snapshot",
    "table_alert",
    "tl_only",
]
