"""Benchmark: does the time of a blind role's answer tell where a hidden card is?

    .venv/bin/python tests/bench/oracle_timing.py [--rounds 5]

A real ``chicago-table serve`` (RFID table, and ``--camera-only`` where the Revisor's card
entries are judged), a deal with Anna at draw stop and every card hidden.  The Revisor
sends the issue's two probes for each card, ``receive Bo [C, 6D]`` after everyone placed
and ``discard Anna [C]`` before, ``--rounds`` times over the 52 cards; the answer times are
grouped by where C lies (Anna's hand, another hand, the stub, the discards).  Prints each
group's median and p90 and, last, a JSON line with the largest gap between group medians
(ms) per table kind: a timing class would show as a gap far above the spread within a group.
Then a seat's phone on the camera-only table: Anna's hand ``[C, 6D, ...]`` while the others'
declared hands wait for hers (every such deal is refused: 6D is Cilla's), grouped the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.dashboard.harness import Server
from tests.dashboard.test_oracle import ALL, HANDS, SEAT_OF

DISCARDED = {"2H", "3H", "2D"}


def where(card: str, placed: bool = True) -> str:
    if placed and card in DISCARDED:
        return "discards"
    for p, h in HANDS.items():
        if card in h:
            return "Anna's hand" if p == "Anna" else "other hand"
    return "stub"


def run(camera_only: bool, rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        extra = ("--post-rate", "10000") + (("--camera-only",) if camera_only else ())
        s = Server(Path(tmp) / "t", command="serve", extra=extra).start()
        try:
            c = httpx.Client(base_url=s.base, timeout=20)
            tl, rev = {"token": s.token("tl")}, {"token": s.token("revisor")}
            for a in (
                {"do": "table", "players": list(HANDS)},
                {"do": "game", "seats": list(HANDS), "button": "Dan"},
                {"do": "adjust", "player": "Anna", "points": 45, "reason": "draw stop"},
                {"do": "deal", "hands": HANDS},
            ):
                c.post("/api/action", params=tl, json=a).raise_for_status()
            times: dict[str, list[float]] = {}
            # before placing: the draw-stop probe (the exchange clock runs: keep it short)
            for _ in range(rounds):
                for card in ALL:
                    t = time.perf_counter()
                    c.post("/api/action", params=rev, json={"do": "discard", "player": "Anna", "cards": [card]})
                    times.setdefault("discard: " + where(card, placed=False), []).append(
                        (time.perf_counter() - t) * 1000
                    )
            for a in (
                {"do": "discard", "player": "Anna", "cards": []},
                {"do": "discard", "player": "Bo", "cards": ["2H", "3H"]},
                {"do": "discard", "player": "Cilla", "cards": ["2D"]},
                {"do": "discard", "player": "Dan", "cards": []},
            ):
                c.post("/api/action", params=tl, json=a)
            for _ in range(rounds):
                for card in ALL:
                    other = "6D" if card != "6D" else "5D"
                    t = time.perf_counter()
                    c.post("/api/action", params=rev, json={"do": "receive", "player": "Bo", "cards": [card, other]})
                    times.setdefault("receive: " + where(card), []).append((time.perf_counter() - t) * 1000)
            c.close()
            return times
        finally:
            s.stop()


def run_seat(rounds: int) -> dict[str, list[float]]:
    """Anna's phone declares a hand naming C (and 6D, Cilla's) once the others have declared."""
    with tempfile.TemporaryDirectory() as tmp:
        s = Server(Path(tmp) / "t", command="serve", extra=("--post-rate", "10000", "--camera-only")).start()
        try:
            c = httpx.Client(base_url=s.base, timeout=20)
            tl = {"token": s.token("tl")}
            for a in ({"do": "table", "players": list(HANDS)}, {"do": "game", "seats": list(HANDS), "button": "Dan"}):
                c.post("/api/action", params=tl, json=a).raise_for_status()
            times: dict[str, list[float]] = {}
            for _ in range(rounds):
                for card in ALL:
                    for p in ("Bo", "Cilla", "Dan"):
                        c.post("/api/hand", params={"token": s.token(SEAT_OF[p])}, json={"cards": HANDS[p]})
                    probe = list(dict.fromkeys([card, "6D" if card != "6D" else "5D", *HANDS["Anna"]]))[:5]
                    t = time.perf_counter()
                    c.post("/api/hand", params={"token": s.token("seat1")}, json={"cards": probe})
                    times.setdefault("hand: " + where(card, placed=False), []).append((time.perf_counter() - t) * 1000)
            c.close()
            return times
        finally:
            s.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    out = {}
    for camera_only in (False, True):
        kind = "camera-only" if camera_only else "rfid"
        times = run(camera_only, args.rounds)
        gaps = []
        for probe in ("discard", "receive"):
            meds = {}
            for group, ts in sorted(times.items()):
                if group.startswith(probe):
                    ts = sorted(ts)
                    meds[group] = statistics.median(ts)
                    print(
                        f"{kind:>11} {group:<26} n={len(ts):>4} median {meds[group]:6.2f} ms  "
                        f"p90 {ts[int(len(ts) * 0.9)]:6.2f} ms"
                    )
            gaps.append(max(meds.values()) - min(meds.values()))
        out[f"{kind}_max_median_gap_ms"] = round(max(gaps), 3)
    meds = {}
    for group, ts in sorted(run_seat(args.rounds).items()):
        ts = sorted(ts)
        meds[group] = statistics.median(ts)
        print(
            f"{'seat':>11} {group:<26} n={len(ts):>4} median {meds[group]:6.2f} ms  p90 {ts[int(len(ts) * 0.9)]:6.2f} ms"
        )
    out["seat_max_median_gap_ms"] = round(max(meds.values()) - min(meds.values()), 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
