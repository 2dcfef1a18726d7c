"""A warm pytest for the mutation run (tests/mutation/run.py --warm; issue 23).

    python -m tests.mutation.warm '["-x", "-q", ...]'      (cwd: a job's copy of the project)

Started once per job in that job's private copy.  It imports pytest and the third-party
libraries the rule tests use, and never the project's rules nor the rule tests: a mutant
is written to disk between requests, and each request forks a child that starts from
this clean state and runs ``pytest.main`` on the copy as it is on disk now, so every
rules module the child uses is read from the mutated copy.  The child checks, after its
run, that the rules package it ran came from this copy (else exit status 99, a run that
judged nothing).

Reads one request a line on stdin (JSON: the file of test ids, the file for the output,
the time allowed); writes one line a request on stdout: pytest's exit status, or
"timeout" (the child's process group killed).
"""

from __future__ import annotations

import json
import os
import select
import sys
from pathlib import Path

import hypothesis
import hypothesis.strategies  # noqa: F401
import pytest


def _clean() -> bool:
    return not any(m == "table_controller" or m.startswith(("table_controller.", "tests.rules")) for m in sys.modules)


def _child(options: list[str], argfile: str, out: str) -> int:
    os.setsid()
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    rc = int(pytest.main([*options, f"@{argfile}"]))
    engine = sys.modules.get("table_controller.rules.engine")
    here = Path.cwd().resolve()
    if engine is not None and not Path(engine.__file__ or "").resolve().is_relative_to(here):
        print(f"the rules came from {engine.__file__}, not from {here}")
        rc = 99
    sys.stdout.flush()
    sys.stderr.flush()
    return rc


def main() -> None:
    options = json.loads(sys.argv[1])
    for line in sys.stdin:
        req = json.loads(line)
        if not _clean():  # never: the server imports no project module
            print(json.dumps(98), flush=True)
            continue
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                code = _child(options, req["args"], req["out"])
            finally:
                os._exit(code)
        # the child's end is the condition (its pidfd turns readable); the time allowed is a ceiling
        pidfd = os.pidfd_open(pid)
        try:
            ended, _, _ = select.select([pidfd], [], [], req["timeout"])
        finally:
            os.close(pidfd)
        if not ended:
            os.killpg(pid, 9)
        _, st = os.waitpid(pid, 0)
        print(json.dumps(os.waitstatus_to_exitcode(st) if ended else "timeout"), flush=True)


if __name__ == "__main__":
    main()
