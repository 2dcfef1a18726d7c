"""What sensing does must tell no blind role where a hidden card lies (stop 67's camera and
sensing audit).

Twin tables: a live table (sensing, shot clocks, log) and its hub in process, on one fake
clock; every role connected as the WebSocket route connects it.  Both twins are fed the same
sensor events and differ only in where one hidden card lies.  Every message the Revisor,
the public, the dealer, the broadcast (as due) and each seat's phone (less its own player's
hidden cards) gets must be the same in both; the TL's may differ, and does, so each test
could fail.  So must what the live table sends the physical table over the serial link
(``console``: the seat LEDs' frames, with when each was sent), which every player,
spectator and the broadcast camera sees.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from dashboard.delay import BroadcastDelay
from dashboard.errors import DashboardError, Refused
from dashboard.hub import TableHub, start_frame
from firmware_bridge.messages import encode_led
from table_controller.clocks import FakeClock
from table_controller.deck import virtual_deck
from table_controller.live import LiveTable
from table_controller.sensor_events import CameraPad, CardSighting, PadContents
from table_controller.store import TableRecorder

BLIND = ("revisor", "public", "dealer", "seat1", "seat2", "seat3", "seat4")
OWN = ("hand", "hand_name", "placed", "mine", "mine_received")  # a seat's own player's, hidden from the rest


class Twin:
    """One live table and its hub; ``got``: every text each role was offered, in order."""

    def __init__(self, folder: Path, rfid: bool = True) -> None:
        folder.mkdir(exist_ok=True)  # an existing folder: the same table restarted
        self.clock = FakeClock(100.0)
        self.deck = virtual_deck()
        self.uid = {c.code: u for u, c in self.deck.cards.items()}
        self.log, _ = TableRecorder.resume(folder / "table.sqlite")
        self.sent: list[str] = []  # the frames for the seat controller, as the link writes them
        self.live = LiveTable(self.log, self.deck, clock=self.clock, rfid=rfid, leds=self._led)
        self.hub = TableHub(
            self.live,
            BroadcastDelay(folder / "broadcast.sqlite", start_frame("T"), delay=1.0, clock=self.clock.now),
            name="T",
            clock=self.clock.now,
        )
        self.clients = {r: self.hub.connect(r) for r in (*BLIND, "tl")}
        self.got: dict[str, list[str]] = {r: [] for r in (*self.clients, "broadcast")}
        self.collect()

    async def _led(self, seat: str, colour: str, blink: bool = False) -> None:
        """The seat controller's ``set_led`` as a sink: the frame it would write, and when."""
        frame = encode_led(len(self.sent), seat, colour, blink).decode().strip()
        self.sent.append(f"{self.clock.now():.2f} {frame}")

    def collect(self) -> None:
        self.hub._pump_now()
        for r, c in self.clients.items():
            while not c.queue.empty():
                self.got[r].append(c.queue.get_nowait())
        self.got["broadcast"].append(self.hub.current_text("broadcast"))

    async def tl(self, action: dict) -> None:
        await self.hub.post(action, "tl")
        self.collect()

    async def pad(self, pad: str, cards: list[str], stray: tuple[str, ...] = ()) -> None:
        await self.live.feed(PadContents(self.clock.now(), pad, frozenset([self.uid[c] for c in cards] + list(stray))))
        self.collect()

    async def camera(self, pad: str, face_up: list[tuple[str, float]]) -> None:
        await self.live.feed(CameraPad(self.clock.now(), pad, 0, tuple(CardSighting(c, p) for c, p in face_up)))
        self.collect()

    async def wait(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.05)):
            self.clock.advance(0.05)
            await self.live.tick()
        self.collect()

    async def start(self, ruleset: str, hands: dict[str, list[str]]) -> None:
        """The table, the game, the deal and three exchanges of nothing by the TL (who may
        enter hidden cards); the tricks are sensed."""
        players = list(hands)
        await self.tl({"do": "table", "ruleset": ruleset, "players": players})
        await self.tl({"do": "game", "seats": players, "button": players[-1]})
        await self.tl({"do": "deal", "hands": hands})
        for _ in range(3):
            for p in players:
                await self.tl({"do": "discard", "player": p, "cards": []})
        await self.wait(1.0)

    def stream(self, role: str) -> list[str]:
        """What ``role`` learnt: a seat's phone less its own player's hidden cards; the
        ``console``: what the physical table was sent to show."""
        if role == "console":
            return self.sent
        if not role.startswith("seat"):
            return self.got[role]
        out = []
        for text in self.got[role]:
            msg = json.loads(text)
            me = msg.get("player")
            for p in msg.get("state", {}).get("players", []):
                if p.get("name") == me:
                    for k in OWN:
                        p.pop(k, None)
            for k in OWN:
                msg.pop(k, None)
            out.append(json.dumps(msg, sort_keys=True))
        return out

    def close(self) -> None:
        self.log.close()
        self.hub.delay.close()


def differing(a: Twin, b: Twin, seen: Callable[[list[str]], list[str]] = list) -> list[str]:
    """The roles whose streams differ between the twins (``broadcast``: the frames as due;
    ``console``: the frames sent to the seat controller), each stream as ``seen`` gives it."""
    return [r for r in (*BLIND, "broadcast", "console", "tl") if seen(a.stream(r)) != seen(b.stream(r))]


def twins(tmp_path, scenario, hands_a, hands_b, seen: Callable[[list[str]], list[str]] = list, **kw) -> list[str]:
    async def run():
        out = []
        for name, hands in (("a", hands_a), ("b", hands_b)):
            t = Twin(tmp_path / name, **kw)
            try:
                await scenario(t, hands)
            finally:
                t.close()
            out.append(t)
        return differing(*out, seen)

    return asyncio.run(run())


# Bo's 4C on Anna's spade lead: a revoke in A (he holds the 2S), a legal card in B (Dan has it)
REVOKE = {
    "Anna": ["AS", "KS", "QS", "3H", "5D"],
    "Bo": ["2S", "4C", "4D", "8C", "TD"],
    "Cilla": ["3C", "5C", "7C", "9C", "JD"],
    "Dan": ["3D", "6D", "8D", "2H", "7H"],
}
NO_REVOKE = {**REVOKE, "Bo": ["2H", "4C", "4D", "8C", "TD"], "Dan": ["3D", "6D", "8D", "2S", "7H"]}


@pytest.mark.parametrize("ruleset", ["sm2019", "sm2025"])
def test_a_reader_that_loses_a_revoked_card_for_a_moment_tells_nobody_of_the_revoke_r26(tmp_path, ruleset):
    """Sensing took a card that left the trick back into its player's hand when it was a
    revoke, and only then (only a revoke may be taken back, r26): a reader that lost Bo's
    4C for 0.6 s took it back and played it again on every screen, so everyone learnt that
    Bo could have followed suit.  Sensing takes no card back now; the player (phone) or the
    TL does.  The TL is told of the revoke in A (r26), so its stream differs."""

    async def scenario(t: Twin, hands) -> None:
        await t.start(ruleset, hands)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.pad("seat2", ["4C"])
        await t.wait(2.0)
        await t.pad("seat2", [])  # the reader misses the 4C ...
        await t.wait(0.6)
        await t.pad("seat2", ["4C"])  # ... and reads it again
        await t.wait(2.0)
        assert [a.to_dict()["do"] for _, a in t.live.accepted][-2:] == ["play", "play"]

    assert twins(tmp_path, scenario, REVOKE, NO_REVOKE) == ["tl"]


def test_a_camera_misread_naming_a_discarded_card_tells_nobody_where_it_lies(tmp_path):
    """The reader reads Bo's 4C on his pad; the camera names it 5D.  Anna exchanged one card
    (her open card, 6C, taken): in A the 5D, which now lies face down in the tray, in B the
    9S (the 5D stays in the stub).  "Camera and reader disagree" was raised in A alone, so
    the Revisor learnt that the 5D had been discarded.  A card nobody has seen is placed by
    the readers, and a camera's sighting of it elsewhere is no alert."""
    hands = {
        "Anna": ["AS", "KS", "QS", "3H", "5D"],
        "Bo": ["2H", "4C", "4D", "8C", "TD"],
        "Cilla": ["3C", "5C", "7C", "9C", "JD"],
        "Dan": ["3D", "6D", "8D", "2S", "7H"],
    }
    other = {**hands, "Anna": ["AS", "KS", "QS", "3H", "9S"]}

    async def scenario(t: Twin, hands) -> None:
        players = list(hands)
        discard = hands["Anna"][-1]
        await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
        await t.tl({"do": "game", "seats": players, "button": "Dan"})
        await t.tl({"do": "deal", "hands": hands})
        await t.tl({"do": "discard", "player": "Anna", "cards": [discard]})
        for p in players[1:]:
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.tl({"do": "open", "player": "Anna", "card": "6C", "take": True})
        await t.pad("tray", [discard])  # the discard lies face down in the tray
        for _ in range(2):
            for p in players:
                await t.tl({"do": "discard", "player": p, "cards": []})
        await t.wait(1.0)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.pad("seat2", ["4C"])
        await t.camera("seat2", [("5D", 0.9)])  # the camera's misread
        await t.wait(2.0)
        assert [a.to_dict()["do"] for _, a in t.live.accepted][-2:] == ["play", "play"]
        assert not [a for a in t.live.alerts if a.kind == "camera_disagrees"]

    assert twins(tmp_path, scenario, hands, other) == []  # the TL asks to see hidden cards (none here)


def test_an_alert_a_role_is_not_shown_sends_it_nothing_not_even_the_time_r5(tmp_path):
    """A tag the deck does not know lies on Cilla's pad for 2 s in A; in B nothing does.  The
    public, the dealer and the seats' phones are shown no alert (README "Security"), but each
    got a message at the alert's rise and end, the same as the last but for its "at" and the
    clock's remainder: when something had happened at the table.  The broadcast's frames
    carried the same, after the delay.  The Revisor and the TL are shown the alert."""

    async def scenario(t: Twin, stray: bool) -> None:
        await t.start("sm2025", NO_REVOKE)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        await t.pad("seat3", [], stray=("04DEADBEEF0001",) if stray else ())
        await t.wait(2.0)
        await t.pad("seat3", [])
        await t.wait(2.0)
        await t.pad("seat2", ["4C"])  # news again: every role is sent it
        await t.wait(2.0)

    async def run():
        out = []
        for name, stray in (("a", True), ("b", False)):
            t = Twin(tmp_path / name)
            try:
                await scenario(t, stray)
            finally:
                t.close()
            out.append(t)
        return out

    a, b = asyncio.run(run())
    assert differing(a, b) == ["revisor", "tl"]
    assert a.got["public"][-1] == b.got["public"][-1] and '"4C"' in a.got["public"][-1]


@pytest.mark.parametrize("camera_first", [False, True])
def test_an_open_card_taken_and_discarded_later_is_hidden_again(tmp_path, camera_first):
    """Anna takes the open 6C (everyone saw it) and, in the next exchange, discards it face
    down (A) or her 3H (B).  The camera misreads Bo's 4C as the 6C.  Counting the open cards
    shown this deal as public, sensing said camera and reader disagree in A alone (the
    reader has the 6C in the tray), and when the camera's read came first the alert held
    Bo's play on every screen.  Only the cards played this deal are public (stop 67's review)."""

    async def scenario(t: Twin, second: str) -> None:
        players = list(NO_REVOKE)
        await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
        await t.tl({"do": "game", "seats": players, "button": "Dan"})
        await t.tl({"do": "deal", "hands": REVOKE_FREE})
        await t.tl({"do": "discard", "player": "Anna", "cards": ["5D"]})
        for p in players[1:]:
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.tl({"do": "open", "player": "Anna", "card": "6C", "take": True})
        await t.pad("tray", ["5D"])
        await t.tl({"do": "discard", "player": "Anna", "cards": [second]})
        for p in players[1:]:
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.tl({"do": "open", "player": "Anna", "card": "7S", "take": True})
        await t.pad("tray", ["5D", second])
        for p in players:
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.wait(1.0)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        reads = [t.pad("seat2", ["4C"]), t.camera("seat2", [("6C", 0.9)])]
        for read in reads[::-1] if camera_first else reads:
            await read
        await t.wait(2.0)
        assert [a.to_dict()["do"] for _, a in t.live.accepted][-2:] == ["play", "play"]

    assert twins(tmp_path, scenario, "6C", "3H") == []


# Anna's 5D goes to the tray in the exchanges above; Bo's 4C is no revoke on her spade lead
REVOKE_FREE = {
    "Anna": ["AS", "KS", "QS", "3H", "5D"],
    "Bo": ["2H", "4C", "4D", "8C", "TD"],
    "Cilla": ["3C", "5C", "7C", "9C", "JD"],
    "Dan": ["3D", "6D", "8D", "2S", "7H"],
}


def test_a_time_call_is_shown_at_once_not_with_the_next_alert(tmp_path):
    """The console's "time" button published nothing, so the time call reached the views
    with whatever was published next: in A an alert the public may not see (a stray tag on
    Cilla's pad), in B Bo's next card.  It is published at once."""
    from table_controller.sensor_events import ButtonPressed

    async def scenario(t: Twin, stray: bool) -> None:
        await t.start("sm2025", NO_REVOKE)
        await t.pad("seat1", ["AS"])
        await t.wait(1.0)
        n = len(t.got["public"])
        await t.live.feed(ButtonPressed(t.clock.now(), "time:seat2"))  # "time" on Bo
        t.collect()
        assert json.loads(t.got["public"][-1])["state"]["clocks"]["time_calls"] and len(t.got["public"]) == n + 1
        await t.wait(1.0)
        await t.pad("seat3", [], stray=("04DEADBEEF0001",) if stray else ())
        await t.wait(2.0)
        await t.pad("seat3", [])
        await t.wait(2.0)
        await t.pad("seat2", ["4C"])
        await t.wait(1.0)

    assert twins(tmp_path, scenario, True, False) == ["revisor", "tl"]


def test_the_dealers_call_for_the_tl_reaches_the_tl_at_once_and_stays_until_the_tl_closes_it(tmp_path):
    """The console's "call the TL" button wrote an alert record that nothing showed until a
    restart.  It is an alert on every screen that shows alerts now (it names no card), and
    stays open through the steps that follow and a restart until the TL dismisses it: the
    Revisor may not close it, and a second press while it is open is the same call."""
    from dashboard.errors import Refused
    from table_controller.sensor_events import ButtonPressed

    def kinds(t: Twin, role: str) -> list[str]:
        return [a["kind"] for a in json.loads(t.got[role][-1]).get("alerts") or []]

    async def run():
        t = Twin(tmp_path / "t")
        try:
            players = list(NO_REVOKE)
            await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
            await t.tl({"do": "game", "seats": players, "button": "Dan"})
            await t.tl({"do": "deal", "hands": NO_REVOKE})
            for _ in range(2):  # called during the first exchange, pressed twice
                await t.live.feed(ButtonPressed(t.clock.now(), "tl"))
                t.collect()
            assert kinds(t, "tl") == ["tl_called"] == kinds(t, "revisor")
            assert "calls the TL" in json.loads(t.got["revisor"][-1])["alerts"][0]["text"]
            for _ in range(3):  # three exchanges later, trick play: still open
                for p in players:
                    await t.tl({"do": "discard", "player": p, "cards": []})
            assert str(t.live.engine.phase) == "tricks" and kinds(t, "tl") == ["tl_called"]
        finally:
            t.close()
        t = Twin(tmp_path / "t")  # the table restarted
        try:
            assert kinds(t, "tl") == ["tl_called"]
            (shown,) = json.loads(t.got["revisor"][-1])["alerts"]
            with pytest.raises(Refused):  # the Revisor may not close it for the TL
                await t.hub.correct(f"dismiss {shown['id'][1:]}", "revisor")
            (alert,) = json.loads(t.got["tl"][-1])["alerts"]
            await t.hub.correct(f"dismiss {alert['id'][1:]}", "tl")
            t.collect()
            assert kinds(t, "tl") == []
        finally:
            t.close()
        t = Twin(tmp_path / "t")  # and again: closed stays closed
        try:
            return kinds(t, "tl")
        finally:
            t.close()

    assert asyncio.run(run()) == []


def test_the_overlays_analysis_frame_carries_no_masked_text_that_was_not_sent(tmp_path, monkeypatch):
    """A frame that is the same news as the last is not pushed to the delay, but its masked
    text was kept as the masked twin of the next analysis frame: the overlay then got a
    masked frame dated at an alert it may not see (a stray tag, A) that it did not get in B,
    and whether an analysis came at all turns on hidden cards (stop 63).  The analysis is
    held until after the alert (it comes from its own process whenever it is done)."""
    import dashboard.hub as hubmod

    async def run():
        out = []
        for name, stray in (("a", True), ("b", False)):
            gate = asyncio.Event()
            real = hubmod.analysis_process.run

            async def held(fn, *args, gate=gate, real=real):
                await gate.wait()
                return await real(fn, *args)

            monkeypatch.setattr(hubmod.analysis_process, "run", held)
            t = Twin(tmp_path / name)
            overlay = t.hub.connect("broadcast")
            got: list[str] = []

            def drain(t: Twin = t, overlay=overlay, got: list[str] = got) -> None:
                t.hub.release_due()
                while not overlay.queue.empty():
                    got.append(overlay.queue.get_nowait())

            try:
                await t.start("sm2025", NO_REVOKE)
                await t.wait(2.0)
                drain()
                await t.pad("seat1", ["AS"])  # a new state, analysed for the overlay (held)
                await t.wait(1.0)
                drain()
                await t.pad("seat3", [], stray=("04DEADBEEF0001",) if stray else ())
                await t.wait(2.0)
                drain()
                await t.pad("seat3", [])
                await t.wait(0.5)
                drain()
                gate.set()
                await t.hub.analysis_idle()
                for _ in range(6):
                    await t.wait(0.5)
                    drain()
            finally:
                t.close()
            out.append(got)
        return out

    a, b = asyncio.run(run())
    assert a == b and len(a) >= 2


def test_a_refused_entry_neither_delays_nor_ends_the_stuck_tables_alert(tmp_path):
    """A table where nobody plays is stuck after a while (live.stuck: an alert on the
    Revisor's tablet, "waiting" on every screen).  An entry the rules refuse reset that
    wait and ended an open alert, so the Revisor saw that someone's entry had been refused:
    a seat's own refusals and the TL's are kept from blind roles because whether they are
    refused may turn on a hidden card (Bo's take-back is refused when his card was no
    revoke).  Only an accepted action is something happening at the table."""
    from dashboard.errors import DashboardError, Refused
    from table_controller.live.stuck import StuckWatch

    async def scenario(t: Twin, refused: bool) -> None:
        await t.start("sm2025", REVOKE)
        await t.pad("seat1", ["AS"])
        await t.pad("seat2", ["4C"])  # a revoke: Bo holds the 2S
        watch = StuckWatch(t.live, after_s=10)

        async def wait(seconds: float) -> None:
            for _ in range(round(seconds / 0.5)):
                t.clock.advance(0.5)
                await t.live.tick()
                await watch.check()
            t.collect()

        async def try_entries() -> None:
            if refused:  # each refused: Cilla has no card to take back, and the 2C is none of hers
                for body, by in (
                    ({"do": "retract", "player": "Cilla"}, "seat3"),
                    ({"do": "play", "player": "Cilla", "card": "2C"}, "tl"),
                ):
                    with pytest.raises((Refused, DashboardError)):  # the seat's refusal, the TL's rejection
                        await t.hub.post(body, by)
            t.collect()

        await wait(5.0)
        await try_entries()
        await wait(7.0)  # stuck at 10 s from Bo's card
        assert t.live.waiting is not None
        await try_entries()
        await wait(3.0)

    assert twins(tmp_path, scenario, True, False) == ["tl"]  # the TL is shown its own refused entry


def test_a_camera_misread_open_card_tells_nobody_whether_the_card_it_names_lies_in_the_discards_r16(tmp_path):
    """A camera-only table, exchange 3: one card is left in the stub, and Anna's open card
    (r12) is it, but the camera names the AD.  In A Cilla discarded the AD face down in
    exchange 1, in B she holds it (she discarded the TD instead).  With fewer cards in the
    stub than are owed, sensing counted the earlier discards as drawable (a reshuffle may
    bring them, r16), so it proposed the AD in A, which the rules refused while the stub
    still held a card: the Revisor was shown "the rules refused what the pads show" at
    Anna's pad in A alone, and learnt that the AD lay face down in the discards.  The
    camera's open card is now only one the rules take next: the stub's while it lasts,
    the reshuffled discards' once it is empty."""
    import random

    from table_controller.sensor_events import ButtonPressed

    hands = {
        "Anna": ["AS", "KS", "QS", "JS", "TS"],
        "Bo": ["AH", "KH", "QH", "JH", "TH"],
        "Cilla": ["AD", "KD", "QD", "JD", "TD"],
        "Dan": ["AC", "KC", "QC", "JC", "TC"],
    }
    dealt = {c for h in hands.values() for c in h}
    order = [r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in dealt]
    random.Random(1).shuffle(order)  # no four of a kind, no straight flush on the way

    async def scenario(t: Twin, cilla_keeps_ad: bool) -> None:
        def placing(k: int, p: str, cards: list[str]) -> list[str]:
            return ["KD", "QD", "JD", "TD"] if k == 0 and p == "Cilla" and cilla_keeps_ad else cards

        held = await _one_card_left(t, hands, order, placing)
        await t.tl({"do": "discard", "player": "Anna", "cards": held["Anna"][:1]})  # an open card
        await t.tl({"do": "discard", "player": "Bo", "cards": held["Bo"][:2]})
        for p in ("Cilla", "Dan"):
            await t.tl({"do": "discard", "player": p, "cards": []})
        await t.wait(1.0)
        await t.camera("seat1", [("AD", 0.9)])  # the last stub card, misread
        await t.wait(0.5)
        await t.live.feed(ButtonPressed(t.clock.now(), "next"))  # taken
        t.collect()
        await t.wait(3.0)

    assert twins(tmp_path, scenario, False, True, rfid=False) == []  # the TL asks to see hidden cards (none here)


async def _one_card_left(t: Twin, hands: dict[str, list[str]], order: list[str], placing=None) -> dict[str, list[str]]:
    """The table, its game and ``hands`` dealt (sm2025), then exchanges 1 and 2 entered by
    the TL from the stub in ``order``: 16 cards placed, then 15, so that one card is left for
    exchange 3 (r16).  ``placing(exchange, player, cards)``: what a player places instead.
    Each player's hand after them."""
    players, stub = list(hands), list(order)
    held = {p: list(h) for p, h in hands.items()}
    await t.tl({"do": "table", "ruleset": "sm2025", "players": players})
    await t.tl({"do": "game", "seats": players, "button": "Dan"})
    await t.tl({"do": "deal", "hands": hands})
    for k, counts in enumerate(((4, 4, 4, 4), (4, 4, 4, 3))):
        placed = {}
        for p, n in zip(players, counts, strict=True):
            placed[p] = held[p][:n] if k == 0 else held[p][-n:]
            if placing is not None:
                placed[p] = placing(k, p, placed[p])
            await t.tl({"do": "discard", "player": p, "cards": placed[p]})
        for p in players:
            got = [stub.pop(0) for _ in placed[p]]
            held[p] = [c for c in held[p] if c not in placed[p]] + got
            await t.tl({"do": "receive", "player": p, "cards": got})
    assert len(t.live.engine.state.deal.stub) == 1 and str(t.live.engine.phase) == "exchange_3"
    return held


LAST_STUB_HANDS = {
    "Anna": ["AS", "KS", "QS", "JS", "TS"],
    "Bo": ["AH", "KH", "QH", "JH", "TH"],
    "Cilla": ["AD", "KD", "QD", "JD", "TD"],
    "Dan": ["AC", "KC", "QC", "JC", "TC"],
}


async def _bos_open_card_refused(t: Twin) -> tuple[list[str], list[str]]:
    """Exchange 3 with one card left in the stub: Anna (owed 2) gets it and, from the
    reshuffled earlier discards (r16), her second, whose read is late; Bo's open card from
    the reshuffle is read first and refused (the stub still holds Anna's first for the
    rules).  The stub's card and the earlier discards, sorted."""
    from table_controller.sensor_events import ButtonPressed

    hands = LAST_STUB_HANDS
    dealt = {c for h in hands.values() for c in h}
    held = await _one_card_left(t, hands, [r + s for s in "SHDC" for r in "23456789TJQKA" if r + s not in dealt])
    d = t.live.engine.state.deal
    last, earlier = [c.code for c in d.stub], sorted(c.code for c in d.discards_earlier)
    await t.tl({"do": "discard", "player": "Anna", "cards": held["Anna"][:2]})
    await t.tl({"do": "discard", "player": "Bo", "cards": held["Bo"][:1]})  # an open card
    for p in ("Cilla", "Dan"):
        await t.tl({"do": "discard", "player": p, "cards": []})
    await t.wait(1.0)
    await t.pad("seat1", [last[0]])  # Anna's first; her second, from the reshuffle, not read yet
    await t.pad("seat2", [earlier[1]])  # Bo's open card, from the reshuffle
    await t.live.feed(ButtonPressed(t.clock.now(), "next"))
    await t.wait(1.0)
    assert [a.to_dict()["do"] for _, a, _ in t.live.rejected] == ["open"]
    return last, earlier


def test_an_open_card_refused_before_the_reshuffle_is_taken_once_the_stub_is_empty_r16(tmp_path):
    """Stop 68's audit: Bo's open card, refused while the rules still saw a card in the
    stub (``_bos_open_card_refused``), is one the reshuffle gives once Anna's cards are in;
    a refusal held "until the step changes" kept the table in exchange 3 for good."""
    from table_controller.sensor_events import ButtonPressed

    async def run() -> tuple[str, list[str]]:
        t = Twin(tmp_path / "t")
        try:
            last, earlier = await _bos_open_card_refused(t)
            await t.pad("seat1", [last[0], earlier[0]])  # her second read at last
            await t.wait(1.0)
            await t.live.feed(ButtonPressed(t.clock.now(), "next"))
            await t.wait(5.0)
            return str(t.live.engine.phase), [a.kind for a in t.live.alerts]
        finally:
            t.close()

    phase, alerts = asyncio.run(run())
    assert phase != "exchange_3" and "rejected" not in alerts, (phase, alerts)


def test_a_refusal_of_what_the_pads_showed_is_found_again_after_a_restart_not_restored(tmp_path):
    """Sensing's "the rules refused what the pads show" ends by itself live, once the pads
    or the rules' next cards change.  A restart restored each such refusal from the log as
    a table's alert ("sensing: open rejected") that nothing ended (stop 68's audit); it is
    found again from the pads as they are read after the restart."""
    from table_controller.sensor_events import ButtonPressed

    def kinds(t: Twin, role: str) -> list[str]:
        return [a["kind"] for a in json.loads(t.got[role][-1]).get("alerts") or []]

    async def run() -> tuple[list[str], list[str], list[str]]:
        t = Twin(tmp_path / "t")
        try:
            last, earlier = await _bos_open_card_refused(t)
            t.collect()
            live = kinds(t, "revisor")
        finally:
            t.close()
        t = Twin(tmp_path / "t")  # restarted: no pad read yet
        try:
            restarted = kinds(t, "revisor") + kinds(t, "tl")
            await t.pad("seat1", [last[0]])
            await t.pad("seat2", [earlier[1]])
            await t.live.feed(ButtonPressed(t.clock.now(), "next"))  # the dealer's press again
            await t.wait(1.0)
            t.collect()
            return live, restarted, kinds(t, "tl")
        finally:
            t.close()

    live, restarted, read_again = asyncio.run(run())
    assert live == ["rejected"]
    assert restarted == []
    assert read_again == ["rejected"]  # the pads read again: the same refusal, found again


def test_a_card_played_late_on_the_pad_is_taken_and_ends_the_overtime_d12(tmp_path):
    """D12: a trick-play clock run out alerts the TL (overtime, a violation logged) and ends
    when the player plays.  The alert held the player, so the card played late on the pad
    was never taken until the TL closed the alert: the table stood (stop 68)."""

    async def run() -> tuple[list, list, list]:
        t = Twin(tmp_path / "t")
        try:
            await t.start("sm2025", NO_REVOKE)
            await t.pad("seat1", ["AS"])
            await t.wait(25.0)  # Bo's 20 s play clock runs out
            over = [(a.kind, a.player) for a in t.live.alerts]
            await t.pad("seat2", ["4C"])  # played late
            await t.wait(2.0)
            return over, [a.to_dict() for _, a in t.live.accepted[-1:]], [a.kind for a in t.live.alerts]
        finally:
            t.close()

    over, last, alerts = asyncio.run(run())
    assert over == [("overtime", "Bo")]
    assert last == [{"do": "play", "player": "Bo", "card": "4C"}]
    assert "overtime" not in alerts


def test_time_called_from_the_revisors_tablet_runs_its_countdown_before_the_hand_dies(tmp_path):
    """RULES.md §10: "any player may call time on another: 60 s on the clock, then a 10 s
    countdown; at zero the hand is dead".  Stop 71's walk-through: the Revisor's "Begär tid"
    entered the dead hand at once (one tap ended Bo's deal).  It starts the call on the
    table's clocks now, as the dealer console's time button does; every view shows its
    countdown; a hand dead by time is the clocks' entry (or the TL's), not the Revisor's."""

    async def run() -> None:
        t = Twin(tmp_path / "t")
        await t.start("sm2025", NO_REVOKE)
        await t.pad("seat1", ["AS"])  # Anna leads; Bo is to play
        await t.wait(1.0)
        with pytest.raises(Refused):
            await t.hub.post({"do": "time_call", "player": "Bo"}, "revisor")  # the TL's decision
        with pytest.raises(DashboardError, match="Cilla"):
            t.hub.call_time("Cilla", "revisor")  # not to act: no clock runs for her
        t.hub.call_time("Bo", "revisor")
        t.hub.call_time("Bo", "revisor")  # a second tap: no second call, no second record
        t.collect()
        calls = json.loads(t.got["revisor"][-1])["state"]["clocks"]["time_calls"]
        assert list(calls) == ["Bo"] and 69 <= calls["Bo"]["remaining"] <= 70 and not calls["Bo"]["countdown"]
        assert json.loads(t.got["public"][-1])["state"]["clocks"]["time_calls"]["Bo"]  # every view
        await t.wait(60.0)  # the call's minute: the hand still lives
        assert "Bo" not in t.live.engine.state.deal.folded
        assert t.live.clocks.view()["time_calls"]["Bo"]["countdown"]  # its last 10 s
        await t.wait(11.0)
        assert "Bo" in t.live.engine.state.deal.folded  # at zero: dead (the clocks' entry)
        assert [(r.source, r.data) for r in t.log.records("action")][-1] == (
            "clock",
            {"do": "time_call", "player": "Bo"},
        )
        audit = [r.data for r in t.log.records("audit") if r.data.get("what") == "time"]
        assert audit == [{"who": "revisor", "what": "time", "player": "Bo"}]
        t.log.close()

    asyncio.run(run())


def test_a_table_paused_by_its_restart_says_so_not_that_the_tl_paused_it(tmp_path):
    """The clocks come back paused after a restart, until play is resumed (issue 6).  Stop
    71's walk-through: the Revisor's entry was refused "the TL has paused the table", and
    nobody had."""

    async def run() -> None:
        t = Twin(tmp_path / "t")
        await t.start("sm2025", NO_REVOKE)
        await t.wait(2.0)  # a clock held in the log
        t.log.close()
        t = Twin(tmp_path / "t")  # the table restarted
        assert t.live.paused and t.live.paused_by_restart
        with pytest.raises(DashboardError) as err:
            await t.hub.post({"do": "timeout", "player": "Anna", "clock": "play"}, "revisor")
        assert "started again" in str(err.value) and "by the TL" not in str(err.value)
        t.hub.set_paused(False, "tl", "")
        t.hub.set_paused(True, "tl", "a break")
        with pytest.raises(DashboardError, match="paused by the TL"):
            await t.hub.post({"do": "timeout", "player": "Anna", "clock": "play"}, "revisor")
        t.log.close()

    asyncio.run(run())
