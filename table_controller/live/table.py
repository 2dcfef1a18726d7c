"""The live table loop (asyncio): sensors -> sensing -> rules -> log -> views.

    log = TableRecorder.in_memory()           # or TableRecorder.resume("table7.sqlite")[0]
    live = LiveTable(log, deck, sensors=client, leds=client.set_led)
    updates = live.subscribe()                # asyncio.Queue of (seq, view model)
    task = asyncio.create_task(live.run())
    await live.submit(TableStart(("Anna", "Bo", "Cilla", "Dan")), "tl")   # manual entry
    await live.correct("the card at pad 3 is 7H", by="revisor")
    live.alerts; live.view(); live.paused; live.pause("tl"); live.resume("tl")
    await live.stop(); await task             # clean shutdown

- ``sensors``: anything with ``async events()`` yielding firmware_bridge sensor events
  (the seat controller client, the camera, or both merged); None for a table played
  by manual entry only.  ``leds``: ``async (seat, colour, blink)`` for the console.
- Every action, sensed or entered by hand, goes through ``log.apply`` (durable before it
  returns), and only then do subscribers get ``(seq, view)``: the privileged view model of
  :func:`table_controller.views.build_view` (engine state, open alerts with their
  evidence, shot clocks): pass it through ``views.for_role`` before it leaves the process.
  A pause (the TL's, the console's) is published like any change: ``paused`` is the
  clocks' own, the one place it is kept; a restart comes back paused until resumed.
- Alerts from sensing are logged ("alert" records) and listed in ``alerts``; a
  correction settles them and is logged as an "audit" record.
- Shot clocks run on the injected ``clock`` (monotonic seconds); expiry becomes a
  ``timeout`` action, a time call's end a ``time_call`` action.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from table_controller.rules.actions import Action, Timeout
from table_controller.rules.errors import IllegalAction
from table_controller.rules.events import CardPlayed, DealStarted, Event, ViolationRecorded
from table_controller.rules.judge import Verdict
from table_controller.rules.phases import Phase
from table_controller.sensor_events import ButtonPressed, SensorEvent

from ..clocks import Clock, ShotClocks, waiting_clocks
from ..deck import Deck
from ..sensing import Alert, CardAt, Correction, Dismiss, Sensing, SensingError, UidIs, parse_correction
from ..sensing.alerts import Finding
from ..store import TableRecorder
from ..views import TableView, build_view
from .facts import facts_from_engine

REJECTED_KEPT = 500  # refusals kept in memory, the latest (the log keeps them, bounded)
# "sensor" records of the live loop's own beside the bridge's events (see .replay)
SENSING_START = "sensing_start"  # a sensing machine starts: its deck, mode and options
TICK = "tick"  # time passed to ``at`` (monotonic seconds) with no event
SENSING_OPTIONS = ("linger_s", "settle_s", "unsure_s", "two_pads_s", "late_press_s", "camera_wait_s")
SENSOR_FLUSH_S = 1.0  # held observations wait at most this long for a commit
CLOCK_HOLD_S = 1.0  # a running clock's snapshot is stored this often


def console_button(name: str) -> bool:
    """Console buttons that are not about cards (pause, time, call the TL): the live
    loop handles them, sensing never sees them."""
    return name in ("pause", "tl") or name.startswith("time")


class LiveTable:
    def __init__(
        self,
        log: TableRecorder,
        deck: Deck,
        *,
        sensors: Any = None,
        leds: Callable[..., Any] | None = None,
        clock: Clock | None = None,
        clock_limits: dict[str, float] | None = None,
        rfid: bool = True,
        record_sensors: bool = True,
        tick_s: float = 0.05,
        **sensing_options: float,
    ) -> None:
        self.log = log
        self.sensors = sensors
        self.leds = leds
        self.clocks = ShotClocks(clock_limits, clock)
        self._restart_pause = False  # the clocks paused by a restart (restore), not by anyone
        self.clock = self.clocks.clock
        self.sensing = Sensing(deck, rfid=rfid, **sensing_options)
        self.record_sensors = record_sensors
        self.tick_s = tick_s
        self.accepted: list[tuple[str, Action]] = []
        self.rejected: list[tuple[str, Action, str]] = []
        self._subscribers: list[asyncio.Queue] = []
        self._changed = asyncio.Event()
        self._stopping = asyncio.Event()
        self._led_shown: dict[str, tuple[str, bool]] = {}
        self._lock = asyncio.Lock()
        self._noted_now = 0.0  # sensing's time as the sensor log last showed it
        self.last_activity = self.clock.now()  # an action, entry or correction (live.stuck)
        self.waiting: dict[str, Any] | None = None  # who a stuck table waits for (live.stuck)
        # D12: the open overtime alert of a trick-play clock run out, (alert id, player,
        # the turn it ran out in): it ends when the turn moves on (the player plays)
        self._overtime: tuple[int, str, tuple[int, int]] | None = None
        if record_sensors:  # what a replay needs to build the same sensing machine
            self._sense(
                {
                    "type": SENSING_START,
                    "rfid": rfid,
                    "deck": deck.to_dict(),
                    "options": {k: getattr(self.sensing, k) for k in SENSING_OPTIONS},
                },
                "sensing",
            )
        self._after_change()
        self._clocks_held_at = self.clock.now()
        self._restore_clocks()
        self._restore_overtime()
        self._restore_tl_call()

    # --- the public face ----------------------------------------------------------------
    @property
    def engine(self):
        return self.log.engine

    @property
    def alerts(self) -> list[Alert]:
        return self.sensing.alerts.open

    def clocks_view(self) -> dict[str, Any]:
        return self.clocks.view()

    @property
    def paused(self) -> bool:
        """Paused by the TL, the console, or a restart until resumed (the clocks keep it)."""
        return self.clocks.paused

    @property
    def paused_by_restart(self) -> bool:
        """Paused because the table started again (its clocks restored paused), not by anyone."""
        return self.clocks.paused and self._restart_pause

    def view(self) -> TableView:
        """The table now: the privileged view model (``views.for_role`` filters it)."""
        return build_view(self.engine, self.alerts, self.clocks, self.waiting)

    def subscribe(self, maxsize: int = 0) -> asyncio.Queue:
        """A queue of (seq, snapshot) after every durable change."""
        q: asyncio.Queue = asyncio.Queue(maxsize)
        self._subscribers.append(q)
        return q

    def unsubscribe(self, q: asyncio.Queue) -> None:
        with contextlib.suppress(ValueError):
            self._subscribers.remove(q)

    async def submit(
        self, action: Action, source: str = "revisor", guard: Callable[[], str | None] | None = None
    ) -> list[Event]:
        """Manual entry (Revisor, TL, dealer console): judged, stored, shown.  Raises
        ``IllegalAction`` (and changes nothing) when the rules refuse it, or when ``guard``,
        asked under the table's lock (the state it reads is the one the action meets),
        gives a reason: the dashboard's checks of who may enter what, from public facts."""
        async with self._lock:
            why = guard() if guard is not None else None
            if why:
                raise IllegalAction(why)
            # not activity until it is taken (``_after_change``): a refused entry left the
            # table as stuck as it was, and resetting the wait told blind roles that someone's
            # entry had been refused (stop 67)
            events = self._apply(self._placed(action), source)
            self._drain()
            return events

    async def correct(self, correction: Correction | str, by: str = "tl") -> Alert | None:
        """Settle an alert: "the card at pad 3 is 7H", "tag 04AB.. is QS", "dismiss 4".
        Raises ``SensingError`` for a correction that cannot be read."""
        c = parse_correction(correction) if isinstance(correction, str) else correction
        async with self._lock:
            self.note_activity()
            self._note_time()
            self.log.note("audit", {"who": by, "what": "correction", "correction": c.to_text()}, by)
            ended = None
            if isinstance(c, CardAt):
                self.sensing.correct_card_at(c.pad, c.card)
            elif isinstance(c, UidIs):
                self.sensing.correct_uid(c.uid, c.card)
            elif isinstance(c, Dismiss):
                ended = self.sensing.dismiss(c.alert)
                if ended is None:
                    raise SensingError(f"no open alert #{c.alert}")
            self._drain()
            return ended

    def note_activity(self) -> None:
        """Someone acted at the table (a correction, taken or not): the stuck table's wait
        begins again (``live.stuck``)."""
        self.last_activity = self.clock.now()

    def pause(self, by: str = "tl", reason: str = "") -> None:
        self.clocks.pause()
        self._restart_pause = False
        self.log.note("audit", {"who": by, "what": "pause", **({"reason": reason} if reason else {})}, by)
        self._record_clocks()
        self._publish()

    def resume(self, by: str = "tl", reason: str = "") -> None:
        self.clocks.resume()
        self._restart_pause = False
        self.log.note("audit", {"who": by, "what": "resume", **({"reason": reason} if reason else {})}, by)
        self._record_clocks()
        self._publish()

    def call_time(self, player: str, by: str = "console") -> None:
        if self.clocks.called(player):
            return  # called already: a second tap is no second call (nor a second record)
        self.clocks.call_time(player)
        self.log.note("audit", {"who": by, "what": "time", "player": player}, by)
        self._record_clocks()  # the call is in the log's clock record: a restart keeps it
        self._publish()  # every view shows the call's countdown at once

    async def wait_accepted(self, n: int, timeout: float) -> bool:
        """Wait until ``n`` actions have been accepted in all; False on timeout."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while len(self.accepted) < n:
            left = end - loop.time()
            if left <= 0:
                return False
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(left, 0.5)):
                    await self._changed.wait()
        return True

    async def stop(self) -> None:
        self._stopping.set()

    async def run(self) -> None:
        """Read sensors and run the clocks until :meth:`stop`; then shut down cleanly."""
        tasks = [asyncio.create_task(self._ticker(), name="live-ticker")]
        if self.sensors is not None:
            tasks.append(asyncio.create_task(self._reader(), name="live-sensors"))
        try:
            waiter = asyncio.create_task(self._stopping.wait())
            done, _ = await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                failed = t.exception() if t is not waiter else None
                if failed is not None:
                    raise failed
        finally:
            for t in tasks + [waiter]:
                t.cancel()
            await asyncio.gather(*tasks, waiter, return_exceptions=True)
            self._record_clocks()

    async def feed(self, event: SensorEvent) -> None:
        """One sensor event through sensing (the reader task calls this)."""
        async with self._lock:
            if self.record_sensors:
                from ..store.sensors import sensor_to_dict

                self._sense(sensor_to_dict(event), getattr(event, "source", "console"))
                self._noted_now = max(self._noted_now, event.at)
            # a press is no activity by itself (live.stuck): a dealer pressing next again
            # and again while nothing is sensed is a stuck table, and the TL must hear of it
            if isinstance(event, ButtonPressed) and console_button(event.button) and self._console(event.button):
                return
            self.sensing.observe(event)
            self._drain()

    async def raise_alert(self, finding: Finding, waiting: dict[str, Any] | None = None) -> Alert:
        """An alert of the loop's own (``live.stuck``) through sensing's alert path: logged,
        listed in ``alerts``, published; ``waiting``: what the views show instead of "live"."""
        async with self._lock:
            self._note_time()
            a = self.sensing.alerts.raise_event(finding, self.clock.now())
            self.sensing.new_alerts.append(a)
            self.waiting = waiting
            self._log_alerts()
            return a

    async def end_alert(self, alert_id: int) -> None:
        async with self._lock:
            a = self.sensing.alerts.dismiss(alert_id)
            self.waiting = None
            if a is not None:
                self.sensing.ended_alerts.append(a)
            self._log_alerts()
            self._publish()

    # --- inside ----------------------------------------------------------------------------
    async def _reader(self) -> None:
        async for event in self.sensors.events():
            await self.feed(event)

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            await self.tick()

    async def tick(self) -> None:
        """Time passes: sensing's timers, the shot clocks, the console LEDs."""
        async with self._lock:
            self.sensing.tick(self.clock.now())
            self._drain()
            for a in self.clocks.poll():
                self._expired(a)
            self._hold_clocks()
            self.log.flush_sensors(SENSOR_FLUSH_S)
        await self._show_leds()

    def _restore_clocks(self) -> None:
        """Restart (issue 6): the clocks as last stored, paused until the dealer resumes.
        A snapshot taken before the last stored action keeps nobody's time (the turn
        moved on), but the table still waits for the dealer."""
        stored = self.log.stored_clocks()
        if stored is None:
            if self.engine.state.deal is not None:
                # killed mid-deal before any clock was held (the first second of a turn):
                # nobody's time is known, and the table still waits for the dealer (issue 16)
                self.clocks.restore({})
                self._restart_pause = True
            return
        snap, current = stored
        kinds = snap.extra.get("kinds") if isinstance(snap.extra.get("kinds"), dict) else None
        self.clocks.restore(snap.remaining if current else {}, kinds)
        self._restart_pause = True
        self.log.note(
            "audit",
            {
                "who": "clocks",
                "what": "restored",
                "remaining": dict(snap.remaining),
                "from_record": snap.seq,
                "current": current,
            },
            "clocks",
        )

    def _hold_clocks(self) -> None:
        """While a clock runs, its snapshot goes into the log about once a second (with
        the next commit): a table killed mid-turn restarts with the time then left."""
        now = self.clock.now()
        if self.clocks.paused or not self.clocks.view()["running"] or now - self._clocks_held_at < CLOCK_HOLD_S:
            return
        self._clocks_held_at = now
        self.log.hold_clocks(self.clocks.snapshot())

    def _sense(self, data: dict, source: str) -> None:
        self.log.sense(data, source)

    def _note_time(self) -> None:
        """Before the loop writes what sensing did: the time sensing had reached, when
        ticks moved it past the last observation (a replay ticks to the same time)."""
        if self.record_sensors and self.sensing.now > self._noted_now:
            self._noted_now = self.sensing.now
            self._sense({"type": TICK, "at": self.sensing.now}, "clock")

    def _console(self, button: str) -> bool:
        """Console buttons that are not about cards; True when handled here."""
        if button == "pause":
            (self.resume if self.clocks.paused else self.pause)("console")
            self._publish()  # every view shows the clocks stopped or running again at once
            return True
        if button.startswith("time"):
            seat = button.partition(":")[2]
            f = self.sensing.facts
            player = f.player_at(seat) if seat else (f.to_act[0] if f.to_act else None)
            if player:
                with contextlib.suppress(ValueError):
                    self.call_time(player)  # published at once (stop 67's review)
            return True
        if button == "tl":
            self._raise_tl_call()
            self._log_alerts()
            return True
        return False

    def _raise_tl_call(self) -> None:
        """The dealer's call for the TL, through sensing's alert path as an overtime: logged,
        on the TL's screen at once (it went only to the log, and the TL saw it after a
        restart), card-free, holding nothing, open until the TL dismisses it (the step
        moving on does not close it: ``alerts.LASTING``).  One call at a time: pressed
        again while one is open, it is that one."""
        if any(a.kind == "tl_called" for a in self.sensing.alerts.open):
            return
        text = "Givaren kallar på TL till bordet / The dealer calls the TL to the table"
        finding = Finding(("tl_called",), "tl_called", text, holds=False)
        self.sensing.new_alerts.append(self.sensing.alerts.raise_event(finding, self.clock.now()))

    def _restore_tl_call(self) -> None:
        """After a restart: a call for the TL that the TL had not closed is open again
        (sensing's alerts are found again from the pads, and a call is no condition of them;
        its last record says whether it was open)."""
        last = None
        for r in self.log.records("alert"):
            if r.source == "sensing" and r.data.get("kind") == "tl_called":
                last = r.data.get("state")
        if last == "raised":
            self._raise_tl_call()
            self._log_alerts()

    def _placed(self, action: Action) -> Action:
        """D12: an exchange clock that runs out is a violation, and the player exchanges
        what lies placed on their pad: the timeout carries those cards (it was a discard
        alone until stop 74, and the violation went unrecorded)."""
        if isinstance(action, Timeout) and action.clock == "exchange" and action.cards is None:
            cards = self.sensing.own_cards(action.player)
            if cards:
                return Timeout(action.player, action.clock, tuple(sorted(cards)))
        return action

    def _expired(self, action: Action) -> None:
        action = self._placed(action)
        if not self._judge(action, "clock").accepted:
            return
        if isinstance(action, Timeout) and action.clock == "play":
            self._raise_overtime(action.player)
        self._drain()

    def _turn(self) -> tuple[int, int]:
        d = self.engine.state.deal
        return (d.trick_number, len(d.trick)) if d is not None else (0, 0)

    def _raise_overtime(self, player: str) -> None:
        """D12: the TL is alerted when a trick-play clock runs out (a card cannot be played
        for the player), through sensing's alert path like the stuck-table alert: logged,
        in every view's alerts, card-free (the text names the player and the rule)."""
        p = player
        text = (
            f"{p}s speltid har gått ut (D12): övertid, TL avgör / "
            f"{p}'s shot clock ran out in trick play (D12): overtime, the TL decides"
        )
        # it holds nothing: the player's own card, played late, is taken and ends it (a held
        # player's card lay on the pad untaken until the TL closed the alert, stop 68)
        finding = Finding(
            ("overtime", p), "overtime", text, p, self.sensing.facts.pad_of(p), {"clock": "play"}, holds=False
        )
        self._end_overtime()  # one at a time: a new expiry replaces an older one
        a = self.sensing.alerts.raise_event(finding, self.clock.now())
        self.sensing.new_alerts.append(a)
        self._overtime = (a.id, p, self._turn())

    def _restore_overtime(self) -> None:
        """D12 after a restart: the overtime alert lived in the loop's memory, so a
        trick-play clock that ran out for the player still to play (no card played since
        its violation) alerts the TL again, until the player plays."""
        to_act = self.sensing.facts.to_act
        if self.engine.phase is not Phase.TRICKS or not to_act:
            return
        for e in reversed(self.engine.events):
            if isinstance(e, (CardPlayed, DealStarted)):
                return
            if isinstance(e, ViolationRecorded) and e.clock == "play":
                if e.player == to_act[0]:
                    self._raise_overtime(e.player)
                    self._log_alerts()
                return

    def _end_overtime(self, turn: tuple[int, int] | None = None) -> None:
        """The overtime alert ends once the turn it ran out in has moved on (``turn``: now;
        None: whatever the turn); the TL may also dismiss it."""
        if self._overtime is None or (turn is not None and turn == self._overtime[2]):
            return
        a = self.sensing.alerts.dismiss(self._overtime[0])
        self._overtime = None
        if a is not None:
            self.sensing.ended_alerts.append(a)

    def _apply(self, action: Action, source: str) -> list[Event]:
        """Judged and stored; ``IllegalAction`` (stored as rejected) when the rules refuse it."""
        verdict = self._judge(action, source)
        if verdict.error is not None:
            raise verdict.error
        return verdict.events

    def _judge(self, action: Action, source: str) -> Verdict:
        self._note_time()
        verdict = self.log.submit(action, source)  # the single writer: judged, then stored
        if verdict.reason is not None:
            self.rejected.append((source, action, verdict.reason))
            if len(self.rejected) > REJECTED_KEPT:  # a table refusing junk for hours stays small
                del self.rejected[: len(self.rejected) - REJECTED_KEPT]
            return verdict
        self.accepted.append((source, action))
        self._after_change()
        return verdict

    def _drain(self, limit: int = 64) -> None:
        for _ in range(limit):
            a = self.sensing.propose()
            if a is None:
                break
            verdict = self._judge(a, "sensing")
            if verdict.reason is not None:
                self.sensing.refused(a, verdict.reason)
        self._log_alerts()

    def _after_change(self) -> None:
        self.last_activity = self.clock.now()  # an accepted action, sensed or entered (live.stuck)
        e = self.engine
        facts = facts_from_engine(e)
        self.sensing.sync(facts)
        d = e.state.deal
        token = (facts.step, d.trick_number, len(d.trick), tuple(d.asking)) if d else facts.step
        self.clocks.sync(waiting_clocks(facts.phase, facts.to_act, facts.placed, token))
        self._end_overtime(self._turn())  # D12: the player has played (or the deal moved on)
        self._log_alerts()
        self._publish()
        self._changed.set()

    def _log_alerts(self) -> None:
        new, ended = self.sensing.take_alert_changes()
        if new or ended:
            self._note_time()
        for a in new:
            self.log.note("alert", {**a.to_dict(), "state": "raised"}, "sensing")
        for a in ended:
            self.log.note("alert", {"id": a.id, "kind": a.kind, "state": "ended"}, "sensing")
        if new or ended:
            self._publish()

    def _publish(self) -> None:
        if not self._subscribers:
            return
        item = (self.log.seq, self.view())
        for q in list(self._subscribers):
            if q.maxsize and q.full():  # a slow reader skips to the latest state
                with contextlib.suppress(asyncio.QueueEmpty):
                    q.get_nowait()
            q.put_nowait(item)

    def _record_clocks(self) -> None:
        self.log.note("clock", self.clocks.snapshot(), "clocks")

    async def _show_leds(self) -> None:
        if self.leds is None:
            return
        facts = self.sensing.facts
        for player, pad in facts.pads.items():
            want = self.clocks.led(player)
            if self._led_shown.get(pad) != want:
                self._led_shown[pad] = want
                try:
                    await self.leds(pad, *want)
                except Exception:
                    self._led_shown.pop(pad, None)
