"""Benchmark: from an event appended to all of 200 WebSocket clients receiving it.

    .venv/bin/python tests/bench/dashboard.py [--clients 200] [--events 60] [--rounds 3]

A real server (``chicago-table serve``) in its own process on loopback; 200 public-role
clients in this process; actions posted by the TL's token one every 100 ms (cards by hand
are the TL's: dashboard/entry.py).  Each
message carries ``at``, the server's wall time right after the append (fsync), so the
latency is receipt minus ``at`` on the same machine's clock.  Prints each round's p50/p99,
their medians, and last a JSON line with clients, ws_p50_ms, ws_p99_ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import websockets  # noqa: E402

from table_controller.rules.engine import Engine  # noqa: E402
from table_controller.sim.bots import RandomBot  # noqa: E402
from tests.dashboard.harness import Server  # noqa: E402


def script(seed: int, n: int) -> list[dict]:
    bot, engine, out = RandomBot(seed), Engine(), []
    while len(out) < n:
        a = bot.next_action(engine)
        engine.apply(a)
        out.append(a.to_dict())
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def one_round(server: Server, clients: int, events: int, seed: int) -> tuple[float, float, int, int]:
    url = f"{server.ws_base}/ws?token={server.token('public')}"
    latencies: list[float] = []
    received = 0
    conns = []
    for _ in range(clients):
        conns.append(await websockets.connect(url, max_size=None, ping_interval=None))
    for ws in conns:  # the current state on connecting
        await ws.recv()
    stop = asyncio.Event()

    async def listen(ws):
        nonlocal received
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            now = time.time()
            msg = json.loads(text)
            if msg.get("at"):
                latencies.append((now - msg["at"]) * 1000)
                received += 1

    tasks = [asyncio.create_task(listen(ws)) for ws in conns]
    actions = script(seed, events)
    token = server.token("tl")
    async with httpx.AsyncClient(base_url=server.base) as http:
        for a in actions:
            r = await http.post("/api/action", params={"token": token}, json=a)
            r.raise_for_status()
            await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*tasks)
    for ws in conns:
        await ws.close()
    return pct(latencies, 0.5), pct(latencies, 0.99), received, clients * events


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--events", type=int, default=60, help="actions posted per round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    p50s, p99s = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            server = Server(Path(tmp) / f"round{r}", command="serve", delay=0, extra=("--post-rate", "100")).start()
            try:
                p50, p99, got, want = asyncio.run(one_round(server, args.clients, args.events, seed=r))
            finally:
                server.stop()
            p50s.append(p50)
            p99s.append(p99)
            print(
                f"round {r + 1}: {args.clients} clients, {args.events} events: p50 {p50:.1f} ms, "
                f"p99 {p99:.1f} ms, {got}/{want} messages received",
                flush=True,
            )
    p50, p99 = statistics.median(p50s), statistics.median(p99s)
    print(f"median of {args.rounds} rounds: p50 {p50:.1f} ms, p99 {p99:.1f} ms (target p99 < 100 ms)")
    print(json.dumps({"clients": args.clients, "ws_p50_ms": round(p50, 2), "ws_p99_ms": round(p99, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
