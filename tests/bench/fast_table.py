"""Benchmark of a whole bot table in simulated time (issue 15).

Runs ``chicago-table run --virtual --bots --until-done --fast --json --seed 7`` as a
separate process, pinned to one core (``taskset -c 0`` where there is one), five times:
the median wall time (target: under 20 s) and whether every run printed the same bytes.

    .venv/bin/python tests/bench/fast_table.py
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

RUNS = 5
TARGET_S = 20.0
COMMAND = [
    sys.executable,
    "-m",
    "table_controller.app.cli",
    "run",
    "--virtual",
    "--bots",
    "--until-done",
    "--fast",
    "--json",
    "--seed",
    "7",
    "--quiet",
]


def one_core(cmd: list[str]) -> list[str]:
    return ["taskset", "-c", "0", *cmd] if shutil.which("taskset") else cmd


def main() -> int:
    walls, cpus, digests = [], [], set()
    for i in range(RUNS):
        t0 = time.perf_counter()
        before = os.times()
        out = subprocess.run(one_core(COMMAND), capture_output=True, timeout=600)
        after = os.times()
        wall = time.perf_counter() - t0
        if out.returncode != 0:
            print(out.stderr.decode(errors="replace"), file=sys.stderr)
            return 1
        walls.append(wall)
        cpus.append((after.children_user + after.children_system) - (before.children_user + before.children_system))
        digests.add(hashlib.sha256(out.stdout).hexdigest())
        print(f"run {i + 1}: {wall:.2f} s wall, {cpus[-1]:.2f} s CPU, {len(out.stdout)} bytes of JSON")
    median = statistics.median(walls)
    print(
        f"whole table, seed 7, simulated time, one core: median {median:.2f} s wall "
        f"(CPU median {statistics.median(cpus):.2f} s) over {RUNS} runs; target < {TARGET_S:g} s; "
        f"{'byte-identical' if len(digests) == 1 else 'OUTPUTS DIFFER'}"
    )
    print(
        json.dumps(
            {
                "fast_table_median_s": round(median, 2),
                "fast_table_cpu_median_s": round(statistics.median(cpus), 2),
                "runs": RUNS,
                "identical_output": len(digests) == 1,
                "target_s": TARGET_S,
            }
        )
    )
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
