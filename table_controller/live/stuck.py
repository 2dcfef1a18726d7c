"""A stuck table is seen (issue 16): someone must act, and nothing has been sensed or
entered for ``after_s`` seconds, or the seat controller's link is down.  A silent camera
alone is not a stuck table (the table plays on with RFID, with the camera's own alert),
but when the table is stuck while the camera is silent, the alert says so: the likely cause.

The TL gets an alert through the live loop's alert path (logged, on the TL's and the
Revisor's alert lists) that says who is waited for and on what, Swedish first:
"Väntar på Anna: byte 2 / Waiting for Anna: exchange 2"; every view gets the same as
``waiting`` in its state instead of "live".  The alert names a player and a step, never
a card (it is for every view at the table).  It ends as soon as anything is sensed or
entered and taken (an entry the rules refuse changes nothing: whether it was refused may
turn on a hidden card), or the step moves on.  A paused table waits for nobody.

    watch = StuckWatch(live, after_s=120, link_online=lambda: client.online,
                       camera_online=lambda: camera.online)
    asyncio.create_task(watch.run())       # or watch.check() from a test's own ticks
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from table_controller.rules.engine import Engine
from table_controller.rules.phases import DealPhase, Phase

from ..sensing.alerts import Alert, Finding

DEALER_SV, DEALER_EN = "givaren", "the dealer"


@dataclass(frozen=True, slots=True)
class Waiting:
    """Who the table waits for and on what (no card)."""

    who: str  # a player's name, or "" for the dealer
    on_sv: str
    on_en: str
    key: tuple  # the step: a new step is a new wait

    def text(self, lang: str = "sv") -> str:
        who = self.who or (DEALER_SV if lang == "sv" else DEALER_EN)
        return f"Väntar på {who}: {self.on_sv}" if lang == "sv" else f"Waiting for {who}: {self.on_en}"

    def to_dict(self) -> dict[str, Any]:
        return {"who": self.who or None, "text_sv": self.text("sv"), "text": self.text("en")}


def waiting_for(engine: Engine) -> Waiting | None:
    """Whose move the table waits for during a deal; None between deals and games (the
    TL's and the dealer's own pace) and when the table is over."""
    s = engine.state
    g = s.game
    phase = engine.phase
    if g is None or phase in (Phase.GAME_START, Phase.GAME_OVER, Phase.TABLE_OVER):
        return None
    d = g.deal
    if d is None:  # the next deal: the dealer deals
        n = len(g.deals) + 1
        return Waiting("", f"giv {n}", f"deal {n}", (g.number, n, "deal"))
    to_act = list(engine.to_act())
    step = (g.number, d.number, d.phase, getattr(d, "exchange", 0), getattr(d, "trick_number", 0), tuple(to_act))
    if not to_act:
        return Waiting("", "nästa steg", "the next step", step)
    who = to_act[0]
    if d.phase is DealPhase.EXCHANGE:
        n = d.exchange
        if who in d.placed and who in d.awaiting:  # everyone has placed: the dealer replaces (r14)
            return Waiting("", f"ersättningskort till {who} (byte {n})", f"replacements for {who} (exchange {n})", step)
        return Waiting(who, f"byte {n}", f"exchange {n}", step)
    if d.phase is DealPhase.CHICAGO:
        return Waiting(who, "chicagofrågan", "the Chicago question", step)
    if d.phase is DealPhase.QUADS_CHOICE:
        return Waiting(who, "valet om fyrtal", "the choice of four of a kind", step)
    if d.phase is DealPhase.TRICKS:
        n = getattr(d, "trick_number", 0)
        return Waiting(who, f"stick {n}", f"trick {n}", step)
    return Waiting(who, d.phase, d.phase, step)


class StuckWatch:
    def __init__(
        self,
        live: Any,
        after_s: float,
        link_online: Callable[[], bool] | None = None,
        tick_s: float | None = None,
        camera_online: Callable[[], bool] | None = None,
    ) -> None:
        self.live = live
        self.after_s = after_s
        self.link_online = link_online
        self.camera_online = camera_online
        self.tick_s = tick_s if tick_s is not None else min(1.0, after_s / 10)
        self.alert: Alert | None = None
        self._key: tuple | None = None
        self._since = live.clock.now()
        self._raised_at = self._since
        self._link_cause = False

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            await self.check()

    async def report(self, reason_sv: str, reason_en: str) -> Alert | None:
        """Someone at the table (the demo's bots) says the table cannot go on: the same
        alert at once, with their reason instead of the idle time."""
        w = waiting_for(self.live.engine)
        if w is None:
            return None
        await self._end()
        self._key = w.key
        self.alert = await self._raise(w, reason_sv, reason_en, self.live.clock.now() - self._since, False)
        return self.alert

    async def check(self) -> Alert | None:
        """Raise, keep or end the alert as the table now is; returns the open one."""
        live = self.live
        now = live.clock.now()
        w = waiting_for(live.engine)
        if self.alert is not None and self.alert not in live.alerts:
            await self._end()  # sensing closed it with its step; the views stop waiting too
        if w is None or live.clocks.paused:
            await self._end()
            self._key, self._since = None, now
            return None
        if w.key != self._key:
            await self._end()
            # the wait began with the action that made this step, or when the watch (or a
            # pause, or the time between deals) ended
            floor = self._since if self._key is None else float("-inf")
            self._key, self._since = w.key, max(floor, live.last_activity)
        idle = now - max(self._since, live.last_activity)
        link_down = self.link_online is not None and not self.link_online()
        if self.alert is not None:
            # something happened since (or the link that was the cause is back): not stuck
            if live.last_activity > self._raised_at or (self._link_cause and not link_down):
                await self._end()
            return self.alert
        if idle < self.after_s and not link_down:
            return None
        why_sv, why_en = (
            ("länken till bordets styrenhet är nere", "the seat controller link is down")
            if link_down
            else (f"inget hänt på {idle:.0f} s", f"nothing for {idle:.0f} s")
        )
        if self.camera_online is not None and not self.camera_online():
            why_sv, why_en = why_sv + "; kameran är tyst", why_en + "; the camera is silent"
        self.alert = await self._raise(w, why_sv, why_en, idle, link_down)
        return self.alert

    async def _raise(self, w: Waiting, why_sv: str, why_en: str, idle: float, link_down: bool) -> Alert:
        text = f"{w.text('sv')} ({why_sv}) / {w.text('en')} ({why_en})"
        pad = self.live.sensing.facts.pad_of(w.who) if w.who else None
        finding = Finding(
            ("stuck",) + w.key,
            "stuck",
            text,
            w.who or None,
            pad,
            {"waiting": w.to_dict(), "idle_s": round(idle, 1), "link_down": link_down},
            holds=False,
        )
        self._raised_at, self._link_cause = self.live.clock.now(), link_down
        return await self.live.raise_alert(finding, waiting=w.to_dict())

    async def _end(self) -> None:
        if self.alert is not None:
            a, self.alert = self.alert, None
            await self.live.end_alert(a.id)
