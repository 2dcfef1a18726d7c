"""The players' file as a spreadsheet saves it (``hub register --csv``, ``protocol --players``).

A TL keeps the players in a spreadsheet and saves it as CSV.  Excel on a Swedish Windows
saves "CSV" with semicolons between the fields (the comma is Sweden's decimal sign), in
Windows-1252, or as "CSV UTF-8" with a byte-order mark first; LibreOffice and hand-made
files use commas and UTF-8.  All of them are read here alike, so that Åsa from K1 is
registered as "Åsa" of "K1", never as a player called "Åsa;K1" or "\\ufeffname".

- Text: UTF-8 (a byte-order mark at the start is skipped), else Windows-1252.
- Between fields: whichever of semicolon, comma and tab the first line that is no comment
  holds most of (a comma on a tie with nothing else).
- A first line whose first field is "name" or "namn" is a header; blank lines and lines
  starting with '#' are skipped.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "players.csv"
    >>> _ = p.write_bytes("\\ufeffNamn;Klubb\\r\\nÅsa;K1\\r\\nSvensson, Bo;K2\\r\\n".encode("utf-8"))
    >>> player_rows(p)
    [(2, ['Åsa', 'K1']), (3, ['Svensson, Bo', 'K2'])]
    >>> _ = p.write_bytes("name,club\\nÅsa,K1\\n".encode("cp1252"))
    >>> player_rows(p)
    [(2, ['Åsa', 'K1'])]
"""

from __future__ import annotations

import codecs
import csv
import os
from pathlib import Path

from .draw import WordedError

HEADER = ("name", "namn")
DELIMITERS = (";", ",", "\t")


class PlayerFileError(WordedError, ValueError):
    """The players' file cannot be read; the message names the file (and the line), and
    says it in the console's words too (``WordedError``)."""


def _text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PlayerFileError("{path}: cannot read the players' file ({reason})", path=path, reason=exc) from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # a spreadsheet's "Unicode text"
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise PlayerFileError(
            "{path}: not a text file (save the players as CSV: name and club per line)", path=path
        ) from None


def player_rows(path: str | os.PathLike[str]) -> list[tuple[int, list[str]]]:
    """(line number, fields stripped) of each player line of the file at ``path``."""
    path = Path(path)
    lines = _text(path).splitlines()
    top = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    delimiter = max(DELIMITERS, key=top.count) if any(d in top for d in DELIMITERS) else ","
    out: list[tuple[int, list[str]]] = []
    seen = False
    for n, row in enumerate(csv.reader(lines, delimiter=delimiter), start=1):
        fields = [f.strip() for f in row]
        if not any(fields) or fields[0].startswith("#"):
            continue
        first, seen = not seen, True
        if first and fields[0].lower() in HEADER:
            continue  # the header
        out.append((n, fields))
    return out
