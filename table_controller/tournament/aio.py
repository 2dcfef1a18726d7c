"""Ending asyncio tasks for certain on the Pi's Python 3.11."""

from __future__ import annotations

import asyncio


async def cancel_and_wait(*tasks: asyncio.Task) -> None:
    """Cancel ``tasks`` and wait until every one has ended, cancelling again what still runs.

    On Python 3.11 a cancellation can be lost: ``asyncio.wait_for`` (which aiomqtt's
    ``publish`` and many loops use) returns the result of an awaitable that completes in
    the same pass of the loop as the cancel, and drops the ``CancelledError``; a task
    that loops then runs on for ever, and whoever waits for it hangs.  Python 3.12's
    ``wait_for`` no longer does this.  Only for tasks whose cleanup does not itself wait
    on purpose: a task still cleaning up after a tenth of a second is cancelled again.
    """
    pending = {t for t in tasks if not t.done()}
    for t in pending:
        t.cancel()
    while pending:
        _, pending = await asyncio.wait(pending, timeout=0.1)
        for t in pending:
            t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)  # their exceptions, retrieved
