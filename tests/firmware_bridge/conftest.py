from __future__ import annotations

import asyncio
import contextlib

import pytest

from firmware_bridge.client import SeatControllerClient
from hardware.virtual import NoiseModel, VirtualTable

# Quick timings so the link tests run in seconds; the logic is the same as the defaults.
FAST = dict(silence_s=1.0, hello_timeout_s=0.5, backoff_s=(0.02, 0.2), ping_s=0.3)


@pytest.fixture
def table():
    with VirtualTable(seed=1) as t:
        yield t


@pytest.fixture
def noisy_table():
    noise = NoiseModel(
        flicker=0.2, missed_scan=0.05, stack_limit=2, dup_byte=0.003, corrupt_byte=0.003, command_loss=0.0
    )
    with VirtualTable(noise=noise, seed=3) as t:
        yield t


@contextlib.asynccontextmanager
async def bridge(port: str, **options):
    """A started client; on exit it must leave no asyncio task behind."""
    client = SeatControllerClient(port, **{**FAST, **options})
    await client.start()
    try:
        yield client
    finally:
        await client.close()
        await asyncio.sleep(0)
        left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert not left, f"tasks left running: {left}"


async def until(client, predicate, timeout: float = 3.0):
    """The first event matching ``predicate`` within ``timeout`` s (fails listing what came)."""
    seen = []
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        remaining = end - loop.time()
        if remaining <= 0:
            pytest.fail(f"no matching event in {timeout} s; saw {seen}")
        try:
            event = await client.next_event(remaining)
        except TimeoutError:
            continue
        seen.append(event)
        if predicate(event):
            return event


async def settle(predicate, timeout: float = 3.0, step: float = 0.01) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            pytest.fail("condition not reached in time")
        await asyncio.sleep(step)
