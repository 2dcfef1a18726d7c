"""The dashboard web app: a page and a WebSocket stream per role (ARCHITECTURE.md §4).

    >>> app = create_app(hub, tokens, settings=WebSettings(peers=("http://t2:8080",)))  # doctest: +SKIP
    >>> uvicorn.run(app)                                                                 # doctest: +SKIP

Routes read projections and post actions; the game is judged by the engine in the hub.
Every request needs a role token (``?token=`` or ``Authorization: Bearer``): without one,
nothing is served, not even the scripts.  The routes live in ``dashboard.routes`` (one
module per concern), the token check and the rate limit are dependencies
(``dashboard.deps``), request bodies are pydantic models (``dashboard.bodies``).  Around
them: a body limit and JSON depth limit before anything is parsed (``dashboard.limits``)
and security headers on every answer (``dashboard.security``).

The stream (``/ws?token=...``) sends whole states filtered for the role, each with its
``seq``: a new or reconnecting client gets the current state first (the broadcast: the
delayed one), then every update, so a client that was away catches up without a reload.
"""

from __future__ import annotations

import asyncio
import contextlib
import math

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from table_controller.store import StoreError

from .deps import DENIED, Denied, RateLimited, WebSettings
from .error_pages import error_page, wants_html
from .errors import DashboardError, NotFound, Unavailable
from .hub import LOG_FAILED, TableHub
from .i18n import N_, lang_of, tr, tr_error
from .limits import BodyLimit, TokenBuckets
from .routes import pages, posts, scoresheet, stream, tl
from .security import SecurityHeaders, csp, origin_of
from .tokens import RoleTokens

__all__ = ["WebSettings", "create_app"]


def create_app(
    hub: TableHub, tokens: RoleTokens, peers: tuple[str, ...] = (), settings: WebSettings | None = None
) -> FastAPI:
    """``peers``: the other tables' dashboards (``http://host:port``) on the TL's hall page
    (or ``settings.peers``)."""
    settings = settings or WebSettings(peers=tuple(peers))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        live = asyncio.create_task(hub.live.run())  # sensors, shot clocks
        tasks = [asyncio.create_task(hub.broadcast_loop()), asyncio.create_task(hub.pump())]
        try:
            yield
        finally:
            await hub.live.stop()
            for t in tasks:
                t.cancel()
            await asyncio.gather(live, *tasks, return_exceptions=True)
            await hub.analysis_idle()  # a worker's analysis lands before the files close
            hub.log.close()
            hub.delay.close()

    app = FastAPI(
        title="Chicago table dashboard", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )  # the API schema is served to nobody without a token either
    app.state.hub, app.state.tokens, app.state.settings = hub, tokens, settings
    app.state.buckets = TokenBuckets(settings.post_rate, settings.post_burst)
    app.state.ws_origins = tuple(o for o in (origin_of(p) for p in settings.peers) if o) + settings.allow_origins
    _handlers(app)
    # the catch-all page route last: /api/... and /ws first
    for module in (posts, tl, scoresheet, stream, pages):
        app.include_router(module.router)
    app.add_middleware(BodyLimit, limit=settings.body_limit, depth=settings.json_depth)
    app.add_middleware(SecurityHeaders, policy=csp(settings.peers, settings.allow_origins))
    return app


def _lang(request: Request) -> str:
    return lang_of(request.query_params.get("lang"))


# The framework's own answers ("Not Found", "Method Not Allowed", FastAPI's "There was an
# error parsing the body") in the page's language: the app raises no HTTPException itself
# (a body too large is BodyLimit's, in both languages)
HTTP_WORDS = {
    400: N_("The request could not be read."),
    404: N_("There is no such address."),
    405: N_("This address does not answer that kind of request."),
}


def _http_text(exc: HTTPException, lang: str) -> str:
    """An HTTP error's text: by its status in words of the catalogue, else its detail."""
    return tr(HTTP_WORDS[exc.status_code], lang) if exc.status_code in HTTP_WORDS else str(exc.detail)


def _validation_text(exc: RequestValidationError, lang: str) -> str:
    """The first problem, short and without echoing the input (it may be 64 kB)."""
    errors = exc.errors()
    if not errors:
        return tr(N_("Invalid request."), lang)
    e = errors[0]
    if e.get("type") in ("json_invalid", "model_attributes_type", "dict_type", "model_type") and [
        x for x in e.get("loc", ()) if x != "body"
    ] in ([], [0]):
        return tr(N_("The body must be a JSON object."), lang)
    if e.get("type") == "union_tag_not_found":  # no "do" at all: the likeliest slip by hand
        return tr(N_("The field '{where}' is missing."), lang, where="do")
    if e.get("type") == "union_tag_invalid" or e.get("loc", ())[-1:] == ("do",):
        return tr(N_("Unknown action in 'do' (REPLAY.md)."), lang)
    where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
    kind, ctx = e.get("type", ""), e.get("ctx") or {}
    named = [str(x) for x in e.get("loc", ()) if not isinstance(x, int) and x != "body"]
    if kind == "string_pattern_mismatch" and (named[-1:] in (["card"], ["cards"]) or named[-2:-1] == ["hands"]):
        kind = "card_pattern"  # a card, or a card of a hand dealt (named by its player)
    said = FIELD_PROBLEMS.get(kind)
    if said is None:  # pydantic's own English, for a problem none of ours names
        return tr(N_("Invalid field '{where}': {msg}."), lang, where=where, msg=e.get("msg", "invalid"))
    names = {k: v for k, v in ctx.items() if isinstance(v, (int, str))}
    if "expected" in names:  # "'zero' or 'points'": the codes stay, the word between is the page's
        names["expected"] = str(names["expected"]).replace("' or '", "' " + tr(N_("or"), lang) + " '")
    return tr(said, lang, where=where, **names)


# A request's field that does not fit (pydantic's error types), said in the catalogue's words
# without echoing the input or the pattern it missed.
FIELD_PROBLEMS = {
    "missing": N_("The field '{where}' is missing."),
    "extra_forbidden": N_("'{where}' is no field of this request."),
    "card_pattern": N_("'{where}' must be a card, such as 10S, QH or 7D."),
    "string_pattern_mismatch": N_("'{where}' is not written as it should be."),
    "string_type": N_("'{where}' must be text."),
    "string_too_short": N_("'{where}' must not be empty."),
    "string_too_long": N_("'{where}' is too long (at most {max_length} characters)."),
    "int_type": N_("'{where}' must be a whole number."),
    "int_parsing": N_("'{where}' must be a whole number."),
    "int_from_float": N_("'{where}' must be a whole number."),
    "bool_type": N_("'{where}' must be true or false."),
    "bool_parsing": N_("'{where}' must be true or false."),
    "list_type": N_("'{where}' must be a list."),
    "dict_type": N_("'{where}' must be an object."),
    "too_short": N_("'{where}' needs at least {min_length} items."),
    "too_long": N_("'{where}' takes at most {max_length} items."),
    "greater_than_equal": N_("'{where}' must be at least {ge}."),
    "less_than_equal": N_("'{where}' must be at most {le}."),
    "literal_error": N_("'{where}' must be one of {expected}."),
}


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(Denied)
    async def denied(request: Request, exc: Denied):
        lang = _lang(request)
        text = tr_error(exc, lang) if exc.text else tr(DENIED["error"], lang)
        if wants_html(request):
            return error_page(request, exc.status, text)
        return JSONResponse({"error": text}, status_code=exc.status)

    @app.exception_handler(PermissionError)
    async def forbidden(request: Request, exc: PermissionError):
        return JSONResponse({"error": tr_error(exc, _lang(request))}, status_code=403)

    @app.exception_handler(DashboardError)
    async def refused(request: Request, exc: DashboardError):
        return JSONResponse({"ok": False, "error": tr_error(exc, _lang(request))}, status_code=422)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound):
        return JSONResponse({"ok": False, "error": tr_error(exc, _lang(request))}, status_code=404)

    @app.exception_handler(Unavailable)
    async def unavailable(request: Request, exc: Unavailable):
        return JSONResponse({"ok": False, "error": tr_error(exc, _lang(request))}, status_code=503)

    @app.exception_handler(StoreError)
    async def log_failed(request: Request, exc: StoreError):
        # a write to the table's log failed outside an action (an audit record, a pause):
        # what was asked was not done; the store's message names a file, never a card
        return JSONResponse({"ok": False, "error": tr(LOG_FAILED, _lang(request))}, status_code=503)

    @app.exception_handler(RateLimited)
    async def too_many(request: Request, exc: RateLimited):
        return JSONResponse(
            {"ok": False, "error": tr(N_("Too many requests; wait a moment."), _lang(request))},
            status_code=429,
            headers={"Retry-After": str(max(1, math.ceil(exc.retry_after)))},
        )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        # e.g. a body FastAPI cannot parse (a number of 4,300 digits): the same shape as ours
        text = _http_text(exc, _lang(request))
        if wants_html(request):
            return error_page(request, exc.status_code, text)
        return JSONResponse(
            {"ok": False, "error": text}, status_code=exc.status_code, headers=getattr(exc, "headers", None)
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return JSONResponse({"ok": False, "error": _validation_text(exc, _lang(request))}, status_code=422)
