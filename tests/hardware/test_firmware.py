"""The seat-controller firmware logic (hardware/firmware) on CPython against fake
board parts: debounce, report repetition, buttons, commands, watchdog."""

from __future__ import annotations

from firmware_bridge.messages import Ack, ButtonEvent, Heartbeat, Hello, Nak, PadReport, ReaderReport
from hardware.firmware.controller import Config
from hardware.firmware.debounce import PadDebouncer

from .rig import Rig

A, B, C = "04AAAAAAAAAAAA", "04BBBBBBBBBBBB", "04CCCCCCCCCCCC"


def pad_reports(msgs, pad):
    return [m for m in msgs if isinstance(m, PadReport) and m.pad == pad]


# --- boot --------------------------------------------------------------------------
def test_boot_sends_hello_with_version_id_and_pads():
    rig = Rig()
    hello = rig.messages()[0]
    assert hello == Hello(1, "0.1.0", "SC-TEST", ("seat1", "seat2", "seat3", "seat4", "tray"))


def test_sequence_numbers_count_up_from_zero():
    rig = Rig()
    rig.run(1200)
    frames = rig._decoder.feed(bytes(rig.port.sent))
    assert [f.seq for f in frames] == list(range(len(frames)))


# --- debounce ---------------------------------------------------------------------
def test_card_is_present_only_after_n_consecutive_reads():
    deb = PadDebouncer(confirm_reads=3, gone_ms=300)
    assert not deb.scan([A], 0) and not deb.scan([A], 20)
    assert not deb.scan([], 40)  # the streak is broken
    assert not deb.scan([A], 60) and not deb.scan([A], 80)
    assert deb.scan([A], 100) and deb.present == {A}


def test_card_is_gone_only_after_m_ms_unseen():
    deb = PadDebouncer(confirm_reads=1, gone_ms=300)
    deb.scan([A], 0)
    assert not deb.scan([], 299) and deb.present == {A}
    assert not deb.scan([A], 310)  # seen again: the clock restarts
    assert not deb.scan([], 600)
    assert deb.scan([], 610) and deb.present == set()


def test_stack_read_a_few_at_a_time_is_still_the_whole_stack():
    # An MFRC522 sees at most ~2 of a stack per scan; the pad still reports all 3.
    deb = PadDebouncer(confirm_reads=1, gone_ms=300)
    for i, seen in enumerate([[A, B], [C, A], [B, C], [A, C]] * 3):
        deb.scan(seen, i * 20)
    assert deb.present == {A, B, C}


def test_flicker_shorter_than_gone_time_sends_no_change():
    rig = Rig(Config(confirm_reads=2, gone_ms=300, scan_ms=20))
    rig.readers["seat2"].uids = [A]
    rig.run(100)
    rig.messages()
    for _ in range(5):  # a card missed for 100 ms at a time
        rig.readers["seat2"].uids = []
        rig.run(100)
        rig.readers["seat2"].uids = [A]
        rig.run(100)
    assert all(r.uids == {A} for r in pad_reports(rig.messages(), "seat2"))


def test_a_card_landing_is_reported_at_once_with_the_whole_set():
    rig = Rig(Config(confirm_reads=2, scan_ms=20))
    rig.readers["seat3"].uids = [A, B]
    rig.run(50)
    reports = pad_reports(rig.messages(), "seat3")
    assert reports[-1].uids == {A, B}
    rig.readers["seat3"].uids = [A, B, C]
    rig.run(45)
    assert pad_reports(rig.messages(), "seat3") == [PadReport("seat3", frozenset({A, B, C}))]


# --- repetition and heartbeat ----------------------------------------------------------
def test_every_pad_is_reported_at_least_once_a_second_without_changes():
    rig = Rig(Config(repeat_ms=500))
    rig.readers["tray"].uids = [C]
    rig.run(200)
    rig.messages()
    rig.run(3000)
    msgs = rig.messages()
    for pad in Rig.PADS:
        assert len(pad_reports(msgs, pad)) >= 5, pad
    assert {r.uids for r in pad_reports(msgs, "tray")} == {frozenset({C})}


def test_heartbeat_every_500_ms_with_uptime():
    rig = Rig(Config(heartbeat_ms=500))
    rig.run(2600)
    beats = [m for m in rig.messages() if isinstance(m, Heartbeat)]
    assert len(beats) == 5
    assert [b.uptime_ms for b in beats] == [500, 1000, 1500, 2000, 2500]


# --- buttons ------------------------------------------------------------------------------
def test_button_press_is_one_event_after_debounce():
    rig = Rig(Config(button_ms=20))
    for _ in range(3):  # contact bounce: 3 ms on, 2 ms off
        rig.buttons.down = {"next"}
        rig.run(3)
        rig.buttons.down = set()
        rig.run(2)
    rig.buttons.down = {"next"}
    rig.run(200)
    rig.buttons.down = set()
    rig.run(100)
    assert [m for m in rig.messages() if isinstance(m, ButtonEvent)] == [ButtonEvent("next")]


def test_a_bounce_shorter_than_debounce_is_not_a_press():
    rig = Rig(Config(button_ms=20))
    rig.buttons.down = {"pause"}
    rig.run(10)
    rig.buttons.down = set()
    rig.run(100)
    assert not [m for m in rig.messages() if isinstance(m, ButtonEvent)]


# --- reader failure ------------------------------------------------------------------------
def test_failing_reader_goes_offline_and_comes_back():
    rig = Rig(Config(scan_ms=20, reader_fail_limit=3))
    rig.run(10)
    rig.messages()
    rig.readers["seat4"].error = OSError("spi timeout")
    rig.run(100)
    offline = [m for m in rig.messages() if isinstance(m, ReaderReport)]
    assert offline[0] == ReaderReport("seat4", False, "spi-timeout")
    rig.readers["seat4"].error = None
    rig.run(30)
    assert ReaderReport("seat4", True, "") in rig.messages()


# --- commands ----------------------------------------------------------------------------
def test_led_command_is_acked_and_lights_the_seat():
    rig = Rig()
    seq = rig.send("LED", [("seat", "seat2"), ("colour", "red"), ("blink", "0")])
    rig.run(5)
    assert Ack(seq) in rig.messages()
    assert rig.leds.shown["seat2"] == "red"


def test_blinking_led_alternates_with_the_blink_period():
    rig = Rig(Config(blink_ms=250))
    rig.send("LED", [("seat", "seat1"), ("colour", "yellow"), ("blink", "1")])
    rig.run(1000)
    colours = [c for _, seat, c in rig.leds.changes if seat == "seat1"]
    assert colours.count("yellow") >= 2 and colours.count("off") >= 2


def test_bad_commands_are_refused_with_a_reason_and_change_nothing():
    rig = Rig()
    bad = [
        rig.send("LED", [("seat", "seat9"), ("colour", "red")]),
        rig.send("LED", [("seat", "seat1"), ("colour", "pink")]),
        rig.send("LED", [("seat", "seat1"), ("colour", "red"), ("blink", "7")]),
        rig.send("BUZZ", [("ms", "99999")]),
        rig.send("FROB"),
    ]
    rig.run(5)
    naks = [m for m in rig.messages() if isinstance(m, Nak)]
    assert [n.cmd for n in naks] == bad
    assert [n.error for n in naks] == ["bad-seat", "bad-colour", "bad-field", "bad-field", "unknown"]
    assert set(rig.leds.shown.values()) == {"off"} and rig.buzzer.starts == 0


def test_a_resent_command_is_acked_again_but_done_once():
    rig = Rig()
    seq = rig.send("BUZZ", [("ms", "50")])
    rig.run(100)
    rig.send("BUZZ", [("ms", "50")], seq=seq)  # our ACK was lost; the host resends
    rig.run(100)
    assert [m for m in rig.messages() if isinstance(m, Ack)] == [Ack(seq), Ack(seq)]
    assert rig.buzzer.starts == 1


def test_buzzer_sounds_for_the_asked_time():
    rig = Rig()
    rig.send("BUZZ", [("ms", "120")])
    rig.run(60)
    assert rig.buzzer.on
    rig.run(80)
    assert not rig.buzzer.on


def test_sync_answers_hello_and_every_pad_and_forgets_seen_commands():
    rig = Rig()
    rig.readers["seat1"].uids = [A]
    seq = rig.send("BUZZ", [("ms", "10")])
    rig.run(100)
    rig.messages()
    rig.send("SYNC")
    rig.send("BUZZ", [("ms", "10")], seq=seq)  # a new host reusing an old seq
    rig.run(2)
    msgs = rig.messages()
    assert any(isinstance(m, Hello) for m in msgs)
    assert {m.pad for m in msgs if isinstance(m, PadReport)} == set(Rig.PADS)
    assert rig.buzzer.starts == 2


def test_corrupt_host_frames_are_counted_and_ignored():
    rig = Rig()
    rig.port.inbox = b"$5 LED seat=seat1 colour=red blink=0*00000000\r\n\x00\xff garbage"
    rig.run(600)
    msgs = rig.messages()
    assert not any(isinstance(m, (Ack, Nak)) for m in msgs)
    assert rig.leds.shown["seat1"] == "off"
    assert [m.rx_bad for m in msgs if isinstance(m, Heartbeat)] == [1]


def test_leds_go_dark_when_the_host_is_silent_for_5_s():
    rig = Rig(Config(host_lost_ms=5000))
    rig.send("LED", [("seat", "seat3"), ("colour", "green")])
    rig.run(3000)
    rig.send("PING")
    rig.run(4000)
    assert rig.leds.shown["seat3"] == "green"  # the PING kept it alive
    rig.run(1100)
    assert rig.leds.shown["seat3"] == "off"


# --- watchdog ----------------------------------------------------------------------------
def test_watchdog_is_fed_every_loop_pass_even_with_a_dead_reader():
    rig = Rig()
    rig.readers["seat1"].error = OSError("no answer")
    rig.run(5000)
    assert not rig.watchdog.tripped


def test_a_hanging_reader_stops_the_feeding_so_the_watchdog_reboots():
    rig = Rig()
    rig.run(100)
    rig.readers["seat2"].stall_ms = 1500  # the SPI call hangs for 1.5 s
    rig.run(30)
    assert rig.watchdog.tripped


def _frames(rig):
    from firmware_bridge.codec import FrameDecoder

    frames = FrameDecoder().feed(bytes(rig.port.sent))
    rig.port.sent.clear()
    return frames


def test_resend_sends_a_missed_report_again_as_it_stands_now_and_a_missed_press_once():
    rig = Rig(Config(confirm_reads=2, scan_ms=20, button_ms=20))
    rig.readers["seat3"].uids = [A, B]
    rig.run(50)
    report = [f.seq for f in _frames(rig) if f.kind == "PAD" and f.get("pad") == "seat3"][-1]
    rig.buttons.down = {"next"}
    rig.run(40)
    rig.buttons.down = set()
    rig.run(40)
    frames = _frames(rig)
    press = next(f.seq for f in frames if f.kind == "BTN")
    hello = 0  # the boot's HELLO: not a report or a press, never sent again
    rig.readers["seat3"].uids = [A, B, C]  # the pad changed since the lost report
    rig.run(45)
    rig.messages()
    cmd = rig.send("RESEND", [("seqs", f"{report},{press},{report},{hello}")])
    rig.run(1)
    msgs = rig.messages()
    assert pad_reports(msgs, "seat3") == [PadReport("seat3", frozenset({A, B, C}))]
    assert [m for m in msgs if isinstance(m, ButtonEvent)] == [ButtonEvent("next")]
    assert Ack(cmd) in msgs


def test_resend_of_a_frame_too_old_sends_nothing_and_a_bad_list_is_refused():
    rig = Rig(Config(repeat_ms=500))
    rig.run(10)
    first = _frames(rig)[1].seq  # a PAD report of the boot
    rig.run(20_000)  # far more than 64 frames since
    rig.messages()
    ok = rig.send("RESEND", [("seqs", str(first))])
    bad = [rig.send("RESEND", [("seqs", v)]) for v in ("", "x", "70000", ",".join(["1"] * 17))]
    rig.run(1)
    msgs = rig.messages()
    assert not pad_reports(msgs, "seat1") and Ack(ok) in msgs
    assert [(m.cmd, m.error) for m in msgs if isinstance(m, Nak)] == [(b, "bad-field") for b in bad]
