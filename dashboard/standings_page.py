"""The hall's public standings page, served from the tournament hub's file (issue 20,
item 3: "a public standings page for the hall").

    $ chicago-table hub web sm2026.hub --port 8090      # http://HUB:8090/ on the hall's screens
    $ chicago-table log verify h1-t3.sqlite --hub http://HUB:8090 --table h1-t3   # /api/witness
    $ chicago-table run --virtual --bots --hub http://HUB:8090 --table-id h1-t3    # /api/draw/h1-t3

Read-only beside a running ``hub serve``: every request folds what the hub's copies
gained since the last one (the rules engine's fold, ``tournament.standings``).  The page
is public: it shows placements, points, scores, whose turn and the särspel, never a card
(the standings hold none) and not the TL's problems and conflicts.  With the event's
tokens, ``/broadcast?token=BROADCAST`` is an OBS source that shows the featured table's own
(delayed) overlay, switching when the producer features another (``hub feature``), and
``/tl?token=TL`` is the TL's event screen: every table, those with open alerts
first, problems, conflicts, särspel, which tables' publishers are offline; the TL acts
on a table through that table's own dashboard (``/hall``).
"""

from __future__ import annotations

import hmac
import html
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from table_controller.sensing.alerts import CARDLESS, PUBLIC_TEXT
from table_controller.tournament.standings import Standings
from table_controller.tournament.witness import public_witness

from .error_pages import error_page, wants_html
from .i18n import ALERT_LABELS, N_, lang_of, seat_number, tr, tr_hub
from .security import csp, origin_of

# Not "records": how many records a table's log holds grows with what happens at it, some
# of it hidden (a sensing alert, the events of a face-down exchange), and the hall needs no
# count; the TL's screen shows it (stop 63's second audit).
PUBLIC_TABLE_KEYS = (
    "table",
    "heat",
    "number",
    "players",
    "started",
    "finished",
    "standings",
    "advancing",
    "current",
    "särspel",
)


def public_document(doc: dict[str, Any]) -> dict[str, Any]:
    """What the hall may see: no problems, no conflicts (the TL's), nothing else added."""
    heats = []
    for heat in doc["heats"]:
        tables = [{k: tb[k] for k in PUBLIC_TABLE_KEYS if k in tb} for tb in heat["tables"]]
        heats.append({**{k: v for k, v in heat.items() if k != "tables"}, "tables": tables})
    return {
        "event": doc["event"],
        "name": doc["name"],
        "ruleset": doc["ruleset"],
        "clubs": doc["clubs"],
        "heats": heats,
        "withdrawn": doc.get("withdrawn", []),
    }


STALE_CLOCKS_S = 6.0  # a running clock is re-sent about every 1-2 s; older means no news


def live_clocks(c: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """A table's last published clocks as they stand ``now`` (the hub's ``time.time()``):
    seconds left counted down since the snapshot (its age at the table plus the time
    since the hub took it), unless paused; overtime as a negative number.  Names, clock
    kinds and seconds only: no card.

    >>> c = {"seq": 9, "age": 1.0, "received": 100.0, "paused": False, "moved": False,
    ...      "running": {"Bo": {"clock": "play", "remaining": 12.0}}}
    >>> live_clocks(c, 102.5)["running"]["Bo"]
    {'clock': 'play', 'remaining': 8.5}
    >>> live_clocks({**c, "paused": True}, 102.5)["running"]["Bo"]["remaining"]
    12.0
    """
    if not c:
        return None
    since = max(0.0, float(c["age"]) + now - float(c["received"]))
    run = 0.0 if c["paused"] else since
    return {
        "paused": c["paused"],
        "moved": c["moved"],
        "running": {
            p: {"clock": r["clock"], "remaining": round(r["remaining"] - run, 1)} for p, r in c["running"].items()
        },
        "age": round(since, 1),
        "stale": bool(c["running"]) and not c["paused"] and since > STALE_CLOCKS_S,
    }


# The TL's screen in Swedish first, English beside it: what the hub keeps in English (an
# alert's kind and place, a table's problems, a conflict) worded as the table's own pages
# word it (common.js: ``alertText``), from the same catalogue.
CAMERA_OFFLINE = N_("The camera is offline: the table plays on with the RFID readers")
# the kinds a hub alert can be (a table's log: sensing's, the hub's own failures are "alert")
HUB_LABELS = {k: ALERT_LABELS[k] for k in ("rejected", "camera_offline", "overtime", "tl_called")}


def pad_name(pad: str, lang: str) -> str:
    if seat_number(pad):
        return tr(N_("pad {n}"), lang, n=seat_number(pad))
    return tr(N_("the tray"), lang) if pad == "tray" else pad


def alert_words(a: dict[str, Any], lang: str) -> tuple[str, str]:
    """An open alert of the hub's (``Standings.alerts``) in ``lang``: its label and its text.
    A sensing alert is worded from its kind and place (it names no card); any other says
    its own text, a catalogue's sentence or one in both languages already."""
    kind, pad, player = a["kind"], a.get("pad"), a.get("player")
    label = HUB_LABELS.get(kind) or (N_("sensing") if a.get("sensing") else N_("alert"))
    if not (a.get("sensing") and kind in PUBLIC_TEXT and kind not in CARDLESS):
        return tr(label, lang), tr(a["text"], lang)
    if kind == "camera_offline":  # a sentence of its own (the table's pages: SENSING_TEXTS)
        return tr(label, lang), tr(CAMERA_OFFLINE, lang)
    where = " ".join(x for x in (pad_name(pad, lang) if pad else None, f"({player})" if player else None) if x)
    text = tr(PUBLIC_TEXT[kind], lang) + (" " + tr(N_("at {where}"), lang, where=where) if where else "")
    return tr(label, lang), text[0].upper() + text[1:]


def in_swedish(doc: dict[str, Any]) -> None:
    """The TL's document given its Swedish beside the English: each alert's ``label_sv``
    and ``text_sv`` (``label`` and ``text`` in English, pads named as the table's pages
    name them), a table's ``problems_sv``, a conflict's ``detail_sv``."""
    for heat in doc["heats"]:
        for tb in heat["tables"]:
            tb["alerts"] = [dict(a) for a in tb.get("alerts", [])]  # the board's own stay as they are
            for a in tb["alerts"]:
                (a["label"], a["text"]), (a["label_sv"], a["text_sv"]) = alert_words(a, "en"), alert_words(a, "sv")
            tb["problems_sv"] = [tr_hub(p, "sv") for p in tb["problems"]]
    for c in doc["conflicts"]:
        c["detail_sv"] = tr_hub(c["detail"], "sv")


def tl_document(board: Standings) -> dict[str, Any]:
    """Everything for the TL: the standings with problems and conflicts, and per table its
    open alerts (from its log), whether its publisher is online, its last record's time
    and its running shot clocks (as its publisher last sent them, counted down to now);
    the tables that need the TL first (alerts, then problems, then those still playing)."""
    doc = board.document()
    statuses = board.hub.statuses()
    urls = board.hub.dashboards()
    clocks = board.hub.clocks()
    now = time.time()
    tables = []
    for heat in doc["heats"]:
        for tb in heat["tables"]:
            st = statuses.get(tb["table"], {})
            tb.update(
                alerts=board.alerts(tb["table"]),
                online=bool(st.get("online")),
                last_time=board.last_time(tb["table"]),
                dashboard=urls.get(tb["table"]),
                clocks=None if tb["finished"] or not tb["started"] else live_clocks(clocks.get(tb["table"]), now),
            )
            tables.append(tb)
    tables.sort(key=lambda tb: (not tb["alerts"], not tb["problems"], tb["finished"], tb["heat"], tb["number"]))
    doc["attention"] = [tb["table"] for tb in tables]
    in_swedish(doc)
    doc["shot_clocks"] = event_clocks(board.hub.meta().get("shot_clocks", ""))
    return doc


def event_clocks(setting: str) -> dict[str, float]:
    """The event's shot clocks (D11) as every table runs them: the hub's setting over D11's."""
    from table_controller.rules.rulesets import DEFAULT_CLOCKS, ClockError, shot_clocks_in_force

    try:
        return shot_clocks_in_force(setting)
    except ClockError:  # the hub file edited by hand: the tables refuse such a draw themselves
        return dict(DEFAULT_CLOCKS)


# What the hub's server says when it will not show a page: a browser (the TL, a producer)
# gets a page in Swedish first (``error_pages``), a script the sentence in JSON, in the
# language its ``?lang=`` asks for (Swedish unless told).
NO_TL_PAGE = N_("There is no TL page here: start 'hub web' with --tokens")
TL_TOKEN = N_("The TL's page needs the event's TL link (tokens.json)")
NO_BROADCAST_PAGE = N_("There is no broadcast page here: start 'hub web' with --tokens")
BROADCAST_TOKEN = N_("The broadcast page needs the event's broadcast link (tokens.json)")
NO_SUCH_PAGE = N_("There is no such page")
NO_SUCH_METHOD = N_("This address does not answer that kind of request.")
HUB_ADVICE = {
    404: (
        N_("There is no such page"),
        N_("Check the address; the hub's pages are / (the standings), /tl and /broadcast."),
    ),
    401: (
        N_("This page needs its link"),
        N_("Open the link with ?token=... that 'hub web --tokens' wrote for the TL or the broadcast (tokens.json)."),
    ),
    403: (
        N_("Your link does not open this page"),
        N_("The TL's link opens /tl and the broadcast's /broadcast. Check which link you opened."),
    ),
}


NOT_SERVED = (
    N_("This page is not served here"),
    N_("The hub serves the TL's and the broadcast's pages only when 'hub web' is started with --tokens."),
)


def refusal(request: Request, status: int, text: str, advice: tuple[str, str] | None = None) -> Response:
    """A page refused (``text``: a catalogue sentence; ``advice``: the browser page's
    heading and what to do, else the status's): a page for a browser, JSON else."""
    said = tr(text, lang_of(request.query_params.get("lang")))
    if wants_html(request):
        return error_page(request, status, said, {status: advice} if advice else HUB_ADVICE)
    return JSONResponse({"error": said}, status_code=status, headers={"Cache-Control": "no-store"})


def create_app(
    open_board: Callable[[], Standings], tl_token: str | None = None, broadcast_token: str | None = None
) -> FastAPI:
    """``open_board``: the standings over the hub's file, opened by the composition root's
    ``hub web`` (read-only); called once, in the event loop's thread.  ``tl_token``,
    ``broadcast_token``: the event's tokens (its tokens.json); without them there is no TL
    page and no broadcast page."""
    app = FastAPI(title="Chicago SM standings", docs_url=None, redoc_url=None, openapi_url=None)
    state: dict[str, Any] = {}

    policy = csp((), ())

    @app.middleware("http")
    async def security_headers(request, call_next):
        # the TL's and the broadcast's URLs carry a token: no link or fetch passes it on;
        # scripts and styles are files of this server (STATIC), never inline
        response = await call_next(request)
        response.headers.setdefault("content-security-policy", policy)
        response.headers.setdefault("referrer-policy", "no-referrer")
        response.headers.setdefault("x-content-type-options", "nosniff")
        return response

    @app.get("/static/{name}")
    async def static(name: str) -> Response:
        if name not in STATIC:
            return JSONResponse({"error": "no such file"}, status_code=404)
        text = resources.files("dashboard").joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=STATIC[name], headers={"Cache-Control": "no-cache"})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        # an address that is no page of the hub's (FastAPI's own answer is English JSON)
        if exc.status_code == 404:
            return refusal(request, 404, NO_SUCH_PAGE)
        if exc.status_code == 405:
            return refusal(request, 405, NO_SUCH_METHOD)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    def tl_denied(request: Request, token: str | None) -> Response | None:
        if tl_token is None:
            return refusal(request, 404, NO_TL_PAGE, NOT_SERVED)
        if not token or not hmac.compare_digest(token, tl_token):
            return refusal(request, 401 if not token else 403, TL_TOKEN)
        return None

    def board() -> Standings:
        # opened in the event loop's thread on first use (sqlite3 connections stay in their thread)
        if "board" not in state:
            state["board"] = open_board()
        b = state["board"]
        b.update()
        return b

    @app.get("/api/standings")
    async def standings() -> JSONResponse:
        return JSONResponse(public_document(board().document()), headers={"Cache-Control": "no-store"})

    @app.get("/api/witness")
    async def witness(table: str | None = None) -> JSONResponse:
        """The hub's public witness (each finished deal's last digest, the heads signed
        there, public keys: nothing secret, and no two digests in a row, from which a
        face-down card could be worked out: ``witness.public_witness``), for
        ``chicago-table log verify FILE --hub URL``."""
        w = public_witness(board().hub)
        if table is not None:
            if table not in w["tables"]:
                return JSONResponse({"error": f"the hub holds nothing of table {table!r}"}, status_code=404)
            w["tables"] = {table: w["tables"][table]}
        return JSONResponse(w, headers={"Cache-Control": "no-store"})

    @app.get("/api/draw/{table}")
    async def draw(table: str) -> JSONResponse:
        """One table's seat draw (players, heat, every game's seats; a särspel's once drawn),
        for ``chicago-table run --hub URL --table-id TABLE``: public, as on the hall's wall."""
        drawn = board().hub.table(table)
        if drawn is None:
            return JSONResponse({"error": f"the hub has not drawn a table {table!r}"}, status_code=404)
        return JSONResponse(drawn, headers={"Cache-Control": "no-store"})

    def broadcast_denied(request: Request, token: str | None) -> Response | None:
        if broadcast_token is None:
            return refusal(request, 404, NO_BROADCAST_PAGE, NOT_SERVED)
        if not token or not hmac.compare_digest(token, broadcast_token):
            return refusal(request, 401 if not token else 403, BROADCAST_TOKEN)
        return None

    @app.get("/api/featured")
    async def featured(request: Request, token: str | None = None) -> Response:
        """The table the producer chose ('hub feature') and its dashboard (the overlay's home)."""
        denied = broadcast_denied(request, token)
        if denied:
            return denied
        hub = board().hub
        table = hub.meta().get("featured")
        return JSONResponse(
            {"table": table, "dashboard": hub.dashboards().get(table) if table else None},
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/broadcast", response_class=HTMLResponse)
    async def broadcast_page(request: Request, token: str | None = None):
        denied = broadcast_denied(request, token)
        if denied:
            return denied
        # the overlay of a table is framed from that table's own server: the policy names the
        # dashboards the hub knows now; the page reloads (a new policy) for one it did not
        frames = tuple(sorted({o for o in map(origin_of, board().hub.dashboards().values()) if o}))
        return HTMLResponse(
            BROADCAST_PAGE.replace("{{FRAMES}}", html.escape(" ".join(frames))),
            headers={"content-security-policy": csp((), (), frames=frames), "Cache-Control": "no-store"},
        )

    @app.get("/api/tl")
    async def tl(request: Request, token: str | None = None) -> Response:
        return tl_denied(request, token) or JSONResponse(tl_document(board()), headers={"Cache-Control": "no-store"})

    @app.get("/tl", response_class=HTMLResponse)
    async def tl_page(request: Request, token: str | None = None):
        return tl_denied(request, token) or HTMLResponse(TL_PAGE)

    @app.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        return HTMLResponse(PAGE)

    return app


STATIC = {
    "hub-standings.js": "text/javascript",
    "hub-standings.css": "text/css",
    "hub-tl.js": "text/javascript",
    "hub-tl.css": "text/css",
    "hub-broadcast.js": "text/javascript",
    "hub-broadcast.css": "text/css",
}  # the pages' scripts and styles: files, so the policy forbids inline code

PAGE = """<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>Ställning / Standings</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="static/hub-standings.css"></head>
<body><h1 id="title">Ställning</h1><div class="small">Standings · uppdateras av sig själv / updates by itself</div>
<div id="heats"></div>
<script src="static/hub-standings.js"></script></body></html>
"""

TL_PAGE = """<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>TL: hela tävlingen / the whole event</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="static/hub-tl.css"></head>
<body><h1 id="title">TL</h1><div id="event-clocks" class="small"></div><div id="conflicts"></div><div id="tables"></div>
<script src="static/hub-tl.js"></script></body></html>
"""

BROADCAST_PAGE = """<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>Utvalt bord / Featured table</title>
<link rel="stylesheet" href="static/hub-broadcast.css"></head>
<body data-frames="{{FRAMES}}"><iframe id="overlay" allowtransparency="true"></iframe>
<script src="static/hub-broadcast.js"></script></body></html>
"""
