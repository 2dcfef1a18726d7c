"""The dashboard web app: a page and a WebSocket stream per role (ARCHITECTURE.md §4).

    >>> app = create_app(hub, tokens)      # doctest: +SKIP
    >>> uvicorn.run(app)                   # doctest: +SKIP

Routes read projections and post actions; the game is judged by the engine in the hub.
Every request needs a role token (``?token=`` or ``Authorization: Bearer``): without one,
nothing is served, not even the scripts.

The stream (``/ws?token=...``) sends whole states filtered for the role, each with its
``seq``: a new or reconnecting client gets the current state first (the broadcast: the
delayed one), then every update, so a client that was away catches up without a reload.
Since every message is a whole state, a reconnecting page's ``since=SEQ`` needs no backlog:
the newest state is the catch-up (and a client that falls behind skips to it, hub.Client).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from table_controller.views import for_role

from .errors import DashboardError
from .history import deal_history
from .hub import TableHub
from .protocol_pdf import protocol_pdf
from .protocol_svg import protocol_html
from .tokens import RoleTokens

# view -> roles allowed to open it
VIEWS = {
    "revisor": {"revisor"}, "tl": {"tl"}, "broadcast": {"broadcast"}, "public": {"public", "tl"},
    "dealer": {"dealer"}, "protocol": {"tl", "revisor", "public"}, "hall": {"tl"},
}
STATIC = {"common.js": "text/javascript", "revisor.js": "text/javascript", "tl.js": "text/javascript",
          "broadcast.js": "text/javascript", "public.js": "text/javascript", "protocol.js": "text/javascript",
          "dealer.js": "text/javascript", "hall.js": "text/javascript", "style.css": "text/css"}
VIEWS_ROLES = {r for roles in VIEWS.values() for r in roles}
DENIED = {"error": "a role token is needed (?token=...)"}


def _files(folder: str, name: str) -> str:
    return resources.files("dashboard").joinpath(folder, name).read_text(encoding="utf-8")


def create_app(hub: TableHub, tokens: RoleTokens, peers: tuple[str, ...] = ()) -> FastAPI:
    """``peers``: the other tables' dashboards (``http://host:port``) on the TL's hall page."""
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
            hub.log.close()
            hub.delay.close()

    app = FastAPI(title="Chicago table dashboard", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)  # the API schema is served to nobody without a token either

    def role_of(request: Request) -> str | None:
        token = request.query_params.get("token")
        auth = request.headers.get("authorization", "")
        if not token and auth.lower().startswith("bearer "):
            token = auth[7:].strip()
        return tokens.role_of(token)

    def denied(status: int = 401, text: str | None = None) -> JSONResponse:
        return JSONResponse({"error": text} if text else DENIED, status_code=status)

    @app.get("/")
    async def home(request: Request):
        role = role_of(request)
        if role is None:
            return denied()
        return RedirectResponse(f"/{role}?token={request.query_params.get('token', '')}", status_code=303)

    @app.get("/static/{name}")
    async def static(name: str, request: Request):
        if role_of(request) is None:
            return denied()
        if name not in STATIC:
            return denied(404, "no such file")
        return Response(_files("static", name), media_type=STATIC[name], headers={"Cache-Control": "no-store"})

    async def _json(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError as exc:
            raise DashboardError("the body must be a JSON object") from exc
        if not isinstance(body, dict):
            raise DashboardError("the body must be a JSON object")
        return body

    async def _do(request: Request, allowed: set[str], fn, what: str = "do this") -> JSONResponse:
        """One way for every POST: token, role, JSON body, and errors as clear answers."""
        role = role_of(request)
        if role is None:
            return denied()
        if role not in allowed:
            return denied(403, f"the {role} role may not {what}")
        try:
            result = fn(role, await _json(request))
            if inspect.isawaitable(result):
                result = await result
            return JSONResponse(result or {"ok": True})
        except PermissionError as exc:
            return denied(403, str(exc))
        except DashboardError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=422)

    @app.post("/api/action")
    async def post_action(request: Request):
        return await _do(request, {"tl", "revisor"}, lambda role, body: hub.post(body, role), "enter actions")

    @app.post("/api/correct")
    async def correct(request: Request):
        # every role gets this far; the hub says which may correct (Revisor, TL)
        return await _do(request, set(VIEWS_ROLES), lambda role, body: hub.correct(body.get("text", ""), role))

    @app.post("/api/pause")
    async def pause(request: Request):
        return await _do(request, {"tl"}, lambda role, body: hub.set_paused(True, role, str(body.get("reason", ""))))

    @app.post("/api/resume")
    async def resume(request: Request):
        return await _do(request, {"tl"}, lambda role, body: hub.set_paused(False, role, str(body.get("reason", ""))))

    @app.post("/api/reveal")
    async def reveal(request: Request):
        return await _do(request, {"tl"}, lambda role, body: hub.reveal(str(body.get("player", "")), role,
                                                                         str(body.get("reason", ""))))

    @app.post("/api/hide")
    async def hide(request: Request):
        return await _do(request, {"tl"}, lambda role, body: hub.hide(role))

    @app.post("/api/alerts/{alert_id}/resolve")
    async def resolve(alert_id: int, request: Request):
        return await _do(request, {"tl", "revisor"}, lambda role, body: hub.resolve_alert(alert_id, role))

    @app.get("/api/history")
    async def history(request: Request):
        role = role_of(request)
        if role != "tl":
            return denied(401 if role is None else 403, None if role is None else "the TL's history only")
        return JSONResponse({"seq": hub.seq, "events": deal_history(hub.engine.events, hub.revealed)})

    @app.get("/api/tables")
    async def tables(request: Request):
        role = role_of(request)
        if role != "tl":
            return denied(401 if role is None else 403, None if role is None else "the TL's hall only")
        # this table first (same origin: base ""), then the peers in the order given
        return JSONResponse({"tables": [{"base": "", "name": hub.name}] + [{"base": b} for b in peers]})

    @app.get("/api/audit")
    async def audit(request: Request):
        role = role_of(request)
        if role != "tl":
            return denied(401 if role is None else 403, None if role is None else "the TL's audit trail only")
        return JSONResponse({"entries": hub.audit_entries()})

    def _protocol_doc(role: str) -> dict[str, Any]:
        state = for_role(hub._snap, role)  # protocol data is public; filtered all the same
        return {"ruleset": state["ruleset"], "games": state["games"]}

    @app.get("/api/protocol.pdf")
    async def pdf(request: Request):
        role = role_of(request)
        if role is None or role not in VIEWS["protocol"]:
            return denied(401 if role is None else 403, None if role is None else "no protocol for this role")
        data = protocol_pdf(_protocol_doc(role), title=hub.name)
        return Response(data, media_type="application/pdf",
                        headers={"Content-Disposition": 'inline; filename="protocol.pdf"'})

    @app.get("/api/protocol.html")
    async def protocol_fragment(request: Request):
        role = role_of(request)
        if role is None or role not in VIEWS["protocol"]:
            return denied(401 if role is None else 403, None if role is None else "no protocol for this role")
        return HTMLResponse(protocol_html(_protocol_doc(role)))

    # one page for every view: its script and title differ, nothing else
    TITLES = {"public": "Scoreboard", "broadcast": "Broadcast", "dealer": "Dealer",
              "protocol": "Protocol", "revisor": "Revisor", "tl": "TL", "hall": "All tables"}

    @app.get("/{view}")
    async def page(view: str, request: Request):
        role = role_of(request)
        if role is None:
            return denied()
        if view not in VIEWS:
            return denied(404, "no such view")
        if role not in VIEWS[view]:
            return denied(403, f"the {role} token does not open the {view} view")
        token = request.query_params.get("token", "")
        html = (_files("templates", "view.html").replace("{{TOKEN}}", token).replace("{{TABLE}}", hub.name)
                .replace("{{VIEW}}", view).replace("{{TITLE}}", TITLES[view]))
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    @app.websocket("/ws")
    async def stream(websocket: WebSocket):
        role = tokens.role_of(websocket.query_params.get("token"))
        if role is None:
            await websocket.close(code=4401)  # before accept: the handshake is refused
            return
        await websocket.accept()
        client = hub.connect(role)  # the current state first (broadcast: the delayed one)

        async def pump() -> None:
            while True:
                await websocket.send_text(await client.queue.get())

        sender = asyncio.create_task(pump())
        try:
            while True:
                await websocket.receive_text()  # the client only pings; a close ends the stream
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    return app
