"""Issue 15: sensing skips a tick when no timer its findings and proposals asked about has
run out since it last looked (Sensing.waited), and a proposal when nothing has changed since
it last found none.  Skipping must change nothing: the same events, fed to sensing and to one
that looks again at every tick and every proposal (as before), give the same alerts at the
same moments and the same actions."""

from __future__ import annotations

import ast
import inspect

from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from table_controller.sensing import findings as findings_module
from table_controller.sensing import machine, pads
from table_controller.sensing.machine import Sensing

from .bench import HANDS, SEATS, Bench


class LooksEveryTick(Sensing):
    def _repeated(self, event) -> bool:
        return False

    def tick(self, now: float) -> None:
        self.now = max(self.now, now)
        self._refresh()

    def propose(self):
        self._found_none = None
        return super().propose()


PADS = ("seat1", "seat2", "seat3", "seat4", "tray")
# hands of Anna and Bo, and cards from the stub (the rest of the deck after the deal)
POOL = "AS KS QS JS 9H 2C 3C 4C 5C 7D 6H 8C".split()
STUB = ("6H", "8C", "6C")  # in no hand: the stub's
# steps of time around each of sensing's timers (linger 0.5, two pads 1, unsure 2, settle 3)
STEPS = (0.01, 0.05, 0.25, 0.49, 0.5, 0.51, 0.99, 1.0, 1.99, 2.0, 2.5, 2.99, 3.0, 3.01)

op = st.one_of(
    st.tuples(st.just("pad"), st.sampled_from(PADS), st.lists(st.sampled_from(POOL), max_size=6, unique=True)),
    st.tuples(st.just("hand"), st.integers(0, 3)),  # a seat's whole hand on its pad: a deal goes through
    st.tuples(st.just("stub"), st.integers(1, 3)),  # replacements from the stub on Bo's pad
    st.tuples(st.just("later"), st.sampled_from(STEPS)),
    st.tuples(st.just("press"), st.sampled_from(("next", "declined"))),
)


def _alerts(b: Bench) -> tuple:
    book = b.sensing.alerts
    return tuple((a.id, a.kind, a.text, a.player, a.pad, a.at) for a in (*book.raised, *book.ended))


def _start(b: Bench, start: str) -> None:
    if start == "deal":
        return
    b.deal(HANDS)
    if start == "replacing":
        assert len(b.bo_places_two()) == 4


@settings(max_examples=200, deadline=None)
# Bo's two replacements lie on a quiet pad: they are his once settle_s has passed, though
# a tick between (a card picked up earlier stops lingering) looked before it had
@example("replacing", [("stub", 2), ("later", 0.51), ("later", 2.5)])
@given(st.sampled_from(("deal", "exchange", "replacing")), st.lists(op, min_size=5, max_size=40))
def test_skipped_ticks_and_proposals_change_no_alert_and_no_action(start, ops):
    skips, looks = Bench(), Bench(LooksEveryTick)
    for b in (skips, looks):
        _start(b, start)
    for o in ops:
        for b in (skips, looks):
            if o[0] == "pad":
                b.pad(o[1], " ".join(o[2]))
            elif o[0] == "hand":
                b.pad(f"seat{o[1] + 1}", HANDS[SEATS[o[1]]])
            elif o[0] == "stub":
                b.pad("seat2", " ".join(STUB[: o[1]]))
            elif o[0] == "later":
                b.later(o[1])
            else:
                b.press(o[1])
        assert skips.run() == looks.run(), o
        assert _alerts(skips) == _alerts(looks), o
        assert skips.refusals == looks.refusals
    assert skips.accepted == looks.accepted
    event(f"{start}: {len(skips.accepted) - 2} action(s), {len(skips.sensing.alerts.raised)} alert(s)")


# Where sensing reads its clock directly: where an input arrives or a refresh begins, never
# where a finding or a proposal is worked out (those ask ``waited``, or a tick would miss
# the moment their answer changes).
READS_NOW = {"__init__", "sync", "observe", "tick", "waited", "correct_card_at", "_button", "_arrivals", "_refresh"}


def _reading_now(module) -> set[str]:
    """The functions of ``module`` that read an attribute ``now``."""
    return {
        node.name
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(isinstance(n, ast.Attribute) and n.attr == "now" for n in ast.walk(node))
    }


def test_findings_and_proposals_ask_about_time_only_through_waited():
    assert _reading_now(findings_module) == set(), "a finding reads the clock: ask s.waited(since, span)"
    assert _reading_now(pads) == set()
    assert _reading_now(machine) == READS_NOW, "a proposal reads the clock: ask self.waited(since, span)"
