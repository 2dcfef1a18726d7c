"""vision sits below sensing: of table_controller it imports only the sensor events (a leaf
shared with the serial bridge, whose package holds nothing but a docstring), never the
rest of table_controller, nor dashboard."""

from __future__ import annotations

import subprocess
import sys

MODULES = [
    "vision",
    "vision.camera",
    "vision.source",
    "vision.calibration",
    "vision.table_reader",
    "vision.rowread",
    "vision.scene",
    "vision.faces",
    "vision.annotate",
    "vision.layout",
]


def test_vision_imports_no_higher_layer():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in MODULES)
        + "shared = {'table_controller', 'table_controller.sensor_events'}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('table_controller', 'dashboard')\n"
        "             and m not in shared)\n"
        "print(','.join(bad))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""
