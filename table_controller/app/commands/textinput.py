"""Reading an action script or an export for a command: a file or '-' for standard input.

Lines end at a line feed, a carriage return or both (a file from Windows or an old Mac
reads the same), never at the other characters Python's ``str.splitlines`` takes for line
ends (U+2028, U+2029, U+0085, form feed, ...): inside a JSON string they are text, and a
line cut there was rejected twice and moved every later line's number (stop 63's audit).
A UTF-8 byte-order mark at the start is skipped.  A line that is not UTF-8 is kept as a
``NotUTF8`` line, which the script reader rejects with its number, and the rest is read.
A table's log (an SQLite file) given where a script is expected is refused, with the
command that exports it.  Why a file cannot be read is said in Swedish, English with
``--lang en`` (table_controller/app/words.py), as every command's refusals.
"""

from __future__ import annotations

import re
import sys

from table_controller.rules.replay import NotUTF8
from table_controller.store.schema import SQLITE_MAGIC

from ..words import os_error_words, say

LINE_END = re.compile(rb"\r\n|\r|\n")


def split_lines(data: bytes) -> list[str]:
    r"""The lines of ``data`` as text.

    >>> split_lines(b"\xef\xbb\xbf{}\r\n{\"a\": \"x\xe2\x80\xa8y\"}\r{}")
    ['{}', '{"a": "x\u2028y"}', '{}']
    >>> [type(x).__name__ for x in split_lines(b"{}\n\xc5\n")]
    ['str', 'NotUTF8']
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    parts = LINE_END.split(data)
    if parts and parts[-1] == b"":
        parts.pop()  # the last line's own end
    out: list[str] = []
    for raw in parts:
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(NotUTF8(raw.decode("utf-8", "replace")))
    return out


def read_lines(path: str, command: str) -> list[str] | None:
    """The lines of ``path`` ('-': standard input), or None after saying clearly on stderr
    why it cannot be read, in the words spoken (``words.say``; the caller exits with status 2)."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        said = say("cannot read {path}: {error}", path=path, error=os_error_words(exc))
        print(f"chicago-table {command}: {said}", file=sys.stderr)
        return None
    if data.startswith(SQLITE_MAGIC):  # a table's log given for its export: say so, not 18,000 refusals
        said = say(
            "{path} is an SQLite file (a table's log?), not an action script; "
            "'chicago-table log export {path} -o FILE.jsonl' writes a log's actions as one",
            path=path,
        )
        print(f"chicago-table {command}: {said}", file=sys.stderr)
        return None
    return split_lines(data)
