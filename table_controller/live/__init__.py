"""The live table: sensors -> sensing -> rules -> log -> views, in one asyncio loop.

See :class:`.table.LiveTable` for the API the dashboard and the commands use (its log is
the store's single writer, ``store.TableRecorder``: over SQLite, or in memory), and
:mod:`.sensor_replay` for replaying a table's sensor log through sensing.  Bots and the
virtual table's wiring are the simulation's (``table_controller.sim``).

May import the rules, sensing, the store, the views, the deck, the clocks and the sensor
events; never the dashboard, the hardware, the simulation or the app.  Sensors and LEDs
are handed in by whoever builds the table (``app``, ``sim``, the dashboard's files).
"""

from .sensor_replay import replay_sensors
from .table import LiveTable

__all__ = ["LiveTable", "replay_sensors"]
