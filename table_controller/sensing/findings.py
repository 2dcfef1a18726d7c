"""What does not add up right now: the conditions behind sensing's alerts.

Derived afresh after every sensor event and accepted action, and at the first tick after
a timer they asked about runs out (``Sensing.waited``: a card no longer lingering, a quiet
pad, a short count), so an alert ends by itself when its cause is gone.  Each finding names
the seat and the evidence and says what settles it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from table_controller.rules.phases import Phase

from .alerts import Finding

if TYPE_CHECKING:  # pragma: no cover
    from table_controller.rules.actions import Action

    from .machine import Sensing


def action_key(action: Action) -> tuple:
    """An action as a hashable key (its fields): what the rules refused, and a "rejected"
    finding's identity, are kept by it."""
    d = action.to_dict()
    return tuple(sorted((k, repr(v)) for k, v in d.items()))


def _seat(s: Sensing, pad: str | None, player: str | None = None) -> str:
    player = player or (s.facts.player_at(pad) if pad else None)
    if pad and player:
        return f"{pad} ({player})"
    return pad or player or "the table"


def findings(s: Sensing) -> Iterator[Finding]:
    f = s.facts
    if not s.link_ok:
        yield Finding(
            ("link",),
            "link_offline",
            "The seat controller's link is down: no pad is read. Reconnect it, or enter actions by hand.",
        )
    if not s.camera_ok:
        yield Finding(
            ("camera",),
            "camera_offline",
            "The camera is offline: the table plays on with the RFID readers; it comes back by itself "
            "when its frames return.",
            holds=False,
        )
    for pad, ok in sorted(s.readers_ok.items()):
        if not ok:
            player = f.player_at(pad)
            yield Finding(
                ("reader", pad),
                "reader_offline",
                f"The reader of {_seat(s, pad)} is offline: enter that seat's cards by hand until it is back.",
                player,
                pad,
                holds=player is not None,
            )
    yield from _tags(s)
    if f.phase is Phase.DEAL:
        yield from _deal(s)
    elif f.phase.is_exchange:
        yield from _exchange(s)
    elif f.phase is Phase.TRICKS:
        yield from _tricks(s)
    raw = s.raw_proposal()
    if raw is not None:
        reason = s.refusal(raw)
        if reason is not None:
            player = getattr(raw, "player", None)
            yield Finding(
                ("rejected", action_key(raw)),
                "rejected",
                f"The rules refused what the pads show ({raw.do} {_what(raw)}): {reason}. "
                "Put it right at the table or enter a correction.",
                player,
                f.pad_of(player) if player else None,
                {"action": raw.to_dict()},
            )


def _what(a) -> str:
    d = a.to_dict()
    d.pop("do", None)
    return ", ".join(f"{k} {v}" for k, v in d.items())


def _tags(s: Sensing) -> Iterator[Finding]:
    # Every tag on every pad, after every sensor event and tick: the hot path of a
    # simulated table (issue 15).  A card read on one pad (nearly all of them) costs a
    # lookup or two; the arrival times are looked up only for a card read on two pads.
    f = s.facts
    deck = s.deck
    pads = s.tracker.pads
    first: dict = {}  # card -> (pad, uid) where it was first read, in the order read
    again: dict = {}  # card -> [(pad, uid), ...] read on other pads too
    for pad, h in pads.items():
        me = f.player_at(pad)
        mine = me is not None and pad != "tray"  # a foreign card is one on a player's pad
        for u in h.present:
            if u == deck.puck:
                continue
            card = deck.card(u)
            if card is None:
                player = me
                yield Finding(
                    ("unknown_uid", u, pad),
                    "unknown_uid",
                    f"Unknown tag {u} on {_seat(s, pad)}: not in deck '{s.deck.name}'. "
                    "Say which card it is (a correction) or take it off the table.",
                    player,
                    pad,
                    {"uid": u},
                )
                continue
            if card in first:
                again.setdefault(card, []).append((pad, u))
            else:
                first[card] = (pad, u)
            if not mine:
                continue
            owner = f.owner(card)
            if owner and owner != me:
                yield Finding(
                    ("foreign_card", card.code, pad),
                    "foreign_card",
                    f"{card} from {owner}'s hand is on {_seat(s, pad)}: give it back to {owner}, or correct the read.",
                    me,
                    pad,
                    {"card": card.code, "owner": owner},
                )
    if not again:
        return
    for card, one in first.items():  # in the order first read, as the alerts are numbered
        if card not in again:
            continue
        seen = [(pads[p].arrived.get(u, (0, 0.0))[1], p) for p, u in (one, *again[card])]
        if s.waited(max(t for t, _ in seen), s.two_pads_s):
            names = sorted(p for _, p in seen)
            last = max(seen)[1]
            yield Finding(
                ("two_pads", card.code),
                "two_pads",
                f"{card} is read on {' and '.join(names)} at once: move the pads apart or say "
                "where it lies (a correction).",
                f.player_at(last),
                last,
                {"card": card.code, "pads": names},
            )


def _deal(s: Sensing) -> Iterator[Finding]:
    f = s.facts
    counts = {}
    for p in f.dealt_to:
        pad = f.pad_of(p)
        cards = s.cards_since(pad) if pad else []
        counts[p] = len(cards)
        if len(cards) > 5:
            yield Finding(
                ("misdeal", p, f.step),
                "misdeal",
                f"{_seat(s, pad, p)} has {len(cards)} cards; a hand is 5 (r12). The dealer takes back the extra cards.",
                p,
                pad,
                {"cards": sorted(c.code for c in cards)},
            )
    if counts and any(n == 5 for n in counts.values()):
        quiet = all(s.waited(s.last_change(p), s.settle_s) for p in counts)
        for p, n in counts.items():
            if 0 < n < 5 and quiet:
                pad = f.pad_of(p)
                yield Finding(
                    ("unsure", p, f.step),
                    "unsure_count",
                    f"{_seat(s, pad, p)}: read {n} of 5 dealt cards. Spread them on the pad, "
                    "or enter the deal by hand.",
                    p,
                    pad,
                    {"read": n, "expected": 5},
                )


def _exchange(s: Sensing) -> Iterator[Finding]:
    f = s.facts
    placing = any(p not in f.placed for p in f.to_act)
    if f.draw_stop_refused:
        for p in f.order:
            if p in f.draw_stop and p not in f.placed:
                cards = s.own_cards(p)
                if cards:
                    pad = f.pad_of(p)
                    yield Finding(
                        ("draw_stop", p, f.step),
                        "draw_stop_discard",
                        f"{_seat(s, pad, p)} is at draw stop (köpstopp) and may not exchange "
                        f"(D5): {' '.join(c.code for c in cards)} go back to the hand.",
                        p,
                        pad,
                        {"cards": [c.code for c in cards]},
                    )
    if placing and s.placement_closed:
        for p in f.to_act:
            if p in f.placed:
                continue
            pad = f.pad_of(p)
            n = len(s.own_cards(p))
            v = s.camera.view(pad, s.step_at) if pad else None
            if v is not None and v.face_down != n:
                kind = "unsure_count" if v.face_down > n else "camera_disagrees"
                yield Finding(
                    (kind, p, f.step),
                    kind,
                    f"{_seat(s, pad, p)}: the camera counts {v.face_down} face-down card(s), "
                    f"the reader read {n}. Spread them on the pad, or enter the discard.",
                    p,
                    pad,
                    {"camera": v.face_down, "rfid": n},
                )
        return
    if placing:
        return
    for p in f.order:
        pad = f.pad_of(p)
        if pad is None:
            continue
        new = s.new_cards(p)
        if p not in f.awaiting:
            if new:
                yield Finding(
                    ("dealer_count", p, f.step, "extra"),
                    "dealer_count",
                    f"{_seat(s, pad, p)} is owed no card but got {' '.join(c.code for c in new)} "
                    "(dealer error, r14): the dealer takes it back.",
                    p,
                    pad,
                    {"cards": [c.code for c in new], "owed": 0},
                    holds=False,
                )
            continue
        owed = 1 if p in f.open_next else f.awaiting[p]
        if len(new) > owed:
            yield Finding(
                ("dealer_count", p, f.step),
                "dealer_count",
                f"{_seat(s, pad, p)} got {len(new)} replacement cards, {owed} owed (dealer error, "
                "r14): the dealer takes back the extra card(s) and presses next.",
                p,
                pad,
                {"cards": [c.code for c in new], "owed": owed},
                holds=False,
            )
        elif p in s.replacements_done and len(new) < owed and s.waited(s.replacements_done[p], s.unsure_s):
            yield Finding(
                ("unsure", p, f.step),
                "unsure_count",
                f"{_seat(s, pad, p)}: read {len(new)} of {owed} replacement cards. Spread them "
                "on the pad, or enter them by hand.",
                p,
                pad,
                {"read": [c.code for c in new], "owed": owed},
            )


def _tricks(s: Sensing) -> Iterator[Finding]:
    f = s.facts
    to = f.to_act[0] if f.to_act else None
    for p in f.order:
        if p == to:
            continue
        cards = s.own_cards(p, linger=False)
        if cards:
            pad = f.pad_of(p)
            yield Finding(
                ("out_of_turn", p, tuple(c.code for c in cards)),
                "out_of_turn",
                f"{_seat(s, pad, p)} played {' '.join(c.code for c in cards)} out of turn "
                f"({to or 'nobody'} is to play, r25): take it back, or the TL decides.",
                p,
                pad,
                {"cards": [c.code for c in cards], "to_play": to},
            )
    if to:
        own = s.own_cards(to, linger=False)
        if len(own) > 1:
            pad = f.pad_of(to)
            yield Finding(
                ("unsure", to, tuple(c.code for c in own)),
                "unsure_count",
                f"{_seat(s, pad, to)} shows {len(own)} new cards ({' '.join(c.code for c in own)}); "
                "one card is played at a time: take the others back.",
                to,
                pad,
                {"cards": [c.code for c in own]},
            )
    since = s.step_at
    for pad, v in s.camera.views.items():
        if v.at < since:
            continue
        for c in v.face_up:
            # Only a card everyone has seen: where a hidden card lies is hidden, and a
            # camera's misread was told only when the card it named lay face down on a pad
            # (the tray's discards: stop 67's camera and sensing audit).  Whether a card is
            # public is itself public.  The readers place a hidden card; the camera's
            # reading of it elsewhere is not used (``_rfid_elsewhere``).
            if c not in f.public:
                continue
            rfid = [q for q in s.tracker.pads if q != pad and c in s.present_cards(q)]
            if rfid:
                yield Finding(
                    ("camera_disagrees", c.code, pad),
                    "camera_disagrees",
                    f"The camera sees {c} face up on {_seat(s, pad)}, the reader on "
                    f"{' and '.join(rfid)}: say where it lies (a correction).",
                    f.player_at(pad),
                    pad,
                    {"card": c.code, "camera": pad, "rfid": rfid},
                )
