"""A table service on the virtual table whose cards a test moves (issue 18's TL flow):

    python -m tests.dashboard.sensed_table DATA PORT MOVES [CAMERA_FRAMES]

runs the table as ``chicago-table run --virtual --data DATA --dashboard-port PORT`` does
(``app.service.serve_table``: the virtual table over a pty, the bridge, sensing, clocks,
the log, the dashboard) and makes every line appended to the file MOVES as a physical
move on the virtual table (``hardware/virtual/script.py``: "deal seat1 2S 3S", ...).
``CAMERA_FRAMES``: a folder of rendered frames as the table camera (``--camera``, 5 fps,
calibrated on its first frame)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hardware.virtual.script import parse_moves
from table_controller.app.config import config_from_mapping
from table_controller.app.service import serve_table


async def follow(running, moves: Path) -> None:
    done = 0
    while True:  # the moves file is the test's hand on the table
        lines = moves.read_text().splitlines() if moves.exists() else []
        for line in lines[done:]:
            for m in parse_moves(line):
                await asyncio.to_thread(m.apply, running.virtual)
        done = len(lines)
        await asyncio.sleep(0.05)


def main() -> None:
    data, port, moves = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    overrides: dict = {("table", "virtual"): True, ("table", "data"): str(data), ("dashboard", "port"): port}
    if len(sys.argv) > 4:
        overrides |= {("camera", "source"): sys.argv[4], ("camera", "fps"): 5.0}
    cfg = config_from_mapping({}, overrides=overrides)
    asyncio.run(serve_table(cfg, extra=lambda r: follow(r, moves)))


if __name__ == "__main__":
    main()
