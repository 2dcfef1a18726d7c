"""Bounds on what a client may send (issue 13 item 5): body size, JSON depth, POST rate.

- ``BodyLimit`` (pure ASGI middleware): a request body over ``limit`` bytes is answered 413
  before it is read whole (the Content-Length is checked first, then the bytes as they
  arrive); a JSON body nested deeper than ``depth`` is answered 422 before any parser
  recurses into it (Python's decoder raised RecursionError, a 500, at 100k levels).
- ``TokenBuckets``: a per-token rate limit on POSTs.  A dozen lines of our own instead of
  slowapi: one bucket per role token, no storage backend, no extra dependency, and the
  limit applies after the token check (slowapi keys by address before FastAPI's
  dependencies run; at a table every tablet may share one Wi-Fi address).

    >>> b = TokenBuckets(rate=1.0, burst=2, clock=iter([0.0, 0.0, 0.0, 1.0]).__next__)
    >>> [b.take("t") for _ in range(4)]
    [True, True, False, True]
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

BODY_LIMIT = 64 * 1024
# states a second sent to one view at most (--send-rate): as often as a page draws (common.js's
# DRAW_GAP of 100 ms), so no state is sent that would never be drawn
SEND_RATE = 10.0
JSON_DEPTH = 20
_ESCAPE = re.compile(rb"\\.", re.S)  # escapes first: then a string is "...", no backtracking
_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_PAIR = re.compile(rb"\[\]|\{\}")


def too_deep(body: bytes, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (or do not pair up, which
    no valid JSON does).  No recursion, no parse: each pass drops the innermost pairs.

    >>> too_deep(b'{"a": [1, {"b": "[[["}]}', 3), too_deep(b'[[[[]]]]', 3)
    (False, True)
    """
    s = _STRING.sub(b"", _ESCAPE.sub(b"", body)).translate(None, _NOT_BRACKET)
    for _ in range(limit):
        if not s:
            return False
        inner = _PAIR.sub(b"", s)
        if inner == s:  # nothing pairs up: not JSON
            return True
        s = inner
    return bool(s)


async def _answer(send, status: int, error: str) -> None:
    body = json.dumps({"ok": False, "error": error}, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    def __init__(self, app, limit: int = BODY_LIMIT, depth: int = JSON_DEPTH):
        self.app, self.limit, self.depth = app, limit, depth

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_big = (
            f"För stor begäran: högst {self.limit // 1024} kB. / "
            f"Request body too large: at most {self.limit // 1024} kB."
        )
        for k, v in scope.get("headers", ()):
            if k == b"content-length":
                try:
                    n = int(v)
                except ValueError:
                    n = -1
                if n < 0 or n > self.limit:
                    await _answer(send, 413 if n > self.limit else 400, too_big)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.limit:  # a chunked body that does not say its length
                await _answer(send, 413, too_big)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and too_deep(body, self.depth):
            await _answer(
                send,
                422,
                f"JSON för djupt nästlad eller trasig (högst {self.depth} nivåer). / "
                f"JSON nested too deep or broken (at most {self.depth} levels).",
            )
            return
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class TokenBuckets:
    """``rate`` requests a second per key, bursts of up to ``burst``, paced rather than refused.

    The generic cell rate algorithm: each key has a theoretical arrival time.  A request within
    the burst goes at once; one beyond it is told how long to wait for its slot, so a client
    that sends one request after another is slowed to ``rate`` and never refused (its answers
    stay the same whatever it sends: a 429 that came and went with the pace of a probe would
    be one more answer to tell apart).  Only a flood that would have to queue longer than
    ``max_wait`` seconds is refused, with the time after which a retry is served.

    >>> b = TokenBuckets(rate=2, burst=2, clock=lambda: 0.0, max_wait=1.0)
    >>> [b.reserve("t") for _ in range(5)]
    [0.0, 0.0, 0.5, 1.0, None]
    >>> b.retry_after("t")
    0.5
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 64,
        max_wait: float = 5.0,
    ):
        self.rate, self.burst, self.clock, self.max_keys, self.max_wait = rate, burst, clock, max_keys, max_wait
        self._due: dict[str, float] = {}  # key -> theoretical arrival time of its next request

    def reserve(self, key: str) -> float | None:
        """Seconds this request must wait for its slot (0.0: at once), or None: refused."""
        now, interval = self.clock(), 1.0 / self.rate
        due = max(self._due.get(key, now), now)
        wait = max(0.0, due - (self.burst - 1) * interval - now)
        if wait > self.max_wait:
            return None
        self._due[key] = due + interval
        if len(self._due) > self.max_keys:  # keys are role tokens: a handful
            self._due.pop(next(iter(self._due)))
        return wait

    def retry_after(self, key: str) -> float:
        """After how many seconds a refused key's request would be queued again."""
        now, interval = self.clock(), 1.0 / self.rate
        due = max(self._due.get(key, now), now)
        return max(0.0, due - (self.burst - 1) * interval - now - self.max_wait)

    def take(self, key: str) -> bool:
        """At once or not at all: True when a request may go now without waiting."""
        now, interval = self.clock(), 1.0 / self.rate
        due = max(self._due.get(key, now), now)
        if due - (self.burst - 1) * interval - now > 0:
            return False
        self._due[key] = due + interval
        return True
