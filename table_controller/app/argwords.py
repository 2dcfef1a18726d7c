"""argparse's own words (its usage line, its headings, its errors) and the command list, in
the language the console speaks (``words``: Swedish unless ``--lang en``), so that an
official who mistypes an option reads "fel: okända argument: --bogus", not argparse's
English.  argparse looks its words up through ``gettext`` when it says them;
``argparse_speaking`` routes them through the console's catalogue (console.po; ``make i18n`` extracts the texts
marked ``argword`` here).  Each command says its own options' help (``words.say``).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gettext
import importlib.util
from collections.abc import Iterator, Sequence
from pathlib import Path

from .words import spoken


def argword(text: str) -> str:
    """Marks one of argparse's texts, or the command list's, for the console's catalogue."""
    return text


# argparse's texts that an official meets (Python 3.11's, as argparse writes them)
ARGPARSE = (
    argword("usage: "),
    argword("options"),
    argword("positional arguments"),
    argword("show this help message and exit"),
    argword("show program's version number and exit"),
    argword("%(prog)s: error: %(message)s\n"),
    argword("unrecognized arguments: %s"),
    argword("the following arguments are required: %s"),
    argword("invalid choice: %(value)r (choose from %(choices)s)"),
    argword("argument %(argument_name)s: %(message)s"),
    argword("expected one argument"),
    argword("expected at most one argument"),
    argword("expected at least one argument"),
    argword("invalid %(type)s value: %(value)r"),
    argword("ambiguous option: %(option)s could match %(matches)s"),
    argword("not allowed with argument %s"),
    argword("one of the arguments %s is required"),
    argword("can't open '%(filename)s': %(error)s"),
)


@functools.cache
def _console(lang: str) -> gettext.NullTranslations:
    """The console's catalogue, found without importing the dashboard (``chicago-table
    --help`` imports no command and no web part: tests/app/test_cli.py)."""
    spec = importlib.util.find_spec("dashboard")
    if lang == "en" or spec is None or not spec.submodule_search_locations:
        return gettext.NullTranslations()
    locale = Path(next(iter(spec.submodule_search_locations))) / "locale"
    return gettext.translation("console", locale, languages=[lang], fallback=True)


def word(text: str) -> str:
    """One of the texts marked here, in the language spoken."""
    return _console(spoken()).gettext(text)


@contextlib.contextmanager
def argparse_speaking() -> Iterator[None]:
    """argparse says its words through the console's catalogue inside (in the language
    spoken when it says them; a text the catalogue lacks as argparse wrote it), and as it
    did before after: argparse looks its words up through its module's ``_`` (gettext's
    ``gettext``), the one door it has (tests/test_architecture.py: ``FOREIGN``)."""
    before = argparse._  # type: ignore[attr-defined]
    argparse._ = word  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = before  # type: ignore[attr-defined]


def lang_of_argv(argv: Sequence[str]) -> str:
    """The language a command line asks for (``--lang en`` or ``--lang=en``), else Swedish.

    >>> lang_of_argv(["run", "--lang", "en"]), lang_of_argv(["run", "--lang=en"]), lang_of_argv(["run"])
    ('en', 'en', 'sv')
    """
    for k, a in enumerate(argv):
        if a == "--lang=en" or (a == "--lang" and argv[k + 1 : k + 2] == ["en"]):
            return "en"
    return "sv"
