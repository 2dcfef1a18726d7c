"""``chicago-table deck``: register, check and show RFID decks.

    chicago-table deck register --port PORT --out deck.json          # card by card, prompted
    chicago-table deck register --uids scans.txt --out deck.json     # UIDs scanned in order 2S..AC
    chicago-table deck check deck.json [--port PORT | --uids seen.txt]
    chicago-table deck show deck.json

Registering: put each card on the dealer's tray when asked (2S, 3S, ... AC: ranks
2..A within spades, hearts, diamonds, clubs), or give a file of UIDs scanned in that
order, one per line.  Checking: 52 cards, no duplicates, no unknown UID; with a port
(or a file of UIDs seen) the physical deck is checked too, and what is missing is named.

What it says to a person is in Swedish, English with ``--lang en`` (table_controller/app/words.py),
as ``setup`` says a deck: its help, the prompts at the tray, the report, a file that cannot
be read or does not add up.  A deck file's contents and the exit statuses stay as they are
(0: a whole deck; 1: the check found a problem; 2: bad input).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from table_controller.rules.cards import FULL_DECK, Card

from ..words import add_lang, deck_error_words, missing_port_words, os_error_with_file, say, say_n, speaking, spoken


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_lang(p)
    sub = p.add_subparsers(dest="deck_command", metavar=say("ACTION"), required=True)
    r = sub.add_parser(
        "register",
        help=say("register a deck (UID -> card)"),
        description=say(
            "Register a deck: scan each card in order 2S 3S .. AS 2H .. AC, prompted on a port, or from a file of UIDs."
        ),
    )
    src = r.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", help=say("the seat controller's port: put each card on the tray when asked"))
    src.add_argument("--uids", metavar="FILE", help=say("UIDs scanned in order, one per line"))
    r.add_argument("--out", required=True, metavar="FILE", help=say("where to save the deck (JSON)"))
    r.add_argument("--name", default="deck", help=say("the deck's name (printed on alerts; default %(default)s)"))
    r.add_argument(
        "--puck", metavar="UID", help=say("the dealer button puck's tag, ignored by sensing (default: none)")
    )
    c = sub.add_parser(
        "check",
        help=say("check a deck file, and a scan of the physical deck"),
        description=say(
            "Check a deck: 52 cards, no duplicates, no unknown UIDs.  Exit status 0: a whole deck; "
            "1: a problem found; 2: the file cannot be read."
        ),
    )
    c.add_argument("file", help=say("the deck file (JSON)"))
    seen = c.add_mutually_exclusive_group()
    seen.add_argument("--port", help=say("read the deck as it is moved across the tray (Ctrl-C or --seconds ends)"))
    seen.add_argument("--uids", metavar="FILE", help=say("UIDs seen, one per line"))
    c.add_argument(
        "--seconds", type=float, default=120.0, help=say("(with --port) how long to read (default %(default)g)")
    )
    s = sub.add_parser(
        "show", help=say("list a deck's cards and UIDs"), description=say("List a deck's cards and UIDs.")
    )
    s.add_argument("file", help=say("the deck file (JSON)"))
    for action in (r, c, s):
        add_lang(action, argparse.SUPPRESS)


def _fail(msg: str) -> int:
    print(f"chicago-table deck: {msg}", file=sys.stderr)
    return 2


def read_uids(path: str) -> list[str]:
    """The UIDs of a text file, one per line ('#' starts a comment)."""
    from table_controller.deck import DeckError

    try:
        with open(path, encoding="utf-8") as f:
            return [line.split("#", 1)[0].strip() for line in f if line.split("#", 1)[0].strip()]
    except UnicodeDecodeError:
        raise DeckError(f"{path} is not a text file of UIDs (one per line, UTF-8)", "text", path=path) from None


def main(args: argparse.Namespace) -> int:
    with speaking(getattr(args, "lang", None) or spoken()):
        return _deck(args)


def _deck(args: argparse.Namespace) -> int:
    from table_controller.app.outputs import OutputError, check_output
    from table_controller.deck import Deck, DeckError

    try:
        if args.deck_command == "show":
            deck = Deck.load(args.file)
            head = say_n("deck '{name}': {n} tag", "deck '{name}': {n} tags", len(deck.cards), name=deck.name)
            print(head + (say(", button puck {puck}", puck=deck.puck) if deck.puck else ""))
            for uid, card in sorted(deck.cards.items(), key=lambda kv: kv[1]):
                print(f"{card.code}  {card.pretty():4}  {uid}")
            return 0
        port = getattr(args, "port", None)
        if port and (problem := missing_port_words(port)):  # said now: the prompts would wait on it for ever
            return _fail(problem)
        if args.deck_command == "register":
            check_output(args.out, args.uids)
            if args.uids:
                deck = Deck.from_order(read_uids(args.uids), FULL_DECK, args.name, args.puck)
            else:
                deck = asyncio.run(register_on_port(args.port, args.name, args.puck))
            report = deck.check()
            deck.save(args.out)
            print(say_n("saved {n} card to {path}", "saved {n} cards to {path}", len(deck.cards), path=args.out))
            for line in report.lines(say, say_n):
                print(line)
            return 0 if report.ok else 1
        deck = Deck.load(args.file)
        seen = None
        if args.uids:
            seen = read_uids(args.uids)
        elif args.port:
            seen = asyncio.run(_read_on_port(args.port, deck, args.seconds))
        report = deck.check(seen)
        for line in report.lines(say, say_n):
            print(line)
        return 0 if report.ok else 1
    except DeckError as exc:
        return _fail(deck_error_words(exc))
    except OutputError as exc:  # said in the words spoken as it was raised
        return _fail(str(exc))
    except OSError as exc:  # a file named that cannot be read: its name and the system's words
        return _fail(os_error_with_file(exc))
    except KeyboardInterrupt:
        return 130


async def register_on_port(port: str, name: str, puck: str | None, link_seconds: float = 10.0):
    from firmware_bridge import SeatControllerClient
    from table_controller.deck import Deck, DeckError
    from table_controller.sensor_events import PadContents

    pairs: list[tuple[str, Card]] = []
    async with SeatControllerClient(port) as sc:
        await _answered(sc, port, link_seconds)  # stop 72: a silent port asked for the first card for ever
        for i, card in enumerate(FULL_DECK, 1):
            print(
                f"[{i}/52] " + say("put {card} ({pretty}) alone on the tray", card=card.code, pretty=card.pretty()),
                flush=True,
            )
            while True:
                ev = await sc.next_event()
                if isinstance(ev, PadContents) and ev.pad == "tray" and len(ev.uids) == 1:
                    uid = next(iter(ev.uids))
                    if any(u == uid for u, _ in pairs):
                        print(
                            "  " + say("{uid} is already {card}: another card, please", uid=uid, card=dict(pairs)[uid]),
                            flush=True,
                        )
                        continue
                    pairs.append((uid, card))
                    print("  " + say("{card} = {uid}; take it off the tray", card=card.code, uid=uid), flush=True)
                    break
                if isinstance(ev, PadContents) and ev.pad == "tray" and len(ev.uids) > 1:
                    print("  " + say("one card at a time on the tray"), flush=True)
    if len(pairs) != 52:
        raise DeckError("registration stopped before all 52 cards", "stopped")
    return Deck.from_pairs(pairs, name, puck)


LINK_SECONDS = 10.0  # how long a seat controller may take to answer on its port


async def _answered(sc, port: str, seconds: float = LINK_SECONDS) -> None:
    """DeckError unless the seat controller on ``port`` is online within ``seconds``."""
    from table_controller.deck import DeckError

    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not sc.online:
        if loop.time() >= end:
            raise DeckError(
                f"no seat controller answered on {port} in {seconds:g} s: is it plugged in, and is this its port?",
                "silent",
                port=port,
                seconds=float(seconds),
            )
        try:
            await sc.next_event(timeout=max(0.05, min(0.25, end - loop.time())))
        except TimeoutError:
            pass


async def _read_on_port(port: str, deck, seconds: float) -> list[str]:
    from firmware_bridge import SeatControllerClient
    from table_controller.sensor_events import PadContents

    seen: set[str] = set()
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    print(
        say("move every card across the tray (reading for {seconds:g} s, Ctrl-C stops)", seconds=float(seconds)),
        flush=True,
    )
    async with SeatControllerClient(port) as sc:
        await _answered(sc, port, min(seconds, LINK_SECONDS))  # else "52 missing" for a silent port
        try:
            while loop.time() < end and len({u for u in seen if deck.card(u)}) < 52:
                try:
                    ev = await sc.next_event(timeout=max(0.05, end - loop.time()))
                except TimeoutError:
                    break
                if isinstance(ev, PadContents):
                    seen |= set(ev.uids)
        except asyncio.CancelledError:  # Ctrl-C ends the reading, as --seconds does: the report follows
            pass
    return sorted(seen)
