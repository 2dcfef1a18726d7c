"""``make i18n``: merge the extracted texts (messages.pot) into the Swedish catalogue and
compile the shipped ``.mo`` (dashboard/i18n.py).  A text without Swedish stays empty in
the ``.po``; tests/dashboard/test_i18n.py fails on it."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

LOCALE = Path(__file__).resolve().parent / "locale"


def compiled(po: Path) -> bytes:
    import io

    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parents[1].name)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    po = LOCALE / "sv" / "LC_MESSAGES" / "messages.po"
    with (LOCALE / "messages.pot").open("rb") as f:
        template = read_po(f)
    if po.exists():
        with po.open("rb") as f:
            catalog = read_po(f, locale="sv")
        catalog.update(template, no_fuzzy_matching=True)
    else:
        catalog = read_po((LOCALE / "messages.pot").open("rb"), locale="sv")
    catalog.obsolete.clear()
    catalog.fuzzy = False  # the header: its Plural-Forms go into the .mo
    catalog.project, catalog.version = "chicago-table dashboard", "1"
    with po.open("wb") as f:
        write_po(f, catalog, width=200, omit_header=False, no_location=True, sort_output=True)
    po.with_suffix(".mo").write_bytes(compiled(po))
    missing = [m.id for m in catalog if m.id and not (m.string if isinstance(m.string, str) else all(m.string or [""]))]
    for m in missing:
        print("no Swedish:", m, file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
