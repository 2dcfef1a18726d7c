"""The composition root: the ``chicago-table`` command and its subcommands.

The only place that wires the parts together (bridge, vision, sensing, rules, store,
views, dashboard, simulation).  Nothing outside ``app`` imports it.
"""
