"""Benchmark of the two reader drivers on their register-level simulations (issue 22).

Per stack size: how many air exchanges and SPI frames one scan costs, what share of a
stack one scan returns, and an estimate of the scan's time on the air.  The estimate
is not a measurement (no chip here): ISO 15693 at 26 kbit/s, 1.5 ms for a slot nobody
answers (the driver's 1.2 ms TIMER1 timeout plus SPI), 5 ms for an answered one; an
MFRC522 scan costs its 5 ms field reset plus about 1 ms per exchange at 106 kbit/s.
Also the CPython time per scan (the virtual table's PN5180 pads run this driver).

    .venv/bin/python tests/bench/readers.py
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.firmware.mfrc522 import MFRC522
from hardware.firmware.pn5180 import PN5180
from hardware.virtual import (
    pn5180_chip,
    virtual_uid,
)
from tests.hardware import mfrc522_sim

SIZES = (0, 1, 2, 3, 5, 10, 20, 45)  # 45: a full discard tray
SCANS = 40


class CountingSPI:
    def __init__(self, inner) -> None:
        self.inner = inner
        self.frames = 0

    def write(self, data):
        self.frames += 1
        self.inner.write(data)

    def read(self, n, write=0):
        return self.inner.read(n)


def pn5180(n: int) -> dict:
    rng = random.Random(n)
    uids = ["E00401%010X" % rng.getrandbits(40) for _ in range(n)]
    assert len(set(uids)) == n
    chip = pn5180_chip.SimulatedPN5180([pn5180_chip.Tag(u) for u in uids])
    spi = CountingSPI(pn5180_chip.SimSPI(chip))
    reader = PN5180(spi, pn5180_chip.SimNSS(chip), pn5180_chip.SimBusy(chip), sleep=lambda ms: None)
    spi.frames, reader.exchanges = 0, 0
    t0 = time.perf_counter()
    whole = sum(sorted(reader.scan()) == sorted(uids) for _ in range(SCANS))
    cpu = (time.perf_counter() - t0) / SCANS * 1000
    ex = reader.exchanges / SCANS
    answered = min(n, ex) if n else 0
    return {
        "reader": "pn5180",
        "tags": n,
        "exchanges": ex,
        "spi_frames": spi.frames / SCANS,
        "whole_scans": whole / SCANS,
        "est_air_ms": round((ex - answered) * 1.5 + answered * 5, 1),
        "cpython_ms": round(cpu, 3),
    }


def mfrc522(n: int, stack_limit: int) -> dict:
    uids = [virtual_uid(str(i)) for i in range(n)]  # MFRC522: 8 cards per scan at most
    chip = mfrc522_sim.SimulatedMFRC522([mfrc522_sim.Card(u) for u in uids], stack_limit, 5)
    spi = CountingSPI(mfrc522_sim.SimSPI(chip))
    reader = MFRC522(spi, mfrc522_sim.SimPin(), sleep=lambda ms: None)
    spi.frames, chip.exchanges = 0, 0
    t0 = time.perf_counter()
    got = [len(reader.scan()) for _ in range(SCANS)]
    cpu = (time.perf_counter() - t0) / SCANS * 1000
    ex = chip.exchanges / SCANS
    return {
        "reader": f"mfrc522 (stack limit {stack_limit or 'none'})",
        "tags": n,
        "exchanges": ex,
        "spi_frames": spi.frames / SCANS,
        "whole_scans": sum(g == n for g in got) / SCANS,
        "est_air_ms": round(5 + ex * 1.0, 1),
        "cpython_ms": round(cpu, 3),
    }


def main() -> None:
    rows = [pn5180(n) for n in SIZES] + [mfrc522(n, 2) for n in SIZES]
    print(f"{'reader':<28} {'tags':>4} {'exch':>6} {'SPI frames':>10} {'whole':>6} {'~air ms':>8} {'CPython ms':>10}")
    for r in rows:
        print(
            f"{r['reader']:<28} {r['tags']:>4} {r['exchanges']:>6.1f} {r['spi_frames']:>10.0f} "
            f"{r['whole_scans']:>6.0%} {r['est_air_ms']:>8} {r['cpython_ms']:>10}"
        )
    print(json.dumps({"bench": "readers", "rows": rows}))


if __name__ == "__main__":
    main()
