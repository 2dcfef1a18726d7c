"""The simulator's tests drive the live table: they share the live tests' guard (no asyncio
task left running) and tmpfs folder, and sensing's pad world rig."""

from tests.live.conftest import no_tasks_left_behind, ram_path  # noqa: F401
from tests.sensing.conftest import rig  # noqa: F401
