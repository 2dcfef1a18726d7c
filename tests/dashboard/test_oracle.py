"""Attacker probes (issue 13 item 1): no answer to a role that may not see hidden cards
depends on where a hidden card is.

A real ``chicago-table serve`` (and one ``--camera-only``, where the Revisor enters the
open card and the plays by hand and each player declares their own hand and exchange on
their phone) is brought to a deal whose every card is hidden: in the hands, in the stub, in the
face-down discards, and Anna at draw stop (RULES.md: 45 points).  Then every blind role
sends every action kind that names cards, and both corrections that do, for each of the 52
cards, shaped so that no probe can be accepted (issue 13: ``receive [C, "TC"]`` with TC in
another hand; ``discard [C]`` for the draw-stop player).  For each (role, state, kind):
one status, one body, no card code; and the table's actions and events are as before.
The TL, who may know, gets the reasons: the same probes tell its answers apart, so the
check could fail.
"""

from __future__ import annotations

import json
from collections import defaultdict

import httpx
import pytest

from dashboard.entry import REFUSED_REASON
from table_controller.rules.cards import RANKS, SUITS
from table_controller.store import SQLiteStore

from .harness import CARD_RE

ALL = [r + s for r in RANKS for s in SUITS]
HANDS = {
    "Anna": ["2S", "3S", "4S", "5S", "6S"],
    "Bo": ["2H", "3H", "4H", "5H", "6H"],
    "Cilla": ["2D", "3D", "4D", "5D", "6D"],
    "Dan": ["2C", "3C", "4C", "5C", "6C"],
}
BLIND = ("revisor", "public", "dealer", "broadcast")
# FLASH: once everyone has placed, an open card for a player it is not owed to is a flashed
# card (r15), accepted whenever it lies in the stub.  Where the Revisor declares cards
# (camera-only) that acceptance is the declaration itself and cannot be refused; where
# readers sense them the Revisor's entry is refused before any card is looked at.


def _probes(state: str, card: str) -> dict[str, tuple[str, dict]]:
    """kind -> (path, body) naming ``card``; none can be accepted in ``state``."""
    other = "6D" if card != "6D" else "5D"  # in Cilla's hand: "seen twice" if nothing else is wrong
    return {
        "deal": (
            "/api/action",
            {"do": "deal", "hands": {p: ([card] + [c for c in h if c != card])[:5] for p, h in HANDS.items()}},
        ),
        "discard": ("/api/action", {"do": "discard", "player": "Anna", "cards": [card]}),  # draw stop
        "open": ("/api/action", {"do": "open", "player": "Anna", "card": card, "take": True}),
        "receive": ("/api/action", {"do": "receive", "player": "Bo", "cards": [card, other]}),
        "play": ("/api/action", {"do": "play", "player": "Bo", "card": card}),
        "card_at": ("/api/correct", {"text": f"the card at pad 2 is {card}"}),
        "tag_is": ("/api/correct", {"text": f"tag 04A1B2C3 is {card}"}),
    }


def _setup(s, post) -> None:
    """Four players dealt, Anna at draw stop; every card hidden (hands or stub)."""
    for a in (
        {"do": "table", "players": list(HANDS)},
        {"do": "game", "seats": list(HANDS), "button": "Dan"},
        {"do": "adjust", "player": "Anna", "points": 45, "reason": "draw stop for the probe"},
        {"do": "deal", "hands": HANDS},
    ):
        r = post("tl", "/api/action", a)
        assert r.status_code == 200, r.text


def _place(post) -> None:
    """Everyone places: Anna nothing (draw stop), the others face down; Bo waits for 2."""
    for a in (
        {"do": "discard", "player": "Anna", "cards": []},
        {"do": "discard", "player": "Bo", "cards": ["2H", "3H"]},
        {"do": "discard", "player": "Cilla", "cards": ["2D"]},
        {"do": "discard", "player": "Dan", "cards": []},
    ):
        r = post("tl", "/api/action", a)
        assert r.status_code == 200, (a, r.text)


def _records(s) -> list:
    """The table's accepted actions, with who entered them (its events are their fold), but
    not what the shot clocks did meanwhile: the exchange clock runs while the probes go in."""
    with SQLiteStore.open(s.data / "table.sqlite", readonly=True, check=False) as store:
        return [
            (r.source, json.dumps(r.data, sort_keys=True)) for r in store.read(kinds=["action"]) if r.source != "clock"
        ]


@pytest.mark.parametrize("state", ["dealt", "placed"])
@pytest.mark.parametrize("camera_only", [False, True], ids=["rfid", "camera-only"])
def test_no_blind_role_learns_where_a_hidden_card_is(make_server, camera_only, state):
    s = make_server(command="serve", extra=("--post-rate", "10000") + (("--camera-only",) if camera_only else ()))
    client = httpx.Client(base_url=s.base, timeout=20)
    tokens = {r: s.token(r) for r in BLIND + ("tl",)}

    def post(role, path, body):
        return client.post(path, params={"token": tokens[role]}, json=body)

    _setup(s, post)
    if state == "placed":
        _place(post)
    tl_answers: dict[tuple[str, str], set] = defaultdict(set)
    table_before = _records(s)
    answers: dict[tuple[str, str], set] = defaultdict(set)
    for card in ALL:
        for kind, (path, body) in _probes(state, card).items():
            if kind == "open" and state == "placed" and camera_only:
                continue  # see FLASH
            for role in BLIND:
                r = post(role, path, body)
                answers[(role, kind)].add((r.status_code, r.text))
                assert r.status_code in (403, 422), (role, kind, card, r.status_code, r.text)
                assert not CARD_RE.findall(r.text) and card not in r.text, (role, kind, r.text)
            if path == "/api/correct" or (kind == "open" and state == "placed"):
                continue  # the TL's corrections take effect, and so does a flash (FLASH)
            r = post("tl", path, body)
            tl_answers[(state, kind)].add((r.status_code, r.text))
            assert r.status_code == 422, (kind, card, r.text)
    for key, seen in answers.items():
        assert len(seen) == 1, (state, key, sorted(seen)[:3])
    assert _records(s) == table_before  # no probe was accepted (attempts are logged as rejected)
    # the check could fail: the TL's answers do tell the places apart (the TL may know)
    assert len(tl_answers[(state, "receive" if state == "placed" else "discard")]) > 1
    client.close()


def test_the_revisor_enters_cards_only_on_a_camera_only_table_and_never_the_hands(make_server):
    """Cards by hand are the TL's (README "Security"); on a camera-only table the Revisor
    enters the exchanges and plays by taps, but the dealt hands are each player's own to
    declare (``/api/hand`` with the seat's token): the Revisor's deal is refused there with
    one fixed answer, before any card is read."""
    rfid = make_server(command="serve")
    cam = make_server(command="serve", extra=("--camera-only",))
    for s, hands in ((rfid, "tl"), (cam, "revisor")):
        page = httpx.get(s.url("revisor"))
        assert f'data-hands="{hands}"' in page.text

        def post(role, path, body, s=s):
            return httpx.post(s.base + path, params={"token": s.token(role)}, json=body)

        assert post("revisor", "/api/action", {"do": "table", "players": list(HANDS)}).status_code == 200
        assert post("revisor", "/api/action", {"do": "game", "seats": list(HANDS), "button": "Dan"}).status_code == 200
        r = post("revisor", "/api/action", {"do": "deal", "hands": HANDS})
        assert r.status_code == 422, r.text
        said = "each player declares their own hand" if hands == "revisor" else "entered by hand by the TL"
        assert (
            said
            in httpx.post(
                s.base + "/api/action",
                params={"token": s.token("revisor"), "lang": "en"},
                json={"do": "deal", "hands": HANDS},
            ).json()["error"]
        )
        for p, seat in SEAT_OF.items():
            r = post(seat, "/api/hand", {"cards": HANDS[p]})
            assert r.status_code == (200 if hands == "revisor" else 422), r.text  # readers read the hands
        if hands == "revisor":  # the players' hands went in as the deal; each places their own
            assert s.actions()[-1] == {"do": "deal", "hands": HANDS}
            for do, body in (("discard", {"cards": ["2S"]}), ("receive", {"cards": ["7S"]})):
                r = post("revisor", "/api/action", {"do": do, "player": "Anna", **body})
                assert r.status_code == 422 and r.json()["error"] == BY_SEATS, r.text  # one fixed answer
            r = post("seat1", "/api/exchange", {"cards": ["2S"]})
            assert r.status_code == 200, r.text
            assert s.actions()[-1] == {"do": "discard", "player": "Anna", "cards": ["2S"]}


async def _dealt_camera_only_hub(tmp_path, hands=HANDS):
    """A camera-only table's hub (no readers) in tmp_path: four players, ``hands`` dealt."""
    from table_controller.app.table_files import open_table

    hub, _ = open_table(tmp_path, delay=0, rfid=False)
    for a in (
        {"do": "table", "players": list(hands)},
        {"do": "game", "seats": list(hands), "button": "Dan"},
        {"do": "deal", "hands": hands},
    ):
        await hub.post(a, "tl")
    return hub


def test_the_revisors_alerts_say_the_same_whatever_the_cards(tmp_path):
    """The stream is an answer too: a rejected card entry (the Revisor's on a camera-only
    table, or one read back from the log after a restart) is one alert text on the
    Revisor's tablet, the TL's own refused entries none, while the TL's alert keeps its
    reason."""
    import asyncio

    from dashboard.errors import DashboardError
    from table_controller.app.table_files import open_table

    async def run():
        hub = await _dealt_camera_only_hub(tmp_path)
        rev, tl = hub.connect("revisor"), hub.connect("tl")
        texts: dict[str, set[str]] = {"revisor": set(), "tl": set()}
        for card in ALL:
            for by in ("tl", "revisor"):
                with pytest.raises(DashboardError):
                    await hub.post({"do": "discard", "player": "Anna", "cards": [card, "6D"]}, by)
        for role, client in (("revisor", rev), ("tl", tl)):
            while not client.queue.empty():
                m = json.loads(client.queue.get_nowait())
                texts[role].update(a["text"] for a in m.get("alerts", []))
        # "Revisor: exchange: cards placed rejected ..." alone: the TL's refusals are no blind role's (stop 66)
        assert len(texts["revisor"]) == 1 and all(t.startswith("Revisor") for t in texts["revisor"]), texts
        assert not any(CARD_RE.findall(json.dumps(t)) for t in texts["revisor"])
        assert len(texts["tl"]) > 2  # the TL's reasons differ by the cards' places
        hub.log.close()
        again, _ = open_table(tmp_path, delay=0, rfid=False)  # the alerts come back from the log
        rev = again.connect("revisor")
        m = json.loads(rev.queue.get_nowait())
        assert {a["text"] for a in m["alerts"]} == texts["revisor"]
        again.log.close()

    asyncio.run(run())


SEAT_OF = {p: f"seat{i + 1}" for i, p in enumerate(HANDS)}  # the game's seats: list(HANDS)


def test_an_entry_refused_twice_is_counted_alike_whatever_moved_face_down_between(tmp_path):
    """A refusal identical to the last one of its source is counted on that record, not
    stored again (issue 13's bound on the log). It used to be identical only with the same
    reason, and the engine's reason says where a card lies ("2H is in Bo's hand", "in the
    discards"): so the Revisor's same entry, sent before and after Bo placed his cards,
    added an alert and a seq on the Revisor's tablet only if KC had gone face down (stop
    63's audit). For anyone but the TL the reason no longer decides what is stored."""
    import asyncio

    from dashboard.errors import DashboardError

    hands = {  # no hand worth a point: the deal goes on to exchange 2
        "Anna": ["AS", "AH", "2D", "7C", "9S"],
        "Bo": ["JS", "3H", "5C", "8D", "KC"],
        "Cilla": ["4S", "6H", "9D", "3C", "QH"],
        "Dan": ["5S", "8H", "TD", "4C", "7D"],
    }
    seat = {p: f"seat{i + 1}" for i, p in enumerate(hands)}
    # Anna places one card: her open card is due (stop 64: the Revisor enters no other), and
    # the Revisor names KC for it, which lies face down (in Bo's hand, then maybe placed)
    probe = {"do": "open", "player": "Anna", "card": "KC", "take": True}

    async def run(folder, bo_places):
        hub = await _dealt_camera_only_hub(folder, hands)
        rev = hub.connect("revisor")
        for p in hands:  # exchange 1: Anna places one, Dan two, the others none
            await hub.exchange({"Anna": ["9S"], "Dan": ["4C", "7D"]}.get(p, []), seat[p])
        with pytest.raises(DashboardError):
            await hub.post(probe, "revisor")
        await hub.post({"do": "open", "player": "Anna", "card": "2C", "take": True}, "tl")  # the camera's, or the TL's
        await hub.exchange(["JC", "QD"], seat["Dan"])
        for p in hands:  # exchange 2: Anna places one again, Bo two face down
            await hub.exchange({"Anna": ["2C"], "Bo": bo_places}.get(p, []), seat[p])
        with pytest.raises(DashboardError):
            await hub.post(probe, "revisor")
        seen = []
        while not rev.queue.empty():
            m = json.loads(rev.queue.get_nowait())
            seen.append(
                (m.get("seq"), [a["id"] for a in m.get("alerts", [])], [a["text"] for a in m.get("alerts", [])])
            )
        reasons = [r.data.get("reason") for r in hub.log.records("rejected")]
        hub.log.close()
        return seen, reasons

    moved, reasons = asyncio.run(run(tmp_path / "a", ["KC", "3H"]))  # KC goes face down
    stayed, _ = asyncio.run(run(tmp_path / "b", ["JS", "3H"]))  # KC stays in Bo's hand
    assert moved == stayed  # every message the Revisor got: the seqs, the alerts
    # the TL's record, once: since stop 66 the Revisor's card entry is refused before any card
    # is read (the Revisor enters no card), so no reason of the engine's is in it at all
    assert reasons == [REFUSED_REASON]
    # the TL's own entries keep their reasons apart (the TL may know them)
    from table_controller.store import refusals

    assert refusals.key_of({"action": probe, "reason": "a"}, "tl") != refusals.key_of(
        {"action": probe, "reason": "b"}, "tl"
    )
    assert refusals.key_of({"action": probe, "reason": "a"}, "revisor") == refusals.key_of(
        {"action": probe, "reason": "b"}, "revisor"
    )


@pytest.mark.parametrize("state", ["declaring", "dealt", "placed"])
def test_a_players_phone_learns_no_hidden_card_of_another_seat(make_server, state):
    """A seat's token (a player's own phone, camera-only table: README "Security") may enter
    and see its own hand only.  Anna's phone probes every card in every hidden place: while
    the others' declared hands wait for hers (each probe names a card of Cilla's, so none
    can be accepted and the others declare again after each refused deal), and once dealt
    (hands, stub, face-down discards, Anna at draw stop), with the hand route and every
    card-naming action and correction.  One answer per (state, kind), no card code, no
    change of the table; another seat's hand is refused before anything is read."""
    s = make_server(command="serve", extra=("--post-rate", "10000", "--camera-only"))
    client = httpx.Client(base_url=s.base, timeout=20)
    tokens = {r: s.token(r) for r in ("tl", "revisor", *SEAT_OF.values())}

    def post(role, path, body):
        return client.post(path, params={"token": tokens[role]}, json=body)

    if state == "declaring":
        for a in (
            {"do": "table", "players": list(HANDS)},
            {"do": "game", "seats": list(HANDS), "button": "Dan"},
            {"do": "adjust", "player": "Anna", "points": 45, "reason": "draw stop for the probe"},
        ):
            assert post("tl", "/api/action", a).status_code == 200
    else:
        _setup(s, post)
        if state == "placed":
            _place(post)
    table_before = _records(s)
    answers: dict[str, set] = defaultdict(set)

    def declare_others() -> None:
        for p in ("Bo", "Cilla", "Dan"):
            r = post(SEAT_OF[p], "/api/hand", {"cards": HANDS[p]})
            assert r.status_code == 200, r.text
            answers["hand"].add((r.status_code, r.text))  # the same answer as a probe's

    for card in ALL:
        other = "6D" if card != "6D" else "5D"  # in Cilla's declared hand: the deal cannot go in
        probe = list(dict.fromkeys([card, other, *HANDS["Anna"]]))[:5]
        if state == "declaring":
            declare_others()
            seen = s.first_message("seat1") if card == ALL[0] else None
            if seen is not None:  # the others' hands are in: Anna's phone sees their names only
                assert seen["declared"] == ["Bo", "Cilla", "Dan"] and not CARD_RE.findall(json.dumps(seen))
        kinds = {"hand": ("/api/hand", {"cards": probe}), "other_seat": ("/api/hand", {"cards": probe, "seat": 2})}
        if state != "declaring":
            kinds.update(_probes(state, card))
        for kind, (path, body) in kinds.items():
            r = post("seat1", path, body)
            answers[kind].add((r.status_code, r.text))
            assert not CARD_RE.findall(r.text) and card not in r.text, (kind, r.text)
    for kind, seen in answers.items():
        assert len(seen) == 1, (state, kind, sorted(seen)[:3])
        status = next(iter(seen))[0]
        assert status == (200 if kind == "hand" and state == "declaring" else 403 if kind != "hand" else 422), kind
    assert _records(s) == table_before  # no probe was accepted (refused deals are logged as rejected)
    mine = s.first_message("seat1")
    shown = set(CARD_RE.findall(json.dumps(mine)))
    if state == "declaring":
        # the check could fail: the TL's alerts tell the refused deals apart (the TL may
        # know), the Revisor's say one thing; then Anna's true hand goes in with the same answer
        tl_alerts = {a["text"] for a in s.first_message("tl")["alerts"] if a["text"].startswith("The players' phones")}
        rev_alerts = {a["text"] for a in s.first_message("revisor")["alerts"]}
        assert len(tl_alerts) > 1 and len(rev_alerts) == 1, (tl_alerts, rev_alerts)
        assert shown == set()  # no hand is in: nothing hidden on Anna's phone
        declare_others()
        r = post("seat1", "/api/hand", {"cards": HANDS["Anna"]})
        assert (r.status_code, r.text) in answers["hand"]
        assert [a["do"] for a in s.actions()][-1] == "deal" and s.actions()[-1]["hands"] == HANDS
        mine = s.first_message("seat1")
        shown = set(CARD_RE.findall(json.dumps(mine)))
    assert shown and shown <= set(HANDS["Anna"]), shown  # her own hand, no other hidden card
    client.close()


def test_the_tl_may_declare_a_seats_hand_and_nobody_else_may(make_server):
    """The fallback for a player without a phone is the TL's (README "Security"): the TL
    declares that seat's hand; the Revisor, the public and the dealer may not declare any,
    a seat none but its own, and a hand is five different cards."""
    s = make_server(command="serve", extra=("--camera-only",))

    def post(role, body, lang="en"):
        return httpx.post(f"{s.base}/api/hand", params={"token": s.token(role), "lang": lang}, json=body)

    for a in ({"do": "table", "players": list(HANDS)}, {"do": "game", "seats": list(HANDS), "button": "Dan"}):
        assert httpx.post(f"{s.base}/api/action", params={"token": s.token("tl")}, json=a).status_code == 200
    for role in ("revisor", "public", "dealer", "broadcast"):
        assert post(role, {"cards": HANDS["Anna"], "seat": 1}).status_code == 403, role
    r = post("seat1", {"cards": HANDS["Bo"], "seat": 2})
    assert r.status_code == 403 and "its own hand only" in r.json()["error"]
    assert post("seat1", {"cards": HANDS["Anna"][:4] + ["2S"]}).status_code == 422  # four different cards
    assert post("tl", {"cards": HANDS["Anna"]}).status_code == 422  # the TL says whose
    for p in ("Anna", "Bo", "Cilla"):
        assert post(SEAT_OF[p], {"cards": HANDS[p]}).status_code == 200
    assert s.actions()[-1]["do"] == "game"  # Dan's hand is missing: no deal yet
    assert post("tl", {"cards": HANDS["Dan"], "seat": 4}).status_code == 200  # Dan has no phone
    assert s.actions()[-1] == {"do": "deal", "hands": HANDS}
    r = post("seat1", {"cards": HANDS["Anna"]})  # dealt: nothing more to declare
    assert r.status_code == 422 and "at the deal" in r.json()["error"]


BY_SEATS = "Avvisad: vid det här bordet anger varje spelare sina egna lagda och fått kort i sin telefon."


def test_a_players_phone_learns_no_hidden_card_from_the_exchange(make_server):
    """The exchange from a seat's token (README "Security"): what a player places is judged
    from their own hand and public facts only (Anna at draw stop: every card one answer; Bo
    naming each card he does not hold: one answer); what a player receives is held until
    every player owed cards has entered theirs, then all go in or none, so every card gets
    one answer: Bo receives [C, 6D] for each of the 52 cards while Cilla, owed one card,
    enters a card from the stub, and since 6D is in Cilla's hand no exchange can go in.
    The table is unchanged; the TL's alerts tell the refusals apart, the Revisor's do not."""
    s = make_server(command="serve", extra=("--post-rate", "10000", "--camera-only"))
    client = httpx.Client(base_url=s.base, timeout=20)
    tokens = {r: s.token(r) for r in ("tl", "revisor", *SEAT_OF.values())}

    def post(role, body):
        return client.post("/api/exchange", params={"token": tokens[role]}, json=body)

    _setup(s, post=lambda role, path, body: client.post(path, params={"token": tokens[role]}, json=body))
    table_before = _records(s)
    answers: dict[str, set] = defaultdict(set)
    for card in ALL:
        r = post("seat1", {"cards": [card]})  # Anna is at draw stop: she places nothing (D5)
        answers["place at draw stop"].add((r.status_code, r.text))
        if card not in HANDS["Bo"]:
            r = post("seat2", {"cards": [card]})
            answers["place a card not held"].add((r.status_code, r.text))
        r = post("seat2", {"cards": [card, card]})
        answers["place a card twice"].add((r.status_code, r.text))
        r = post("seat1", {"cards": [card], "seat": 2})  # another seat's: refused before any card is read
        answers["another seat"].add((r.status_code, r.text))
        r = post("revisor", {"cards": [card], "seat": 2})
        answers["the Revisor"].add((r.status_code, r.text))
    assert _records(s) == table_before
    for kind, seen in answers.items():
        status = 403 if kind in ("another seat", "the Revisor") else 422
        assert len(seen) == 1 and next(iter(seen))[0] == status, (kind, sorted(seen)[:3])
        assert not CARD_RE.findall(next(iter(seen))[1])
    # now everyone places (Anna at draw stop places nothing: the exchange does not wait for
    # her): Bo is owed 2, Cilla's single card is declined
    for seat, cards in (("seat2", ["2H", "3H"]), ("seat3", ["2D"])):
        assert post(seat, {"cards": cards}).status_code == 200
    assert post("tl", {"cards": []}).status_code == 422  # the TL says whose
    assert post("tl", {"cards": [], "seat": 4}).status_code == 200  # Dan has no phone: the TL enters his
    r = client.post(  # the open card is the camera's, or the TL's (stop 66: the Revisor enters no card)
        "/api/action",
        params={"token": tokens["tl"]},
        json={"do": "open", "player": "Cilla", "card": "KC", "take": False},
    )
    assert r.status_code == 200, r.text
    table_before = _records(s)
    answers.clear()
    for card in ALL:
        other = "6D" if card != "6D" else "5D"  # in Cilla's hand: the exchange cannot go in
        r = post("seat2", {"cards": [card, other]})
        answers["receive"].add((r.status_code, r.text))
        r = post("seat3", {"cards": ["AC"]})  # the last one owed: the exchange is tried
        answers["receive, the last"].add((r.status_code, r.text))
    for kind, seen in answers.items():
        assert len(seen) == 1 and next(iter(seen))[0] == 200, (kind, sorted(seen)[:3])
        assert not CARD_RE.findall(next(iter(seen))[1])
    assert _records(s) == table_before  # no exchange went in
    tl_alerts = {a["text"] for a in s.first_message("tl")["alerts"] if a["text"].startswith("The players' phones")}
    rev_alerts = {
        a["text"] for a in s.first_message("revisor")["alerts"] if a["text"].startswith("The players' phones")
    }
    assert len(tl_alerts) > 1 and len(rev_alerts) == 1, (tl_alerts, rev_alerts)
    bo = s.first_message("seat2")
    assert set(CARD_RE.findall(json.dumps(bo))) <= set(HANDS["Bo"]) | {"KC"}  # his own, and the open card
    # the true cards go in, with the same answers
    r = post("seat2", {"cards": ["7H", "8H"]})
    assert (r.status_code, r.text) in answers["receive"]
    r = post("seat3", {"cards": ["AC"]})
    assert (r.status_code, r.text) in answers["receive, the last"]
    assert [(a["do"], a["player"]) for a in s.actions()[-2:]] == [("receive", "Bo"), ("receive", "Cilla")]
    client.close()


def test_an_open_card_from_the_reshuffled_discards_goes_in_after_the_cards_before_it_r16(tmp_path):
    """r16 on a camera-only table: the stub runs out in the middle of exchange 3 (one card
    left, Anna owed two, Bo's open card from the reshuffled discards).  Anna's received
    cards are held, so the open card is refused at first (one answer, as for any other);
    once Anna's are in, the open card (the TL's entry, where the camera missed it) goes in
    after them, in turn (r14), and the rest of the exchange follows."""
    import asyncio

    from dashboard.errors import DashboardError

    async def run():
        hub = await _dealt_camera_only_hub(tmp_path)
        deal = hub.engine.state.games[-1].deal
        order, seat = deal.order, {p: SEAT_OF[p] for p in HANDS}
        stub = [c for c in ALL if all(c not in h for h in HANDS.values())]

        def hand(p):
            return [c.code for c in hub.engine.state.games[-1].deal.hands[p]]

        async def settle():  # four of a kind from the stub's order: points (r19)
            while str(hub.engine.phase).startswith("quads"):
                asking = hub.engine.state.games[-1].deal.asking[0]
                await hub.post({"do": "quads", "player": asking, "choice": "points"}, "tl")

        for counts in ({p: 4 if i < 3 else 3 for i, p in enumerate(order)}, dict.fromkeys(order, 4)):
            for p in order:  # 15, then 16 cards: one card left in the stub
                await hub.exchange(hand(p)[: counts[p]], seat[p])
            for p in order:
                await hub.exchange([stub.pop(0) for _ in range(counts[p])], seat[p])
            await settle()
        anna, bo = order[0], order[1]
        await hub.exchange(hand(anna)[:2], seat[anna])
        await hub.exchange(hand(bo)[:1], seat[bo])
        for p in order[2:]:
            await hub.exchange([], seat[p])
        deal = hub.engine.state.games[-1].deal
        left, earlier = [c.code for c in deal.stub], sorted(c.code for c in deal.discards_earlier)
        assert len(left) == 1 and earlier
        shown = {"do": "open", "player": bo, "card": earlier[0], "take": True}
        with pytest.raises(DashboardError):  # Anna's cards are not in yet
            await hub.post(shown, "tl")  # the camera's, or the TL's (stop 66: the Revisor enters no card)
        assert (await hub.exchange([left[0], earlier[1]], seat[anna]))["ok"]
        assert hub.received() == {anna: (left[0], earlier[1])}  # held: Bo's open card is still to come
        n = len(hub.engine.events)
        await hub.post(shown, "tl")  # now: Anna's two (the reshuffle between them), then the open card
        kinds = [type(e).__name__ for e in hub.engine.events[n:]]
        assert kinds[:4] == ["StubReshuffled", "CardsReceived", "OpenCardShown", "ExchangeEnded"], kinds
        assert str(hub.engine.phase) != "exchange_3" and hub.received() == {}
        hub.log.close()

    asyncio.run(run())


def test_a_blind_role_gets_no_message_when_only_the_tls_view_changed(tmp_path):
    """Every change the table publishes went to every role, identical or not: a TL-only
    alert (a revoke, sensing's) or a refusal counted again sent the Revisor and the public
    one more copy of what they already had, so the message itself told that something
    hidden had happened (stop 63's second audit). A text the same as the last one a client
    was offered is not offered again; the TL, whose view changed, gets it."""
    import asyncio

    from table_controller.sensing.alerts import Alert

    async def run():
        hub = await _dealt_camera_only_hub(tmp_path)
        clients = {r: hub.connect(r) for r in ("revisor", "public", "dealer", "tl")}
        for c in clients.values():
            while not c.queue.empty():
                c.queue.get_nowait()
        hub._add(Alert(-7, "revoke", "Anna did not follow suit with 4H while able (r26)", "Anna", "seat1", {}))
        got = {r: c.queue.qsize() for r, c in clients.items()}
        hub.log.close()
        return got

    assert asyncio.run(run()) == {"revisor": 0, "public": 0, "dealer": 0, "tl": 1}
