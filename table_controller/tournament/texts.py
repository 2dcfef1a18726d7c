"""What the hub keeps in English for the TL, marked for the dashboard's catalogue.

The hub logs and stores these sentences in English (a conflict in its file, a table's
problems in the standings); the TL's event screen says them in Swedish first
(``dashboard.standings_page``: the catalogue's sentence with the names put back).  Alone
in a module of their own, so that ``make i18n`` extracts nothing else from here.
"""

from __future__ import annotations


def for_tl(text: str) -> str:
    """Marks a text for the dashboard's catalogue (``make i18n``; not the console's): the
    hub keeps it in English, and the TL's screen says it in Swedish first
    (``dashboard.standings_page``)."""
    return text


# Conflicts: what a table sent that differs from what the hub has (kept for the TL).
NOT_DRAWN_TABLE = for_tl("records from table '{table}', which the hub has not drawn")
DIFFERS = for_tl("record {seq} differs from the one the hub has")
OFF_CHAIN = for_tl("record {seq} does not continue the chain the hub has")
HEAD_DIFFERS = for_tl("signed head at record {seq} differs from the record the hub has")
CONFLICTS = (NOT_DRAWN_TABLE, DIFFERS, OFF_CHAIN, HEAD_DIFFERS)

# A table's problems: what it plays that differs from what the hub drew.
NOT_FOLDING = for_tl("the table's events do not fold: {error}")
NOT_DRAWN_PLAYERS = for_tl("players {players} are not those drawn ({drawn})")
OTHER_HEAT = for_tl("the table plays heat {heat} (option 'heat'), the hub drew it for heat {drawn}")
OTHER_SEATS = for_tl(
    "game {game}: seats {seats} (button {button}) are not as drawn: {drawn} (button {drawn_button}) (r7)"
)
PROBLEMS = (NOT_FOLDING, NOT_DRAWN_PLAYERS, OTHER_HEAT, OTHER_SEATS)
