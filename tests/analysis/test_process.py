"""The broadcast's analysis runs in a child process at a lower priority
(``table_controller.analysis.process``, stop 64's audit): its time depends on the hidden
hands, so it must not take the turns of the server that answers the blind roles."""

from __future__ import annotations

import asyncio
import os
import random

from table_controller.analysis import process
from table_controller.analysis.overlay import analyse_state
from table_controller.rules.sample import first_deal


def test_the_analysis_runs_in_a_child_process_at_a_lower_priority():
    async def go():
        pid = await process.run(os.getpid)
        nice = await process.run(os.nice, 0)
        return pid, nice

    pid, nice = asyncio.run(go())
    assert pid != os.getpid()
    assert nice == min(19, os.nice(0) + process.NICE)


def test_a_state_is_analysed_there_as_it_is_here():
    """The state and its random source cross to the child and back intact: the same odds."""
    state = first_deal().snapshot()
    here = analyse_state(state, random.Random(3), 200, "next")
    there = asyncio.run(process.run(analyse_state, state, random.Random(3), 200, "next"))
    assert here is not None and there == here


def test_a_child_that_died_is_replaced():
    async def go():
        first = await process.run(os.getpid)
        os.kill(first, 9)
        return first, await process.run(os.getpid)

    first, second = asyncio.run(go())
    assert second not in (first, os.getpid())
