"""From an action to the physical moves that make it happen at a table.

The bots (and action scripts) decide *what* happens; this turns each action into what
the dealer and the players physically do on the virtual table (deal card X to pad N,
place the discards on the pad, the dealer collects them to the tray and replaces, show
the open card and press *declined*, play to the pad, pick the cards up, ...).  Sensing
must then recover the same action from what the pads report.

Steps are small tuples, carried out by :class:`~table_controller.sim.driver.TableDriver`:

    ("put", code, pad)  ("remove", code, to)  ("pickup", pad)  ("press", button)
    ("tray", code)      ("collect",)          ("sync",)   ("submit",)
    ("settle",)  long enough for the readers to report cards gone
    ("arrive",)  long enough for them to report cards that arrived
    ("pause",)   the time people take between picking cards up and putting them down
"""

from __future__ import annotations

from table_controller.live.facts import PADS, pads_of
from table_controller.rules import actions as act
from table_controller.rules.cards import FULL_DECK
from table_controller.rules.engine import Engine

MANUAL = (
    act.TableStart,
    act.GameStart,
    act.ChicagoAnswer,
    act.QuadsChoice,
    act.Penalty,
    act.Adjust,
    act.Timeout,
    act.TimeCall,
)


class Translator:
    def __init__(self) -> None:
        self._extra: dict[str, tuple[str, ...]] = {}  # pad -> cards of a dealer's over-count

    @staticmethod
    def before(engine: Engine) -> dict:
        """What the plan needs to know of the state before the action."""
        g = engine.state.game
        d = engine.state.deal
        return {
            "seats": tuple(g.seats) if g else (),
            "deal": d is not None,
            "exchange": (g.number, d.number, d.phase, d.exchange) if g and d else None,
            "awaiting": dict(d.awaiting) if d else {},
            "last_played": d.trick[-1][1] if d and d.trick else None,
        }

    def plan(self, action: act.Action, before: dict, after: Engine) -> list[tuple]:
        """The moves for ``action``; ``before`` from :meth:`before`, ``after`` the engine
        once the action is applied."""
        if isinstance(action, act.Timeout) and action.cards and before["deal"]:
            # D12: the exchange clock ran out with these cards placed: they lie on the pad
            # (the live table's timeout carries them), and go with the others' discards
            put: list[tuple] = [("put", c.code, pads_of(before["seats"])[action.player]) for c in action.cards]
            put += [("arrive",), ("submit",)]
            if self._still_placing(before, after):
                return put
            return put + [("sync",), ("collect_discards",), ("settle",)] + self._exchange_over(before, after)
        if isinstance(action, MANUAL) or (not before["deal"] and not isinstance(action, act.Deal)):
            return [("submit",)]
        pads = pads_of(before["seats"])
        if isinstance(action, act.Deal):
            steps: list[tuple] = [("collect",), ("settle",), ("pause",)]
            for p, cards in action.hands.items():
                steps += [("put", c.code, pads[p]) for c in cards]
            steps += [("sync",)] + [("pickup", pad) for pad in PADS] + [("settle",), ("pause",)]
            return steps
        if isinstance(action, act.Discard):
            steps = [("put", c.code, pads[action.player]) for c in action.cards]
            if self._still_placing(before, after):
                return steps  # the dealer waits until everyone has placed (r13)
            steps += [("arrive",), ("press", "next"), ("sync",), ("collect_discards",), ("settle",)]
            return steps + self._exchange_over(before, after)
        if not isinstance(action, (act.OpenCard, act.Receive, act.Play, act.Retract)):
            return [("submit",)]
        pad = pads[action.player]
        if isinstance(action, act.OpenCard):
            steps = [("put", action.card.code, pad), ("arrive",)]
            if action.take:
                return steps + [("press", "next"), ("sync",)] + self._exchange_over(before, after)
            # declined: the card stays shown until the table has taken the decline, then
            # goes to the discards (a press lost on a noisy line is pressed again while the
            # open card still lies there; once on a thick tray stack it is hard to see)
            steps += [("press", "declined"), ("sync",), ("tray", action.card.code)]
            return steps + self._exchange_over(before, after)
        if isinstance(action, act.Receive):
            steps = []
            extra = self._extra.pop(pad, ())
            keep = {c.code for c in action.cards}
            back = [c for c in extra if c not in keep]
            if back:  # the dealer corrects an over-count: the extra cards go back (r14)
                steps += [("remove", c, "stub") for c in back] + [("settle",), ("settle",), ("settle",)]
            steps += [("put", c.code, pad) for c in action.cards if c.code not in extra]
            owed = before["awaiting"].get(action.player, 0)
            if len(action.cards) > owed:
                self._extra[pad] = tuple(c.code for c in action.cards)
            return steps + [("arrive",), ("press", "next"), ("sync",)] + self._exchange_over(before, after)
        if isinstance(action, act.Play):
            return [("put", action.card.code, pad), ("sync",)]
        if isinstance(action, act.Retract):
            # the player takes the card back into the hand and says so (their phone, or the
            # TL): sensing never takes a card back from the pads (README "Security")
            card = before["last_played"]
            return [("remove", card.code, f"hand:{pad}"), ("pause",), ("submit",)]
        return [("submit",)]

    @classmethod
    def _still_placing(cls, before: dict, after: Engine) -> bool:
        """Whether others are still to place in the same exchange (r13: the dealer waits)."""
        d = after.state.deal
        return d is not None and cls._same_exchange(before, after) and any(p not in d.placed for p in after.to_act())

    @staticmethod
    def _same_exchange(before: dict, after: Engine) -> bool:
        g, d = after.state.game, after.state.deal
        return g is not None and d is not None and before["exchange"] == (g.number, d.number, d.phase, d.exchange)

    def _exchange_over(self, before: dict, after: Engine) -> list[tuple]:
        if self._same_exchange(before, after):
            return []
        # r14: players pick up only when the whole exchange is done
        return [("pickup", pad) for pad in PADS] + [("settle",), ("pause",)]


PHYSICAL = frozenset({"put", "remove", "tray", "pickup", "collect", "collect_discards"})


def make_move(table, step: tuple) -> bool:
    """Carry out a plan step that moves cards (``PHYSICAL``) on ``table`` (a virtual table
    or the bots' hands over one: ``put``, ``remove``, ``to_tray``, ``pick_up``, ``where``,
    ``on_pad``); False for the steps of time and the console (press, submit, sync, ...)."""
    kind = step[0]
    if kind == "put":
        table.put(step[1], step[2])
    elif kind == "remove":
        table.remove(step[1], step[2])
    elif kind == "tray":
        table.to_tray(step[1])
    elif kind == "pickup":
        table.pick_up(step[1])
    elif kind == "collect":
        for c in FULL_DECK:
            if table.where(c.code) != "stub":
                table.remove(c.code, "stub")
    elif kind == "collect_discards":
        for pad in PADS:
            for code in table.on_pad(pad):
                table.to_tray(code)
    else:
        return False
    return True
