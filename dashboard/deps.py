"""FastAPI dependencies: the table, the role a token opens, the POST rate limit.

    @router.post("/api/pause")
    async def pause(role: str = Depends(role_in("tl", what="pause the table")), ...): ...

``role_in`` is the one token check (``?token=`` or ``Authorization: Bearer``): no token,
401 and nothing else; a token of another role, 403 saying what that role may not do.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import Depends, Request

from .branding import Branding
from .hub import TableHub
from .i18n import N_
from .limits import BODY_LIMIT, JSON_DEPTH, SEND_RATE, TokenBuckets
from .tokens import RoleTokens

DENIED_TEXT = N_("A role token is needed (?token=...).")
DENIED = {"error": DENIED_TEXT}


@dataclass(frozen=True)
class WebSettings:
    """What ``serve``/``demo`` options set for the web side (defaults: issue 13)."""

    peers: tuple[str, ...] = ()  # the other tables' dashboards (the TL's hall)
    allow_origins: tuple[str, ...] = ()  # more WebSocket origins (an OBS host), --allow-origin
    max_points: int = 200  # |points| of adjust/penalty, --max-points
    post_rate: float = 20.0  # POSTs a second per token, --post-rate (paced: limits.py)
    post_burst: int = 60
    send_rate: float = SEND_RATE  # states a second to one stream client at most (the newest), --send-rate; 0: all
    body_limit: int = BODY_LIMIT
    json_depth: int = JSON_DEPTH
    ruleset: str = "sm2025"  # a table started without naming one ([table] ruleset)
    branding: Branding = field(default_factory=Branding)  # event name, heat, logo ([event])
    # at a tournament ([hub]): where the hub's draw is (URL or file), this table's id, and
    # the draw as read when the service started (tournament.seating)
    draw_source: str | None = None
    table_id: str | None = None
    draw: Mapping[str, Any] | None = None


class Denied(Exception):
    """Answered as ``{"error": text}`` with ``status`` (see ``app``'s handlers); ``text`` is
    a catalogue id with ``params`` (``dashboard.i18n``); a browser navigating to a page
    gets an HTML page that says what to do (``dashboard.error_pages``)."""

    def __init__(self, status: int, text: str | None = None, **params):
        self.status, self.text, self.params = status, text, params
        self.msgid = text


class RateLimited(Exception):
    """A flood beyond what pacing queues: 429 with ``retry_after`` seconds."""

    def __init__(self, retry_after: float = 1.0):
        super().__init__(retry_after)
        self.retry_after = retry_after


def token_of(request: Request) -> str | None:
    token = request.query_params.get("token")
    auth = request.headers.get("authorization", "")
    if not token and auth.lower().startswith("bearer "):
        token = auth[7:].strip()
    return token


def get_hub(request: Request) -> TableHub:
    return request.app.state.hub


def get_settings(request: Request) -> WebSettings:
    return request.app.state.settings


def get_tokens(request: Request) -> RoleTokens:
    return request.app.state.tokens


def any_role(request: Request) -> str:
    token = token_of(request)
    role = get_tokens(request).role_of(token)
    if role is None:
        raise Denied(401) if not token else Denied(401, N_("This link's token is not valid here."))
    return role


def role_in(*allowed: str, what: str = N_("do this"), message: str | None = None) -> Callable[..., str]:
    """A dependency: the caller's role, which must be one of ``allowed``; ``what`` and
    ``message`` are catalogue ids."""

    def check(role: str = Depends(any_role)) -> str:
        if role not in allowed:
            if message:
                raise Denied(403, message)
            raise Denied(403, N_("The {role} role may not {what}."), role=role, what=what)
        return role

    return check


async def rate_limited(request: Request, role: str = Depends(any_role)) -> None:
    """One pace per token (a role's token is shared by its screens): a request beyond the
    burst waits for its slot; only a flood that would queue too long gets 429."""
    buckets: TokenBuckets = request.app.state.buckets
    wait = buckets.reserve(role)
    if wait is None:
        raise RateLimited(buckets.retry_after(role))
    if wait > 0:
        await asyncio.sleep(wait)
