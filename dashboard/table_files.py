"""A table's files in its data folder, and the hub built over them.

    data/
      actions.jsonl     the table's actions (until the event store serves the dashboard)
      broadcast.sqlite  the broadcast delay and its queued frames
      audit.jsonl       reveals, pauses, resolved alerts
      tokens.json       the role tokens of this event (mode 600)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from .actionlog import ActionLog
from .audit import AuditLog
from .delay import BroadcastDelay
from .hub import TableHub, start_frame
from .tokens import ROLES, RoleTokens

VIEW_OF = {"revisor": "revisor", "tl": "tl", "broadcast": "broadcast", "public": "public", "dealer": "dealer"}


def open_table(data: Path, name: str = "Table 1", delay: float | None = None,
               clock: Callable[[], float] = time.time, default_delay: float = 60.0) -> tuple[TableHub, RoleTokens]:
    data = Path(data)
    data.mkdir(parents=True, exist_ok=True)
    tokens = RoleTokens.load_or_create(data / "tokens.json")
    hub = TableHub(ActionLog(data / "actions.jsonl"),
                   BroadcastDelay(data / "broadcast.sqlite", start_frame(name), delay=delay,
                                  default_delay=default_delay),
                   AuditLog(data / "audit.jsonl", clock), name=name, clock=clock)
    return hub, tokens


def view_urls(base: str, tokens: RoleTokens) -> list[tuple[str, str]]:
    """(view, URL with its token) for every view, the protocol page last."""
    out = [(role, f"{base}/{VIEW_OF[role]}?token={tokens.token(role)}") for role in ROLES]
    out.append(("protocol", f"{base}/protocol?token={tokens.token('revisor')}"))
    return out
