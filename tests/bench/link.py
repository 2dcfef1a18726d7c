"""Benchmark of the seat-controller link (issue 4).

1. Frames decoded per second: a recorded-like stream of pad reports, heartbeats,
   buttons and acks, bytes -> frames -> typed messages (firmware_bridge codec and
   messages), fed in 4 KiB chunks as the serial port delivers them.
2. Latency from a card landing on a virtual pad to the bridge's PadContents event,
   over a real pseudo-terminal.  Debounce is excluded (the firmware confirms a card on
   its first read here); what remains is the reader scan period (2 ms), one firmware
   loop pass, the pty, the asyncio bridge and the decoder.

    .venv/bin/python tests/bench/link.py
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time

from firmware_bridge.client import SeatControllerClient
from firmware_bridge.codec import FrameDecoder, encode_frame
from firmware_bridge.messages import from_frame
from hardware.firmware.controller import Config
from hardware.virtual import VirtualTable, virtual_uid
from table_controller.sensor_events import PadContents

REPEATS = 7
SAMPLES = 300


def make_stream(n: int = 20000) -> bytes:
    rng = random.Random(1)
    uids = [virtual_uid(str(i)) for i in range(52)]
    out = []
    for seq in range(n):
        r = rng.random()
        if r < 0.7:
            pad = rng.choice(("seat1", "seat2", "seat3", "seat4", "tray"))
            fields = (("pad", pad), ("uids", ",".join(rng.sample(uids, rng.randint(0, 6)))))
            out.append(encode_frame(seq, "PAD", fields))
        elif r < 0.9:
            out.append(encode_frame(seq, "HB", (("up", str(seq * 5)), ("rxbad", "0"))))
        elif r < 0.95:
            out.append(encode_frame(seq, "BTN", (("name", "next"),)))
        else:
            out.append(encode_frame(seq, "ACK", (("cmd", str(seq)),)))
    return b"".join(out)


def bench_decode() -> tuple[float, float]:
    stream = make_stream()
    chunks = [stream[i : i + 4096] for i in range(0, len(stream), 4096)]
    rates = []
    for _ in range(REPEATS):
        dec = FrameDecoder()
        t = time.perf_counter()
        n = 0
        for chunk in chunks:
            for frame in dec.feed(chunk):
                if from_frame(frame) is not None:
                    n += 1
        rates.append(n / (time.perf_counter() - t))
        assert n == 20000 and dec.stats.dropped == 0
    return statistics.median(rates), len(stream) / 20000


async def bench_latency() -> list[float]:
    config = Config(confirm_reads=1, gone_ms=20, scan_ms=2)
    with VirtualTable(config=config, seed=2) as table:
        client = SeatControllerClient(table.port)
        await client.start()
        try:
            codes = list(table.deck.uids)
            # connected: every pad reported once
            while len(client.pads) < 5:
                await client.next_event(5)
            samples = []
            for i in range(SAMPLES):
                code, pad = codes[i % 52], ("seat1", "seat2", "seat3", "seat4", "tray")[i % 5]
                uid = table.deck.uid(code)
                t0 = time.perf_counter()
                table.put(code, pad)
                while True:
                    ev = await client.next_event(5)
                    if isinstance(ev, PadContents) and ev.pad == pad and uid in ev.uids:
                        break
                samples.append((time.perf_counter() - t0) * 1000)
                table.remove(code)
                while True:
                    ev = await client.next_event(5)
                    if isinstance(ev, PadContents) and ev.pad == pad and uid not in ev.uids:
                        break
                if i % 50 == 49:
                    print(f"  latency samples: {i + 1}/{SAMPLES}", flush=True)
            return samples
        finally:
            await client.close()


def main() -> None:
    rate, frame_bytes = bench_decode()
    print(f"frames decoded to typed messages: {rate:,.0f}/s (mean frame {frame_bytes:.0f} bytes)  median of {REPEATS}")
    samples = asyncio.run(bench_latency())
    cuts = statistics.quantiles(samples, n=100)
    p50, p99 = statistics.median(samples), cuts[98]
    print(
        f"card on a virtual pad -> PadContents event: p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
        f"max {max(samples):.2f} ms over {len(samples)} cards (debounce excluded)"
    )
    print(json.dumps({"frames_per_s": round(rate), "latency_p50_ms": round(p50, 2), "latency_p99_ms": round(p99, 2)}))


if __name__ == "__main__":
    main()
