"""``make i18n``: merge the extracted texts (``messages.pot``, the console's ``console.pot``)
into their Swedish catalogues and compile the shipped ``.mo`` files (dashboard/i18n.py).  A
text without Swedish stays empty in the ``.po``; tests/dashboard/test_i18n.py fails on it."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import DOMAIN, DOMAINS

LOCALE = Path(__file__).resolve().parent / "locale"


def compiled(po: Path) -> bytes:
    import io

    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parents[1].name)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update(domain: str) -> list[str]:
    """Merge ``domain``'s extracted texts into its Swedish ``.po`` and compile its ``.mo``;
    the texts that have no Swedish yet."""
    po = LOCALE / "sv" / "LC_MESSAGES" / f"{domain}.po"
    with (LOCALE / f"{domain}.pot").open("rb") as f:
        template = read_po(f)
    if po.exists():
        with po.open("rb") as f:
            catalog = read_po(f, locale="sv")
        catalog.update(template, no_fuzzy_matching=True)
    else:
        with (LOCALE / f"{domain}.pot").open("rb") as f:
            catalog = read_po(f, locale="sv")
    catalog.obsolete.clear()
    catalog.fuzzy = False  # the header: its Plural-Forms go into the .mo
    catalog.project, catalog.version = "chicago-table " + ("dashboard" if domain == DOMAIN else domain), "1"
    with po.open("wb") as f:
        write_po(f, catalog, width=200, omit_header=False, no_location=True, sort_output=True)
    po.with_suffix(".mo").write_bytes(compiled(po))
    return [
        m.id if isinstance(m.id, str) else m.id[0]
        for m in catalog
        if m.id and not (m.string if isinstance(m.string, str) else all(m.string or [""]))
    ]


def main() -> int:

    missing = [(domain, m) for domain in DOMAINS for m in update(domain)]
    for domain, m in missing:
        print(f"no Swedish ({domain}):", m, file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
