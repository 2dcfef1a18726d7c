"""Option types of the command line: a number out of its range is refused by argparse with
the option's name and what it takes, before anything runs (stop 65's audit: ports of
99999 ran to a traceback, ``--max-actions -5`` and ``--pace -1`` were taken), in the
language spoken (``words.say``; argparse's own words around it: ``argwords``).

    >>> from table_controller.app.words import speaking
    >>> port_number("8080"), positive_int("3"), non_negative("0.5")
    (8080, 3, 0.5)
    >>> with speaking("en"):
    ...     port_number("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a port is a number from 1 to 65535, not 99999
    >>> with speaking("sv"):
    ...     non_negative("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: ett tal från 0 och uppåt, inte -1,0
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from .words import say


def _ranged(text: str, kind: type, what: Callable[[], str], ok) -> float:
    """``text`` as a number of ``kind`` for which ``ok`` holds, else argparse's error
    saying ``what`` the option takes (in the language spoken when it is said)."""
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("{what}, not {value}", what=what(), value=repr(text))) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(say("{what}, not {value}", what=what(), value=repr(text)))
    if not ok(value):
        raise argparse.ArgumentTypeError(say("{what}, not {value}", what=what(), value=value))
    return value


def port_number(text: str) -> int:
    """A TCP port to listen on: 1-65535."""
    return int(_ranged(text, int, lambda: say("a port is a number from 1 to 65535"), lambda n: 1 <= n <= 65535))


def positive_int(text: str) -> int:
    """A whole number of 1 or more (a count)."""
    return int(_ranged(text, int, lambda: say("a whole number of 1 or more"), lambda n: n >= 1))


def non_negative(text: str) -> float:
    """A number of 0 or more (seconds to wait, a pace)."""
    return float(_ranged(text, float, lambda: say("a number of 0 or more"), lambda x: x >= 0))


def delay_seconds(text: str) -> float:
    """A broadcast delay: 0 to 86400 seconds (a day: ``delay.LONGEST_DELAY``), refused before
    anything is made."""
    from dashboard.delay import LONGEST_DELAY

    return float(
        _ranged(
            text,
            float,
            lambda: say("seconds from 0 to {most:g}", most=LONGEST_DELAY),
            lambda x: 0 <= x <= LONGEST_DELAY,
        )
    )


def positive(text: str) -> float:
    """A number above 0 (a rate)."""
    return float(_ranged(text, float, lambda: say("a number above 0"), lambda x: x > 0))
