"""Where a command may write: never over what it reads, never over a database.

A command that writes a file (an export, a protocol, a witness, a deck) is given its path
by hand, and a slip of the hand (``protocol table7.sqlite -o table7.sqlite``) once wrote
the PDF over the table's only log and said it had done well.  So before anything is
written, the path is checked:

- it is not one of the files the command reads (the same file by any name: a link, a
  relative path);
- it is no SQLite file: a table's event log or a tournament hub is never replaced by an
  export (another table's log named by mistake, say);
- it is no folder.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "a.jsonl").write_text("{}")
    2
    >>> check_output(d / "b.pdf", d / "a.jsonl")
    >>> from table_controller.app.words import speaking
    >>> with speaking("en"):
    ...     check_output(d / "sub" / ".." / "a.jsonl", d / "a.jsonl")
    Traceback (most recent call last):
    ...
    table_controller.app.outputs.OutputError: a.jsonl is the file this command reads; write to another file
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from table_controller.store.schema import SQLITE_MAGIC

from .words import say


class OutputError(ValueError):
    """The path given for a command's output would destroy something; nothing was written."""


def is_sqlite(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an SQLite file (by its first 16 bytes)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare where they would be
        return a.resolve() == b.resolve()


def check_output(
    out: str | os.PathLike[str],
    *inputs: str | os.PathLike[str] | None,
    written: str | os.PathLike[str] | None = None,
) -> None:
    """Raise :class:`OutputError` when writing ``out`` would overwrite one of ``inputs``
    (the files the command reads; None and '-' are skipped), the command's other output
    ``written``, an SQLite database, or a folder."""
    path = Path(out)
    if written is not None and _same(path, Path(written)):
        raise OutputError(
            say("{name} is named for two of this command's outputs; give each its own file", name=path.name)
        )
    for given in inputs:
        if given is None or str(given) == "-":
            continue
        if _same(path, Path(given)):
            raise OutputError(say("{name} is the file this command reads; write to another file", name=path.name))
    if path.is_dir():
        raise OutputError(say("{path} is a folder; give the name of a file to write", path=path))
    folder = path.absolute().parent
    if not folder.is_dir():  # checked with the command's other outputs, before any is written (stop 72)
        raise OutputError(
            say("the folder {folder} does not exist; give a file in a folder that is there", folder=path.parent)
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            say("the folder {folder} may not be written; give a file in a folder of your own", folder=path.parent)
        )
    if is_sqlite(path):
        raise OutputError(
            say(
                "{path} is an SQLite database (a table's log or a tournament hub?); an output never replaces one: "
                "write to another file",
                path=path,
            )
        )


@contextmanager
def replaced(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """A text file written beside ``path`` (owner-only) and put in its place once whole: a
    write stopped part way (Ctrl-C, a full disk) leaves ``path`` as it was, and no part file
    (stop 72: an export cut short left a third of a file where a whole one had been)."""
    target = Path(path)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with open(part, "w", encoding="utf-8", opener=lambda p, flags: os.open(p, flags, 0o600)) as fh:
            yield fh
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
