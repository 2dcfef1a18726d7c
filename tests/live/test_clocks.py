"""Shot clocks (RULES.md §10, D11, D12) on a clock the test moves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table_controller.clocks import ClockError, FakeClock, ShotClocks, parse_shot_clocks, shot_clocks_text
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


def test_an_events_shot_clocks_are_set_by_name_and_the_rest_keep_d11():
    """D11: "configurable per event": the flags' and table.toml's text, seconds per clock."""
    limits = parse_shot_clocks(" play = 30 ,exchange=45.5,")
    assert limits == {"play": 30.0, "exchange": 45.5}
    assert ShotClocks(limits).limits == {"exchange": 45.5, "chicago": 10.0, "play": 30.0, "quads": 15.0}
    assert parse_shot_clocks("") == {} and shot_clocks_text({}) == ""
    assert shot_clocks_text(limits) == "exchange=45.5,play=30"  # D11's order, no needless ".0"


@pytest.mark.parametrize(
    "text, message",
    [
        ("spel=30", "no shot clock 'spel'; the clocks are exchange, chicago, play, quads"),
        ("play", "'play' is not CLOCK=SECONDS (e.g. play=30)"),
        ("=30", "'=30' is not CLOCK=SECONDS"),
        ("play=", "shot clock play: '' is not a number of seconds"),
        ("play=tjugo", "shot clock play: 'tjugo' is not a number of seconds"),
        ("play=0", "shot clock play: seconds above 0 and at most 3600, not 0"),
        ("play=-5", "seconds above 0 and at most 3600, not -5"),
        ("play=3601", "seconds above 0 and at most 3600, not 3601"),
        ("play=nan", "seconds above 0 and at most 3600, not nan"),
        ("play=inf", "seconds above 0 and at most 3600, not inf"),
        ("play=20,play=30", "shot clock play is given twice"),
    ],
)
def test_a_bad_shot_clock_setting_says_what_is_wrong_d11(text, message):
    with pytest.raises(ClockError) as err:
        parse_shot_clocks(text)
    assert str(err.value) == message or message in str(err.value)


@given(
    st.dictionaries(
        st.sampled_from(["exchange", "chicago", "play", "quads"]),
        st.floats(min_value=0.001, max_value=3600, allow_nan=False),
    )
)
def test_the_setting_written_reads_back_to_the_same_seconds_d11(limits):
    assert parse_shot_clocks(shot_clocks_text(limits)) == limits
