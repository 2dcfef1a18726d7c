"""The subcommands of ``chicago-table``, one module each (``add_arguments(parser)`` and
``main(args) -> int``), imported only when chosen (``app/cli.py`` lists them).

Part of the composition root: a command may import any part of the project (the live
loop, store, dashboard, bridge, camera, simulation, hardware) to wire it.
"""
