"""dashboard: the FastAPI web app that shows one table to each role (Revisor, TL,
broadcast, public, dealer) and takes their entries.

``app`` builds the app; ``routes/`` one module per concern; ``hub`` holds the live table
and what each role receives; ``scoresheet/`` the printable protocol.  The dashboard is
handed its table: the composition root opens the log, the live loop and the broadcast
delay (``table_controller/app/table_files.py``), builds the hub over them and passes it
with the tokens and settings to ``create_app``; its commands (``chicago-table serve``,
``protocol``) live in ``table_controller/app/commands/``.

May import the table's parts (rules, sensing, store, live, views, deck, clocks,
tournament standings); never ``hardware``, the simulation (``table_controller.sim``) or
the app (``table_controller.app``, which starts the dashboard: ``serve``, ``demo``).
"""
