"""The WebSocket of each role: the current state first (the broadcast: the delayed one),
then every update; a client that falls behind skips to the newest (hub.Client).

The handshake is refused (HTTP 403) without a valid token or from a browser page of a
foreign origin (``dashboard.security``).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..security import origin_ok

router = APIRouter()


@router.websocket("/ws")
async def stream(websocket: WebSocket):
    app = websocket.app
    role = app.state.tokens.role_of(websocket.query_params.get("token"))
    if role is None or not origin_ok(
        websocket.headers.get("origin"), websocket.headers.get("host", ""), websocket.url.scheme, app.state.ws_origins
    ):
        await websocket.close(code=4401 if role is None else 4403)  # before accept: refused
        return
    hub = app.state.hub
    await websocket.accept()
    client = hub.connect(role)  # the current state first (broadcast: the delayed one)

    async def pump() -> None:
        while True:
            await websocket.send_text(await client.queue.get())

    sender = asyncio.create_task(pump())
    try:
        while True:  # the client only pings; whatever it sends is dropped, a close ends the stream
            if (await websocket.receive())["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.disconnect(client)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
