"""The score sheet ("protokoll", RULES.md §1): each game's printable record of tally marks,
awards, penalties and signatures, as a PDF and as the page's HTML/SVG.

``model`` turns a replay document into rows, ``notes`` reads the penalties, warnings and
TL decisions from a table's log, ``head`` the event, heat, table and players, ``words``
the Swedish and English texts; ``pdf`` and ``svg`` draw; ``cli`` is ``chicago-table
protocol`` (the command and the URL paths keep the users' word, "protocol").  Not the
wire protocol of the seat controller (hardware/PROTOCOL.md).

May import: the rules (the replay document), the store (to read a log) and the
dashboard's errors; nothing of the live table, the simulation or the hardware.
"""
