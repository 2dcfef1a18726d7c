"""dashboard: the FastAPI web app that shows one table to each role (Revisor, TL,
broadcast, public, dealer) and takes their entries.

``app`` builds the app; ``routes/`` one module per concern; ``hub`` holds the live table
and what each role receives; ``scoresheet/`` the printable protocol; ``serve_cli`` is
``chicago-table serve``.

May import the table's parts (rules, sensing, store, live, views, deck, clocks,
tournament standings); never ``hardware``, the simulation (``table_controller.sim``) or
the app (``table_controller.app``, which starts the dashboard: ``serve``, ``demo``).
"""
