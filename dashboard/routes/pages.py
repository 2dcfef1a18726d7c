"""The pages: one template for every view, its script and title differ (ARCHITECTURE.md §4)."""

from __future__ import annotations

import html
import json
from importlib import resources

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..deps import Denied, any_role, get_hub, token_of
from ..hub import TableHub
from ..i18n import N_, catalogue, lang_of, tr
from ..tokens import SEATS

router = APIRouter()

# view -> roles allowed to open it
VIEWS = {
    "revisor": {"revisor"},
    "tl": {"tl"},
    "broadcast": {"broadcast"},
    "public": {"public", "tl"},
    "dealer": {"dealer"},
    "protocol": {"tl", "revisor", "public"},
    "hall": {"tl"},
    "seat": set(SEATS),  # a player's own phone: their own hand (a camera-only table)
}
TITLES = {
    "public": N_("Scoreboard"),
    "broadcast": N_("Broadcast"),
    "dealer": N_("Dealer"),
    "protocol": N_("Protocol"),
    "revisor": N_("Revisor"),
    "tl": N_("TL"),
    "hall": N_("All tables"),
    "seat": N_("My hand"),
}
STATIC = {
    "common.js": "text/javascript",
    "revisor.js": "text/javascript",
    "tl.js": "text/javascript",
    "broadcast.js": "text/javascript",
    "public.js": "text/javascript",
    "protocol.js": "text/javascript",
    "dealer.js": "text/javascript",
    "hall.js": "text/javascript",
    "seat.js": "text/javascript",
    "style.css": "text/css",
    "audience.js": "text/javascript",
    "audience.css": "text/css",
}  # the public and broadcast views' own
NO_STORE = {"Cache-Control": "no-store"}


def _files(folder: str, name: str) -> str:
    return resources.files("dashboard").joinpath(folder, name).read_text(encoding="utf-8")


@router.get("/")
async def home(request: Request, role: str = Depends(any_role)):
    view = "seat" if role in SEATS else role
    return RedirectResponse(f"/{view}?token={request.query_params.get('token', '')}", status_code=303)


@router.get("/api/i18n")
async def i18n_json(request: Request, role: str = Depends(any_role)):
    """The catalogue for a page's own script (``t()``/``tn()`` in common.js)."""
    return catalogue(lang_of(request.query_params.get("lang")))


@router.get("/api/logo")
async def logo(request: Request, role: str = Depends(any_role)):
    """The event's logo (public: every role's page may show it); 404 when none is set."""
    b = request.app.state.settings.branding
    if b.logo is None:
        raise Denied(404, N_("no such file"))
    return Response(b.logo, media_type=b.logo_media_type, headers={"Cache-Control": "private, max-age=3600"})


@router.get("/static/{name}")
async def static(name: str, request: Request, role: str = Depends(any_role)):
    if name == "i18n.js":  # the catalogue, loaded before common.js
        data = json.dumps(catalogue(lang_of(request.query_params.get("lang"))), ensure_ascii=False)
        return Response(f'"use strict";\nconst I18N = {data};\n', media_type="text/javascript", headers=NO_STORE)
    if name not in STATIC:
        raise Denied(404, N_("no such file"))
    return Response(_files("static", name), media_type=STATIC[name], headers=NO_STORE)


@router.get("/{view}")
async def page(view: str, request: Request, role: str = Depends(any_role), hub: TableHub = Depends(get_hub)):
    if view not in VIEWS:
        raise Denied(404, N_("There is no view '{view}'."), view=view[:40])
    if role not in VIEWS[view]:
        raise Denied(403, N_("The {role} link does not open the {view} view."), role=role, view=view)
    token = token_of(request) or ""
    lang = lang_of(request.query_params.get("lang"))
    # who enters cards by hand at this table (dashboard.entry): the Revisor's form follows it
    hands = "revisor" if hub.hands_by_hand else "tl"
    branding = request.app.state.settings.branding
    text = (
        _files("templates", "view.html")
        .replace("{{TOKEN}}", html.escape(token))
        .replace("{{TABLE}}", html.escape(hub.name))
        .replace("{{VIEW}}", view)
        .replace("{{TITLE}}", html.escape(tr(TITLES[view], lang)))
        .replace("{{HANDS}}", hands)
        .replace("{{EVENT}}", html.escape(branding.event))
        .replace("{{HEAT}}", html.escape(branding.heat))
        .replace("{{LOGO}}", "1" if branding.logo else "")
        .replace("{{LANG}}", lang)
        .replace("{{CONNECTING}}", html.escape(tr("connecting", lang)))
    )
    return HTMLResponse(text, headers=NO_STORE)
