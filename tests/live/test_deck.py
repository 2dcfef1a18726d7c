"""Decks: register (in order, from a file or card by card on the tray), save, check."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from table_controller.app.commands.deck import register_on_port
from table_controller.deck import Deck, DeckError, virtual_deck
from table_controller.rules.cards import FULL_DECK, Card


def test_registration_in_order_round_trips_through_a_file(tmp_path):
    uids = [f"04{i:012X}" for i in range(52)]
    deck = Deck.from_order(uids, name="A")
    assert deck.card(uids[0]) == FULL_DECK[0] and deck.card("04ffffffffffff") is None
    deck.save(tmp_path / "a.json")
    assert Deck.load(tmp_path / "a.json") == deck
    assert deck.check().ok


def test_check_names_what_is_missing_duplicated_or_unknown():
    deck = virtual_deck()
    seen = [u for u, c in deck.cards.items() if c != Card.parse("7H")] + ["DEADBEEF", deck.puck]
    report = deck.check(seen)
    assert report.missing == (Card.parse("7H"),) and report.unknown == ("DEADBEEF",)
    assert any("7H" in line for line in report.lines())
    dup = deck.with_card("04AAAAAAAAAAAA", Card.parse("2S"))
    assert dup.check().ok  # a correction replaces the card's old tag
    pairs = list(deck.cards.items())[:51] + [("04BBBBBBBBBBBB", pairs_card := Card.parse("AS"))]
    report = Deck.from_pairs(pairs).check()
    assert not report.ok and ("AS" in report.duplicates or pairs_card in report.missing)


def test_bad_files_are_clear_errors(tmp_path):
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(DeckError, match="not JSON"):
        Deck.load(tmp_path / "x.json")
    (tmp_path / "y.json").write_text(json.dumps({"format": "chicago-deck/1", "cards": {"04AB": "ZZ"}}))
    with pytest.raises(DeckError, match="04AB"):
        Deck.load(tmp_path / "y.json")
    with pytest.raises(DeckError, match=r"52 cards|UIDs scanned"):
        Deck.from_order(["04AB"] * 3)


def test_deck_cli_register_check_show(tmp_path):
    deck = virtual_deck()
    (tmp_path / "scan.txt").write_text("\n".join(deck.uid_of(c) for c in FULL_DECK) + "\n")
    (tmp_path / "seen.txt").write_text("\n".join(deck.uid_of(c) for c in FULL_DECK[1:]) + "\nDEADBEEF\n")

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "table_controller.app.cli", "deck", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )

    out = run("register", "--uids", str(tmp_path / "scan.txt"), "--out", str(tmp_path / "d.json"))
    assert out.returncode == 0 and "leken stämmer" in out.stdout  # deck OK, said in Swedish first
    out = run("check", str(tmp_path / "d.json"), "--uids", str(tmp_path / "seen.txt"))
    assert out.returncode == 1 and "1 kort saknas: 2S" in out.stdout and "DEADBEEF" in out.stdout
    out = run("show", str(tmp_path / "d.json"))
    assert out.returncode == 0 and out.stdout.count("\n") == 53
    out = run("check", str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "registrera" in out.stderr and "Traceback" not in out.stderr


def test_register_card_by_card_on_the_virtual_tray():
    """In simulated time (issue 15): the registration reads the virtual table's sim:// line."""
    from hardware.firmware.controller import Config
    from hardware.virtual import VirtualTable
    from hardware.virtual.simtime import run_simulated

    async def main():
        with VirtualTable(config=Config(confirm_reads=2, gone_ms=40, scan_ms=2), simulated=True) as table:

            async def dealer():
                await asyncio.sleep(0.3)
                for c in FULL_DECK:
                    table.put(c.code, "tray")
                    await asyncio.sleep(0.02)  # simulated: confirmed after 2 scans of 2 ms
                    table.remove(c.code)
                    await asyncio.sleep(0.08)  # simulated: gone after 40 ms unseen

            task = asyncio.create_task(dealer())
            deck = await asyncio.wait_for(register_on_port(table.port, "tray-deck", None), 60)
            await task
            return table, deck

    table, deck = run_simulated(main())
    assert deck.check().ok
    assert all(deck.card(table.deck.uid(c.code)) == c for c in FULL_DECK)


def test_a_port_where_no_seat_controller_answers_is_said_not_waited_on_for_ever(tmp_path):
    """Stop 72's audit: ``deck register --port`` on a port nobody answers asked for the first
    card for ever, and ``deck check --port`` reported "missing 52 cards". Both say that no
    seat controller answered (a real pseudo-terminal that nobody answers)."""
    import os

    from table_controller.app.commands.deck import _read_on_port

    leader, follower = os.openpty()
    try:
        silent = os.ttyname(follower)
        with pytest.raises(DeckError, match=f"no seat controller answered on {silent} in 0.5 s"):
            asyncio.run(_read_on_port(silent, virtual_deck(), 0.5))
        with pytest.raises(DeckError, match=f"no seat controller answered on {silent} in 0.5 s"):
            asyncio.run(register_on_port(silent, "d", None, link_seconds=0.5))
    finally:
        os.close(leader)
        os.close(follower)
