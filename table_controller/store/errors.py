"""The store's errors: one root, :class:`StoreError`; sqlite3's own errors never leave
the package.  Each message says what happened and what to do about it.

They are worded (``rules.errors.WordedError``): raised with their English text and what
goes in it, so that a console says them in Swedish too (console.po: ``make i18n`` extracts
each class's text); ``str()`` is the English, as logs, tests and programs read it.  What
SQLite or the system said goes in as a param, as it was said (an OSError in the system's
words); a few words of the store's own inside one are a ``Phrase``.

    >>> exc = StoreNotFound("{path}: no such file (a table's log was expected)", path="t.sqlite")
    >>> str(exc), exc.text
    ("t.sqlite: no such file (a table's log was expected)", "{path}: no such file (a table's log was expected)")
"""

from __future__ import annotations

from table_controller.rules.errors import WordedError


class StoreError(WordedError):
    """Anything that went wrong reading or writing a table's log."""


class StoreNotFound(StoreError):
    """The log file does not exist (and was not to be created)."""


class NotATableLog(StoreError):
    """The file is not a table log: not SQLite at all, or another program's database."""


class SchemaError(StoreError):
    """The file is a table log of a schema this version cannot read (newer, or broken)."""


class StoreCorrupt(StoreError):
    """The file is damaged: a truncated file, a corrupt page, a broken record chain.
    ``chicago-table log check FILE --salvage OUT`` copies what is readable."""


class StoreBusy(StoreError):
    """Another process holds the log's write lock."""


class StoreWriteError(StoreError):
    """A write failed (disk full, read-only file system, ...): nothing was appended."""


class StoreReadOnly(StoreError):
    """A write to a log opened read-only for inspection."""


class StoreClosed(StoreError):
    """The store was used after ``close()``."""


class RecordError(StoreError, ValueError):
    """A record that cannot be stored: unknown kind, data that is not a JSON object."""


class ExportError(StoreError):
    """An export that cannot be imported (malformed line, events that do not follow from
    the actions, target file already exists)."""


class ClockSnapshotError(StoreError, ValueError):
    """A shot-clock snapshot of the wrong shape."""
