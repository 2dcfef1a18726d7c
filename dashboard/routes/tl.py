"""The TL's own data: the deal's history (hidden cards as counts unless revealed), the
audit trail, and the event's tables for the hall."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from ..deps import get_hub, get_settings, role_in
from ..hub import TableHub
from ..i18n import N_

router = APIRouter(prefix="/api")


@router.get("/history")
async def history(
    role: str = Depends(role_in("tl", message=N_("the TL's history only"))), hub: TableHub = Depends(get_hub)
):
    return {"seq": hub.seq, "events": hub.history(role)}


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
    """What ``chicago-table doctor`` asks a running table: its sensors' links and the kinds
    of its open alerts (no text, no card)."""
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
    }


@router.get("/audit")
async def audit(
    role: str = Depends(role_in("tl", message=N_("the TL's audit trail only"))), hub: TableHub = Depends(get_hub)
):
    return {"entries": hub.audit_entries()}
