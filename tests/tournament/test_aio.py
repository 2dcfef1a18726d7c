"""Tasks end for certain (table_controller/tournament/aio.py): the hub's and the
publisher's loops once hung a test's shutdown for 20 s beside a busy loop, their cancel lost."""

from __future__ import annotations

import asyncio
import sys

from table_controller.tournament.aio import cancel_and_wait


def _looping_on_wait_for(ev: asyncio.Event, rounds: list[int]):
    async def loop() -> None:  # as a hub loop: publish (wait_for inside), again and again
        while True:
            ev.clear()
            await asyncio.wait_for(ev.wait(), 10)
            rounds.append(1)

    return loop()


async def test_a_cancel_that_lands_as_the_awaited_completes_still_ends_the_task():
    ev, rounds = asyncio.Event(), []
    task = asyncio.create_task(_looping_on_wait_for(ev, rounds))
    await asyncio.sleep(0)  # the task waits in wait_for
    ev.set()  # what it waits for completes...
    async with asyncio.timeout(5):
        await cancel_and_wait(task)  # ...in the same pass as the cancel
    assert task.cancelled()


async def test_one_cancel_is_lost_there_on_python_3_11():
    # the reason for cancel_and_wait: on 3.11 the task above takes the completed wait and
    # goes on looping after a single cancel (Python 3.12's wait_for keeps the cancel)
    ev, rounds = asyncio.Event(), []
    task = asyncio.create_task(_looping_on_wait_for(ev, rounds))
    await asyncio.sleep(0)
    ev.set()
    task.cancel()
    for _ in range(5):
        await asyncio.sleep(0)
    if sys.version_info < (3, 12):
        assert not task.done() and rounds == [1]
    else:
        assert task.cancelled()
    await cancel_and_wait(task)
