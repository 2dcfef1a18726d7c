"""Reading an action script or an export for a command: a file or '-' for standard input."""

from __future__ import annotations

import sys


def read_lines(path: str, command: str) -> list[str] | None:
    """The lines of ``path`` ('-': standard input), or None after saying clearly on stderr
    why it cannot be read (the caller exits with status 2)."""
    try:
        if path == "-":
            return sys.stdin.read().splitlines()
        with open(path, encoding="utf-8") as fh:
            return fh.read().splitlines()
    except OSError as exc:
        print(f"chicago-table {command}: cannot read {path}: {exc.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"chicago-table {command}: {path} is not UTF-8 text", file=sys.stderr)
    return None
