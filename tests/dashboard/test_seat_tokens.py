"""Attacker probes of a seat's link (issue 13: nothing hidden leaks by any path).

A seat's token (``seat1``..``seat4``, a player's own phone on a camera-only table) sees
"the hand of the player sitting at that seat now" (README "Security").  But seats are drawn
again for every game (RULES.md r7), and the event's tokens are one file shared by every
table (``serve --tokens``).  So the link a player was handed for their seat could keep
working after they have moved, or at another table of the event, and show (and declare)
the hand of somebody else.  Each test takes a table to a deal whose hands are in, then looks
with the link a player holds from elsewhere, against a real ``chicago-table serve
--camera-only`` (the first over a table made with ``chicago-table log import``).  Each table
answers to its own seat links only (``RoleTokens.at_table``), and a seat's link belongs to
the player who sat there in the table's first game, whose seat it follows (``TableHub.holder``).
"""

from __future__ import annotations

import contextlib
import json
import subprocess

import httpx

from .harness import CLI, ROOT, Server, cards_in_text
from .test_oracle import HANDS

FULL_TABLE = (ROOT / "table_controller/examples/full_table.jsonl").read_text().splitlines()
GAME2 = 794  # FULL_TABLE[GAME2]: game 2's seat draw (Anna at seat 1; Dan sat there in game 1)


def _first(s: Server, token: str) -> str:
    """The first message a WebSocket of ``token`` is sent (the current state)."""
    from websockets.sync.client import connect

    with connect(f"{s.ws_base}/ws?token={token}", open_timeout=5, max_size=None) as ws:
        return ws.recv(timeout=5)


def _seen(s: Server, token: str) -> set[str]:
    """Every card code a WebSocket of ``token`` is shown on connecting (none if refused)."""
    from websockets.exceptions import InvalidStatus

    try:
        return cards_in_text(_first(s, token))
    except InvalidStatus:
        return set()


def test_a_seat_link_from_an_earlier_game_shows_no_hand_of_who_sits_there_now_r7(make_server, tmp_path):
    """Dan sat at seat 1 in game 1 and keeps that link on his phone; game 2's draw puts
    Anna at seat 1 and Dan at seat 4 (r7).  Dan's link follows Dan: the hand it sends is
    his, and once game 2 is dealt it shows his hand and none of Anna's, whose own link (seat 2's
    in game 1) shows hers; so does a phone left open on Dan's link since game 1."""
    script = tmp_path / "game1.jsonl"
    script.write_text("\n".join(FULL_TABLE[:GAME2]) + "\n")
    data = tmp_path / "t"
    data.mkdir()
    r = subprocess.run(
        CLI + ["log", "import", str(script), "--db", str(data / "table.sqlite")], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    s = Server(data, command="serve", extra=("--camera-only",)).start()
    try:
        assert json.loads(FULL_TABLE[2])["seats"][:2] == ["Dan", "Anna"]  # game 1's draw: the links handed out
        dans_link, annas_link = s.token("seat1"), s.token("seat2")
        tl = {"token": s.token("tl")}
        from websockets.sync.client import connect

        phone = contextlib.ExitStack()
        dans_phone = phone.enter_context(connect(f"{s.ws_base}/ws?token={dans_link}", open_timeout=5, max_size=None))
        game2 = json.loads(FULL_TABLE[GAME2])
        assert game2["seats"][0] == "Anna" and game2["seats"][3] == "Dan"
        assert httpx.post(f"{s.base}/api/action", params=tl, json=game2).status_code == 200
        deal = json.loads(FULL_TABLE[GAME2 + 1])
        r = httpx.post(f"{s.base}/api/hand", params={"token": dans_link}, json={"cards": deal["hands"]["Dan"]})
        assert r.status_code == 200, r.text
        declared = json.loads(_first(s, dans_link))
        assert declared["declared"] == ["Dan"] and (declared["seat"], declared["player"]) == (4, "Dan")
        r = httpx.post(
            f"{s.base}/api/hand", params={"token": dans_link}, json={"cards": deal["hands"]["Dan"], "seat": 1}
        )
        assert r.status_code == 403, r.text  # not Anna's seat
        assert httpx.post(f"{s.base}/api/action", params=tl, json=deal).status_code == 200
        assert _seen(s, dans_link) == set(deal["hands"]["Dan"])
        assert _seen(s, annas_link) == set(deal["hands"]["Anna"])
        # nor does it place Anna's cards in the exchange: seat 1 is not his seat now
        anna_card = deal["hands"]["Anna"][0]
        r = httpx.post(f"{s.base}/api/exchange", params={"token": dans_link}, json={"cards": [anna_card], "seat": 1})
        assert r.status_code == 403, r.text
        r = httpx.post(f"{s.base}/api/exchange", params={"token": dans_link}, json={"cards": [anna_card]})
        assert r.status_code != 200 and anna_card not in r.text, r.text  # Dan's own exchange: not his card
        shown = []  # every state the phone open since game 1 was sent, to the deal's
        while not shown or shown[-1] != set(deal["hands"]["Dan"]):
            shown.append(cards_in_text(dans_phone.recv(timeout=5)))
        assert not set().union(*shown) & set(deal["hands"]["Anna"]), shown
        phone.close()
    finally:
        s.stop()


def test_a_seat_link_from_one_table_shows_no_hand_at_another_table(make_server, tmp_path):
    """Two camera-only tables of one event share its token file (``--tokens``).  The link
    of table 1's seat 1, where Anna sits, shows nothing hidden at table 2, where Erik sits
    at seat 1 and the deal is in."""
    tokens = tmp_path / "event-tokens.json"
    one = make_server(command="serve", extra=("--camera-only", "--tokens", str(tokens), "--name", "Bord 1"))
    two = make_server(command="serve", extra=("--camera-only", "--tokens", str(tokens), "--name", "Bord 2"))
    annas_link = one.token("seat1")  # as table 1 prints it
    assert annas_link != two.token("seat1") and annas_link != json.loads(tokens.read_text())["seat1"]
    tl = {"token": json.loads(tokens.read_text())["tl"]}
    players = {"Erik": HANDS["Anna"], "Frida": HANDS["Bo"], "Gun": HANDS["Cilla"], "Hugo": HANDS["Dan"]}
    for s, names in ((one, list(HANDS)), (two, list(players))):
        for a in ({"do": "table", "players": names}, {"do": "game", "seats": names, "button": names[-1]}):
            assert httpx.post(f"{s.base}/api/action", params=tl, json=a).status_code == 200
    assert httpx.post(f"{two.base}/api/action", params=tl, json={"do": "deal", "hands": players}).status_code == 200
    assert httpx.post(f"{one.base}/api/action", params=tl, json={"do": "deal", "hands": HANDS}).status_code == 200
    assert _seen(one, annas_link) == set(HANDS["Anna"])  # the check could fail: her own hand, at her table
    shown = _seen(two, annas_link)
    assert not shown & set(players["Erik"]), shown
    r = httpx.post(f"{two.base}/api/hand", params={"token": annas_link}, json={"cards": players["Erik"]})
    assert r.status_code == 401, r.text  # not a link of this table
