"""The protocol (score sheet) for the TL, the Revisor and the public: public data, filtered
all the same."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import HTMLResponse, Response

from table_controller.rules.phases import Phase
from table_controller.views import sight

from ..deps import WebSettings, get_hub, get_settings, role_in
from ..hub import TableHub
from ..i18n import N_
from ..scoresheet.head import SheetHead
from ..scoresheet.notes import facts_from_records
from ..scoresheet.svg import scoresheet_html
from .pages import VIEWS

router = APIRouter(prefix="/api")
reader = role_in(*sorted(VIEWS["protocol"]), message=N_("no protocol for this role"))


def _protocol_doc(hub: TableHub, role: str) -> dict[str, Any]:
    state = hub.role_view(role).state  # protocol data is public; filtered all the same
    return {"ruleset": state.ruleset, "games": list(state.games), "table": state.table or {}}


def _final_head(hub: TableHub) -> dict[str, Any] | None:
    """The log's chain head (last record's seq and digest) once the table is over, printed
    with its QR code beside the sign-off as ``chicago-table protocol --head`` does (issue 20
    item 4); ``log verify`` checks a log against it.  Not before: a digest taken during a
    deal covers hands still hidden, and it would tell a prober when the log changed."""
    if hub.engine.phase is not Phase.TABLE_OVER:
        return None
    seq = hub.log.seq
    last = hub.log.store.read(seq, seq)
    return {"seq": last[0].seq, "digest": last[0].digest} if last else None


@router.get("/protocol.pdf")
async def pdf(
    role: str = Depends(reader),
    hub: TableHub = Depends(get_hub),
    settings: WebSettings = Depends(get_settings),
    lang: str = "sv",
):
    # penalties, warnings and the game's own times come from the table's log (public facts:
    # no card is read from it); the TL's words in them as the role filter lets ``role`` read
    # them (one typed during a deal may name a card: README "Security")
    # reportlab is imported when a protocol is first printed, not with every server start
    # (the dashboard's import: 0.428 -> 0.410 s of CPU here, medians of interleaved runs)
    from ..scoresheet.pdf import scoresheet_pdf

    facts = facts_from_records(hub.log.records("action", "event", "audit")).read_by(sight(role).words)
    brand = settings.branding
    data = scoresheet_pdf(
        _protocol_doc(hub, role),
        title=hub.name,
        head=_final_head(hub),
        facts=facts,
        info=SheetHead(
            event=brand.event,
            heat=brand.heat,
            round=brand.round,
            table=hub.name,
            players=brand.players,
            logo=brand.logo,
        ),
        lang="en" if lang == "en" else "sv",
    )
    name = "protocol.pdf" if lang == "en" else "protokoll.pdf"  # the name it is saved under
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})


@router.get("/protocol.html")
async def protocol_fragment(role: str = Depends(reader), hub: TableHub = Depends(get_hub), lang: str = "sv"):
    signed = {int(g): {r: None for r in roles} for g, roles in hub.signatures().items() if g.isdigit()}
    return HTMLResponse(scoresheet_html(_protocol_doc(hub, role), lang="en" if lang == "en" else "sv", signed=signed))
