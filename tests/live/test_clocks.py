"""Shot clocks (RULES.md §10, D11, D12) on a clock the test moves."""

from __future__ import annotations

import pytest

from table_controller.clocks import ClockError, FakeClock, ShotClocks
from table_controller.rules.actions import TimeCall, Timeout


def test_defaults_are_d11_and_expiry_is_one_timeout_each():
    t = FakeClock()
    c = ShotClocks(clock=t)
    assert c.limits == {"exchange": 30.0, "chicago": 10.0, "play": 20.0, "quads": 15.0}
    c.sync({"Anna": ("exchange", 1), "Bo": ("exchange", 1)})  # all placing clocks run at once
    t.advance(29.9)
    assert c.poll() == []
    t.advance(0.2)
    assert sorted(c.poll(), key=lambda a: a.player) == [Timeout("Anna", "exchange"), Timeout("Bo", "exchange")]
    t.advance(5)
    assert c.poll() == []  # an expiry is one violation, not one per poll


def test_pause_stops_every_clock_and_resume_goes_on():
    t = FakeClock()
    c = ShotClocks({"play": 5}, clock=t)
    c.sync({"Cilla": ("play", (1, 0))})
    t.advance(3)
    c.pause()
    t.advance(100)
    assert c.poll() == [] and c.led("Cilla") == ("blue", False)
    c.resume()
    assert c.remaining("Cilla") == pytest.approx(2.0)
    t.advance(2.1)
    assert c.poll() == [Timeout("Cilla", "play")]
    assert c.led("Cilla") == ("red", True)


def test_a_new_turn_restarts_the_clock_and_leds_follow_the_time_left():
    t = FakeClock()
    c = ShotClocks(clock=t)
    c.sync({"Dan": ("play", (1, 0))})
    assert c.led("Dan") == ("green", False)
    t.advance(15)
    assert c.led("Dan") == ("yellow", False)
    c.sync({"Dan": ("play", (2, 0))})  # his next card: a fresh 20 s
    assert c.remaining("Dan") == pytest.approx(20.0)
    c.sync({})
    assert c.led("Dan") == ("off", False)


def test_time_call_gives_sixty_then_ten_seconds_then_the_hand_is_dead():
    t = FakeClock()
    c = ShotClocks({"play": 600}, clock=t)
    c.sync({"Bo": ("play", 1)})
    c.call_time("Bo")
    t.advance(60.5)
    assert c.led("Bo") == ("white", True) and c.view()["time_calls"]["Bo"]["countdown"]
    assert c.poll() == []
    t.advance(10)
    assert c.poll() == [TimeCall("Bo")]


def test_bad_settings_and_time_on_a_player_not_to_act_are_refused():
    with pytest.raises(ClockError, match="no shot clock"):
        ShotClocks({"lunch": 10})
    with pytest.raises(ClockError, match="seconds"):
        ShotClocks({"play": -1})
    c = ShotClocks(clock=FakeClock())
    with pytest.raises(ClockError, match="to act"):
        c.call_time("Anna")
