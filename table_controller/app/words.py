"""The console's words for the officials who set a table up and check it (``setup``,
``doctor``): Swedish first, English with ``--lang en``, as ``protocol`` and the dashboard.

The texts are English message ids, marked where they are said (``say``), in a gettext
catalogue of their own beside the dashboard's (``dashboard/locale/sv/LC_MESSAGES/console.po``;
``make i18n`` extracts, merges and compiles both; tests/dashboard/test_i18n.py fails on a
text without Swedish).  What another part of the program or the system says inside them (a
configuration's error, an OS error, a seat controller's check) stays as it was said.

    >>> speak("sv"); say("the deck: {error}", error="x")
    'leken: x'
    >>> speak("en"); say("the deck: {error}", error="x")
    'the deck: x'
    >>> speak("sv")
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("console_lang", default="sv")


def N_(text: str) -> str:
    """Mark a text for the console's catalogue where it is not said at once (a table of
    words); ``say`` puts it in the language spoken where it is."""
    return text


def add_lang(p: argparse.ArgumentParser) -> None:
    """A command's ``--lang``: the language its words are said in."""
    p.add_argument(
        "--lang", choices=("sv", "en"), default="sv", help="the language it speaks (Swedish by default; en: English)"
    )


def speak(lang: str) -> None:
    """Say what follows in ``lang`` (``sv`` or ``en``) from here on; a command says its
    words inside ``speaking``, which puts the language back after."""
    _LANG.set(lang)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Say what is said inside in ``lang``; the language spoken before comes back after
    (a command run inside another program, a test, leaves nothing behind)."""
    token = _LANG.set(lang)
    try:
        yield
    finally:
        _LANG.reset(token)


def say(text: str, **params: Any) -> str:
    """``text`` in the language spoken, with ``params`` put in."""
    from dashboard.i18n import CONSOLE, lang_of, translations

    out = translations(lang_of(_LANG.get()), CONSOLE).gettext(text)
    return out.format(**params) if params else out


def yes(answer: str) -> bool:
    """An answer to a yes-or-no question, in either language."""
    return answer.strip().lower() in ("y", "yes", "j", "ja")
