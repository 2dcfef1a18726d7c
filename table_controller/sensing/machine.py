"""The sensing state machine: from what the pads show to the actions of REPLAY.md.

    >>> from table_controller.deck import virtual_deck
    >>> from table_controller.rules.phases import Phase
    >>> deck = virtual_deck()
    >>> uid = {c.code: u for u, c in deck.cards.items()}
    >>> s = Sensing(deck)
    >>> s.sync(TableFacts(phase=Phase.DEAL, pads={"Anna": "seat1", "Bo": "seat2"}, dealt_to=("Anna", "Bo")))
    >>> s.observe(PadContents(0.1, "seat1", frozenset(uid[c] for c in ("2S", "3S", "4S", "5S", "6S"))))
    >>> s.observe(PadContents(0.2, "seat2", frozenset(uid[c] for c in ("7S", "8S", "9S", "TS", "JS"))))
    >>> s.propose()                        # Deal(...), Discard(...), Play(...) or None
    Deal(hands={'Anna': (Card('2S'), ...), 'Bo': (Card('7S'), ...)})

Sensing follows the rules engine's phase (given as :class:`TableFacts`) and proposes at
most one action at a time; the live loop has the rules judge it, stores it, and syncs
the new facts back, so a live game and a replayed action script are one path.

What it reads, step by step (ARCHITECTURE.md §1):

- deal: cards arriving on each seat's pad; done when every dealt pad holds exactly 5.
- exchange, placing: cards from a player's own hand arriving on their pad.  The dealer
  presses *next* when everyone has placed (r13); then each player's discard is proposed
  in turn (placed cards cannot be taken back, r18).
- exchange, replacing: cards from the stub (or a reshuffled stub, r16) arriving on a
  pad.  A player's replacements are complete when the dealer moves on (next pressed,
  a card dealt to another pad) or the pad has been quiet for a while, and the count
  is the number owed; too many is a dealer error (r14), too few asks for a spread.
  A one-card exchange shows the open card: *declined* (button, or the card goes to the
  tray) or taken (next pressed, the dealer moves on).
- tricks: a card from the hand of the player to act arriving on their pad.  A card is
  never taken back from what the pads show (r26: only a revoke may be, so that would tell
  the table a hidden fact); the player's phone or the TL says it, and the card then
  counts again once it has left the pad.

The Chicago question, the quad choice, the seat draw and TL decisions are entered by
hand (the Revisor's tablet, the TL); so can every other action when readers fail.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from table_controller.rules.actions import Action, Deal, Discard, OpenCard, Play, Receive
from table_controller.rules.cards import Card
from table_controller.rules.phases import Phase
from table_controller.sensor_events import (
    CAMERA_DEVICE,
    ButtonPressed,
    CameraPad,
    LinkStatus,
    PadContents,
    ReaderStatus,
    SensorEvent,
)

from ..deck import Deck
from .alerts import Alert, AlertBook, Finding
from .camera import CameraMemory
from .facts import TableFacts
from .findings import action_key, findings


class Sensing:
    def __init__(
        self,
        deck: Deck,
        *,
        rfid: bool = True,
        linger_s: float = 0.5,
        settle_s: float = 3.0,
        unsure_s: float = 2.0,
        two_pads_s: float = 1.0,
        late_press_s: float = 1.0,
        camera_wait_s: float = 2.0,
    ) -> None:
        self.deck = deck
        self.rfid = rfid  # False: camera-only mode, hidden cards by hand
        self.linger_s = linger_s  # a card unseen this long has really left
        self.settle_s = settle_s  # a quiet pad with the owed count is complete
        self.unsure_s = unsure_s  # a count still short this long after "done": ask
        self.two_pads_s = two_pads_s  # a card moving between pads shows on both briefly
        # a *next* this soon after a replacement the quiet pad completed is that step's
        # press, late (the dealer pressed as the timer ran out), not one for the new step
        self.late_press_s = late_press_s
        # at a table with readers, a played card the reader has missed this long is the
        # camera's (``_propose_play``: sooner told whether the player held what it misread)
        self.camera_wait_s = camera_wait_s
        from .pads import PadTracker

        self.tracker = PadTracker(return_s=linger_s)
        self._baseline: dict[str, frozenset[str]] = {}
        self.camera = CameraMemory()
        self.alerts = AlertBook()
        self.facts = TableFacts()
        self.now = 0.0
        self.readers_ok: dict[str, bool] = {}
        self.link_ok = True
        self.camera_ok = True  # the overhead camera's frames arrive (or there is none)
        self._step: tuple | None = None
        self._mark = 0
        self._step_at = 0.0
        self._camera_since: dict[str, dict[Card, float]] = {}  # pad -> face-up card -> first frame
        self._closed = False  # placement closed by the dealer (next)
        self._done: dict[str, float] = {}  # player -> when the dealer finished their replacements
        self._declined: set[str] = set()  # open card declined (button or tray)
        self._taken: set[str] = set()  # open card taken (next, dealer moved on)
        self._erred: set[str] = set()  # over-count logged: count what lies on the pad now
        # actions the rules refused this step (by ``action_key``) -> (the action, the reason)
        self._refused: dict[tuple, tuple[Action, str]] = {}
        self._corrected: dict[str, str] = {}  # pad -> card code entered by a correction
        # cards taken back (r26) while they still lay on their pad -> (pad, when): not played
        # again until they have left it (``_lying_back``)
        self._taken_back: dict[Card, tuple[str, float]] = {}
        self._revoke_seen: tuple | None = None
        self._proposed_quiet = False  # the last proposal: replacements the quiet pad completed
        self._late_next_until = float("-inf")
        self._no_holds = False
        # Time alone changes a finding or a proposal only when one of the timers they ask
        # about runs out (a card lingering, a quiet pad, a short count, a card on two pads).
        # Each asks through ``waited``, which notes the earliest moment one of them will; a
        # tick before it finds nothing new and is skipped (issue 15: most ticks of a table).
        self._due = float("inf")  # when a timer asked about since the last refresh runs out
        self._alerts_seen = (0, 0)  # the alert book's size then (the loop raises and ends alerts too)
        self._changes = 0  # refreshes: what the pads show, the facts or the alerts changed
        self._found_none: tuple | None = None  # the state in which propose() last found nothing
        self.new_alerts: list[Alert] = []
        self.ended_alerts: list[Alert] = []

    # --- inputs ------------------------------------------------------------------------
    def sync(self, facts: TableFacts) -> None:
        """The rules' view after an accepted action; a new step starts a new mark."""
        before = self.facts
        self.facts = facts
        for c in before.public - facts.public if facts.step == self._step else ():  # taken back (r26)
            pad = facts.pad_of(facts.owner(c) or "")
            if pad and self._still_on(pad, c):
                self._taken_back[c] = (pad, self.now)
        if facts.step != self._step:
            self._taken_back.clear()
            self._step = facts.step
            self._mark = self.tracker.mark()
            self._baseline = self.tracker.baseline(self.now, self.linger_s)
            self._step_at = self.now
            self._closed = False
            self._done.clear()
            self._declined.clear()
            self._taken.clear()
            self._erred.clear()
            self._refused.clear()
            self._corrected.clear()
            self.ended_alerts.extend(self.alerts.end_events())
        elif not facts.stub <= before.stub:
            # the discards reshuffled into the stub (r16): the cards dealt the rules refused
            # were judged against the stub as it was.  An open card read before the player
            # ahead's late read was refused, and held so until the step changed, the table
            # waited in the exchange for good (stop 68)
            for key in [k for k, (a, _) in self._refused.items() if isinstance(a, (OpenCard, Receive))]:
                del self._refused[key]
        if facts.pending_revoke and facts.pending_revoke != self._revoke_seen:
            p, c = facts.pending_revoke
            # told to the live table like every new alert, so that the log keeps it and the
            # hub's TL screen shows it (it was only open here); the TL's alone (alerts.TL_ONLY)
            self.new_alerts.append(
                self.alerts.raise_event(
                    Finding(
                        ("revoke", p, c.code),
                        "revoke",
                        f"{p} did not follow suit with {c} while able (r26)",
                        p,
                        facts.pad_of(p),
                        {"card": c.code},
                        holds=False,
                    ),
                    self.now,
                )
            )
        self._revoke_seen = facts.pending_revoke
        # the dealer's *next* for replacements the quiet pad completed may still come
        self._late_next_until = self.now + self.late_press_s if self._proposed_quiet else float("-inf")
        self._proposed_quiet = False
        self._refresh()

    def observe(self, event: SensorEvent) -> None:
        self.now = max(self.now, event.at)
        if isinstance(event, PadContents):
            if self._repeated(event):
                self.tick(self.now)  # the reader's report again: only time has passed
                return
            came, _ = self.tracker.update(event.pad, frozenset(u.upper() for u in event.uids), event.at)
            self._arrivals(event.pad, came)
        elif isinstance(event, CameraPad):
            view = self.camera.update(event)
            # since when the camera has shown each face-up card at this pad, frame after frame
            seen = self._camera_since.get(event.pad, {})
            self._camera_since[event.pad] = {c: seen.get(c, event.at) for c in view.face_up}
        elif isinstance(event, ButtonPressed):
            self._button(event.button)
        elif isinstance(event, ReaderStatus):
            self.readers_ok[event.pad] = event.ok
        elif isinstance(event, LinkStatus) and event.device == CAMERA_DEVICE:
            # the camera's own link: the table plays on with the readers; what it saw
            # before it went away is no evidence for what lies there now
            self.camera_ok = event.online
            if not event.online:
                self.camera.views.clear()
        elif isinstance(event, LinkStatus):
            self.link_ok = event.online
        self._refresh()

    def _repeated(self, event: PadContents) -> bool:
        """The pad's reader reports what it reported before (its repeat, every second or so)."""
        h = self.tracker.pads.get(event.pad)
        return h is not None and len(h.present) == len(event.uids) and h.present == {u.upper() for u in event.uids}

    def tick(self, now: float) -> None:
        """Time passes (settle and unsure timers, lingering cards)."""
        self.now = max(self.now, now)
        if self.now + self._TIMER_SLACK >= self._due or self._alerts_seen != self._alerts_size():
            self._refresh()

    def close_placement(self, player: str | None = None) -> None:
        """The dealer's *next* while players place (also a shot clock running out)."""
        self._closed = True
        self._changes += 1
        self._due = float("-inf")  # what the findings say about placing changes: the next tick looks

    # --- time ------------------------------------------------------------------------
    _TIMER_SLACK = 1e-6  # ``now - t >= c`` and ``now >= t + c`` may differ in the last bit

    def waited(self, since: float, span: float) -> bool:
        """Has ``span`` passed since ``since`` (``now - since >= span``)?  If not yet, the
        moment it will is noted: the next tick at or after it looks again.  Every question
        of sensing's findings and proposals about time goes through here."""
        if self.now - since >= span:
            return True
        self._due = min(self._due, since + span)
        return False

    def _alerts_size(self) -> tuple[int, int]:
        return len(self.alerts.raised), len(self.alerts.ended)

    def refused(self, action: Action, reason: str) -> None:
        """The rules refused a proposed action: it is not proposed again while the pads show
        it, until the step changes, or for cards dealt (open, receive) until the discards are
        reshuffled into the stub (``sync``)."""
        self._proposed_quiet = False
        self._refused[action_key(action)] = (action, reason)
        self._refresh()

    def correct_card_at(self, pad: str, card: Card) -> None:
        """A correction: "the card at pad 3 is 7H" (a missed or wrong read)."""
        self._corrected[pad] = card.code
        for p, h in self.tracker.pads.items():  # the card is there, not on another pad
            if p != pad:
                for u in list(h.present):
                    if self._card(u) == card:
                        h.present.discard(u)
                        h.departed[u] = self.now - self.linger_s
        self._refresh()

    def correct_uid(self, uid: str, card: Card) -> None:
        """A correction: the tag ``uid`` is ``card`` (an unregistered or replaced inlay)."""
        self.deck = self.deck.with_card(uid, card)
        self._refresh()

    def dismiss(self, alert_id: int) -> Alert | None:
        a = self.alerts.dismiss(alert_id)
        if a is not None:  # told to the live table, which logs it ended as any alert that ends
            self.ended_alerts.append(a)
        self._refresh()
        return a

    # --- what the dealer does --------------------------------------------------------
    def _button(self, name: str) -> None:
        f = self.facts
        if not f.phase.is_exchange:
            return
        unplaced = [p for p in f.to_act if p not in f.placed]
        waiting = [p for p in f.order if p in f.awaiting]
        if name == "next" and self.now < self._late_next_until:
            # the press for the replacements the quiet pad completed a moment ago: it
            # must not close the new placement (everyone "discarding nothing") or take
            # the next open card
            self._late_next_until = float("-inf")
            return
        if name == "next":
            if unplaced:
                self._closed = True
                return
            # the players whose replacements lie on their pads; if the readers have not
            # reported any yet, the dealer's next one in turn (never an open card not yet
            # seen: taking it is the player's choice)
            targets = [p for p in waiting if self._open_or_new(p) or p in self._erred]
            targets = targets or [p for p in waiting[:1] if p not in f.open_next]
            for p in targets:
                if p in f.open_next:
                    self._taken.add(p)
                else:
                    self._done[p] = self.now
        elif name == "declined":
            self._declined.update(p for p in waiting if p in f.open_next and self._open_or_new(p))

    def _open_or_new(self, player: str) -> bool:
        """Replacements (or the open card) on the player's pad.  Camera-only mode has no
        reader: the open card is the one face-up card the camera names with confidence on
        the pad (CameraMemory drops sightings below its threshold) that the rules take next
        (``_camera_open_card``)."""
        if self.rfid:
            return bool(self.new_cards(player))
        return player in self.facts.open_next and self._camera_open_card(player) is not None

    def _camera_open_card(self, player: str) -> Card | None:
        f = self.facts
        pad = f.pad_of(player)
        v = self.camera.view(pad, self._step_at) if pad else None
        # Only a card the rules take next: the stub's while it lasts, the reshuffled earlier
        # discards' once it is empty (r16).  ``drawable`` holds the discards too whenever the
        # stub is short of what is owed, and a misread naming one of them was proposed and
        # refused (a "rejected" alert on the Revisor's tablet) where one naming a card in a
        # hand proposed nothing: the Revisor learnt that the card lay face down in the discards.
        nxt = f.stub or f.drawable
        ups = [c for c in (v.face_up if v else ()) if c in nxt and c != f.declined.get(player)]
        return ups[0] if len(ups) == 1 else None

    def _arrivals(self, pad: str, came: set[str]) -> None:
        f = self.facts
        if not f.phase.is_exchange or not f.awaiting:
            return
        cards = {self._card(u) for u in came} - {None}
        if pad == "tray":
            for p in f.awaiting:  # the open card goes to the discards: declined (r12)
                new = self.new_cards(p)
                if p in f.open_next and new and new[0] in cards:
                    self._declined.add(p)
            return
        if not cards & f.drawable:
            return
        here = f.player_at(pad)
        for p in f.awaiting:  # the dealer moved on to another pad
            if p != here and self.new_cards(p):
                if p in f.open_next:
                    self._taken.add(p)
                else:
                    self._done.setdefault(p, self.now)

    # --- reading the pads --------------------------------------------------------------
    def _card(self, uid: str) -> Card | None:
        return self.deck.card(uid)

    def cards_since(self, pad: str, linger: bool = True) -> list[Card]:
        """The known cards that came onto ``pad`` this step, in order of arrival, and a card
        corrected onto it (``linger``: one that left less than ``linger_s`` ago, a flicker
        of the reader, still counts)."""
        out = []
        for u in self.tracker.since(
            pad, self._mark, self.waited, self.linger_s if linger else 0.0, self._baseline.get(pad, frozenset())
        ):
            c = self._card(u)
            if c is not None:
                out.append(c)
        code = self._corrected.get(pad)
        if code is not None:
            c = Card.parse(code)
            if c not in out:
                out.append(c)
        return out

    def new_cards(self, player: str) -> list[Card]:
        """Replacement cards on the player's pad this step, in order of arrival."""
        f = self.facts
        pad = f.pad_of(player)
        if pad is None:
            return []
        declined = f.declined.get(player)
        return [c for c in self.cards_since(pad, linger=player not in self._erred) if c in f.drawable and c != declined]

    def own_cards(self, player: str, linger: bool = True) -> list[Card]:
        """Cards from the player's own hand on their pad this step."""
        f = self.facts
        pad = f.pad_of(player)
        if pad is None:
            return []
        hand = f.hands.get(player, frozenset())
        return [c for c in self.cards_since(pad, linger) if c in hand and not self._lying_back(c)]

    def _still_on(self, pad: str, card: Card) -> bool:
        """Whether ``card`` lies on ``pad`` as far as the table knows now: read there (or
        lost less than ``linger_s`` ago, a flicker), or, without readers, in the camera's
        latest view of it."""
        if self.rfid:
            uid = self.deck.uid_of(card)
            h = self.tracker.pads.get(pad)
            return (
                h is not None
                and uid is not None
                and (uid in h.present or not self.waited(h.departed.get(uid, float("-inf")), self.linger_s))
            )
        v = self.camera.views.get(pad)
        return v is not None and card in v.face_up

    def _lying_back(self, card: Card) -> bool:
        """Whether ``card`` was taken back (r26) and still lies on its pad: the player's
        phone or the TL may say it before the card is lifted, and it was played again at
        once (stop 67's review).  It counts again once it has left the pad (for the
        readers ``linger_s``, as any card; for the camera a later view without it)."""
        entry = self._taken_back.get(card)
        if entry is None:
            return False
        pad, since = entry
        gone = not self._still_on(pad, card)
        if not self.rfid:  # the camera's word only from a view taken after the take-back
            v = self.camera.views.get(pad)
            gone = gone and v is not None and v.at > since
        if gone:
            del self._taken_back[card]
        return not gone

    def last_change(self, player: str) -> float:
        """When the player's pad last changed (0 for a player without a pad)."""
        pad = self.facts.pad_of(player)
        return self.tracker.pad(pad).changed_at if pad else 0.0

    def _reader_ok(self, player: str) -> bool:
        pad = self.facts.pad_of(player)
        return self.link_ok and (pad is None or self.readers_ok.get(pad, True))

    # --- proposals ---------------------------------------------------------------------
    def propose(self) -> Action | None:
        """The next action the pads show, or None (nothing complete, or held by an alert)."""
        self._proposed_quiet = False
        state = (self._changes, *self._alerts_size())
        if state == self._found_none:  # nothing has changed since it found nothing
            return None
        a = self._raw_proposal()
        if a is None or action_key(a) in self._refused:
            self._found_none = state
            return None
        self._found_none = None  # the rules' answer, or an over-count below, changes what follows
        # replacements proposed without the dealer's next or a move to another pad (the
        # quiet pad, settle_s): the dealer's press for them may still be on its way
        self._proposed_quiet = isinstance(a, Receive) and a.player not in self._done
        if isinstance(a, Receive) and len(a.cards) > self.facts.awaiting.get(a.player, 0):
            # r14: the rules log the dealer's error; count again once the dealer fixes it
            self._erred.add(a.player)
            self._done.pop(a.player, None)
        return a

    def _raw_proposal(self) -> Action | None:
        f = self.facts
        if not self.link_ok:
            return None
        if f.phase is Phase.DEAL and self.rfid:
            return self._propose_deal()
        if f.phase.is_exchange:
            return self._propose_exchange()
        if f.phase is Phase.TRICKS:
            return self._propose_play()
        return None

    def _held(self, player: str | None) -> bool:
        if self._no_holds:
            return False
        return self.alerts.holds(player) or (player is not None and not self._reader_ok(player))

    def _propose_deal(self) -> Deal | None:
        f = self.facts
        hands: dict[str, tuple[Card, ...]] = {}
        for p in f.dealt_to:
            pad = f.pad_of(p)
            cards = self.cards_since(pad) if pad else []
            if len(cards) != 5 or self._held(p):
                return None
            hands[p] = tuple(sorted(cards))
        if not hands or len({c for cs in hands.values() for c in cs}) != 5 * len(hands):
            return None
        return Deal(hands)

    def _propose_exchange(self) -> Action | None:
        f = self.facts
        if not self.rfid:
            return self._propose_open_camera()
        unplaced = [p for p in f.to_act if p not in f.placed]
        if unplaced:
            for p in f.order:  # sm2019/shootout: the attempt itself costs the score (r19)
                if p in f.draw_stop and p not in f.placed and not f.draw_stop_refused and not self._held(p):
                    cards = self.own_cards(p)
                    if cards:
                        return Discard(p, tuple(sorted(cards)))
            if not self._closed:
                return None
            for p in f.order:
                if p in f.placed or self._held(p):
                    continue
                if p in unplaced:
                    cards = self.own_cards(p)
                    if self._camera_count_differs(p, len(cards)):
                        return None
                    return Discard(p, tuple(sorted(cards)))
            return None
        for p in f.order:
            if p in f.awaiting and not self._held(p):
                a = self._propose_replacement(p)
                if a is not None:
                    return a
        return None

    def _propose_replacement(self, p: str) -> Action | None:
        f = self.facts
        new = self.new_cards(p)
        if p in f.open_next:
            if len(new) != 1:
                return None
            if p in self._declined:
                return OpenCard(p, new[0], False)
            if p in self._taken:
                return OpenCard(p, new[0], True)
            return None
        owed = f.awaiting[p]
        done = p in self._done
        if not done and p not in self._erred and len(new) == owed and self.waited(self.last_change(p), self.settle_s):
            done = True  # a quiet pad with the owed count: the dealer has moved on
        if not done or len(new) < owed:
            return None
        # Cards from the stub first: the discards are reshuffled only when it is empty (r16)
        return Receive(p, tuple(sorted(new, key=lambda c: (c not in f.stub, c))))

    def _propose_play(self) -> Action | None:
        f = self.facts
        # A card that leaves the trick is never taken back from what the pads show: sensing
        # took it back when it was a revoke, and only then (only a revoke may be, r26), so a
        # reader that lost the card for half a second told every screen that its player
        # could have followed suit (stop 67's camera and sensing audit).  A revoke is taken
        # back by its player on their own phone or by the TL (README "Security").
        if not f.to_act:
            return None
        p = f.to_act[0]
        if self._held(p):
            return None
        pad = f.pad_of(p)
        cards = [c for c in self.own_cards(p, linger=False)] if self.rfid else []
        if not cards:  # the camera fills in a read the pad missed
            v = self.camera.view(pad, self._step_at) if pad else None
            hand = f.hands.get(p, frozenset())
            cards = [
                c
                for c in (v.face_up if v else ())
                if c in hand and not (pad and self._rfid_elsewhere(c, pad)) and not self._lying_back(c)
            ]
            # At a table with readers, only a read the pad has missed for camera_wait_s: the camera
            # that misread a card was taken at once when the card it named lay in the player's
            # hand, and waited for the reader when it did not, so every screen showed (a wrong
            # card played, or a reader's moment later) whether the player held it (stop 73's
            # third audit).  A misread of a card the player holds, the reader silent longer,
            # is still taken: README "Security", "Left, and why".
            if self.rfid and pad:
                since = self._camera_since.get(pad, {})
                cards = [c for c in cards if c in since and self.waited(since[c], self.camera_wait_s)]
        if len(cards) == 1:
            return Play(p, cards[0])
        return None

    def _propose_open_camera(self) -> Action | None:
        """Camera-only mode: the open card is face up; the rest is entered by hand."""
        f = self.facts
        for p in f.order:
            if p in f.awaiting and p in f.open_next:
                card = self._camera_open_card(p)
                if card is not None and (p in self._declined or p in self._taken):
                    return OpenCard(p, card, p in self._taken)
        return None

    def present_cards(self, pad: str) -> set[Card]:
        return {c for c in (self._card(u) for u in self.tracker.present(pad)) if c is not None}

    def _rfid_elsewhere(self, card: Card, pad: str) -> bool:
        return any(card in self.present_cards(q) for q in self.tracker.pads if q != pad)

    def _camera_count_differs(self, player: str, n: int) -> bool:
        pad = self.facts.pad_of(player)
        v = self.camera.view(pad, self._step_at) if pad else None
        return v is not None and v.face_down != n

    # --- alerts --------------------------------------------------------------------------
    def _refresh(self) -> None:
        self._changes += 1
        self._due = float("inf")  # the findings and the proposals after them note it afresh
        for card in list(self._taken_back):  # forgotten once gone, so that a card put back counts
            self._lying_back(card)
        found = list(findings(self))
        new, ended = self.alerts.sync(found, self.now, sticky=self.alerts.event_keys())
        self.new_alerts.extend(new)
        self.ended_alerts.extend(ended)
        self._alerts_seen = self._alerts_size()

    def take_alert_changes(self) -> tuple[list[Alert], list[Alert]]:
        new, ended = self.new_alerts, self.ended_alerts
        self.new_alerts, self.ended_alerts = [], []
        return new, ended

    @property
    def step_mark(self) -> int:
        return self._mark

    def refusal(self, action: Action) -> str | None:
        """Why the rules refused ``action`` in this step, or None if they did not."""
        refused = self._refused.get(action_key(action))
        return refused[1] if refused else None

    # --- what the findings read (sensing's state, never changed from outside) --------------
    @property
    def step_at(self) -> float:
        """When the current step began: camera views count from here."""
        return self._step_at

    @property
    def placement_closed(self) -> bool:
        """The dealer closed the placement (``next``)."""
        return self._closed

    @property
    def replacements_done(self) -> Mapping[str, float]:
        """Player -> when the dealer finished their replacements (this step)."""
        return MappingProxyType(self._done)

    def raw_proposal(self) -> Action | None:
        """What the pads show, ignoring what alerts hold (for the alerts themselves)."""
        self._no_holds = True
        try:
            return self._raw_proposal()
        finally:
            self._no_holds = False
