"""The WebSocket of each role: the current state first (the broadcast: the delayed one),
then every update; a client that falls behind skips to the newest (hub.Client).

Every message is the whole state for the role, so a state older than the newest is never
worth sending: a client gets at most ``--send-rate`` states a second (default 10, as often as a
page draws: common.js's DRAW_GAP), the newest.  At
a table's human pace (seconds between actions) that changes nothing; at a bot table's or
a replay's (hundreds of states a second) the Pi does not send, and five tablets do not
receive and parse, states that the next one replaces within milliseconds.  The overlay is
not held back: its frames leave at their delay, and its ticker tells what happened between
consecutive frames (broadcast.js).

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

    rate = app.state.settings.send_rate  # the pages draw at most 10 a second (common.js): a state more is never drawn
    gap = 0.0 if role == "broadcast" or rate <= 0 else 1 / rate

    async def pump() -> None:
        while True:
            text = await client.queue.get()
            while not client.queue.empty():  # only the newest state is worth sending
                text = client.queue.get_nowait()
            await websocket.send_text(text)
            if gap:
                await asyncio.sleep(gap)

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
