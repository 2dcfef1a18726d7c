"""The TL's own data: the deal's history (hidden cards as counts unless revealed), the
audit trail, and the event's tables for the hall."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response

from ..deps import Denied, get_hub, get_settings, role_in
from ..hub import TableHub
from ..i18n import N_

router = APIRouter(prefix="/api")


@router.get("/history")
async def history(
    role: str = Depends(role_in("tl", message=N_("the TL's history only"))),
    hub: TableHub = Depends(get_hub),
    scope: Literal["deal", "game", "table"] = "deal",
):
    """The history of the deal, the game or the whole table, in events the page words."""
    return {"seq": hub.seq, "scope": scope, "events": hub.history(role, scope)}


@router.get("/alerts/{alert_id}/crop")
async def pad_picture(
    alert_id: Annotated[str, Path(pattern=r"^s[0-9]{1,12}$")],
    role: str = Depends(role_in("tl", message=N_("a picture of a pad is the TL's"))),
    hub: TableHub = Depends(get_hub),
    pad: Annotated[str | None, Query(pattern=r"^[a-z0-9_]{1,16}$")] = None,
):
    """The camera's picture of a sensing alert's pad (JPEG), part of its evidence: a hand
    pad's picture shows hidden cards, so the TL's alone (the evidence it belongs to is
    logged when shown); 404 with a text at a table without a camera."""
    jpeg = await hub.pad_picture(alert_id, pad, role)
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/tables")
async def tables(
    request: Request,
    role: str = Depends(role_in("tl", message=N_("the TL's hall only"))),
    hub: TableHub = Depends(get_hub),
):
    # this table first (same origin: base ""), then the peers in the order given
    peers = get_settings(request).peers
    return {"tables": [{"base": "", "name": hub.name}] + [{"base": b} for b in peers]}


@router.get("/status")
async def status(
    role: str = Depends(role_in("tl", message=N_("the TL's status only"))), hub: TableHub = Depends(get_hub)
):
    """What ``chicago-table doctor`` asks a running table: its sensors' links, the kinds
    of its open alerts (no text, no card) and who it waits for, on what (``waiting`` in
    English, ``waiting_sv`` in Swedish: the doctor says the one of the language it speaks)."""
    live = hub.live
    sensing = live.sensing
    return {
        "table": hub.name,
        "seq": hub.seq,
        "phase": str(live.engine.phase),
        "link_online": bool(sensing.link_ok),
        "camera_online": bool(sensing.camera_ok),
        "readers_offline": sorted(p for p, ok in sensing.readers_ok.items() if not ok),
        "alerts": sorted({a.kind for a in live.alerts}),
        "waiting": (live.waiting or {}).get("text"),
        "waiting_sv": (live.waiting or {}).get("text_sv"),
        "shot_clocks": dict(live.clocks.limits),  # the event's (D11), as this table runs them
    }


@router.get("/audit")
async def audit(
    role: str = Depends(role_in("tl", message=N_("the TL's audit trail only"))), hub: TableHub = Depends(get_hub)
):
    return {"entries": hub.audit_entries()}


@router.get("/draw")
async def draw(
    request: Request,
    role: str = Depends(role_in("tl", "revisor", message=N_("the seat draw is the TL's and the Revisor's"))),
):
    """At a tournament ([hub]): this table as the hub drew it (players, heat, every game's
    seats and button, r7; no card), read again from the hub's web address so that a
    särspel's seats (r11) appear once the hub has drawn them; the draw the service started
    with when the hub cannot be reached."""
    import asyncio

    from table_controller.tournament.seating import SeatingError, load_draw

    settings = get_settings(request)
    if settings.draw is None or settings.table_id is None or settings.draw_source is None:
        raise Denied(404, N_("this table plays no tournament draw ([hub] in its configuration)"))
    if settings.draw_source.startswith(("http://", "https://")):
        try:
            return await asyncio.to_thread(load_draw, settings.draw_source, settings.table_id, 3.0)
        except SeatingError:
            pass
    return dict(settings.draw)
