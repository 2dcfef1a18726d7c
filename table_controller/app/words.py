"""The console's words for the officials who set a table up and check it (``setup``,
``doctor``), start and run it (``run``, ``serve``, ``demo``), for the TL who runs the
tournament (``hub``) and for whoever replays, registers a deck or sets a camera up (the
developers' commands: ``replay``, ``rules``, ``analyse``, ``deck``, ``link``, ``camera``):
Swedish first, English with ``--lang en``, as ``protocol`` and the dashboard.

The texts are English message ids, marked where they are said (``say``), in a gettext
catalogue of their own beside the dashboard's (``dashboard/locale/sv/LC_MESSAGES/console.po``;
``make i18n`` extracts, merges and compiles both; tests/dashboard/test_i18n.py fails on a
text without Swedish).  The errors raised with their English text and what goes in it (a
``WordedError``: the hub's refusals, the table log's errors) are said from it too
(``said_error``), and so are a configuration's errors (``config``) and the common errors of
the system (``os_error_words``: no such file, permission denied, a full disk).  What another
part of the program says inside them (a seat controller's check, SQLite's own words, a rare
OS error) stays as it was said.

    >>> with speaking("sv"):
    ...     say("the deck: {error}", error="x")
    'leken: x'
    >>> with speaking("en"):
    ...     say("the deck: {error}", error="x")
    'the deck: x'
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import errno
from collections.abc import Callable, Iterator, Mapping
from typing import Any

_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("console_lang", default="sv")


def add_lang(p: argparse.ArgumentParser, default: str = "sv") -> None:
    """A command's ``--lang``: the language its words are said in.  A command with actions
    takes it before the action and after (``deck --lang en show``, ``deck show --lang en``):
    its actions' parsers are given ``default=argparse.SUPPRESS``, so that an action's parser
    never puts its default over the language said before it."""
    p.add_argument(
        "--lang",
        choices=("sv", "en"),
        default=default,
        help=say("the language it speaks (Swedish by default; en: English)"),
    )


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Say what is said inside in ``lang``; the language spoken before comes back after
    (a command run inside another program, a test, leaves nothing behind)."""
    token = _LANG.set(lang)
    try:
        yield
    finally:
        _LANG.reset(token)


def spoken() -> str:
    """The language spoken now: ``"sv"`` or ``"en"``."""
    return _LANG.get()


def _catalogue() -> Any:
    """The console's catalogue in the language spoken (gettext's translations)."""
    from dashboard.i18n import CONSOLE, lang_of, translations

    return translations(lang_of(_LANG.get()), CONSOLE)


class _Number(float):
    """A number said in the language spoken: a decimal comma in Swedish ("0,5 s")."""

    def __format__(self, spec: str) -> str:
        text = format(float(self), spec)
        return text.replace(".", ",") if _LANG.get() == "sv" else text


def say(text: str, **params: Any) -> str:
    """``text`` in the language spoken, with ``params`` put in (a number with a fraction as
    the language writes it).

    >>> with speaking("sv"):
    ...     say("{table}: {events}; broadcast delay {delay:g} s. Views:", table="Bord 1", events="0", delay=7.5)
    'Bord 1: 0; sändningsfördröjning 7,5 s. Vyer:'
    """
    out = _catalogue().gettext(text)
    if not params:
        return out
    return out.format(**{k: _Number(v) if type(v) is float else v for k, v in params.items()})


# What the system said of a file or a port, in the language spoken: the common errnos; any
# other in the system's own words (its strerror)
_OS_WORDS: dict[int, Callable[[], str]] = {
    errno.ENOENT: lambda: say("no such file or folder"),
    errno.EACCES: lambda: say("permission denied"),
    errno.EPERM: lambda: say("not permitted"),
    errno.EISDIR: lambda: say("it is a folder, not a file"),
    errno.ENOTDIR: lambda: say("a part of the path is not a folder"),
    errno.ENOSPC: lambda: say("the disk is full"),
    errno.EROFS: lambda: say("the disk is read-only"),
    errno.EADDRINUSE: lambda: say("the address is in use already"),
    errno.EBUSY: lambda: say("it is in use by another program"),
}


def os_error_words(exc: OSError) -> str:
    """What the system said (``exc``), in the language spoken where it is a common errno.

    >>> with speaking("sv"):
    ...     os_error_words(FileNotFoundError(errno.ENOENT, "No such file or directory"))
    'filen eller mappen finns inte'
    """
    words = _OS_WORDS.get(exc.errno or -1)
    return words() if words is not None else exc.strerror or str(exc)


def os_error_with_file(exc: OSError) -> str:
    """The file the system names (when it names one) and its reason, in the language spoken.

    >>> with speaking("sv"):
    ...     os_error_with_file(FileNotFoundError(errno.ENOENT, "No such file or directory", "/x.csv"))
    '/x.csv: filen eller mappen finns inte'
    """
    return f"{exc.filename}: {os_error_words(exc)}" if exc.filename else os_error_words(exc)


_CLOCK_WORDS: dict[str, Callable[..., str]] = {
    "form": lambda part: say("{part} is not CLOCK=SECONDS (e.g. play=30)", part=part),
    "unknown": lambda name, clocks: say("no shot clock {name}; the clocks are {clocks}", name=name, clocks=clocks),
    "twice": lambda name: say("shot clock {name} is given twice", name=name),
    "number": lambda name, value: say("shot clock {name}: {value} is not a number of seconds", name=name, value=value),
    "range": lambda name, value: say(
        "shot clock {name}: seconds above 0 and at most 3600, not {value}", name=name, value=value
    ),
}


def clock_error_words(exc: ValueError) -> str:
    """A bad setting of the shot clocks (``rulesets.ClockError``) in the language spoken.

    >>> from table_controller.rules.rulesets import parse_shot_clocks
    >>> try:
    ...     parse_shot_clocks("spel=20")
    ... except ValueError as exc:
    ...     with speaking("sv"):
    ...         print(clock_error_words(exc))
    ingen betänketid 'spel'; klockorna är exchange, chicago, play, quads
    """
    words = _CLOCK_WORDS.get(getattr(exc, "kind", ""))
    return words(**exc.params) if words is not None else str(exc)  # type: ignore[attr-defined]


def said_error(exc: BaseException | str) -> str:
    """Any error in the language spoken, to show a person: a worded one (``WordedError``: the
    table log's, the hub's; a ``Phrase``, a check's problem; the camera's ``VisionError``,
    worded the same way) from the console's catalogue
    with what goes in it said too (``said_params``); an OSError as the file it names and the
    system's reason (``os_error_with_file``); anything else as it says itself (``str``).

        >>> import errno
        >>> from table_controller.store.errors import StoreError, StoreNotFound
        >>> missing = StoreNotFound("{path}: no such file (a table's log was expected)", path="/x/t.sqlite")
        >>> with speaking("sv"):
        ...     said_error(missing)
        '/x/t.sqlite: filen finns inte (ett bords logg väntades)'
        >>> with speaking("en"):
        ...     said_error(missing)
        "/x/t.sqlite: no such file (a table's log was expected)"
        >>> full = StoreError("cannot create {path}: {error}", path="/x/t.sqlite", error=OSError(errno.ENOSPC, "No space left on device"))
        >>> with speaking("sv"):
        ...     said_error(full)
        'kan inte skapa /x/t.sqlite: disken är full'
        >>> said_error(KeyError("x"))
        "'x'"
    """
    from table_controller.rules.errors import Phrase, WordedError

    if isinstance(exc, (WordedError, Phrase)) and exc.text:
        return say(exc.text, **said_params(exc.params))
    if _vision_worded(exc):  # the camera's errors, worded as a WordedError is (vision.errors)
        return say(exc.text, **said_params(exc.params))  # type: ignore[union-attr]
    if isinstance(exc, OSError):  # a file a command reads or writes: its name and the system's reason
        return os_error_with_file(exc)
    return str(exc)


def _vision_worded(exc: BaseException | str) -> bool:
    """Whether ``exc`` is one of the camera's errors raised with its English text and what
    goes in it (``vision.errors.VisionError``: vision imports nothing of the rules, so it
    words its errors itself)."""
    try:
        from vision.errors import VisionError
    except ImportError:  # pragma: no cover - the camera's part not installed
        return False
    return isinstance(exc, VisionError) and bool(exc.text)


# What SQLite says of a table's log, in the language spoken: its common messages (a damaged
# or foreign file, a lock, a full or read-only disk); any other in SQLite's own words
_SQLITE_WORDS: dict[str, Callable[[], str]] = {
    "database disk image is malformed (text that is not UTF-8)": lambda: say(
        "SQLite finds errors in the file (text that is not UTF-8)"
    ),
    "database disk image is malformed": lambda: say("SQLite finds errors in the file"),
    "file is not a database": lambda: say("the file is not a database"),
    "database is locked": lambda: say("the database is locked by another program"),
    "attempt to write a readonly database": lambda: say("the database may not be written"),
    "unable to open database file": lambda: say("the database file cannot be opened"),
    "disk I/O error": lambda: say("a disk error while reading or writing"),
    "database or disk is full": lambda: say("the disk is full"),
}


def sqlite_words(exc: BaseException) -> str:
    """What SQLite said (``exc``), in the language spoken where it is a common message.

    >>> import sqlite3
    >>> with speaking("sv"):
    ...     sqlite_words(sqlite3.DatabaseError("file is not a database"))
    'filen är ingen databas'
    >>> sqlite_words(sqlite3.OperationalError("no such table: x"))
    'no such table: x'
    """
    words = _SQLITE_WORDS.get(str(exc))
    return words() if words is not None else str(exc)


def said_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """What goes in a worded text, in the language spoken: a worded error or phrase in it
    (``said_error``, again), a shot clock set wrong (``clock_error_words``), the system's
    reason (``os_error_words``), SQLite's (``sqlite_words``); anything else as it is (a path,
    a number)."""
    import sqlite3

    from table_controller.rules.errors import Phrase, WordedError
    from table_controller.rules.rulesets import ClockError

    def said(v: Any) -> Any:
        if isinstance(v, (WordedError, Phrase)) or _vision_worded(v):
            return said_error(v)
        if isinstance(v, ClockError):
            return clock_error_words(v)
        if isinstance(v, OSError):
            return os_error_words(v)
        if isinstance(v, sqlite3.Error):
            return sqlite_words(v)
        return v

    return {k: said(v) for k, v in params.items()}


def _unreadable(path: object, error: BaseException) -> str:
    reason = os_error_words(error) if isinstance(error, OSError) else say("not UTF-8 text")
    return say("cannot read the deck file {path}: {reason}", path=path, reason=reason)


_DECK_WORDS: dict[str, Callable[..., str]] = {
    "missing": lambda path: say("no deck file {path}: register one with 'chicago-table deck register'", path=path),
    "unreadable": _unreadable,
    "json": lambda path, line: say("{path} is no deck file: its JSON breaks off at line {line}", path=path, line=line),
    "format": lambda format: say("not a deck file (its format should be {format})", format=format),
    "cards": lambda: say("a deck file needs 'cards': each UID with its card"),
    "card": lambda uid, card: say("UID {uid}: {card} is no card (such as 10S, QH or 7D)", uid=uid, card=card),
    "uid": lambda given: say("not a UID: {given} (hex digits, such as 04A1B2C3D4E5F6)", given=given),
    "count": lambda n, cards: say(
        "{n} UIDs scanned for {cards} cards: scan each card once, in order", n=n, cards=cards
    ),
    "twice": lambda uid, first, second: say(
        "UID {uid} scanned as both {first} and {second}: one tag per card", uid=uid, first=first, second=second
    ),
    "text": lambda path: say("{path} is not a text file of UIDs (one per line, UTF-8)", path=path),
    "stopped": lambda: say("registration stopped before all 52 cards"),
    "silent": lambda port, seconds: say(
        "no seat controller answered on {port} in {seconds:g} s: is it plugged in, and is this its port?",
        port=port,
        seconds=seconds,
    ),
}


def deck_error_words(exc: ValueError) -> str:
    """A deck file or registration that does not add up (``deck.DeckError``) in the
    language spoken.

    >>> from table_controller.deck import Deck
    >>> try:
    ...     Deck.load("/nowhere/deck.json")
    ... except ValueError as exc:
    ...     with speaking("sv"):
    ...         print(deck_error_words(exc))
    ingen lekfil /nowhere/deck.json: registrera en med 'chicago-table deck register'
    """
    words = _DECK_WORDS.get(getattr(exc, "kind", ""))
    return words(**exc.params) if words is not None else str(exc)  # type: ignore[attr-defined]


def missing_port_words(port: str) -> str:
    """Why ``port`` (a device path) cannot be the seat controller's, in the words spoken
    (``firmware_bridge.transports.missing_port``'s reasons): "" when it is a URL or exists,
    else the serial devices that are there.

    >>> with speaking("sv"):
    ...     missing_port_words("socket://localhost:7000")
    ''
    """
    import glob

    from firmware_bridge.transports import missing_port

    if not missing_port(port):
        return ""
    found = sorted(glob.glob("/dev/serial/by-id/*"))
    hint = (
        say("serial devices here: {devices}", devices=", ".join(found))
        if found
        else say("no USB serial devices are plugged in (nothing in /dev/serial/by-id)")
    )
    return say("no port {port}; {hint}", port=repr(port), hint=hint)


def say_n(singular: str, plural: str, n: int, **params: Any) -> str:
    """``singular`` or ``plural``, as the language spoken counts ``n``, with ``n`` and
    ``params`` put in (``make i18n`` extracts both; the catalogue's plural forms).

        >>> with speaking("en"):
        ...     say_n("{n} problem: see FAIL above", "{n} problems: see FAIL above", 1)
        '1 problem: see FAIL above'
    """
    said = {k: _Number(v) if type(v) is float else v for k, v in params.items()}
    return _catalogue().ngettext(singular, plural, n).format(n=n, **said)


def page_word(text: str) -> str:
    """A text the pages' own catalogue already holds (a phase's name), in the language
    spoken: the console says it as the dashboard does, without a second Swedish for it."""
    from dashboard.i18n import tr

    return tr(text, _LANG.get())


def hub_words(text: str) -> str:
    """A table's problem or a conflict the hub keeps in English, in the language spoken, as
    the TL's event screen says it (``dashboard.i18n.tr_hub``)."""
    from dashboard.i18n import tr_hub

    return tr_hub(text, _LANG.get())


# REPLAY.md's phases in words: common.js's PHASES, whose Swedish the pages' catalogue holds
PHASES = {
    "game_start": "seat draw",
    "deal": "dealing",
    "exchange_1": "exchange 1",
    "exchange_2": "exchange 2",
    "exchange_3": "exchange 3",
    "quads_choice": "four of a kind: choice",
    "chicago": "Chicago question",
    "tricks": "trick play",
    "game_over": "game over",
    "table_over": "table over",
}


def phase_word(phase: str) -> str:
    """A table's phase in the words spoken, as the pages say it (an unknown one as it is):
    ``doctor``'s table and the hub's standings alike."""
    return page_word(PHASES[phase]) if phase in PHASES else phase


# The shot clocks (D11) by name, as the pages name them (audience.js: CLOCK), whose Swedish
# the pages' catalogue holds; the play clock's word is the console's own ("spel"): the pages'
# "play" is a card played ("utspel")
CLOCKS = {"exchange": "exchange", "chicago": "Chicago question", "quads": "four of a kind"}


def clock_word(clock: str) -> str:
    """A shot clock's name in the words spoken (an unknown one as it is)."""
    if clock == "play":
        return say("play")
    return page_word(CLOCKS[clock]) if clock in CLOCKS else clock


def clocks_words(limits: Mapping[str, float]) -> str:
    """Shot clocks as the TL checks them against the event's (D11), in seconds, in the words
    spoken (``doctor``, the hub's standings).

        >>> with speaking("sv"):
        ...     clocks_words({"exchange": 30.0, "chicago": 10.0, "play": 20.0, "quads": 15.0})
        'byte 30 s, Chicagofrågan 10 s, spel 20 s, fyrtal 15 s'
        >>> with speaking("en"):
        ...     clocks_words({"exchange": 30.0, "play": 20.5})
        'exchange 30 s, play 20.5 s'
    """
    return ", ".join(f"{clock_word(k)} {_Number(v):g} s" for k, v in limits.items())


def alert_word(kind: str) -> str:
    """An alert's kind in the words spoken, never its code: the pages' label, a sensing
    alert's card-free words (``sensing.alerts.PUBLIC_TEXT``, common.js: SENSING_KINDS),
    both from the pages' catalogue; an unknown kind as it is.

        >>> with speaking("sv"):
        ...     alert_word("two_pads"), alert_word("stuck"), alert_word("tl_called")
        ('ett kort läst på två plattor', 'bordet står still', 'TL kallad')
    """
    from dashboard.i18n import ALERT_LABELS
    from table_controller.sensing.alerts import PUBLIC_TEXT

    if kind in ALERT_LABELS:
        return page_word(ALERT_LABELS[kind])
    if kind in PUBLIC_TEXT:
        return page_word(PUBLIC_TEXT[kind])
    if kind == "stuck":  # its own text says who is waited for, on what
        return say("the table is stuck")
    return kind


def yes(answer: str) -> bool:
    """An answer to a yes-or-no question, in either language."""
    return answer.strip().lower() in ("y", "yes", "j", "ja")


def means(answer: str, word: str) -> bool:
    """Whether a typed ``answer`` is the catalogue's ``word`` in either language (a prompt
    offers "sök" in Swedish, and "search" from an English habit is understood too).

        >>> means(" Bricka ", "tray"), means("tray", "tray"), means("deck.txt", "tray")
        (True, True, False)
    """
    from dashboard.i18n import CONSOLE, translations

    return answer.strip().lower() in {word, translations("sv", CONSOLE).gettext(word).lower()}


def dashboard_words(exc: BaseException) -> str:
    """A ``DashboardError`` (a token file, a logo, a peer) in the language spoken: its
    catalogue id from the dashboard's catalogue, else its text as it is (stop 72: English in
    the console's Swedish lines)."""
    from dashboard.errors import DashboardError
    from dashboard.i18n import tr_error

    params = getattr(exc, "params", None) or {}
    if isinstance(exc, DashboardError) and any(isinstance(v, OSError) for v in params.values()):
        # the system's reason in the words spoken too ("filen eller mappen finns inte")
        said = {k: os_error_words(v) if isinstance(v, OSError) else v for k, v in params.items()}
        exc = DashboardError(exc.msgid, **said)
    return tr_error(exc, spoken())
