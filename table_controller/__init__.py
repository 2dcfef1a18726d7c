"""Chicago SM table controller: rules engine, sensing, clocks, event store and views.

The rooms (README "Layout"; tests/test_architecture.py checks the arrows):

- ``rules/``: the game itself, pure; imports nothing else of the project.
- ``sensor_events``: what the sensors report (a leaf the bridge and the camera share).
- ``deck``, ``clocks``, ``views``, ``scoresheet_text``: small modules over the rules.
- ``sensing/``: sensor events -> proposed actions and alerts.
- ``store/``: the durable event log.
- ``live/``: the production loop (sensors -> sensing -> rules -> log -> views).
- ``analysis/``, ``tournament/``: over the rules and the store.
- ``sim/``: bots and the virtual table's wiring (may import ``hardware``).
- ``app/``: the composition root, the ``chicago-table`` command; the only place that
  imports everything.

Nothing here but ``sim`` and ``app`` imports ``hardware`` or ``dashboard``; nothing
outside ``app`` imports ``app``.  This file stays a docstring: the bridge and the camera
import ``table_controller.sensor_events`` and must load nothing else.
"""

__version__ = "0.1.0"
