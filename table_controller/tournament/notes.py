"""What the hub and a table's publisher tell their operator (``chicago-table hub serve``,
``hub publish``), as ``draw.WordedError`` does for an error: an English text and what goes
in it.  The log keeps the English (``record.getMessage()``); the console's handler says it
in the language spoken (``table_controller/app/commands/hub.py``: console.po; ``make i18n``
extracts ``note``'s third argument).  An unexpected error's traceback goes to the log at
debug level; the operator gets one line in words, with the error's own (``error_words``).
"""

from __future__ import annotations

import logging
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
