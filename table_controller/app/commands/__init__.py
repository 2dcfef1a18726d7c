"""The subcommands of ``chicago-table``, one module each (``add_arguments(parser)`` and
``main(args) -> int``), imported only when chosen, by a plain import statement in
``app/cli.py`` (which lists them).  What several commands share lives beside this
package in ``app/`` (``web.py`` the dashboard's options and server, ``table_files.py`` a
table opened, ``service.py`` a whole table as one service).

Part of the composition root: a command may import any part of the project (the live
loop, store, dashboard, bridge, camera, simulation, hardware) to wire it.
"""
