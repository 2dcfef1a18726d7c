"""RFID decks: which UID is which card (ARCHITECTURE.md §1).

    >>> uids = ["04A1B2C3D4E5F6", *(f"04A1B2C3D4{n:04X}" for n in range(51))]
    >>> deck = Deck.from_order(uids, FULL_DECK)          # scanned in a known order
    >>> deck.card("04A1B2C3D4E5F6")
    Card('2S')
    >>> deck.check(uids).ok                              # before a game: all 52 seen
    True
    >>> deck.check(uids[1:]).missing                     # the 2S lies under the table
    (Card('2S'),)

A deck is registered once (UID -> card), saved as a small JSON file, and checked before
each game: 52 cards, no duplicates, no unknown UID.  The dealer button puck carries a
tag too; a deck may name it so that sensing ignores it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules.cards import FULL_DECK, Card
from table_controller.rules.errors import CardError

FORMAT = "chicago-deck/1"


class DeckError(ValueError):
    """A deck file or registration that does not add up; the message says what to do.
    ``kind`` and ``params``, where given, let the console say it in its own words
    (``app.words.deck_error_words``)."""

    def __init__(self, text: str, kind: str = "", **params: Any) -> None:
        super().__init__(text)
        self.kind, self.params = kind, params


_HEX = frozenset("0123456789ABCDEF")


def _uid(text: object) -> str:
    if not isinstance(text, str):
        raise DeckError(f"a UID is hex text, not {text!r}", "uid", given=repr(text))
    u = text.strip().upper().replace(":", "")
    if not u or len(u) > 32 or not _HEX.issuperset(u):
        raise DeckError(f"not a UID: {text!r} (hex digits, e.g. 04A1B2C3D4E5F6)", "uid", given=repr(text))
    return u


def _english(text: str, **params: Any) -> str:
    return text.format(**params)


def _english_n(singular: str, plural: str, n: int, **params: Any) -> str:
    return (singular if n == 1 else plural).format(n=n, **params)


@dataclass(frozen=True, slots=True)
class DeckReport:
    """The result of checking a deck (or a scan of it) against the 52 cards."""

    missing: tuple[Card, ...] = ()  # cards no registered (or seen) UID stands for
    duplicates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # card code -> UIDs
    unknown: tuple[str, ...] = ()  # UIDs seen that the deck does not know

    @property
    def ok(self) -> bool:
        return not (self.missing or self.duplicates or self.unknown)

    def lines(self, say: Callable[..., str] = _english, say_n: Callable[..., str] = _english_n) -> list[str]:
        """The report in words; ``say`` and ``say_n`` (a text counted) put it in another
        language (``setup`` says them in Swedish: table_controller/app/words.py).

            >>> DeckReport(unknown=("04AA",)).lines()
            ['1 unknown UID: 04AA']
        """
        if self.ok:
            return [say("deck OK: 52 cards, no duplicates, no unknown UIDs")]
        out = []
        if self.missing:
            out.append(
                say_n(
                    "missing {n} card: {cards}",
                    "missing {n} cards: {cards}",
                    len(self.missing),
                    cards=" ".join(c.code for c in self.missing),
                )
            )
        for code, uids in self.duplicates.items():
            out.append(say("{card} has {n} UIDs: {uids}", card=code, n=len(uids), uids=", ".join(uids)))
        if self.unknown:
            out.append(
                say_n(
                    "{n} unknown UID: {uids}",
                    "{n} unknown UIDs: {uids}",
                    len(self.unknown),
                    uids=", ".join(self.unknown),
                )
            )
        return out


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    cards: Mapping[str, Card]  # UID -> card
    puck: str | None = None  # the dealer button puck's tag

    # --- building ----------------------------------------------------------------------
    @classmethod
    def from_order(
        cls, uids: Iterable[str], order: Iterable[Card] = FULL_DECK, name: str = "deck", puck: str | None = None
    ) -> Deck:
        """UIDs scanned one card at a time in a known order (default: 2S 3S ... AC)."""
        uids = [_uid(u) for u in uids]
        order = list(order)
        if len(uids) != len(order):
            raise DeckError(
                f"{len(uids)} UIDs scanned for {len(order)} cards: scan each card once, in order",
                "count",
                n=len(uids),
                cards=len(order),
            )
        return cls.from_pairs(zip(uids, order), name, puck)

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, Card]], name: str = "deck", puck: str | None = None) -> Deck:
        cards: dict[str, Card] = {}
        for uid, card in pairs:
            uid = _uid(uid)
            if uid in cards and cards[uid] != card:
                raise DeckError(
                    f"UID {uid} scanned as both {cards[uid]} and {card}: one tag per card",
                    "twice",
                    uid=uid,
                    first=cards[uid].code,
                    second=card.code,
                )
            cards[uid] = card
        return cls(name, cards, _uid(puck) if puck else None)

    # --- questions ---------------------------------------------------------------------
    def card(self, uid: str) -> Card | None:
        """The card a UID stands for, or None for a UID this deck does not know."""
        hit = self.cards.get(uid)  # the readers' own spelling is the stored one: no parsing
        if hit is not None:
            return hit
        try:
            return self.cards.get(_uid(uid))
        except DeckError:
            return None

    def uid_of(self, card: Card) -> str | None:
        for u, c in self.cards.items():
            if c == card:
                return u
        return None

    def with_card(self, uid: str, card: Card) -> Deck:
        """A correction: this UID is this card (a replaced or unreadable inlay)."""
        cards = {u: c for u, c in self.cards.items() if c != card}
        cards[_uid(uid)] = card
        return Deck(self.name, cards, self.puck)

    def check(self, seen: Iterable[str] | None = None) -> DeckReport:
        """Check the registration (and, with ``seen``, a scan of the physical deck)."""
        by_card: dict[Card, list[str]] = {}
        for u, c in self.cards.items():
            by_card.setdefault(c, []).append(u)
        dup = {c.code: tuple(sorted(us)) for c, us in sorted(by_card.items()) if len(us) > 1}
        if seen is None:
            missing = tuple(c for c in FULL_DECK if c not in by_card)
            return DeckReport(missing, dup, ())
        seen_set = set()
        unknown = []
        for u in seen:
            uu = _uid(u)
            if uu == self.puck:
                continue
            if uu not in self.cards:
                unknown.append(uu)
            seen_set.add(uu)
        present = {self.cards[u] for u in seen_set if u in self.cards}
        missing = tuple(c for c in FULL_DECK if c not in present)
        return DeckReport(missing, dup, tuple(sorted(set(unknown))))

    # --- files -------------------------------------------------------------------------
    def to_dict(self) -> dict:
        out = {
            "format": FORMAT,
            "name": self.name,
            "cards": {u: c.code for u, c in sorted(self.cards.items(), key=lambda kv: kv[1])},
        }
        if self.puck:
            out["puck"] = self.puck
        return out

    @classmethod
    def from_dict(cls, d: object) -> Deck:
        if not isinstance(d, Mapping) or d.get("format") != FORMAT:
            raise DeckError(f"not a deck file (expected format {FORMAT!r})", "format", format=FORMAT)
        cards = d.get("cards")
        if not isinstance(cards, Mapping):
            raise DeckError("a deck file needs 'cards': {UID: card}", "cards")
        pairs = []
        for u, code in cards.items():
            try:
                pairs.append((u, Card.parse(code)))
            except CardError as exc:
                raise DeckError(f"UID {u}: {exc}", "card", uid=u, card=repr(code)) from None
        name = d.get("name", "deck")
        return cls.from_pairs(pairs, str(name), d.get("puck"))

    def save(self, path: str | os.PathLike) -> None:
        tmp = f"{path}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Deck:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            raise DeckError(
                f"no deck file {path}: register one with 'chicago-table deck register'", "missing", path=path
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckError(f"cannot read deck file {path}: {exc}", "unreadable", path=path, error=exc) from None
        except json.JSONDecodeError as exc:
            raise DeckError(
                f"{path} is not JSON: {exc.msg} at line {exc.lineno}", "json", path=path, line=exc.lineno
            ) from None
        return cls.from_dict(data)


# --- the virtual deck ------------------------------------------------------------------
# The deck a table uses until a real one is registered, and the one the simulated table
# (hardware/virtual) deals: each tag's UID is derived from its card's code, so every run,
# process and test sees the same UID for the same card.  Defined here, beside Deck, so
# that the controller never imports the simulator for it (the simulator imports this).
PUCK = "PUCK"  # the dealer button puck carries a tag too


def virtual_uid(code: str, salt: str = "", inlay: str = "iso14443") -> str:
    """The virtual deck's UID for ``code``: 7 bytes starting 04, as NXP inlays; an ISO 15693
    inlay (a PN5180 table) has 8 bytes, the same after E0, as NXP ICODE UIDs begin.
    ``salt`` gives a second, different deck (a spare deck).

    >>> virtual_uid("AS") == virtual_uid("AS"), len(virtual_uid("AS")), virtual_uid("AS", inlay="iso15693")[:4]
    (True, 14, 'E004')
    """
    digest = hashlib.sha256(f"chicago-virtual:{salt}:{code}".encode()).hexdigest()
    uid = ("04" + digest[:12]).upper()
    if inlay == "iso15693":
        return "E0" + uid
    if inlay != "iso14443":
        raise DeckError(f"inlay {inlay!r}: iso14443 or iso15693")
    return uid


def virtual_deck(salt: str = "", inlay: str = "iso14443") -> Deck:
    """The virtual deck as if registered at the table (the simulated table deals it);
    ``inlay="iso15693"`` for a table with PN5180 readers."""
    return Deck.from_pairs(
        ((virtual_uid(c.code, salt, inlay), c) for c in FULL_DECK),
        "virtual" + (f"-{salt}" if salt else ""),
        virtual_uid(PUCK, inlay=inlay),
    )
