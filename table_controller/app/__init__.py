"""The composition root: the ``chicago-table`` command and its subcommands.

The only place that wires the parts together (bridge, vision, sensing, rules, store,
views, dashboard, simulation).  ``cli.py`` the command, which imports the chosen
subcommand by a plain statement; ``commands/`` one module per subcommand, its options and
its wiring; ``table_files.py`` one table's data folder opened into the store, the live
loop and the dashboard's hub; ``web.py`` the dashboard's options, settings and server,
shared by the commands that serve or check one; ``service.py`` a whole table as one
service (``run --config``); ``config.py`` its TOML file.

May import every part of the project.  Nothing outside ``app`` imports it, and no module
of ours is loaded by a name in a string (tests/test_architecture.py).
"""
