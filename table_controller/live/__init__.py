"""The live table: sensors -> sensing -> rules -> log -> views, in one asyncio loop.

See :class:`.table.LiveTable` for the API the dashboard and the commands use, and
:mod:`.bots` for bots playing through the virtual table.
"""

from .log import MemoryLog, RecorderLog, TableLog
from .sensor_replay import replay_sensors
from .table import LiveTable

__all__ = ["LiveTable", "MemoryLog", "RecorderLog", "TableLog", "replay_sensors"]
