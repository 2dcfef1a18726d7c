"""HTML pages for a browser that navigates somewhere it cannot go (issue 18 item 6).

A browser's navigation (a GET that accepts ``text/html``, not under ``/api/``, ``/static/``
or ``/ws``) gets a page that says what happened and what to do, in the chosen language
(Swedish first, ``?lang=en``); the API and scripts keep their JSON answers.  The page has
no script and names no view its token does not open.
"""

from __future__ import annotations

import base64
import hashlib
import html

from fastapi import Request
from fastapi.responses import HTMLResponse

from .i18n import N_, lang_of, tr

# status -> (heading, what to do)
ADVICE = {
    401: (
        N_("This page needs your role's link"),
        N_(
            "Open the link or QR code the TL gave your table: it ends with ?token=... "
            "Ask the TL for a new one if yours no longer works."
        ),
    ),
    403: (
        N_("Your link does not open this page"),
        N_(
            "Each role has its own link (Revisor, TL, dealer, scoreboard). "
            "Go back to the link you were given, or ask the TL."
        ),
    ),
    404: (
        N_("There is no such page"),
        N_("Check the address; the views are /revisor, /tl, /dealer, /public, /broadcast, /protocol and /hall."),
    ),
}
FALLBACK = (N_("Something went wrong"), N_("Go back and try again, or ask the TL."))

# one style block, allowed by its hash: no script, nothing else inline
STYLE = (
    "body{font:20px/1.5 system-ui,sans-serif;margin:40px auto;max-width:40em;padding:0 16px;"
    "background:#f4f2ec;color:#1b1b1b}h1{font-size:1.6em}#detail{color:#555;font-size:.8em}"
    "a{font-size:1.1em}"
)
CSP = (
    "default-src 'none'; style-src 'sha256-"
    + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
    + "'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


def wants_html(request: Request) -> bool:
    path = request.url.path
    return (
        request.method == "GET"
        and not path.startswith(("/api/", "/static/", "/ws"))
        and "text/html" in request.headers.get("accept", "")
    )


def error_page(
    request: Request, status: int, detail: str, advice: dict[int, tuple[str, str]] | None = None
) -> HTMLResponse:
    """``advice``: another server's heading and what to do, by status (the tournament hub's
    pages are not a table's), before ``ADVICE``."""
    lang = lang_of(request.query_params.get("lang"))
    head, todo = (advice or {}).get(status) or ADVICE.get(status, FALLBACK)
    other = "en" if lang == "sv" else "sv"
    switch = tr(N_("In English"), lang) if other == "en" else tr(N_("På svenska"), lang)
    # the switch keeps no token: a token that failed is not worth repeating in a link
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(tr(head, lang))}</title><style>{STYLE}</style></head><body>"
        f"<h1>{html.escape(tr(head, lang))}</h1>"
        f'<p id="todo">{html.escape(tr(todo, lang))}</p>'
        f'<p id="detail">{html.escape(detail)} ({status})</p>'
        f'<p><a id="lang-switch" href="{html.escape(request.url.path)}?lang={other}">{html.escape(switch)}</a></p>'
        f"</body></html>"
    )
    return HTMLResponse(body, status_code=status, headers={"Cache-Control": "no-store", "Content-Security-Policy": CSP})
