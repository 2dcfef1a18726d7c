"""The Pi deployment files and the firmware's portability to MicroPython."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

HW = Path(__file__).resolve().parents[2] / "hardware"
PORTABLE = ["wire.py", "debounce.py", "controller.py"]  # run on the board and in CPython
BOARD_MODULES = {
    "binascii",
    "json",
    "wire",
    "debounce",
    "controller",
    "time",
    "machine",
    "neopixel",
    "select",
    "sys",
    "micropython",
    "mfrc522",
    "pn5180",
    "hal_pico",
}


@pytest.mark.parametrize("name", PORTABLE + ["mfrc522.py", "pn5180.py", "hal_pico.py", "main.py"])
def test_firmware_imports_only_what_micropython_has(name):
    tree = ast.parse((HW / "firmware" / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        else:
            continue
        for module in names:
            assert module.split(".")[0] in BOARD_MODULES, f"{name} imports {module}"


@pytest.mark.parametrize("name", PORTABLE)
def test_portable_firmware_avoids_cpython_only_features(name):
    tree = ast.parse((HW / "firmware" / name).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.AnnAssign, ast.Match, ast.NamedExpr)), (name, node.lineno)
        if isinstance(node, ast.FunctionDef):
            assert not node.returns and not any(a.annotation for a in node.args.args), (name, node.name)
            assert not node.decorator_list, (name, node.name)  # no dataclasses, properties


def test_udev_rule_names_the_pico_and_keeps_modemmanager_away():
    lines = [
        ln
        for ln in (HW / "deploy" / "99-chicago-seat-controller.rules").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    assert len(lines) == 1
    pairs = [p.strip() for p in lines[0].split(",")]
    assert all(re.fullmatch(r'[A-Z_]+(\{[a-zA-Z_]+\})?(==|\+=|=)"[^"]*"', p) for p in pairs), pairs
    rule = lines[0]
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'SYMLINK+="chicago-seat-controller"' in rule
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule and 'GROUP="dialout"' in rule


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_unit_verifies(tmp_path):
    unit = tmp_path / "chicago-table.service"
    unit.write_text((HW / "deploy" / "chicago-table.service").read_text())
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    problems = [
        ln for ln in (out.stdout + out.stderr).splitlines() if ln.strip() and "is not executable" not in ln
    ]  # the venv is not installed here
    assert not problems, problems


@pytest.mark.parametrize("name", PORTABLE + ["mfrc522.py", "pn5180.py"])
def test_firmware_logic_uses_no_floats(name):
    # The Pico's MicroPython has single-precision floats, the WebAssembly port that
    # checks the firmware in test_micropython.py has doubles: integer-only logic is the
    # same on both.  (sleep_ms's CPython fallback divides; the board never runs it.)
    tree = ast.parse((HW / "firmware" / name).read_text())
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name != "sleep_ms"]:
        for node in ast.walk(func):
            assert not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)), (name, func.name, node.lineno)
            assert not (isinstance(node, ast.Constant) and isinstance(node.value, float)), (name, node.lineno)
