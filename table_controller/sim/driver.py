"""Bots (or an action script) playing through a physical table, sensed by the live loop.

    driver = TableDriver(live, VirtualHands(virtual_table))
    shadow = await driver.play(RandomBot(seed).next_action)

The bot decides each action on a *shadow* engine that applies it directly; the
:class:`~.translate.Translator` turns it into physical moves on the table; the live
loop must recover the same action from what the pads report.  Actions nobody can sense
(the seat draw, the Chicago answer, the quad choice) are entered by hand, as the
Revisor and the TL do.  At the end the live engine and the shadow must agree.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from table_controller.live.facts import PADS
from table_controller.live.table import LiveTable
from table_controller.rules.actions import Action, Discard, Retract
from table_controller.rules.engine import Engine
from table_controller.rules.judge import judge
from table_controller.rules.phases import DealPhase
from table_controller.sim.translate import Translator, make_move


class DriverStuck(RuntimeError):
    """Sensing did not produce the action the table played (the alerts say why)."""


class VirtualHands:
    """The dealer's and players' hands on a :class:`hardware.virtual.VirtualTable`.

    People are slow and the simulation is not: after a move, the hands wait until the
    seat controller has reported every pad as it now is (``reported(pad)``: the UIDs the
    bridge last heard for that pad), as seconds would pass at a real table.  With a noisy
    table a report may never match exactly; then they wait ``max_wait_s`` at most.
    ``changed``: awaits the next change of the reports (the bridge's ``pads_changed``);
    with it a wait looks again only after a change (and ``poll_s`` more, the moment a
    person takes, in which the live loop takes the report in), without it every ``poll_s``."""

    def __init__(
        self,
        table,
        reported=None,
        min_wait_s: float = 0.01,
        max_wait_s: float = 2.0,
        pause_s: float = 0.6,
        poll_s: float = 0.005,
        changed: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.table = table
        self.changed = changed
        self.poll_s = poll_s  # how often a wait looks at the reports (no use below a scan)
        self.pause_s = pause_s
        self.reported = reported
        self.min_wait_s = min_wait_s
        self.max_wait_s = max_wait_s
        self._fresh: dict[str, str] = {}  # card -> pad it was put on since the last wait

    def __getattr__(self, name):
        return getattr(self.table, name)

    def put(self, code: str, pad: str) -> None:
        self.table.put(code, pad)
        self._fresh[code] = pad

    def to_tray(self, code: str) -> None:
        self.put(code, "tray")

    def _uid(self, code: str) -> str:
        return self.table.deck.uids[code]

    async def _until(self, done) -> bool:
        await asyncio.sleep(self.min_wait_s)
        if self.reported is None:
            await asyncio.sleep(self.max_wait_s)
            return True
        loop = asyncio.get_running_loop()
        end = loop.time() + self.max_wait_s
        while loop.time() < end:
            if done():
                return True
            if self.changed is not None:
                # nothing comes true before a report changes (the bots alone move cards):
                # polling every few ms was a fifth of a simulated table's loop (issue 15)
                try:
                    async with asyncio.timeout_at(end):
                        await self.changed()
                except TimeoutError:
                    return False
            await asyncio.sleep(self.poll_s)
        return False

    async def settle(self) -> None:
        """Until no pad is reported with a card that has left it."""

        def gone() -> bool:
            for pad in PADS + ("tray",):
                seen = self.reported(pad)
                if not seen:  # nothing reported there, so nothing that has left (issue 15: polled every 5 ms)
                    continue
                truth = {self._uid(c) for c in self.table.on_pad(pad)}
                if not set(seen) <= truth | {self.table.button_uid}:
                    return False
            return True

        await self._until(gone)
        await self.arrive()

    async def arrive(self) -> None:
        """Until every card put down since the last wait has been reported on its pad."""

        def seen() -> bool:
            return all(
                self._uid(c) in self.reported(pad) for c, pad in self._fresh.items() if self.table.where(c) == pad
            )

        await self._until(seen)
        self._fresh.clear()

    async def pause(self) -> None:
        await asyncio.sleep(self.pause_s)

    def press(self, button: str, hold_s: float = 0.12) -> None:
        """The console holds a press until the firmware has seen it, and a button
        pressed again is first let go long enough to be seen released."""
        self.table.press(button, hold_s)

    def pressing(self, button: str) -> bool:
        """The console still holds (or has yet to give) a press of ``button``."""
        return self.table.buttons.pending(button) > 0


class TableDriver:
    def __init__(
        self,
        live: LiveTable,
        hands,
        sync_timeout: float = 20.0,
        manual_source: str = "revisor",
        progress: Callable[[int, Engine], None] | None = None,
    ) -> None:
        self.live = live
        self.hands = hands
        self.sync_timeout = sync_timeout
        self.manual_source = manual_source
        self.progress = progress
        self.translator = Translator()
        self.shadow = Engine()
        self.played: list[Action] = []
        self.unseen: list[Action] = []
        self._expected = len(live.accepted)
        self._last_press: str | None = None
        self.repress_s = 1.5
        self.represses = 0

    async def play(
        self,
        next_action: Callable[[Engine], Action | None] | None = None,
        script: Iterable[Action] | None = None,
        max_actions: int = 100_000,
    ) -> Engine:
        """Play until the bot has nothing more (or the script ends); returns the shadow."""
        it = iter(script) if script is not None else None
        for n in range(max_actions + 64):
            if n >= max_actions and not self._placing():
                break  # stop between steps, never with a placement half done
            action = next_action(self.shadow) if next_action else next(it, None) if it is not None else None
            if action is None:
                break
            await self.step(action)
            if self.progress:
                self.progress(len(self.played), self.shadow)
        await self._sync()
        return self.shadow

    def _placing(self) -> bool:
        d = self.shadow.state.deal
        return bool(
            d and d.phase is DealPhase.EXCHANGE and d.placed and any(p not in d.placed for p in self.shadow.to_act())
        )

    async def step(self, action: Action) -> None:
        before = Translator.before(self.shadow)
        d = self.shadow.state.deal
        silent = (
            isinstance(action, Discard)
            and not action.cards
            and d is not None
            and action.player in d.order
            and self.shadow.at_draw_stop(action.player)
        )
        if not judge(self.shadow, action).accepted:
            return  # a line the rules refuse changes nothing at the table either
        if silent:  # a player at draw stop "placing nothing" does nothing a table can see
            self.unseen.append(action)
            return
        self.played.append(action)
        self._expected += 1
        for step in self.translator.plan(action, before, self.shadow):
            await self._do(step, action)

    async def _do(self, step: tuple, action: Action) -> None:
        h = self.hands
        kind = step[0]
        if kind == "submit":
            await self._sync(self._expected - 1)
            # a take-back is the player's (phone) or the TL's, never the Revisor's (README "Security")
            await self.live.submit(action, "tl" if isinstance(action, Retract) else self.manual_source)
        elif make_move(h, step):
            pass
        elif kind == "press":
            h.press(step[1])
            self._last_press = step[1]
        elif kind == "settle":
            await h.settle()
        elif kind == "arrive":
            await h.arrive()
        elif kind == "pause":
            await h.pause()
        elif kind == "sync":
            await self._sync()

    async def _sync(self, n: int | None = None) -> None:
        n = self._expected if n is None else n
        button, self._last_press = self._last_press, None
        wait = self.sync_timeout
        if button:  # a press lost on a noisy line: the dealer sees nothing happen, presses again
            pressing = getattr(self.hands, "pressing", None)
            loop = asyncio.get_running_loop()
            end = loop.time() + self.sync_timeout
            # as often as it takes within the timeout: on a rough line a short frame is
            # lost now and then, and a press is lost with it, sometimes several in a row
            while loop.time() < end:
                if await self.live.wait_accepted(n, min(self.repress_s, end - loop.time())):
                    return
                # never while the console still holds the last press (a busy machine):
                # that press is on its way, and a second one would be a second action
                while pressing is not None and pressing(button) and loop.time() < end:
                    if await self.live.wait_accepted(n, 0.05):
                        return
                if await self.live.wait_accepted(n, 0.0):
                    return
                if loop.time() >= end:
                    break
                self.represses += 1
                self.hands.press(button)
            wait = 0.0
        if not await self.live.wait_accepted(n, wait):
            alerts = "; ".join(f"#{a.id} {a.kind}: {a.text}" for a in self.live.alerts) or "no alert"
            want = self.played[len(self.live.accepted)] if len(self.live.accepted) < len(self.played) else None
            raise DriverStuck(
                f"sensing did not see {want.to_dict() if want else 'the next action'} "
                f"within {self.sync_timeout:g} s ({len(self.live.accepted)} of {n} actions); "
                f"alerts: {alerts}"
            )
