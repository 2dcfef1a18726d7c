"""Run the firmware's replay driver (micropython/replay.py) under CPython and under
MicroPython's WebAssembly port in Node, and hand back both transcripts.

MicroPython is installed by ``make micropython`` (``make test`` does it) into
build/micropython from tests/hardware/micropython/package-lock.json; nothing downloads
while the tests run.  Without it the tests skip locally and fail on CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "hardware" / "firmware"
HERE = Path(__file__).resolve().parent
REPLAY = HERE / "micropython"
WASM_DIR = Path(
    os.environ.get(
        "MICROPYTHON_WASM_DIR",
        ROOT / "build" / "micropython" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript",
    )
)
# What goes onto the board (all of it but the board glue), and the simulation around it.
FIRMWARE_FILES = [FIRMWARE / name for name in ("wire.py", "debounce.py", "controller.py", "mfrc522.py", "pn5180.py")]
VIRTUAL = ROOT / "hardware" / "virtual"
FILES = FIRMWARE_FILES + [HERE / "mfrc522_sim.py", VIRTUAL / "pn5180_chip.py", REPLAY / "replay.py"]


def micropython_or_skip() -> str:
    """The node binary, once MicroPython's port is installed; else skip (fail on CI)."""
    node = shutil.which("node") or shutil.which("nodejs")
    problem = None
    if not node:
        problem = "no node (Debian's nodejs): run `make micropython`"
    elif not (WASM_DIR / "micropython.mjs").is_file():
        problem = f"MicroPython's WebAssembly port is not installed in {WASM_DIR}: run `make micropython`"
    if problem:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    return node


def _code(scenario: Path, firmware: Path = FIRMWARE) -> str:
    dirs = [str(firmware), str(HERE), str(REPLAY), str(VIRTUAL)]
    return (
        "import sys\n"
        f"for d in reversed({dirs!r}):\n"
        "    sys.path.insert(0, d)\n"
        "import replay\n"
        f"replay.main({str(scenario)!r})\n"
    )


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, f"{cmd[0]} failed:\n{out.stderr[-3000:]}"
    return out.stdout


def run_cpython(scenario: dict, tmp: Path) -> str:
    path = tmp / f"{scenario['name']}.json"
    path.write_text(json.dumps(scenario))
    return _run([sys.executable, "-I", "-c", _code(path)], cwd=tmp)


def run_micropython(scenario: dict, tmp: Path, compiled: Path | None = None) -> str:
    """The transcript under MicroPython; ``compiled``: a directory of the firmware's
    .mpy files (hardware/firmware_build.py) to run instead of the sources."""
    node = micropython_or_skip()
    path = tmp / f"{scenario['name']}.json"
    path.write_text(json.dumps(scenario))
    env = {**os.environ, "MICROPYTHON_WASM_DIR": str(WASM_DIR)}
    files = FILES
    if compiled is not None:
        files = [compiled / (f.stem + ".mpy") for f in FIRMWARE_FILES] + FILES[len(FIRMWARE_FILES) :]
    code = _code(path, compiled or FIRMWARE)
    return _run([node, str(REPLAY / "run.mjs"), code, *map(str, files), str(path)], cwd=tmp, env=env)


def micropython_version() -> str:
    """``sys.implementation`` as MicroPython itself reports it."""
    node = micropython_or_skip()
    env = {**os.environ, "MICROPYTHON_WASM_DIR": str(WASM_DIR)}
    code = "import sys\nprint('%d.%d.%d' % sys.implementation.version[:3], sys.implementation.name)\n"
    return _run([node, str(REPLAY / "run.mjs"), code], cwd=ROOT, env=env).strip()


BOARD = REPLAY / "board"
BOARD_FILES = [
    FIRMWARE / "hal_pico.py",
    BOARD / "machine.py",
    BOARD / "neopixel.py",
    BOARD / "micropython.py",
    REPLAY / "board_check.py",
] + FILES


def run_board_check(tmp: Path, micropython: bool, cards: list[str], tags: list[str]) -> str:
    """hal_pico.py on the fake Pico parts (micropython/board_check.py) under either interpreter."""
    config = tmp / "board.json"
    placeholder = tmp / "placeholder"
    placeholder.write_text("")
    dirs = [str(BOARD), str(FIRMWARE), str(HERE), str(REPLAY), str(VIRTUAL)]
    code = (
        "import sys\n"
        f"for d in reversed({dirs!r}):\n"
        "    sys.path.insert(0, d)\n"
        "import board_check\n"
        f"board_check.main({str(config)!r}, {cards!r}, {tags!r})\n"
    )
    if not micropython:
        return _run([sys.executable, "-I", "-c", code], cwd=tmp)
    node = micropython_or_skip()
    env = {**os.environ, "MICROPYTHON_WASM_DIR": str(WASM_DIR)}
    return _run([node, str(REPLAY / "run.mjs"), code, *map(str, BOARD_FILES), str(placeholder)], cwd=tmp, env=env)
