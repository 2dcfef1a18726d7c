"""Fusion: the camera's CameraPad events, read from rendered frames, through sensing
(issue 5's ``table_controller.sensing``) together with RFID pad reads.

Agreement confirms, disagreement raises an alert and holds the step, a read the pad
missed is filled in from the camera, and camera-only mode plays the tricks of a whole
deal from the camera alone (the hidden steps entered by hand, here applied directly).
"""

from __future__ import annotations

import itertools

import pytest

from table_controller import sensing
from table_controller.deck import virtual_deck
from table_controller.live.facts import facts_from_engine
from table_controller.rules.actions import Discard, OpenCard, Play
from table_controller.rules.engine import Engine
from table_controller.sensor_events import ButtonPressed, PadContents
from table_controller.sim.bots import RandomBot
from vision.calibration import calibrate
from vision.camera import TableCamera
from vision.scene import Placement, Scene, random_scene, render

POSE = random_scene(41, 0.3, fill=0.0)  # one camera pose for a whole test


class Table:
    """What lies on the pads, rendered for the camera: per pad a row, each card face up
    (its code) or face down (None), left to right in the owner's view."""

    def __init__(self, severity: float = 0.3):
        self.rows: dict[str, list[str | None]] = {}
        self.severity = severity
        self.frames = itertools.count(1)
        self.camera = None

    def frame(self):
        placements = [
            Placement(pad, code, 30 + 20 * i, 16) for pad, row in self.rows.items() for i, code in enumerate(row)
        ]
        n = next(self.frames)
        scene = Scene(tuple(placements), POSE.corners, self.severity, 9000 + n, "blue")
        return render(scene, supersample=1)  # many frames: the faster drawing

    def events(self, now: float):
        frame = self.frame()
        if self.camera is None:
            self.camera = TableCamera(source=None, calibration=calibrate(frame), clock=lambda: self.now)
        self.now = now
        return self.camera.read_frame(frame)


def _engine_at(phase: str, seed: int) -> tuple[Engine, RandomBot]:
    engine, bot = Engine(), RandomBot(seed)
    while not engine.phase.startswith(phase):
        engine.apply(bot.next_action(engine))
    return engine, bot


def _uids(deck, cards) -> frozenset[str]:
    return frozenset(deck.uid_of(c) for c in cards)


def _open_kinds(s) -> set[str]:
    return {a.kind for a in s.alerts.open}


@pytest.mark.parametrize("camera_count,alert", [(3, None), (2, "camera_disagrees"), (4, "unsure_count")])
def test_discards_camera_agreement_confirms_and_disagreement_alerts(camera_count, alert):
    engine, _ = _engine_at("exchange", seed=3)
    facts = facts_from_engine(engine)
    player = next(p for p in facts.order if p in facts.to_act and p not in facts.placed)
    pad = facts.pad_of(player)
    discards = tuple(sorted(facts.hands[player]))[:3]
    deck = virtual_deck()
    s = sensing.Sensing(deck)
    s.sync(facts)
    s.observe(PadContents(1.0, pad, _uids(deck, discards)))
    s.close_placement()
    table = Table()
    table.rows[pad] = [None] * camera_count  # face down, spread on the pad
    for e in table.events(2.0):
        s.observe(e)
    s.tick(2.5)
    if alert is None:
        assert s.propose() == Discard(player, discards)
        assert not s.alerts.open
    else:
        proposed = s.propose()  # this player is held until the Revisor settles it
        assert proposed is None or proposed.player != player
        assert alert in _open_kinds(s)
        (a,) = [a for a in s.alerts.open if a.kind == alert]
        assert a.evidence == {"camera": camera_count, "rfid": 3} and a.player == player


def _tricks_start(seed: int):
    engine, bot = _engine_at("tricks", seed)
    return engine, bot, facts_from_engine(engine)


def test_a_play_the_reader_missed_is_filled_in_from_the_camera():
    engine, bot, facts = _tricks_start(seed=5)
    action = bot.next_action(engine)
    assert isinstance(action, Play)
    pad = facts.pad_of(action.player)
    deck = virtual_deck()
    s = sensing.Sensing(deck)
    s.sync(facts)
    s.observe(PadContents(1.0, pad, frozenset()))  # the reader saw nothing
    assert s.propose() is None
    table = Table()
    table.rows[pad] = [action.card.code]
    for e in table.events(2.0):
        s.observe(e)
    assert s.propose() is None  # the reader may still read it: it has unsure_s (stop 73's audit)
    for e in table.events(2.0 + s.unsure_s):  # frame after frame, and still no read
        s.observe(e)
    assert s.propose() == action
    assert not s.alerts.open


def test_camera_and_reader_agreeing_on_a_play_confirm_it_and_disagreeing_on_a_seen_card_alert():
    engine, bot, facts = _tricks_start(seed=6)
    action = bot.next_action(engine)
    pad = facts.pad_of(action.player)
    other = next(q for q in ("seat1", "seat2", "seat3", "seat4") if q != pad)
    deck = virtual_deck()
    agree = sensing.Sensing(deck)
    agree.sync(facts)
    agree.observe(PadContents(1.0, pad, _uids(deck, [action.card])))
    table = Table()
    table.rows[pad] = [action.card.code]
    for e in table.events(2.0):
        agree.observe(e)
    assert agree.propose() == action and not agree.alerts.open

    # A card still hidden (in a hand): the readers place it, and the camera's sighting of it
    # elsewhere is neither used nor an alert.  Whether it was one turned on where the hidden
    # card lay (on a pad face down or not: stop 67's camera and sensing audit).
    hidden = sensing.Sensing(deck)
    hidden.sync(facts)
    hidden.observe(PadContents(1.0, other, _uids(deck, [action.card])))  # the reader: another pad
    table2 = Table()
    table2.rows[pad] = [action.card.code]  # the camera: on the player's own pad
    for e in table2.events(2.0):
        hidden.observe(e)
    assert "camera_disagrees" not in _open_kinds(hidden)
    assert hidden.propose() != action

    # A card everyone has seen (played): the camera sees it on the next player's pad, the
    # reader where it was played.
    engine.apply(action)
    after = facts_from_engine(engine)
    nxt = bot.next_action(engine)
    disagree = sensing.Sensing(deck)
    disagree.sync(after)
    disagree.observe(PadContents(3.0, pad, _uids(deck, [action.card])))
    table3 = Table()
    table3.rows[after.pad_of(nxt.player)] = [action.card.code]
    for e in table3.events(4.0):
        disagree.observe(e)
    assert "camera_disagrees" in _open_kinds(disagree)
    assert disagree.propose() is None


def test_camera_only_mode_plays_every_trick_of_a_deal_from_the_camera():
    engine, bot, facts = _tricks_start(seed=7)
    deck = virtual_deck()
    s = sensing.Sensing(deck, rfid=False)  # no readers: hidden hands were entered by hand
    table = Table(severity=0.4)
    deal = facts.step[:2]
    plays = 0
    now = 1.0
    while engine.phase == "tricks" and facts_from_engine(engine).step[:2] == deal:
        facts = facts_from_engine(engine)
        s.sync(facts)
        action = bot.next_action(engine)
        if not isinstance(action, Play):
            engine.apply(action)
            continue
        pad = facts.pad_of(action.player)
        table.rows.setdefault(pad, []).append(action.card.code)  # played cards stay face up (r13)
        now += 1.0
        for e in table.events(now):
            s.observe(e)
        proposed = s.propose()
        assert proposed == action, f"play {plays + 1}: camera proposed {proposed}, the table played {action}"
        engine.apply(proposed)
        plays += 1
    assert plays == 5 * len(facts.order)  # every card of every trick, from the camera alone
    assert not [a for a in s.alerts.open if a.holds]


def _open_card_moment(seed: int = 3):
    engine, bot = Engine(), RandomBot(seed)
    while not isinstance(action := bot.next_action(engine), OpenCard):
        engine.apply(action)
    return engine, action, facts_from_engine(engine)


def test_the_camera_shows_the_open_card_on_the_players_pad():
    _, action, facts = _open_card_moment()
    pad = facts.pad_of(action.player)
    table = Table()
    table.rows[pad] = [action.card.code]
    events = {e.pad: e for e in table.events(2.0)}
    assert [s.card for s in events[pad].face_up] == [action.card.code]
    assert all(not e.face_up and e.face_down == 0 for p, e in events.items() if p != pad)


def test_camera_only_mode_proposes_the_open_card_the_camera_sees():
    _, action, facts = _open_card_moment()
    s = sensing.Sensing(virtual_deck(), rfid=False)
    s.sync(facts)
    table = Table()
    table.rows[facts.pad_of(action.player)] = [action.card.code]
    for e in table.events(2.0):
        s.observe(e)
    s.observe(ButtonPressed(2.5, "next" if action.take else "declined"))
    assert s.propose() == action
