"""The score sheet ("protokoll", RULES.md §1): each game's printable record of tally marks,
awards, penalties and signatures, as a PDF and as the page's HTML/SVG.

``model`` turns a replay document into rows, ``notes`` reads the penalties, warnings and
TL decisions from a table's log, ``head`` the event, heat, table and players, ``words``
the Swedish and English texts; ``pdf`` and ``svg`` draw.  ``chicago-table protocol``
(``table_controller/app/commands/protocol.py``) reads a table file and draws with these;
the command and the URL paths keep the users' word, "protocol".  Not the wire protocol of
the seat controller (hardware/PROTOCOL.md).

May import: the rules (the replay document) and the dashboard's errors; nothing of the
live table, the store, the simulation, the hardware or the app.
"""
