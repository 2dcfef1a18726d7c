"""What the TL and the Revisor post: actions, corrections, pause, reveal, alerts.

Every POST passes the token check (``role_in``), the per-token rate limit and a typed body
(``dashboard.bodies``); the hub decides the rest and says why in a clear 4xx.  Who may
enter cards by hand, and the one answer a blind role gets: ``dashboard.entry``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Path
from fastapi.responses import JSONResponse

from ..bodies import (
    ActionBody,
    CallTimeBody,
    ConfirmBody,
    CorrectBody,
    ExchangeBody,
    HandBody,
    OwnPlayBody,
    ReasonBody,
    RevealBody,
    SignBody,
    VoidBody,
)
from ..deps import WebSettings, get_hub, get_settings, rate_limited, role_in
from ..errors import DashboardError
from ..hub import TableHub
from ..i18n import N_
from ..tokens import SEATS

router = APIRouter(prefix="/api", dependencies=[Depends(rate_limited)])

OK = {"ok": True}
writer = role_in("tl", "revisor", what=N_("enter actions"))
tl_only = role_in("tl", what=N_("do this"))


@router.post("/action")
async def post_action(
    body: Annotated[ActionBody, Body()],
    role: str = Depends(writer),
    hub: TableHub = Depends(get_hub),
    settings: WebSettings = Depends(get_settings),
):
    points = getattr(body, "points", None)
    if points is not None and abs(points) > settings.max_points:
        raise DashboardError(
            f"Poängen ligger utanför gränsen ±{settings.max_points}. / "
            f"'points' must lie within ±{settings.max_points} (serve --max-points)."
        )
    # the body as sent (closed models: nothing else was in it), for the log's record
    action = body.model_dump(exclude_unset=True)
    if action.get("do") == "table":
        # the engine keeps the same bound as a table option (tl_points_limit): a table started
        # here takes the server's --max-points unless the action names its own
        action.setdefault("ruleset", settings.ruleset)  # the table's configured ruleset
        options = dict(action.get("options") or {})
        options.setdefault("tl_points_limit", max(1, min(settings.max_points, 1000)))
        action["options"] = options
    return JSONResponse(await hub.post(action, role))


@router.post("/hand")
async def declare_hand(
    body: HandBody,
    role: str = Depends(role_in("tl", *SEATS, what=N_("declare a hand"))),
    hub: TableHub = Depends(get_hub),
):
    """A player's own five cards on a camera-only table (``dashboard.entry``): one answer for
    every well-formed hand."""
    return JSONResponse(await hub.declare(body.cards, role, body.seat))


@router.post("/exchange")
async def enter_exchange(
    body: ExchangeBody,
    role: str = Depends(role_in("tl", *SEATS, what=N_("enter a player's exchange"))),
    hub: TableHub = Depends(get_hub),
):
    """The cards a player places, then receives, face down on a camera-only table
    (``dashboard.seat_exchange``): receiving is one answer for every well-formed entry."""
    return JSONResponse(await hub.exchange(body.cards, role, body.seat))


@router.post("/quads")
async def announce_quads(
    role: str = Depends(role_in(*SEATS, what=N_("announce a four of a kind"))),
    hub: TableHub = Depends(get_hub),
):
    """A player's own four of a kind that zeroes, at the check before the Chicago question
    (r28), from their seat's link."""
    return JSONResponse(await hub.announce_quads(role))


@router.post("/retract")
async def retract_own(
    role: str = Depends(role_in(*SEATS, what=N_("take back a card"))),
    hub: TableHub = Depends(get_hub),
):
    """The player's own last card taken back (a revoke put right before the next card,
    r26), from their seat's link."""
    return JSONResponse(await hub.retract_own(role))


@router.post("/play")
async def play_own(
    body: OwnPlayBody,
    role: str = Depends(role_in(*SEATS, what=N_("play a card from a hand"))),
    hub: TableHub = Depends(get_hub),
):
    """A card the player plays from their own hand, on their phone (a camera-only table:
    the camera missed it); a refusal is about their own hand or the public turn."""
    return JSONResponse(await hub.play_own(body.card, role))


@router.post("/correct")
async def correct(
    body: CorrectBody,
    role: str = Depends(role_in("tl", "revisor", what=N_("correct the table"))),
    hub: TableHub = Depends(get_hub),
):
    return JSONResponse(await hub.correct(body.text, role))


@router.post("/pause")
async def pause(
    body: Annotated[ReasonBody | None, Body()] = None, role: str = Depends(tl_only), hub: TableHub = Depends(get_hub)
):
    hub.set_paused(True, role, body.reason if body else "")
    return OK


@router.post("/resume")
async def resume(
    body: Annotated[ReasonBody | None, Body()] = None, role: str = Depends(tl_only), hub: TableHub = Depends(get_hub)
):
    hub.set_paused(False, role, body.reason if body else "")
    return OK


@router.post("/call_time")
async def call_time(body: CallTimeBody, role: str = Depends(writer), hub: TableHub = Depends(get_hub)):
    """ "Time" called on a player (RULES.md §10): their call's 60 s and 10 s countdown start
    on the table's clocks, which end the hand at zero unless the player acts."""
    hub.call_time(body.player, role)
    return OK


@router.post("/reveal")
async def reveal(body: RevealBody, role: str = Depends(tl_only), hub: TableHub = Depends(get_hub)):
    hub.reveal(body.player, role, body.reason)
    return OK


@router.post("/hide")
async def hide(role: str = Depends(tl_only), hub: TableHub = Depends(get_hub)):
    hub.hide(role)
    return OK


@router.post("/alerts/{alert_id}/resolve")
async def resolve(
    # the TL's: the alert's number (below 0: alerts the log could not take); a blind role's:
    # the tag it was shown (views.blind_alert_id)
    alert_id: Annotated[str, Path(min_length=1, max_length=40)],
    role: str = Depends(role_in("tl", "revisor", what=N_("do this"))),
    hub: TableHub = Depends(get_hub),
):
    hub.resolve_alert(alert_id, role)
    return OK


@router.post("/sign")
async def sign(
    body: SignBody,
    role: str = Depends(role_in("tl", "revisor", what=N_("sign a protocol"))),
    hub: TableHub = Depends(get_hub),
):
    hub.sign(body.game, role)
    return OK


@router.post("/confirm")
async def confirm(
    body: ConfirmBody,
    role: str = Depends(role_in("revisor", what=N_("confirm an award"))),
    hub: TableHub = Depends(get_hub),
):
    """ "Stämmer": the Revisor confirms the awards of one scoring moment (issue 18)."""
    hub.confirm_award(body.game, body.deal, body.moment, role)
    return OK


@router.post("/alerts/{alert_id}/evidence")
async def evidence(
    alert_id: Annotated[str, Path(pattern=r"^s[0-9]{1,12}$")],
    role: str = Depends(tl_only),
    hub: TableHub = Depends(get_hub),
):
    """A sensing alert's evidence (cards named): the TL's, logged before it is shown."""
    return JSONResponse(hub.evidence(alert_id, role))


@router.post("/void")
async def void(body: VoidBody, role: str = Depends(tl_only), hub: TableHub = Depends(get_hub)):
    return JSONResponse(await hub.void(body.ruling, role, body.reason))
