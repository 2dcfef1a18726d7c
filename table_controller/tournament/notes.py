"""What the hub and a table's publisher tell their operator (``chicago-table hub serve``,
``hub publish``), as ``draw.WordedError`` does for an error: an English text and what goes
in it.  The log keeps the English (``record.getMessage()``); the console's handler says it
in the language spoken (``table_controller/app/commands/hub.py``: console.po; ``make i18n``
extracts ``note``'s third argument).  An unexpected error's traceback goes to the log at
debug level; the operator gets one line in words, with the error's own (``error_words``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any


def note(logger: logging.Logger, level: int, text: str, **params: Any) -> None:
    """Log ``text`` with ``params`` put in (``str.format``) at ``level``, the text and its
    params kept on the record (``said_text``, ``said_params``) for the operator's console."""
    logger.log(level, "%s", text.format(**params), extra={"said_text": text, "said_params": params})


def error_words(exc: BaseException) -> str:
    """An unexpected error in one line: its type and its own words.

    >>> error_words(KeyError("x")), error_words(RuntimeError())
    ("KeyError: 'x'", 'RuntimeError')
    """
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def fault(logger: logging.Logger, text: str, exc: BaseException) -> None:
    """An unexpected fault the program survives: its traceback in the log at debug level,
    one line in words at error level (``text`` with ``{error}``: ``error_words``)."""
    logger.debug("%s", text.format(error=type(exc).__name__), exc_info=exc)
    note(logger, logging.ERROR, text, error=error_words(exc))


class Quiet:
    """Whether a failure tried again and again is worth saying again: the first time, when
    its words change, and then once a minute (``every``) while it lasts.  A publisher and
    the hub try an unreachable broker every half second; each try said it (stop 71's audit:
    two lines a second, the terminal flooded).  ``clear`` after a success: the next failure
    is said at once.

        >>> now = [0.0]
        >>> q = Quiet(every=60, clock=lambda: now[0])
        >>> [q.due("refused") for now[0] in (0, 0.5, 30, 59.9, 60, 61)]
        [True, False, False, False, True, False]
        >>> q.due("timed out"), q.due("timed out")
        (True, False)
        >>> q.clear(); q.due("timed out")
        True
    """

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.words: str | None = None
        self.at = 0.0

    def due(self, words: str) -> bool:
        now = self.clock()
        if words != self.words or now - self.at >= self.every:
            self.words, self.at = words, now
            return True
        return False

    def clear(self) -> None:
        self.words = None


def worth_saying(quiet: Quiet, reached: bool, exc: BaseException) -> str | None:
    """An unreachable broker's words (``system_words``) when they are worth saying now
    (``quiet``), else None; ``reached``: it was reached since the last try, so a new failure
    is said at once.  The hub's and a publisher's retry loops say it by a ``note`` of their own."""
    if reached:
        quiet.clear()
    words = system_words(exc)
    return words if quiet.due(words) else None


def system_words(exc: BaseException) -> str:
    """An error's words without the system's error number ("[Errno 111] Connection
    refused" -> "Connection refused"), as an operator reads them.

        >>> system_words(OSError(111, "Connection refused"))
        'Connection refused'
    """
    return re.sub(r"^\[Errno -?\d+\]\s*", "", str(exc))
