"""One table's live state and its audiences: post actions, fan out filtered views.

    >>> hub = TableHub(live, BroadcastDelay(...))                           # doctest: +SKIP
    >>> await hub.post({"do": "discard", "player": "Bo", "cards": []}, by="revisor")  # doctest: +SKIP

No game logic lives here: actions go to the live table loop (issue 5: sensing, rules,
shot clocks, the durable log), which hands back a view model (``table_controller.views``);
what a role sees is ``views.for_role`` of it, serialised as it is: the hub filters and
masks nothing itself.  Every client has its own bounded queue; a client that falls behind
skips to the latest state and never stalls the rest.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import orjson

from table_controller.analysis import process as analysis_process
from table_controller.analysis.overlay import analysable, analyse_state, broadcast_analysis
from table_controller.live import LiveTable
from table_controller.rules.actions import parse_action
from table_controller.rules.cards import Card
from table_controller.rules.engine import Engine, IllegalAction
from table_controller.rules.errors import ActionError, CardError
from table_controller.rules.queries import step7_open
from table_controller.sensing.alerts import Alert
from table_controller.store import StoreError, TableRecorder, refusals
from table_controller.views import (
    ClocksView,
    Refusal,
    RoleView,
    TableView,
    alert_shown,
    blind_alert_id,
    build_view,
    deal_history,
    for_role,
    seat_number,
    sight,
    table_alert,
    tl_only,
)

from . import entry, seat_exchange
from .delay import BroadcastDelay
from .errors import DashboardError, EntryRejected, NotFound, NotJudged, Refused, Unavailable
from .i18n import N_, action_words, source_words, tr, tr_reason
from .scoresheet.notes import Signatures
from .scoresheet.words import VOID_REASON

QUEUE_SIZE = 4
ALERTS_KEPT = 200  # the table's alerts kept, of each sight (``_add``)
ANALYSIS_SAMPLES = 2000  # odds samples for the broadcast's analysis (to the next scoring moment)
# A table faster than its analysis (a fast demo, bots, a replay): the worker thread holds the
# interpreter at most this share of the time, so the live loop keeps the rest.  At a human
# pace (a state lasts seconds, an analysis some milliseconds) it never waits.
ANALYSIS_SHARE = 0.25
NOT_JUDGED = N_(
    "The table could not judge this action; nothing was changed. The TL has been alerted."
)  # one text for every action: an engine failure's message may name a hidden card
LOG_FAILED = N_(
    "The table's log cannot be written (a full disk or a missing file?); nothing was changed. "
    "Tell the TL; try again once the log can be written."
)
# time_call: a hand dead by "time" is the clocks' entry when a call's countdown reaches zero
# (``call_time``), or the TL's; the Revisor, a player, killed a hand with one tap (stop 71)
TL_ONLY = {"penalty", "adjust", "time_call"}
WRITERS = {"tl", "revisor"}


class Client:
    """One connected WebSocket: its role and its own bounded queue of JSON texts."""

    __slots__ = ("last", "queue", "role")

    def __init__(self, role: str):
        self.role = role
        self.queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_SIZE)
        self.last: str | None = None  # what the text offered last told

    def offer(self, text: str, news: str | None = None) -> None:
        """Queue ``text`` unless it tells nothing new (``news``: what it tells, ``news_of``;
        by default the text itself)."""
        # The same news again is not sent, and sending it would be news: the table publishes
        # to every role whenever anything changes, the TL's alerts and sensing's too, so a
        # blind role's extra message, the same but for when it was made, told it that
        # something it may not see had happened, and when (a revoke alert, a refused entry
        # counted again: stop 63's second audit; an alert raised and ended: stop 67's).
        told = text if news is None else news
        if told == self.last:
            return
        self.last = told
        if self.queue.full():
            try:  # behind: drop the oldest; every message is a whole state
                self.queue.get_nowait()
            except asyncio.QueueEmpty:  # pragma: no cover
                pass
        self.queue.put_nowait(text)


def _kept(alerts: list[Alert]) -> list[Alert]:
    """The newest ``ALERTS_KEPT`` alerts of each sight (``views.tl_only``), in their order:
    the TL's own never push one a blind role is shown off its list (stop 73's audit: each
    refused TL entry took one off the Revisor's full list, so it learnt the entry was
    refused), live and after a restart alike."""
    left = {True: ALERTS_KEPT, False: ALERTS_KEPT}
    kept = []
    for a in reversed(alerts):
        if left[tl_only(a)] > 0:
            left[tl_only(a)] -= 1
            kept.append(a)
    return kept[::-1]


def rejected_alert(
    alert_id: int, seq: int, source: str, do: Any, reason: str, blind: bool, resolved: bool = False
) -> Alert:
    """The alert of a rejected entry, in English and Swedish; ``blind``: the Revisor sees
    only that it was rejected (``dashboard.entry``)."""
    what = do if isinstance(do, str) else "?"
    text, sv = (
        tr(
            N_("{source}: {what} rejected: {reason}"),
            lang,
            source=source_words(source, lang),
            what=action_words(what, lang),
            reason=tr_reason(reason, lang),
        )
        for lang in ("en", "sv")
    )
    text, sv = text[:1].upper() + text[1:], sv[:1].upper() + sv[1:]  # "Klockan: ...", not "klockan"
    return table_alert(
        alert_id,
        "rejected",
        text,
        seq,
        resolved=resolved,
        text_sv=sv,
        blind_text=entry.blind_alert_text(source, do) if blind else None,
        blind_sv=entry.blind_alert_text(source, do, "sv") if blind else None,
        source=source,
    )


class TableHub:
    def __init__(
        self,
        live: LiveTable,
        delay: BroadcastDelay,
        name: str = "Bord 1",
        clock: Callable[[], float] = time.time,
        camera: Any = None,
    ):
        self.name = name
        # the table camera's worker (vision.worker.CameraWorker) or None: the TL's pictures of a pad
        self.camera = camera
        self.live = live
        self.log: TableRecorder = live.log  # the live table's single writer: one writer, one file
        self.delay = delay
        self.clock = clock
        self.clients: set[Client] = set()
        self.revealed: set[str] = set()
        self._revealed_deal: tuple[int, int] | None = None
        self.alerts: list[Alert] = self._stored_alerts()  # the table's own (sensing's are in the view)
        self._unlogged = itertools.count(-1, -1)  # ids of alerts the log could not take (no seq)
        self._signed: Signatures | None = None  # the sign-offs as the log has them (signatures())
        self._signed_events = 0  # the engine's events read into it
        self._confirmed: dict[str, int] | None = None
        self.view: TableView = live.view()  # the live table's newest view model (privileged)
        self._updates = live.subscribe(maxsize=1)  # only the newest state matters
        self._texts: dict[str, str] = {}
        self._news: dict[str, str] = {}  # what each of _texts tells (news_of); cleared with it
        self._pushed: tuple[str, str] | None = None  # the news of the last broadcast frame pushed
        self._combined: TableView | None = None
        self._at: float | None = None
        self._broadcast_shown = (0, False)  # (frame id, masked) on show; (0, False): the start position
        self._masked_of: tuple[int, str, str] = (-1, "", "")  # (seq, masked text, its news) last pushed
        self._wake = asyncio.Event()
        # The broadcast's analysis (issue 21): of the state ``seq`` it names, worked out in a
        # worker thread on a copy of the state; only the newest pending state is analysed.
        self.analysis: dict[str, Any] | None = None
        self._analysis_wanted = False  # a newer state than the last analysed one exists
        self._analyser: asyncio.Task[None] | None = None
        # Nobody sees the analysis but the overlay: it is worked out only while one is
        # connected, and for the delay after the last one left (an overlay reloaded in OBS
        # finds the frames it missed complete).  On the held clock (self.delay.now()).
        self._watched_until = -math.inf
        # hands declared on a camera-only table, held until every hand of the deal is in
        self._declared: dict[str, tuple[str, ...]] = {}
        self._declared_deal: tuple[int, int] | None = None
        # cards received in an exchange, entered by each player, held until all are in
        self._received: dict[str, tuple[str, ...]] = {}
        self._received_step: tuple[int, int, int] | None = None
        if self.engine.events and (self.delay.newest_seq() or -1) < self.engine.state.seq:
            # A table the broadcast has not seen yet: it shows it after the delay from now.
            self._push_frame()

    @property
    def engine(self) -> Engine:
        return self.live.engine

    @property
    def paused(self) -> bool:
        """The live table's pause (its clocks keep it): the TL's, the console's, a restart's."""
        return self.live.paused

    def _stored_alerts(self) -> list[Alert]:
        """Open alerts survive a restart: they are records of the table's log."""
        resolved = {r.data.get("alert") for r in self.log.records("audit") if r.data.get("what") == "resolve_alert"}
        out = []
        for r in self.log.records("alert", "rejected"):
            if r.source == "sensing":
                # sensing's conditions, and the rules' refusals of what the pads showed, are
                # found again from the pads, not restored (live.stuck's too): a restored
                # refusal was an alert that nothing ended (stop 68's audit)
                continue
            if r.kind == "alert":
                out.append(
                    table_alert(r.seq, r.kind, str(r.data.get("text", "")), self.seq, resolved=r.seq in resolved)
                )
            elif not refusals.is_summary(r.data):  # a summary counts refusals already shown
                a = r.data.get("action")
                do = a.get("do", "?") if isinstance(a, dict) else r.data.get("do", "?")
                if seat_number(r.source) is not None and do in entry.OWN_ENTRIES:
                    continue  # a seat's own entry raised no alert live: its refusal is its player's own
                out.append(
                    rejected_alert(
                        r.seq,
                        self.seq,
                        r.source,
                        do,
                        str(r.data.get("reason", "")),
                        entry.reason_hidden(do),
                        r.seq in resolved,
                    )
                )
        return _kept(out)

    def audit_entries(self) -> list[dict[str, Any]]:
        """The audit trail; each entry with its record's ``seq`` (a ruling is voided by it)
        and, for a voided ruling, ``voided``."""
        records = self.log.records("audit")
        voided = {r.data.get("ruling") for r in records if r.data.get("what") == "void"}
        return [
            {
                "at": r.time,
                "seq": r.seq,
                "by": r.data.get("who"),
                **{k: v for k, v in r.data.items() if k != "who"},
                **({"voided": True} if r.seq in voided else {}),
            }
            for r in records
        ]

    # --- what each role receives --------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.engine.state.seq

    def _model(self) -> TableView:
        """The live table's view with the table's own open alerts and the signatures (made
        once per change: ``_texts`` and this are cleared together)."""
        if self._combined is None:
            mine = tuple(a for a in self.alerts if not a.resolved)
            self._combined = replace(
                self.view,
                alerts=self.view.alerts + mine,
                signed={g: tuple(who) for g, who in self.signatures().items()},
                confirmed=self.confirmed(),
            )
        return self._combined

    def role_view(self, role: str, masked: bool = False) -> RoleView:
        """What ``role`` may see now (``views.for_role``); ``masked``: the broadcast frame
        without the deal's hidden cards, shown until the deal ends live."""
        # sight: the TL's alone; a seat's link, its player's hand wherever they sit now
        return for_role(self._model(), role, self.revealed, masked=masked, holder=self.holder(role))

    def holder(self, role: str) -> str | None:
        """The player a seat's link belongs to: the one at that seat in the table's first game
        (its first seat draw, when the links are handed out).  The link follows that player
        to the seat each later game's draw gives them (r7): it never shows, nor declares, the
        hand of whoever sits at its seat after them.  None: not a seat's link, or no game yet,
        or nobody sat there."""
        n = seat_number(role)
        games = self.engine.state.games
        if n is None or not games or n > len(games[0].seats):
            return None
        return games[0].seats[n - 1]

    def seat_now(self, role: str) -> int | None:
        """Where the player of a seat's link sits in the game now (``holder``); before the
        first game, the link's own seat; None: not seated in this game, or not a seat's link."""
        who = self.holder(role)
        if who is None:
            return seat_number(role) if not self.engine.state.games else None
        seats = self.engine.state.games[-1].seats  # the game now (or the last one, until the next draw)
        return seats.index(who) + 1 if who in seats else None

    def _text(self, role: str) -> str:
        """``role``'s message of the current state ("broadcast:masked": see ``role_view``)."""
        text = self._texts.get(role)
        if text is None:
            view = self.role_view(role.split(":")[0], masked=role == "broadcast:masked")
            msg = view.message(self.name, self._at)  # _at: when this message is made (_publish)
            n, me = None, None
            if seat_number(role) is not None:  # a seat's own phone: its seat and its player, at any table
                n = self.seat_now(role)
                me = next((p.name for p in view.state.players if n is not None and p.seat == n), None)
                msg["seat"], msg["player"] = n, me
            if self.hands_by_hand and not role.startswith("broadcast"):  # the overlay shows no names list
                # who has declared a hand for the deal being dealt: names, never a card
                declared = self.declared()
                msg["declared"] = sorted(declared)
                if seat_number(role) is not None:  # its own declared hand
                    msg["mine"] = list(declared.get(me or "", ()))
                    msg["mine_received"] = list(self.received().get(me or "", ()))
                step = seat_exchange.step_of(self.engine)
                if step is not None:  # the exchange: who is owed cards, who has entered theirs
                    msg["placing"], msg["owed"] = list(step.placing), step.owed
                    msg["open_pending"] = list(step.open_pending)  # an open card still to be shown
                    msg["received"] = sorted(self.received())
                    if n is not None and me in step.placing:
                        msg["my_step"] = {"step": "place", "max": self.engine.rules.max_exchange_cards}
                    elif n is not None and me in step.owed:
                        msg["my_step"] = {"step": "receive", "n": step.owed[me]}
            text = message_text(msg)
            self._texts[role] = text
            self._news[role] = news_of(msg)
        return text

    def _offer(self, c: Client) -> None:
        """Offer ``c`` its role's message of the current state, sent if it is news."""
        text = self._text(c.role)
        c.offer(text, self._news[c.role])

    def current_text(self, role: str) -> str:
        """What a client of ``role`` is shown on connecting (broadcast: the delayed frame):
        made now, with the clocks as they stand (``_publish``: not the moment of the last
        change, which may be one the role may not see)."""
        if role == "broadcast":
            return self.delay.due(self.live_deal()).text
        self._fresh()
        return self._text(role)

    def _fresh(self) -> None:
        """The messages made from now on say this moment and the clocks as they stand, whatever
        was published last: a message made after a change a role may not see (the TL
        dismissing a TL-only revoke alert, stop 73's twin-table audit) carried that change's
        moment and clocks to the role's next message (its own refused entry), or to a page
        connecting, which told it that the hidden thing had happened, and when."""
        # the clocks of the state on show: a change still queued for the pump is the next
        # publish's (its clocks would be another state's)
        if self.view.clocks is not None and self.view.seq == self.engine.state.seq:
            self.view = dataclasses.replace(self.view, clocks=ClocksView.of(self.live.clocks))
        self._at = self.clock()
        self._texts.clear()
        self._news.clear()
        self._combined = None

    def live_deal(self) -> str | None:
        """The deal in progress at the live table, whose hidden cards the broadcast holds back."""
        return self.view.hidden_deal()

    def _push_frame(self) -> None:
        full = self._text("broadcast")
        masked = self._text("broadcast:masked")
        told = (self._news["broadcast"], self._news["broadcast:masked"])
        deal = self.view.hidden_deal()
        a = self.analysis
        if a is not None and a["seq"] == self.view.seq:
            # The analysis shows what the hidden cards make: it goes in the whole frame only,
            # held with the deal it analyses (never in the masked twin).
            msg = orjson.loads(full)
            msg["analysis"] = broadcast_analysis(a)
            full = message_text(msg)
            told = (news_of(msg), told[1])
            deal = deal or f"{a['game']}.{a['deal']}"
            # Its masked twin is the state's own masked frame again, which the broadcast is
            # not sent twice (Client.offer): whether an analysis came, and when, depends on
            # the hidden cards (none while a revoke is pending; the solver's time), so while
            # the deal is live it must change nothing the broadcast gets (stop 63's audit).
            # Only while that frame is the same news: a pause, a time call or a stuck
            # table's notice since (the same seq) goes in the masked frame as it would
            # without an analysis; kept out, it reached the overlay only while a revoke
            # was pending (stop 73's second audit).
            if self._masked_of[0] == self.seq and self._masked_of[2] == told[1]:
                masked = self._masked_of[1]
        # A frame that is the same news as the last (``news_of``: the same but for when it was
        # made) is not pushed: one at each of the TL's or sensing's alerts told the overlay,
        # after the delay, that one had come, and when (stop 67's camera and sensing audit).
        # Nor is its masked text the masked twin of a later analysis frame.
        if told == self._pushed:
            return
        self._pushed = told
        self._masked_of = (self.seq, masked, told[1])
        self.delay.push(self.seq, full, masked, deal)

    def _want_analysis(self) -> None:
        """Analyse the live table's current moment for the broadcast, off the event loop
        (odds take some milliseconds); the result is pushed as a frame of the same state,
        through the delay like every hidden card, if the table is still there.  Whether there is
        anything to analyse is read from the view model; the state is copied for the worker
        (``Engine.snapshot``) only when the worker takes it: a table faster than its analysis
        copies only the states that are analysed."""
        if not self.watched():
            return
        self._analysis_wanted = True
        if self._analyser is None or self._analyser.done():
            try:
                self._analyser = asyncio.get_running_loop().create_task(self._analyse_pending())
            except RuntimeError:  # no event loop (a synchronous caller): no analysis
                self._analysis_wanted = False

    async def analysis_idle(self) -> None:
        """Wait until the analysis of the newest analysable state is done (tests, shutdown)."""
        while self._analyser is not None and not self._analyser.done():
            await asyncio.shield(self._analyser)

    async def _analyse_pending(self) -> None:
        while self._analysis_wanted:
            self._analysis_wanted = False
            if not analysable(self.view):  # the typed view model says whether there is anything to say
                continue
            snap = self.engine.snapshot()  # the worker's own copy (the rules' public query)
            if snap.seq != self.view.seq:
                continue  # the table has moved on: its newer view asks again (_publish)
            started = time.perf_counter()  # a share of the processor, not a time of the game
            try:
                # in a process of its own: its time depends on the hidden hands, and a thread
                # of this process would share its turns with every role's answers
                result = await analysis_process.run(
                    analyse_state, snap, random.Random(snap.seq), ANALYSIS_SAMPLES, "next"
                )
            except Exception:  # an analysis never stops the table or its broadcast: logged
                logging.getLogger(__name__).exception("the broadcast analysis of state %s failed", snap.seq)
                result = None
            if result is not None and snap.seq == self.seq == self.view.seq:
                self.analysis = result
                self._push_frame()
                self._wake.set()
            if self._analysis_wanted:  # the table moved on meanwhile: rest first
                await asyncio.sleep((time.perf_counter() - started) * (1 / ANALYSIS_SHARE - 1))

    def start_frame(self) -> str:
        return start_frame(self.name)

    def _pump_now(self) -> bool:
        """Take the live table's newest view, if there is one, and show it."""
        item = None
        while not self._updates.empty():
            item = self._updates.get_nowait()
        if item is None:
            return False
        self._publish(new_state=True, view=item[1])
        return True

    async def pump(self) -> None:
        """Everything the live table does (sensed actions, clocks, alerts) reaches the views."""
        while True:
            item = await self._updates.get()
            self._updates.put_nowait(item)
            self._pump_now()
            await self._enter_held_when_due()  # an open card the camera read may be the last

    def _publish(self, new_state: bool, view: TableView | None = None) -> None:
        if new_state:
            self.view = view if view is not None else self.live.view()
            deal = (self.view.game, self.view.deal)
            if deal != self._revealed_deal:  # a reveal is for one deal's dispute
                self.revealed.clear()
                self._revealed_deal = deal
        self._fresh()
        for c in list(self.clients):
            if c.role != "broadcast":
                self._offer(c)
        if new_state:
            self._push_frame()
            self._want_analysis()
            self._wake.set()  # a new frame to time, or the deal on show may just have ended

    # --- doing things -------------------------------------------------------------------

    @property
    def hands_by_hand(self) -> bool:
        """A camera-only table: hidden cards are entered by hand, each player's own from
        their phone (``dashboard.entry``)."""
        return not getattr(self.live.sensing, "rfid", True)

    async def post(self, obj: Any, by: str) -> dict[str, Any]:
        """Apply a REPLAY.md action posted by ``by``; the answer carries no card, and a
        rejected card entry from anyone but the TL gets one answer whatever the cards
        are (``dashboard.entry``)."""
        if by not in WRITERS:
            raise Refused(N_("the {role} role may not enter actions"), role=by)
        do = obj.get("do") if isinstance(obj, dict) else None
        if do in TL_ONLY and by != "tl":
            raise Refused(N_("'{do}' is a TL decision (RULES.md §11)"), do=do)
        if self.paused and by != "tl":
            raise self._paused_refusal()
        if by != "tl" and entry.names_cards(do):
            # decided before any card is read: the same record and answer for every card
            rec = self.log.reject(obj, entry.REFUSED_REASON, by)
            self._add(rejected_alert(rec.seq, self.seq, by, do, entry.REFUSED_REASON, True))
            raise EntryRejected(entry.refusal_of(do, self.hands_by_hand))
        if why := self._entry_guard(obj, by):  # asked again under the table's lock (submit)
            raise Refused(why)
        try:
            action = parse_action(obj)
        except ActionError as exc:
            rec = self.log.reject(obj, str(exc), by)
            self._add(rejected_alert(rec.seq, self.seq, by, do or "?", str(exc), entry.reason_hidden(do)))
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        if do == "open" and self.received():
            await self._received_before_open(action)
        events_before = len(self.engine.events)
        try:
            # durable before anyone is shown it; _entry_guard asked again under the lock
            await self.live.submit(action, by, guard=lambda: self._entry_guard(obj, by))
        except IllegalAction as exc:
            last = self.log.last_records[-1].seq if self.log.last_records else 0
            self._add(rejected_alert(last, self.seq, by, do, exc.reason, entry.reason_hidden(do)))
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        except StoreError as exc:  # the recorder put the engine back: the table never runs ahead of its log
            self._add(
                table_alert(
                    next(self._unlogged), "log_failed", tr(LOG_FAILED, "en"), self.seq, text_sv=tr(LOG_FAILED, "sv")
                )
            )
            raise Unavailable(LOG_FAILED) from exc
        except Exception as exc:
            if len(self.engine.events) != events_before:
                raise  # judged and stored; what failed came after (the app answers a plain 500)
            self._engine_failed(obj, by, exc)
            raise NotJudged(NOT_JUDGED) from None
        if do == "open":
            await self._enter_held_when_due()  # the last open card: the cards held go in
        answer: dict[str, Any] = {"ok": True, "seq": self.seq}
        if do in TL_ONLY:
            answer.update(self._audit_decision(obj, by, self.engine.events[events_before:]))
        self._settle_typos(by)
        self._pump_now()
        return answer

    # --- hands declared by the players (a camera-only table: dashboard.entry) --------------

    def _dealing(self) -> tuple[tuple[int, int], dict[str, str]] | None:
        """At the deal of a camera-only table: (game, deal) and player -> seat role of the
        players dealt to (public: the seat draw); else None."""
        from table_controller.live.facts import facts_from_engine
        from table_controller.rules.phases import Phase

        if not self.hands_by_hand:
            return None
        facts = facts_from_engine(self.engine)
        if facts.phase is not Phase.DEAL or not facts.dealt_to:
            return None
        return (facts.step[0], facts.step[1]), {p: facts.pads[p] for p in facts.dealt_to}

    def declared(self) -> dict[str, tuple[str, ...]]:
        """The hands declared for the deal now being dealt (none once it is entered)."""
        dealing = self._dealing()
        if dealing is None or dealing[0] != self._declared_deal:
            return {}
        return self._declared

    async def declare(self, cards: list[str], by: str, seat: int | None = None) -> dict[str, Any]:
        """A player's own five cards (``by``: a seat's role; the TL for ``seat``).  Held until
        every player dealt to has declared, then entered as the deal (by "players").  The
        answer is the same for every well-formed hand: whether the hands agree is not the
        sender's to learn; a deal refused goes to the TL and every hand is declared again."""
        if by != "tl" and seat_number(by) is None:
            raise Refused(N_("the {role} role may not declare a hand"), role=by)
        seat = self._entry_seat(by, seat)
        dealing = self._dealing()
        if dealing is None:
            raise EntryRejected(entry.NOT_DEALING)  # public: the phase and the table's kind
        deal, seats = dealing
        player = next((p for p, s in seats.items() if s == f"seat{seat}"), None)
        if player is None:
            raise DashboardError(N_("nobody is dealt a hand at seat {seat}"), seat=seat)
        try:
            hand = tuple(c.code for c in sorted({Card.parse(c) for c in cards}))
        except CardError as exc:
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        if len(hand) != 5:
            raise DashboardError(N_("a hand is five different cards"))
        if self._declared_deal != deal:
            self._declared, self._declared_deal = {}, deal
        self._declared[player] = hand
        if set(self._declared) >= set(seats):
            hands = {p: list(self._declared[p]) for p in seats}
            self._declared = {}  # entered or refused: either way, declared again if needed
            await self._enter_declared_deal(hands, by)
        self._publish(new_state=False)
        return {"ok": True, "text": tr(entry.DECLARED, "en"), "text_sv": tr(entry.DECLARED, "sv")}

    async def _enter_declared_deal(self, hands: dict[str, list[str]], by: str) -> None:
        obj = {"do": "deal", "hands": hands}
        try:
            await self.live.submit(parse_action(obj), "players")
        except IllegalAction as exc:
            # the hands do not agree (a typo, or a player naming a card another holds): the
            # TL sees why; the Revisor and the players only that the deal was refused
            last = self.log.last_records[-1].seq if self.log.last_records else 0
            self._add(rejected_alert(last, self.seq, "players", "deal", exc.reason, True))
            return
        except StoreError:
            self._add(
                table_alert(
                    next(self._unlogged), "log_failed", tr(LOG_FAILED, "en"), self.seq, text_sv=tr(LOG_FAILED, "sv")
                )
            )
            raise Unavailable(LOG_FAILED) from None
        self._pump_now()

    # --- a player's own exchange (a camera-only table: dashboard.seat_exchange) ------------

    def received(self) -> dict[str, tuple[str, ...]]:
        """The received cards entered for the exchange now on and not yet entered."""
        step = seat_exchange.step_of(self.engine) if self.hands_by_hand else None
        if step is None or step.key != self._received_step:
            return {}
        return self._received

    def _entry_seat(self, by: str, seat: int | None) -> int:
        """The seat a player's own entry is for (a seat's link or the TL, checked before):
        where the link's player sits now (``seat_now``, never the link's number: seats are
        drawn again every game), or the seat the TL names; refused for another seat, and
        while the TL has paused the table (the TL's own entry goes on)."""
        own = self.seat_now(by) if by != "tl" else None  # a seat's link: where its player sits now
        if by != "tl" and own is None:
            raise DashboardError(N_("nobody is dealt a hand at seat {seat}"), seat=seat_number(by))
        if own is not None and seat not in (None, own):
            raise Refused(entry.OWN_SEAT)
        seat = own or seat
        if seat is None:
            raise DashboardError(N_("say whose hand: the seat (1-4)"))
        if self.paused and by != "tl":
            raise self._paused_refusal()
        return seat

    def _seat_player(self, by: str, seat: int | None) -> str:
        """Whose cards: a seat's own player (the TL says which seat); public facts only."""
        if by != "tl" and seat_number(by) is None:
            raise Refused(N_("the {role} role may not enter a player's exchange"), role=by)
        seat = self._entry_seat(by, seat)
        from table_controller.live.facts import pads_of

        g = self.engine.state.games[-1] if self.engine.state.games else None
        player = next((p for p, s in pads_of(g.seats).items() if s == f"seat{seat}"), None) if g else None
        if player is None:
            raise DashboardError(N_("nobody is dealt a hand at seat {seat}"), seat=seat)
        return player

    def _step7_open(self) -> bool:
        """Step 7's moment (r28), read from the engine as it is now (public)."""
        d = self.engine.state.deal
        return d is not None and step7_open(self.engine.state, d)

    def _entry_guard(self, obj: dict[str, Any], by: str) -> str | None:
        """Who may enter what, from public facts (stop 64's audits), the same answer whoever
        is named: asked by ``post`` first, then again at the moment the action meets the
        table (``LiveTable.submit``'s guard), so that sensing moving the table between the
        two opens no oracle.

        - Step 7 (r28): whether the named player holds a four of a kind that zeroes is
          hidden, so a zero is the owner's own phone's or the TL's.
        - Whether a card may be taken back is whether it was a revoke, a fact of the
          player's hand: the player takes it back on their own phone, or the TL enters it."""
        if by == "tl":
            return None
        do = obj.get("do")
        if do == "retract":
            return entry.RETRACT_BY_OWNER
        if do == "quads" and obj.get("choice") == "zero" and self._step7_open():
            return entry.QUADS_BY_OWNER
        return None

    async def retract_own(self, by: str) -> dict[str, Any]:
        """A player takes back the card they just played (a revoke put right before the next
        card, r26), on their own phone: whether it was a revoke is their own hand's fact."""
        player = self._own_player(by, N_("the {role} role may not take back a card"))
        return await self._own_entry({"do": "retract", "player": player}, by)

    async def play_own(self, card: str, by: str) -> dict[str, Any]:
        """A card the player plays from their own hand, on their phone (a camera-only table:
        the camera missed it).  Judged against the player's own hand and the public turn
        alone, so a refusal is theirs to know; the Revisor enters no card (``entry``)."""
        player = self._own_player(by, N_("the {role} role may not play a card"))
        if not self.hands_by_hand:
            raise Refused(entry.NOT_CAMERA_ONLY)
        return await self._own_entry({"do": "play", "player": player, "card": card}, by)

    def _own_player(self, by: str, refusal: str) -> str:
        """The player a seat's own entry is about (where its link's player sits now);
        ``refusal`` (with ``{role}``) for any other role, and none while the TL has paused
        the table."""
        if seat_number(by) is None:
            raise Refused(refusal, role=by)
        if self.paused:
            raise self._paused_refusal()
        return self._seat_player(by, None)

    async def _own_entry(self, obj: dict[str, Any], by: str) -> dict[str, Any]:
        """A seat's entry about its own player's hand: a refusal is theirs to know."""
        try:
            await self.live.submit(parse_action(obj), by)
        except IllegalAction as exc:
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        except StoreError:
            self._log_failed()
        self._pump_now()
        return {"ok": True}

    async def announce_quads(self, by: str) -> dict[str, Any]:
        """A player's own four of a kind that zeroes, announced on their phone at the check
        before the Chicago question (step 7, r28): nobody is asked there, and the Revisor may
        not enter it for them (whether it holds is hidden).  A refusal is about the
        player's own hand."""
        player = self._own_player(by, N_("the {role} role may not announce a four of a kind"))
        if not self._step7_open():
            raise DashboardError(
                N_(
                    "A four of a kind that zeroes is announced after the last exchange, "
                    "before the first answer to the Chicago question or the first card (r28)."
                )
            )
        return await self._own_entry({"do": "quads", "player": player, "choice": "zero"}, by)

    async def exchange(self, cards: list[str], by: str, seat: int | None = None) -> dict[str, Any]:
        """The cards a player places, or (once all have placed) receives, face down: from
        the player's own seat (the TL for ``seat``).  Placing is judged at once, from the
        player's own hand and public facts; receiving is held until every player owed
        cards has entered theirs (``dashboard.seat_exchange``)."""
        player = self._seat_player(by, seat)
        step = seat_exchange.step_of(self.engine) if self.hands_by_hand else None
        if step is None:
            raise EntryRejected(seat_exchange.NOT_EXCHANGING)  # public: the phase, the table's kind
        try:
            parsed = [Card.parse(c) for c in cards]
        except CardError as exc:
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        if len(set(parsed)) != len(parsed):
            raise DashboardError(N_("a card is named twice"))
        if step.placing:
            if player not in step.placing:
                raise DashboardError(N_("{player} places nothing now"), player=player)
            obj = {"do": "discard", "player": player, "cards": [c.code for c in parsed]}
            try:
                await self.live.submit(parse_action(obj), by)
            except IllegalAction as exc:  # not in the player's own hand, or draw stop: both theirs to know
                last = self.log.last_records[-1].seq if self.log.last_records else 0
                self._add(rejected_alert(last, self.seq, by, "discard", exc.reason, True))
                raise EntryRejected(seat_exchange.PLACE_REFUSED) from exc
            except StoreError:
                self._log_failed()
            self._pump_now()
            return {"ok": True, "text": tr(seat_exchange.PLACED, "en"), "text_sv": tr(seat_exchange.PLACED, "sv")}
        owed = step.owed.get(player)
        if owed is None:
            raise DashboardError(N_("{player} is owed no card now"), player=player)
        if len(parsed) != owed:
            raise DashboardError(N_("{player} is owed {n} cards"), player=player, n=owed)
        if self._received_step != step.key:
            self._received, self._received_step = {}, step.key
        self._received[player] = tuple(c.code for c in parsed)
        await self._enter_held_when_due()
        self._publish(new_state=False)
        return {"ok": True, "text": tr(seat_exchange.RECEIVED, "en"), "text_sv": tr(seat_exchange.RECEIVED, "sv")}

    async def _enter_held_when_due(self) -> None:
        """The received cards held (``exchange``) go in once no open card is still to be
        shown and every player owed cards has entered theirs: after the last of them, or
        after the last open card, whoever entered it (the TL, the camera).  A player may
        send theirs while another's open card is still on its way: then nothing else would
        enter them, and the table waited for cards its phones said were in."""
        step = seat_exchange.step_of(self.engine) if self.hands_by_hand else None
        if step is None or step.key != self._received_step or step.placing or step.open_pending:
            return
        if not self._received or not set(self._received) >= set(step.owed):
            return
        held = {p: self._received[p] for p in self.engine.state.games[-1].deal.order if p in step.owed}  # type: ignore[union-attr]
        self._received = {}  # entered or refused: either way, entered again if needed
        await self._enter_received(held)

    async def _enter_received(self, held: dict[str, tuple[str, ...]]) -> None:
        """All or nothing: tried on a copy of the table first, in turn order (a reshuffle
        of the discards, r16, falls where the dealer's hand made it)."""
        actions = [parse_action({"do": "receive", "player": p, "cards": list(c)}) for p, c in held.items()]
        trial = Engine.from_events(self.engine.events)
        try:
            for a in actions:
                trial.apply(a)
        except IllegalAction as exc:
            # a typo, or a player naming a card another holds: the TL sees why; the
            # Revisor and the players only that the cards were refused
            rec = self.log.reject(
                {"do": "receive", "players": {p: list(c) for p, c in held.items()}}, exc.reason, "players"
            )
            self._add(rejected_alert(rec.seq, self.seq, "players", "receive", exc.reason, True))
            return
        for a in actions:
            try:
                await self.live.submit(a, "players")
            except IllegalAction as exc:  # the table moved meanwhile (a TL's entry): the TL sees it
                last = self.log.last_records[-1].seq if self.log.last_records else 0
                self._add(rejected_alert(last, self.seq, "players", "receive", exc.reason, True))
                break
            except StoreError:
                self._log_failed()
        self._pump_now()

    async def _received_before_open(self, action: Any) -> None:
        """r16: when the stub runs out in the middle of an exchange, an open card may come
        from the reshuffled discards while the cards of the players before it in turn are
        still held; the engine, replacing in turn, takes it only after those.  So when the
        open card goes in only after them, and every one of them has entered theirs, those
        go in first, all or nothing (a conflict: the TL's alert, as at the end)."""
        step = seat_exchange.step_of(self.engine)
        d = self.engine.state.games[-1].deal if self.engine.state.games else None
        if step is None or d is None or action.player not in d.order:
            return
        before = [p for p in d.order[: d.order.index(action.player)] if p in step.owed]
        held = self.received()
        if not before or any(p not in held for p in before):
            return
        alone = Engine.from_events(self.engine.events)
        try:
            alone.apply(action)
            return  # the open card goes in by itself: the held cards wait for the rest
        except IllegalAction:
            pass
        trial = Engine.from_events(self.engine.events)
        try:
            for p in before:
                trial.apply(parse_action({"do": "receive", "player": p, "cards": list(held[p])}))
            trial.apply(action)
        except IllegalAction:
            return  # the open card's own refusal follows, as for any other
        first = {p: self._received.pop(p) for p in before}
        await self._enter_received(first)

    def _log_failed(self) -> None:
        self._add(
            table_alert(
                next(self._unlogged), "log_failed", tr(LOG_FAILED, "en"), self.seq, text_sv=tr(LOG_FAILED, "sv")
            )
        )
        raise Unavailable(LOG_FAILED) from None

    def _engine_failed(self, obj: Any, by: str, exc: Exception) -> None:
        """A bug, not a rule: the engine rolled the action back (all or nothing).  The TL is
        alerted, and the log keeps the action and the failure's type (its message stays
        out of every text: it may name a hidden card)."""
        text = tr(NOT_JUDGED, "en")
        try:
            rec = self.log.alert(text, by, kind="engine_failed", action=obj, error=type(exc).__name__)
            alert_id = rec.seq
        except StoreError:
            alert_id = next(self._unlogged)
        self._add(table_alert(alert_id, "engine_failed", text, self.seq, text_sv=tr(NOT_JUDGED, "sv"), source=by))

    def _audit_decision(self, obj: dict[str, Any], by: str, events: list) -> dict[str, Any]:
        """A penalty, a score correction or a hand ended by time (the TL's decisions) goes into
        the audit trail with what it did; the answer says what was applied: a score stops at
        0 (r19), so a deduction of 5 from 2 points takes 2, and the TL is told so."""
        awards = [
            e
            for e in events
            if e.type == "awarded" and e.player == obj.get("player") and e.reason in ("penalty", "adjust")
        ]
        out: dict[str, Any] = {}
        if awards:
            out = {"applied": awards[-1].points, "asked": awards[-1].asked}
        self.log.audit(
            by,
            obj["do"],
            player=obj.get("player"),
            reason=obj.get("reason", ""),
            **{k: obj[k] for k in ("kind", "points") if k in obj},
            **out,
        )
        return out

    def _settle_typos(self, by: str) -> None:
        """A rejected entry of ``by``'s that named no card is settled by the next entry
        ``by`` gets accepted (a typo put right): it leaves the TL's open alerts, with an
        audit record.  A blind role's rejected card entries (and take-backs and zeros, whose
        refusal says a hand's fact: ``entry.reason_hidden``) stay for the TL; the TL's own
        are typos like any other."""
        for i, a in enumerate(self.alerts):
            if not a.resolved and a.kind == "rejected" and a.source == by and (a.blind_text is None or by == "tl"):
                self.alerts[i] = a.resolve()
                self.log.audit(by, "resolve_alert", alert=a.id, reason=N_("settled by the next accepted entry"))

    async def submit_local(self, action) -> None:
        """An action entered by the controller itself (the demo's bots without the virtual
        table) through the live loop, like manual entry."""
        if self.paused:
            raise self._paused_refusal()
        await self.live.submit(action, "bots")
        self._pump_now()

    def _add(self, alert: Alert) -> None:
        if alert.id >= 0 and any(a.id == alert.id for a in self.alerts):
            return  # a repeated refusal counted on its first record (store.refusals): one alert
        self.alerts.append(alert)
        self.alerts[:] = _kept(self.alerts)
        self._publish(new_state=False)

    def resolve_alert(self, alert_id: str, by: str) -> None:
        """Mark a table alert resolved: the TL names it by its id, a blind role by the tag it
        was shown (``views.blind_alert_id``), among the alerts it is shown."""
        for i, a in enumerate(self.alerts):
            if self._names_alert(a, alert_id, by):
                self.alerts[i] = a.resolve()
                self.log.audit(by, "resolve_alert", alert=a.id)
                self._publish(new_state=False)
                return
        raise DashboardError(N_("no alert {alert_id}"), alert_id=alert_id)

    @staticmethod
    def _names_alert(a: Alert, given: str, by: str) -> bool:
        """Whether ``given`` names alert ``a`` for ``by``.  A blind role knows an alert by
        its tag alone, and only one it is shown: a guessed number finds nothing, so no
        answer tells it whether a TL-only alert exists (stop 64's fourth audit)."""
        seen = sight(by)
        if not seen.blind:
            return str(a.id) == str(given)
        return alert_shown(a, seen) and blind_alert_id(a) == given

    async def correct(self, text: str, by: str) -> dict[str, Any]:
        """Settle a sensing alert ("the card at pad 3 is 7H", "dismiss 4"); logged by the
        live table as an audit record.  A correction that names a card is the TL's."""
        from table_controller.sensing import Correction, Dismiss, SensingError, parse_correction, parse_dismiss_tag

        if by not in WRITERS:
            raise Refused(N_("the {role} role may not correct the table"), role=by)
        blind = sight(by).blind
        tag = parse_dismiss_tag(text) if blind else None
        correction: Correction
        if tag is not None:  # a blind role names a sensing alert by the tag it was shown
            a = next((a for a in self.view.alerts if a.origin == "sensing" and self._names_alert(a, tag.tag, by)), None)
            if a is None:
                self.log.audit(
                    by, "correction_refused", correction=str(text)[:200], reason=N_("no alert shown by that tag")
                )
                raise DashboardError(N_("no alert {alert_id}"), alert_id=tag.tag[1:])
            if a.kind == "tl_called":  # the dealer called the TL: the TL closes it on coming
                self.log.audit(by, "correction_refused", correction=str(text)[:200], reason=N_("a call for the TL"))
                raise Refused(N_("only the TL closes a call for the TL"))
            correction = tag.dismiss(a.id)
        else:
            try:
                correction = parse_correction(str(text))
            except (SensingError, ValueError) as exc:
                raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        tagged = tag is not None
        if blind and isinstance(correction, Dismiss) and not tagged:
            # a number is no alert a blind role was shown: the same answer whether or not an
            # alert has that number (a TL-only one, say)
            self.log.audit(by, "correction_refused", correction=str(text)[:200], reason=N_("a number, not a tag shown"))
            raise DashboardError(N_("no alert {alert_id}"), alert_id=correction.alert)
        if by != "tl" and not isinstance(correction, Dismiss):
            # one answer and one record whatever the card: never judged for the Revisor
            self.log.audit(by, "correction_refused", reason=entry.REFUSED_REASON)
            raise EntryRejected(entry.CORRECTION_REFUSED)
        if not isinstance(correction, Dismiss) and not self._alert_for(correction):
            # a correction settles an alert (ARCHITECTURE.md §1); none open: nothing to settle.
            # Still the TL's activity at the table, as a correction taken is (and a dismiss,
            # taken or not): whether an alert is open at the pad may be the TL's alone (a
            # revoke's), and the stuck table's wait it ends is shown to everyone (stop 73's
            # second audit)
            self.live.note_activity()
            self.log.audit(by, "correction_refused", correction=correction.to_text(), reason=N_("no open alert"))
            raise DashboardError(
                N_(
                    "No open sensing alert for this correction; "
                    "a correction settles an alert (the card at pad N is ..., tag ... is ...)."
                )
            )
        try:
            await self.live.correct(correction, by)
        except SensingError as exc:
            raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
        if not self._pump_now():  # an alert ended and nothing else changed: the views still show it
            self._publish(new_state=True)
        return {"ok": True}

    def _alert_for(self, correction: Any) -> bool:
        """An open sensing alert this correction can settle: one at its pad, or (a tag's
        card) any open one."""
        pad = getattr(correction, "pad", None)
        return any(a.origin == "sensing" and (pad is None or a.pad in (pad, None)) for a in self.view.alerts)

    def evidence(self, alert_id: str, by: str) -> dict[str, Any]:
        """A sensing alert's evidence for the TL: the pad and player, when it was raised,
        the cards it names and what every pad reads now.  It names hidden cards, so it is
        the TL's alone and logged first, as a reveal is (ARCHITECTURE.md §3)."""
        if by != "tl":
            raise Refused(N_("the evidence of an alert is the TL's"))
        alert = self._sensing_alert(alert_id)
        self.log.audit(by, "evidence", alert=alert_id, kind=alert.kind, pad=alert.pad, player=alert.player)
        raised = next(
            (
                r.time
                for r in reversed(self.log.records("alert"))
                if r.source == "sensing" and r.data.get("id") == alert.id and r.data.get("state") == "raised"
            ),
            None,
        )
        sensing = self.live.sensing
        pads = getattr(sensing, "facts", None)
        seats = dict(getattr(pads, "pads", {}) or {})  # player -> pad
        reads: dict[str, list[str]] = {}
        tracker, deck = getattr(sensing, "tracker", None), getattr(sensing, "deck", None)
        if tracker is not None and deck is not None:
            for pad in sorted(set(seats.values()) | ({alert.pad} if alert.pad else set())):
                cards = (deck.cards.get(u) for u in tracker.present(pad))
                reads[pad] = sorted((c.code for c in cards if c is not None), key=_card_order)
        return {
            "id": alert_id,
            "kind": alert.kind,
            "player": alert.player,
            "pad": alert.pad,
            "at": raised,
            "text": alert.text,
            "evidence": dict(alert.evidence),
            "camera": self.camera is not None,  # a picture of the pad: pad_picture()
            "pads": [
                {"pad": pad, "player": next((p for p, x in seats.items() if x == pad), None), "cards": c}
                for pad, c in reads.items()
            ],
        }

    def _sensing_alert(self, alert_id: str) -> Any:
        n = alert_id[1:] if alert_id.startswith("s") else ""
        alert = next((a for a in self.view.alerts if a.origin == "sensing" and str(a.id) == n), None)
        if alert is None:
            raise DashboardError(N_("no open sensing alert {alert_id}"), alert_id=alert_id[:12])
        return alert

    async def pad_picture(self, alert_id: str, pad: str | None, by: str) -> bytes:
        """The camera's picture of an open sensing alert's pad (or ``pad``), a JPEG cut
        from the camera's last frame (``vision.worker.CameraWorker.crop``): part of the
        alert's evidence.  A hand pad's picture shows hidden cards: the TL's alone.
        ``NotFound`` at a table without a camera or for a pad the camera does not see;
        ``Unavailable`` when the camera gives no picture now (offline, no answer)."""
        if by != "tl":
            raise Refused(N_("a picture of a pad is the TL's"))
        alert = self._sensing_alert(alert_id)
        pad = pad or alert.pad
        if not pad:
            raise DashboardError(N_("this alert names no pad: ask for one (?pad=seat1)"))
        if self.camera is None:
            raise NotFound(N_("No camera at this table: there is no picture of the pad."))
        from vision.errors import CameraUnavailable, VisionError  # a camera runs: vision is there

        if not getattr(self.camera, "online", True):  # said before asking: the alert camera_offline says why
            raise Unavailable(N_("The camera is offline: there is no picture of the pad until it is back."))
        try:
            got = await self.camera.crop(pad)
        except CameraUnavailable as exc:
            raise Unavailable(N_("The camera gives no picture now: {why}"), why=str(exc)) from None
        except VisionError:
            raise NotFound(N_("The camera does not see a pad {pad}."), pad=pad[:16]) from None
        return bytes(got.jpeg)

    async def void(self, ruling: int, by: str, reason: str) -> dict[str, Any]:
        """Void a TL ruling of the audit trail (a score correction or a points penalty): the
        points it applied are given back by a correction that names it, and the void is an
        audit record of its own.  A ruling is voided once; a warning or sitting out is
        lifted by the TL at the table and only recorded here."""
        if by != "tl":
            raise Refused(N_("voiding a ruling is the TL's"))
        if not reason.strip():
            raise DashboardError(N_("say why the ruling is voided"))
        entries = {e["seq"]: e for e in self.audit_entries()}
        e = entries.get(ruling)
        if e is None or e.get("what") not in ("penalty", "adjust"):
            raise DashboardError(N_("no ruling {ruling} to void (a penalty or a score correction)"), ruling=ruling)
        if e.get("voided"):
            raise DashboardError(N_("ruling {ruling} is already voided"), ruling=ruling)
        applied = e.get("applied")
        answer: dict[str, Any] = {"ok": True}
        if isinstance(applied, int) and applied and e.get("player"):
            back = {
                "do": "adjust",
                "player": e["player"],
                "points": -applied,
                "reason": VOID_REASON.format(ruling=ruling, reason=reason),
            }
            try:
                await self.live.submit(parse_action(back), by)
            except (IllegalAction, ActionError) as exc:
                raise DashboardError(N_("Rejected: {reason}"), reason=sight(by).refusal(Refusal.of(exc))) from exc
            answer["points"] = -applied
        self.log.audit(by, "void", ruling=ruling, player=e.get("player"), reason=reason, **answer)
        self._pump_now()
        self._publish(new_state=False)
        return answer

    def signatures(self) -> dict[str, list[str]]:
        """Each game's signatures that hold, ``{"1": ["revisor", "tl"]}``: the audit trail's
        sign records, less those a change of the finished game's result came after (a
        correction, a penalty, its places again: ``scoresheet.notes.Signatures``, as the
        printed protocol reads them); the log read as far as it has grown since."""
        events = self.engine.events
        if self._signed is None:  # the log once, at start; then the engine's new events
            self._signed = Signatures()
            for r in self.log.records("audit", "event"):
                self._signed.feed(r)
            self._signed_events = len(events)
        for e in events[self._signed_events :]:  # in memory: no read of the log per change
            self._signed.event(e.type, getattr(e, "number", None))
        self._signed_events = len(events)
        return {str(g): list(who) for g, who in self._signed.signed.items()}

    def sign(self, game: int, by: str) -> None:
        """ "Revisorn intygar": the Revisor signs a finished game's protocol (RULES.md §12),
        then the TL countersigns; each once, as an audit record."""
        games = {g["number"]: g for g in self.view.games}
        if game not in games or not games[game].get("finished"):
            raise DashboardError(N_("game {game} is not over; a protocol is signed when its game has ended"), game=game)
        signed = self.signatures().get(str(game), [])
        if by in signed:
            raise DashboardError(N_("game {game} is already signed by this role"), game=game)
        if by == "tl" and "revisor" not in signed:
            raise DashboardError(N_("the Revisor signs game {game} first; the TL countersigns"), game=game)
        self.log.audit(by, "sign", game=game)
        self.signatures()  # the events before it are read, then the signature
        assert self._signed is not None
        self._signed.sign(game, by, None)
        self._publish(new_state=False)

    def confirmations(self) -> dict[str, int]:
        """The scoring moments the Revisor confirmed, ``"1.3.exchange_2"`` (game, deal,
        moment), each with how many awards it had then: records of the audit trail (read
        once at start, then kept).  ``confirmed`` says which still hold."""
        if self._confirmed is None:
            self._confirmed = {
                f"{r.data.get('game')}.{r.data.get('deal')}.{r.data.get('moment')}": len(r.data.get("awards") or ())
                for r in self.log.records("audit")
                if r.data.get("what") == "confirm_award"
            }
        return self._confirmed

    def _awards_at(self, game: int, deal: int, moment: str) -> list[dict[str, Any]]:
        """The awards of one scoring moment as the view has them (no card is in an award)."""
        g = next((x for x in self.view.games if x["number"] == game), None)
        d = next((x for x in (g or {}).get("deals", []) if x["number"] == deal), None)
        return [
            {"player": a["player"], "points": a["points"], "reason": a["reason"]}
            for a in (d or {}).get("awards", [])
            if a["moment"] == moment
        ]

    def confirmed(self) -> tuple[str, ...]:
        """The confirmations that still hold: their moment has the awards it had when the
        Revisor confirmed it.  A TL's correction after it, in the same deal (moment "tl"),
        is not confirmed by the earlier "Stämmer" (stop 71's walk-through: it showed as
        confirmed)."""
        counts: dict[str, int] = {}  # one pass over the view's awards, not one per confirmation
        for g in self.view.games:
            for d in g.get("deals", []):
                for a in d.get("awards", []):
                    key = f"{g['number']}.{d['number']}.{a['moment']}"
                    counts[key] = counts.get(key, 0) + 1
        return tuple(key for key, n in self.confirmations().items() if counts.get(key) == n)

    def confirm_award(self, game: int, deal: int, moment: str, by: str) -> None:
        """ "Stämmer": the Revisor confirms the awards of one scoring moment as shown in
        words (issue 18), once, as an audit record that names them (no card is in an award)."""
        awards = self._awards_at(game, deal, moment)
        if not awards:
            raise DashboardError(
                N_("no awards at {moment} of game {game}, deal {deal} to confirm"), moment=moment, game=game, deal=deal
            )
        key = f"{game}.{deal}.{moment}"
        if key in self.confirmed():
            raise DashboardError(N_("these awards are already confirmed"))
        self.log.audit(by, "confirm_award", game=game, deal=deal, moment=moment, awards=awards)
        self.confirmations()[key] = len(awards)
        self._publish(new_state=False)

    def _paused_refusal(self) -> DashboardError:
        """Why an entry waits while the table is paused: the TL's pause, or a restart (the
        clocks come back paused until play is resumed; stop 71's walk-through: the Revisor
        was told the TL had paused a table nobody had paused)."""
        if self.live.paused_by_restart:
            return DashboardError(
                N_("the table is paused since it started again: the TL (or the dealer's console) resumes play")
            )
        return DashboardError(N_("the table is paused by the TL"))

    def call_time(self, player: str, by: str) -> None:
        """ "Time" called on ``player`` (RULES.md §10): 60 s on the clock, then a 10 s
        countdown, on the table's clocks (the dealer console's time button does the same);
        at zero the clocks enter the ``time_call`` that ends the hand, unless the player has
        acted.  Stop 71's walk-through: the Revisor's "Begär tid" entered that ``time_call``
        at once, so one tap killed a hand."""
        if self.paused and by != "tl":
            raise self._paused_refusal()
        if player not in self._snap_players():
            raise DashboardError(N_("no player {player!r} at this table"), player=player)
        try:
            self.live.call_time(player, by)
        except ValueError:  # no clock runs for them (not to act)
            raise DashboardError(
                N_("time is called on a player who is to act; {player} is not"), player=player
            ) from None
        if not self._pump_now():
            self._publish(new_state=True)

    def set_paused(self, paused: bool, by: str, reason: str = "") -> None:
        # The live table stops its shot clocks, logs who paused (an audit record) and
        # publishes its view (paused is the clocks' own); a second pause (or resume) changes
        # nothing and is not logged again.
        if paused == self.paused:
            raise DashboardError(N_("the table is already paused") if paused else N_("the table is not paused"))
        (self.live.pause if paused else self.live.resume)(by, reason.strip())
        if not self._pump_now():
            self._publish(new_state=True)

    def reveal(self, player: str, by: str, reason: str) -> None:
        """Show one hand to the TL for a dispute; logged in the audit trail (§3)."""
        if player not in self._snap_players():
            raise DashboardError(N_("no player {player!r} at this table"), player=player)
        if not reason.strip():
            raise DashboardError(N_("say why the hand is revealed"))
        # Logged first: no hidden card is shown without its record (ARCHITECTURE.md §3).
        self.log.audit(
            by, "reveal", player=player, reason=reason, table_seq=self.seq, game=self.view.game, deal=self.view.deal
        )
        self.revealed.add(player)
        self._revealed_deal = (self.view.game, self.view.deal)
        self._publish(new_state=False)

    def hide(self, by: str) -> None:
        self.log.audit(by, "hide", table_seq=self.seq)
        self.revealed.clear()
        self._publish(new_state=False)

    def _snap_players(self) -> list[str]:
        return [p.name for p in self.view.players]

    def history(self, role: str, scope: str = "deal") -> list[dict[str, Any]]:
        """The current deal's (``scope`` "game": the game's, "table": the table's) events as
        ``role`` may see them (the TL: revealed hands, in the current deal only)."""
        return deal_history(self.engine.events, sight(role, self.revealed), scope=scope)

    # --- the delayed broadcast ------------------------------------------------------------

    def connect(self, role: str) -> Client:
        c = Client(role)
        self.clients.add(c)
        if role == "broadcast":
            c.offer(self.current_text(role))
            self._want_analysis()  # the state on the table now is analysed for it too
        else:  # made as it connects (``current_text``), not at the last change published
            c.offer(self.current_text(role), self._news[role])
        return c

    def disconnect(self, c: Client) -> None:
        self.clients.discard(c)
        if c.role == "broadcast":
            self._watched_until = self.delay.now() + self.delay.delay

    def watched(self) -> bool:
        """Whether the broadcast's analysis has anyone to reach: an overlay connected now,
        or one that left less than the delay ago.  The odds take a share of a core
        (ANALYSIS_SHARE) while the table moves; a table nobody broadcasts spends none."""
        return any(c.role == "broadcast" for c in self.clients) or self.delay.now() < self._watched_until

    def release_due(self) -> int:
        """Offer the broadcast clients the frame due now if it is not the one on show (a new
        frame, or the one on show unmasked because its deal has just ended live).  Returns
        the frame's id, for timing the next one."""
        frame = self.delay.due(self.live_deal())
        if (frame.id, frame.masked) != self._broadcast_shown:
            self._broadcast_shown = (frame.id, frame.masked)
            for c in list(self.clients):
                if c.role == "broadcast":
                    c.offer(frame.text)  # the same text again (a masked twin) is not sent: Client.offer
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
                async with asyncio.timeout(wait):
                    await self._wake.wait()
            except TimeoutError:
                pass


def news_of(msg: dict[str, Any]) -> str:
    """What a stream message tells, less when it was made: its text without "at" and, while
    the clocks run, without what each running shot clock and time call has left (the pages
    count down from when a message reaches them; a clock's remainder changes without a new
    seq only as time passes, on a pause or on a restart, and those change the text).  Two
    messages of the same state made at different moments are the same news.

        >>> a = {"at": 100.0, "state": {"clocks": {"paused": False, "running": {"Bo": {"clock": "play",
        ...     "remaining": 19.0, "limit": 20.0, "expired": False}}, "time_calls": {}}}}
        >>> later = {"at": 102.0, "state": {"clocks": {"paused": False, "running": {"Bo": {"clock": "play",
        ...     "remaining": 17.0, "limit": 20.0, "expired": False}}, "time_calls": {}}}}
        >>> news_of(a) == news_of(later)
        True
        >>> paused = {"at": 102.0, "state": {"clocks": {**later["state"]["clocks"], "paused": True}}}
        >>> news_of(paused) == news_of(later)
        False
    """
    shown = {k: v for k, v in msg.items() if k != "at"}
    state = msg.get("state")
    clocks = state.get("clocks") if isinstance(state, dict) else None
    if isinstance(state, dict) and isinstance(clocks, dict) and not clocks.get("paused"):
        timeless = dict(clocks)
        for part, by_time in (("running", ("remaining",)), ("time_calls", ("remaining", "countdown"))):
            entries = clocks.get(part) or {}
            timeless[part] = {who: {k: v for k, v in c.items() if k not in by_time} for who, c in entries.items()}
        shown["state"] = {**state, "clocks": timeless}
    return message_text(shown)


def message_text(msg: dict[str, Any]) -> str:
    """Every stream message as sent: compact JSON, UTF-8 as it is (json.dumps' text with
    ``ensure_ascii=False`` and no spaces; a tiny float may be written 1e-7 for 1e-07, the same
    number).  orjson writes it in about a tenth of json.dumps' CPU time: each state is written
    once per role, and at a fast demo table with five roles watching the server's CPU fell by
    about 13 % (README "Libraries")."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


def _card_order(code: str) -> tuple[int, int]:
    return ("SHDC".find(code[-1]), "23456789TJQKA".find(code[0]))


def start_frame(name: str) -> str:
    """The broadcast's start position: an empty table, before anything is due."""
    state = for_role(build_view(Engine()), "broadcast").state
    return message_text(
        {"type": "state", "table": name, "role": "broadcast", "seq": -1, "paused": False, "state": state.to_dict()}
    )
