"""The subcommands of ``chicago-table``, one module each (``add_arguments(parser)`` and
``main(args) -> int``), imported only when chosen, by a plain import statement in
``app/cli.py`` (which lists them).  ``serve`` also holds the web options that ``run``,
``demo``, ``setup`` and ``doctor`` share.

Part of the composition root: a command may import any part of the project (the live
loop, store, dashboard, bridge, camera, simulation, hardware) to wire it.
"""
