"""One table's live state and its audiences: post actions, fan out filtered views.

    >>> hub = TableHub(live, TableLog(path), BroadcastDelay(...))          # doctest: +SKIP
    >>> await hub.post({"do": "discard", "player": "Bo", "cards": []}, by="revisor")  # doctest: +SKIP

No game logic lives here: actions go to the live table loop (issue 5: sensing, rules,
shot clocks, the durable log), what a role sees comes from
``table_controller.views.for_role`` and nothing else.  Every client has its own bounded
queue; a client that falls behind skips to the latest state and never stalls the rest.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from table_controller.actions import ActionError, parse_action
from table_controller.engine import Engine, IllegalAction
from table_controller.live import LiveTable
from table_controller.views import for_role, hidden_deal, snapshot

from . import entry
from .delay import BroadcastDelay
from .errors import DashboardError, EntryRejected
from .tablelog import TableLog

QUEUE_SIZE = 4
TL_ONLY = {"penalty", "adjust"}
WRITERS = {"tl", "revisor"}
_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


class Client:
    """One connected WebSocket: its role and its own bounded queue of JSON texts."""

    __slots__ = ("role", "queue")

    def __init__(self, role: str):
        self.role = role
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_SIZE)

    def offer(self, text: str) -> None:
        if self.queue.full():
            try:  # behind: drop the oldest; every message is a whole state
                self.queue.get_nowait()
            except asyncio.QueueEmpty:  # pragma: no cover
                pass
        self.queue.put_nowait(text)


@dataclass(frozen=True, slots=True)
class Alert:
    id: int
    kind: str
    text: str
    seq: int
    resolved: bool = False
    blind_text: str | None = None  # the Revisor's text when the reason may tell where a card is

    def to_dict(self, role: str = "tl") -> dict[str, Any]:
        # Alert texts come from rule reasons that may name a card: never a hidden one.
        text = self.text if role == "tl" or self.blind_text is None else self.blind_text
        return {"id": self.id, "kind": self.kind, "text": _CARD.sub("(card)", text),
                "seq": self.seq, "resolved": self.resolved}

    def resolve(self) -> "Alert":
        return Alert(self.id, self.kind, self.text, self.seq, True, self.blind_text)


class TableHub:
    def __init__(self, live: LiveTable, log: TableLog, delay: BroadcastDelay, name: str = "Table 1",
                 clock: Callable[[], float] = time.time):
        self.name = name
        self.live = live
        self.log = log  # the same recorder as the live table's: one writer, one file
        self.delay = delay
        self.clock = clock
        self.clients: set[Client] = set()
        self.revealed: set[str] = set()
        self._revealed_deal: tuple[int, int] | None = None
        self.paused = False
        self.alerts: list[Alert] = self._stored_alerts()
        self._sensing_alerts: list[dict[str, Any]] = []
        self._snap: dict[str, Any] = self._split(snapshot(self.engine))
        self._updates = live.subscribe(maxsize=1)  # only the newest state matters
        self._texts: dict[str, str] = {}
        self._at: float | None = None
        self._broadcast_shown = (0, False)  # (frame id, masked) on show; (0, False): the start position
        self._wake = asyncio.Event()
        if self.engine.events and (self.delay.newest_seq() or -1) < self.engine.state.seq:
            # A table the broadcast has not seen yet: it shows it after the delay from now.
            self._push_frame()

    @property
    def engine(self) -> Engine:
        return self.live.engine

    def _split(self, snap: dict[str, Any]) -> dict[str, Any]:
        """Sensing's alerts leave the snapshot: their evidence may name a face-down card, so
        only their id, kind, player, pad and text (cards masked) go to the TL and Revisor."""
        alerts = snap.pop("alerts", None)
        if alerts is not None:
            self._sensing_alerts = [{"id": f"s{a.get('id')}", "kind": a.get("kind"), "player": a.get("player"),
                                     "pad": a.get("pad"), "text": _CARD.sub("(card)", str(a.get("text", ""))),
                                     "resolved": False} for a in alerts]
        return snap

    def _stored_alerts(self) -> list[Alert]:
        """Open alerts survive a restart: they are records of the table's log."""
        resolved = {r.data.get("alert") for r in self.log.records("audit") if r.data.get("what") == "resolve_alert"}
        out = []
        for r in self.log.records("alert", "rejected"):
            if r.kind == "alert":
                text = str(r.data.get("text", ""))
                blind = None
            else:
                a = r.data.get("action")
                do = a.get("do", "?") if isinstance(a, dict) else "?"
                text = f"{r.source}: {do} rejected: {r.data.get('reason', '')}"
                blind = entry.blind_alert_text(r.source, do) if entry.names_cards(do) else None
            out.append(Alert(r.seq, r.kind, text, self.seq, r.seq in resolved, blind))
        return out[-200:]

    def audit_entries(self) -> list[dict[str, Any]]:
        return [{"at": r.time, "by": r.data.get("who"), **{k: v for k, v in r.data.items() if k != "who"}}
                for r in self.log.records("audit")]

    # --- what each role receives --------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.engine.state.seq

    def _text(self, role: str) -> str:
        """``role``'s message of the current state.  "broadcast:masked": the broadcast frame
        without the deal's hidden cards (the public's view of it), shown until the deal ends."""
        text = self._texts.get(role)
        if text is None:
            view = "public" if role == "broadcast:masked" else role
            msg: dict[str, Any] = {
                "type": "state", "table": self.name, "role": role.split(":")[0], "seq": self._snap["seq"],
                "at": self._at,  # wall time the newest event was appended (staleness, benchmark)
                "paused": self.paused,
                "state": for_role(self._snap, view, self.revealed if role == "tl" else frozenset()),
            }
            if role in ("tl", "revisor"):
                msg["alerts"] = self._sensing_alerts + [a.to_dict(role) for a in self.alerts if not a.resolved]
            if role == "tl":
                msg["revealed"] = sorted(self.revealed)
            text = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
            self._texts[role] = text
        return text

    def current_text(self, role: str) -> str:
        """What a client of ``role`` is shown on connecting (broadcast: the delayed frame)."""
        if role == "broadcast":
            return self.delay.due(self.live_deal()).text
        return self._text(role)

    def live_deal(self) -> str | None:
        """The deal in progress at the live table, whose hidden cards the broadcast holds back."""
        return hidden_deal(self._snap)

    def _push_frame(self) -> None:
        full = self._text("broadcast")
        self.delay.push(self.seq, full, self._text("broadcast:masked"), hidden_deal(self._snap))

    def start_frame(self) -> str:
        return start_frame(self.name)

    def _pump_now(self) -> bool:
        """Take the live table's newest snapshot, if there is one, and show it."""
        item = None
        while not self._updates.empty():
            item = self._updates.get_nowait()
        if item is None:
            return False
        self._publish(new_state=True, snap=item[1])
        return True

    async def pump(self) -> None:
        """Everything the live table does (sensed actions, clocks, alerts) reaches the views."""
        while True:
            item = await self._updates.get()
            self._updates.put_nowait(item)
            self._pump_now()

    def _publish(self, new_state: bool, snap: dict[str, Any] | None = None) -> None:
        if new_state:
            self._at = self.clock()
            self._snap = self._split(dict(snap) if snap is not None else snapshot(self.engine))
            deal = (self._snap["game"], self._snap["deal"])
            if deal != self._revealed_deal:  # a reveal is for one deal's dispute
                self.revealed.clear()
                self._revealed_deal = deal
        self._texts.clear()
        for c in list(self.clients):
            if c.role != "broadcast":
                c.offer(self._text(c.role))
        if new_state:
            self._push_frame()
            self._wake.set()  # a new frame to time, or the deal on show may just have ended

    # --- doing things -------------------------------------------------------------------

    @property
    def hands_by_hand(self) -> bool:
        """A camera-only table: hidden hands are declared by hand on the Revisor's tablet."""
        return not getattr(self.live.sensing, "rfid", True)

    async def post(self, obj: Any, by: str) -> dict[str, Any]:
        """Apply a REPLAY.md action posted by ``by``; the answer carries no card, and a
        rejected card entry from anyone but the TL gets one answer whatever the cards
        are (``dashboard.entry``)."""
        if by not in WRITERS:
            raise PermissionError(f"the {by} role may not enter actions")
        do = obj.get("do") if isinstance(obj, dict) else None
        if do in TL_ONLY and by != "tl":
            raise PermissionError(f"'{do}' is a TL decision (RULES.md §11)")
        if self.paused and by != "tl":
            raise DashboardError("the table is paused by the TL")
        blind = by != "tl" and entry.names_cards(do)
        if blind and not entry.may_enter_cards(by, self.hands_by_hand):
            # decided before any card is read: the same record and answer for every card
            rec = self.log.reject(obj, entry.REFUSED_REASON, by)
            self._alert(rec.seq, "rejected", f"{by}: {do} rejected: {entry.REFUSED_REASON}",
                        entry.blind_alert_text(by, do))
            raise EntryRejected(entry.REFUSED)
        try:
            action = parse_action(obj)
        except ActionError as exc:
            rec = self.log.reject(obj, str(exc), by)
            self._alert(rec.seq, "rejected", f"{by}: {do or '?'} rejected: {exc}",
                        entry.blind_alert_text(by, do) if entry.names_cards(do) else None)
            raise (EntryRejected(entry.REJECTED) if blind else DashboardError(_CARD.sub("(card)", str(exc)))) from exc
        try:
            await self.live.submit(action, by)  # durable before anyone is shown it
        except IllegalAction as exc:
            rec = self.log.last_record()
            self._alert(rec.seq if rec else 0, "rejected", f"{by}: {do} rejected: {exc.reason}",
                        entry.blind_alert_text(by, do) if entry.names_cards(do) else None)
            raise (EntryRejected(entry.REJECTED) if blind else DashboardError(_CARD.sub("(card)", exc.reason))) from exc
        self._pump_now()
        return {"ok": True, "seq": self.seq}

    async def submit_local(self, action) -> None:
        """An action entered by the controller itself (the demo's bots without the virtual
        table) through the live loop, like manual entry."""
        if self.paused:
            raise DashboardError("the table is paused by the TL")
        await self.live.submit(action, "bots")
        self._pump_now()

    def _alert(self, alert_id: int, kind: str, text: str, blind_text: str | None = None) -> None:
        self.alerts.append(Alert(alert_id, kind, text, self.seq, blind_text=blind_text))
        del self.alerts[:-200]
        self._publish(new_state=False)

    def resolve_alert(self, alert_id: int, by: str) -> None:
        for i, a in enumerate(self.alerts):
            if a.id == alert_id:
                self.alerts[i] = a.resolve()
                self.log.audit(by, "resolve_alert", alert=alert_id)
                self._publish(new_state=False)
                return
        raise DashboardError(f"no alert {alert_id}")

    async def correct(self, text: str, by: str) -> dict[str, Any]:
        """Settle a sensing alert ("the card at pad 3 is 7H", "dismiss 4"); logged by the
        live table as an audit record.  A correction that names a card is the TL's."""
        from table_controller.sensing import Dismiss, SensingError, parse_correction
        if by not in WRITERS:
            raise PermissionError(f"the {by} role may not correct the table")
        try:
            correction = parse_correction(str(text))
        except (SensingError, ValueError) as exc:
            raise DashboardError(_CARD.sub("(card)", str(exc))) from exc
        if by != "tl" and not isinstance(correction, Dismiss):
            # one answer and one record whatever the card: never judged for the Revisor
            self.log.audit(by, "correction_refused", reason=entry.REFUSED_REASON)
            raise EntryRejected(entry.CORRECTION_REFUSED)
        try:
            await self.live.correct(correction, by)
        except SensingError as exc:
            raise DashboardError(_CARD.sub("(card)", str(exc))) from exc
        self._pump_now()
        return {"ok": True}

    def set_paused(self, paused: bool, by: str, reason: str = "") -> None:
        # The live table stops its shot clocks and logs who paused (an audit record).
        (self.live.pause if paused else self.live.resume)(by, reason.strip())
        self.paused = paused
        self._publish(new_state=False)

    def reveal(self, player: str, by: str, reason: str) -> None:
        """Show one hand to the TL for a dispute; logged in the audit trail (§3)."""
        if player not in self._snap_players():
            raise DashboardError(f"no player {player!r} at this table")
        if not reason.strip():
            raise DashboardError("say why the hand is revealed")
        # Logged first: no hidden card is shown without its record (ARCHITECTURE.md §3).
        self.log.audit(by, "reveal", player=player, reason=reason, table_seq=self.seq,
                       game=self._snap["game"], deal=self._snap["deal"])
        self.revealed.add(player)
        self._revealed_deal = (self._snap["game"], self._snap["deal"])
        self._publish(new_state=False)

    def hide(self, by: str) -> None:
        self.log.audit(by, "hide", table_seq=self.seq)
        self.revealed.clear()
        self._publish(new_state=False)

    def _snap_players(self) -> list[str]:
        return [p["name"] for p in self._snap["players"]]

    # --- the delayed broadcast ------------------------------------------------------------

    def connect(self, role: str) -> Client:
        c = Client(role)
        self.clients.add(c)
        c.offer(self.current_text(role))
        return c

    def disconnect(self, c: Client) -> None:
        self.clients.discard(c)

    def release_due(self) -> int:
        """Offer the broadcast clients the frame due now if it is not the one on show (a new
        frame, or the one on show unmasked because its deal has just ended live).  Returns
        the frame's id, for timing the next one."""
        frame = self.delay.due(self.live_deal())
        if (frame.id, frame.masked) != self._broadcast_shown:
            self._broadcast_shown = (frame.id, frame.masked)
            for c in list(self.clients):
                if c.role == "broadcast":
                    c.offer(frame.text)
        return frame.id

    async def broadcast_loop(self) -> None:
        """Release each frame when it is due, even if nothing else happens (the frozen-view
        bug), and never earlier (the push path that skipped the delay).  Timed on the delay's
        monotonic clock: a wall-clock step releases nothing."""
        while True:
            shown = self.release_due()
            nxt = self.delay.next_due_in(shown)
            wait = 1.0 if nxt is None else min(1.0, max(0.005, nxt))
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            except asyncio.TimeoutError:
                pass



def start_frame(name: str) -> str:
    """The broadcast's start position: an empty table, before anything is due."""
    snap = snapshot(Engine())
    return json.dumps({"type": "state", "table": name, "role": "broadcast", "seq": -1, "paused": False,
                       "state": for_role(snap, "broadcast")}, separators=(",", ":"))
