"""The serial bridge against the virtual table over a real pseudo-terminal (pyserial):
handshake, pad reports, buttons, LED and buzzer commands with acks and retries,
unplug/replug, reboot, a silent device, a noisy line.  Real time (``realtime``): the
same bridge over the in-memory line in simulated time is tests/hardware/test_simtime.py."""

from __future__ import annotations

import asyncio

import pytest

from firmware_bridge.errors import BadCommand, CommandFailed
from hardware.virtual import NoiseModel, VirtualTable
from table_controller.sensor_events import PADS, ButtonPressed, LinkStatus, PadContents, ReaderStatus

from .conftest import bridge, settle, until

pytestmark = pytest.mark.realtime


def online(e):
    return isinstance(e, LinkStatus) and e.online


def offline(e):
    return isinstance(e, LinkStatus) and not e.online


def pad_is(pad, uids):
    return lambda e: isinstance(e, PadContents) and e.pad == pad and e.uids == frozenset(uids)


async def test_hello_brings_the_link_online_with_device_and_pads(table):
    async with bridge(table.port) as sc:
        status = await until(sc, online)
        assert status.device == "SC-VIRTUAL" and status.pads == PADS
        assert "protocol 1" in status.detail
        assert sc.device.firmware == "0.1.0"


async def test_after_connecting_every_pad_is_reported_whole(table):
    deck = table.deck
    table.deal("seat2", ["AS", "KS", "QS"])
    table.move_button("seat4")
    async with bridge(table.port) as sc:
        await until(sc, online)
        await until(sc, pad_is("seat2", [deck.uid(c) for c in ("AS", "KS", "QS")]))
        # The readers confirm a tag over two scans, so the first report of a pad may come
        # before its tag is confirmed; what counts is that every pad gets reported with
        # what lies on it, without anything on the table changing.
        expected = {pad: frozenset() for pad in PADS}
        expected["seat2"] = frozenset(deck.uid(c) for c in ("AS", "KS", "QS"))
        expected["seat4"] = frozenset({table.button_uid})
        await settle(lambda: dict(sc.pads) == expected, timeout=10.0)
        assert set(sc.pads) == set(PADS)


async def test_a_card_landing_and_being_picked_up(table):
    uid = table.deck.uid("7H")
    async with bridge(table.port) as sc:
        await until(sc, online)
        table.put("7H", "seat3")
        await until(sc, pad_is("seat3", [uid]))
        table.pick_up("seat3")
        await until(sc, pad_is("seat3", []))
        assert table.where("7H") == "hand:seat3"


async def test_repeated_reports_are_not_repeated_events(table):
    table.put("2D", "tray")
    async with bridge(table.port) as sc:
        await until(sc, pad_is("tray", [table.deck.uid("2D")]))
        frames = sc.stats.decoder.frames  # two rounds of repeated reports (5 pads, each 0.5 s)
        await settle(lambda: sc.stats.decoder.frames >= frames + 10)
        while True:
            try:
                event = await sc.next_event(0.01)
            except TimeoutError:
                break
            assert not isinstance(event, PadContents), event
        assert sc.stats.decoder.frames > 15


async def test_console_buttons(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        table.press("next")
        assert (await until(sc, lambda e: isinstance(e, ButtonPressed))).button == "next"
        table.press("time:seat2")
        assert (await until(sc, lambda e: isinstance(e, ButtonPressed))).button == "time:seat2"


async def test_a_press_while_the_board_is_kept_waiting_is_still_seen_once(table):
    """The simulation's thread can be starved by a busy machine (here: hung for longer
    than the press); a real board would still have seen the press, so the virtual one
    holds it until its firmware has looked, and its time does not jump past it."""
    async with bridge(table.port, silence_s=5.0) as sc:
        await until(sc, online)
        table.hang()
        board_ms, wall = table.clock.ms(), asyncio.get_running_loop().time()
        table.press("next")
        table.press("next")  # pressed again at once: the console lets it up in between
        await asyncio.sleep(0.4)
        table.resume()
        assert (await until(sc, lambda e: isinstance(e, ButtonPressed))).button == "next"
        assert (await until(sc, lambda e: isinstance(e, ButtonPressed))).button == "next"
        lost = (asyncio.get_running_loop().time() - wall) * 1000 - (table.clock.ms() - board_ms)
        assert lost >= 300, lost  # the hang's time never reached the firmware
        await settle(lambda: table.buttons.pending() == 0)  # the second press is let go too
        with pytest.raises(TimeoutError):  # two presses, two events: no third
            while True:
                e = await sc.next_event(0.3)
                if isinstance(e, ButtonPressed):
                    break


async def test_events_are_stamped_by_the_clock_handed_in(table):
    class Frozen:
        def now(self):
            return 42.5

    async with bridge(table.port, clock=Frozen()) as sc:
        assert (await until(sc, online)).at == 42.5
        assert (await until(sc, lambda e: isinstance(e, PadContents))).at == 42.5


async def test_led_and_buzzer_commands_are_acknowledged_and_carried_out(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        await sc.set_led("seat2", "red")
        assert table.leds.shown["seat2"] == "red"  # the ACK came after the firmware did it
        before = len(table.leds.history)
        await sc.set_led("seat2", "green", blink=True)
        # it blinks: green and dark in turn (250 ms each, on the board's clock)
        await settle(
            lambda: {c for _, s, c in table.leds.history[before:] if s == "seat2"} == {"green", "off"}, timeout=5.0
        )
        await sc.buzz(50)
        assert table.buzzer.buzzes == 1
        assert sc.stats.command_failures == 0


async def test_bad_commands_raise_before_anything_is_sent(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        with pytest.raises(BadCommand):
            await sc.set_led("seat7", "red")
        with pytest.raises(BadCommand):
            await sc.set_led("seat1", "purple")
        with pytest.raises(BadCommand):
            await sc.buzz(0)
        assert set(table.leds.shown.values()) == {"off"}


async def test_lost_commands_are_retried_until_acknowledged():
    with VirtualTable(noise=NoiseModel(command_loss=0.3), seed=11) as table:
        async with bridge(table.port) as sc:
            await until(sc, online, timeout=5)
            done = 0
            for seat, colour in [("seat1", "red"), ("seat2", "blue"), ("seat3", "white"), ("seat4", "yellow")] * 3:
                try:
                    await sc.set_led(seat, colour)
                    done += 1
                    assert table.leds.shown[seat] == colour
                except CommandFailed:
                    pass  # four losses in a row can happen; counted below
            assert sc.stats.retries > 0
            assert done >= 10
            assert sc.stats.command_failures == 12 - done


async def test_a_command_to_a_hung_device_fails_after_its_retries(table):
    async with bridge(table.port, silence_s=5.0) as sc:
        await until(sc, online)
        table.hang()
        with pytest.raises(CommandFailed, match="no answer"):
            await sc.set_led("seat1", "red")
        assert sc.stats.retries == 3 and sc.stats.command_failures == 1


async def test_unplug_and_replug_resynchronise_pads_and_leds(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        await sc.set_led("seat3", "yellow")
        table.put("QH", "seat1")
        await until(sc, pad_is("seat1", [table.deck.uid("QH")]))
        table.unplug()
        lost = await until(sc, offline)
        assert "port lost" in lost.detail
        with pytest.raises(CommandFailed, match="down"):
            await sc.set_led("seat3", "red")
        table.pick_up("seat1")  # the table plays on while the cable is out
        table.put("JC", "tray")
        await settle(lambda: sc.stats.connect_failures >= 1)  # it tried the missing port
        table.replug()
        await until(sc, online, timeout=5)
        await until(sc, pad_is("seat1", []))
        await settle(lambda: sc.pads.get("tray") == {table.deck.uid("JC")})
        # The last state the host asked for is restored, even the "red" that failed
        # while the cable was out: the LED shows what the host believes.
        await settle(lambda: table.leds.shown.get("seat3") == "red")
        assert sc.stats.connects == 2


async def test_a_rebooted_device_gets_its_leds_back(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        await sc.set_led("seat4", "blue")
        table.reboot()
        status = await until(sc, lambda e: online(e) and e.detail == "device restarted")
        assert status.device == "SC-VIRTUAL"
        await settle(lambda: table.leds.shown.get("seat4") == "blue")
        assert sc.stats.restarts == 1


async def test_a_silent_device_is_declared_gone_and_found_again(table):
    async with bridge(table.port, silence_s=1.0) as sc:
        await until(sc, online)
        table.hang()
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        lost = await until(sc, offline, timeout=3)
        assert "silent" in lost.detail and 0.9 < loop.time() - t0 < 2.0
        table.resume()
        await until(sc, online, timeout=5)
        assert sc.stats.silences == 1


async def test_a_port_that_appears_later_is_connected_to(tmp_path):
    port = str(tmp_path / "seat-controller")
    async with bridge(port) as sc:
        first = await until(sc, offline)
        assert "cannot open" in first.detail
        with VirtualTable(port_dir=str(tmp_path)) as table:
            await until(sc, online, timeout=5)
            table.put("9S", "seat2")
            await until(sc, pad_is("seat2", [table.deck.uid("9S")]))
        assert sc.stats.connect_failures >= 1


async def test_a_noisy_line_and_flaky_readers_still_give_the_true_table(noisy_table):
    table = noisy_table
    hand = ["AH", "KH", "QH", "JH", "TH"]
    async with bridge(table.port) as sc:
        await until(sc, online, timeout=5)
        table.deal("seat2", hand)
        table.put("3C", "tray")
        want = {table.deck.uid(c) for c in hand}
        await settle(lambda: sc.pads.get("seat2") == want and sc.pads.get("tray") == {table.deck.uid("3C")}, timeout=8)
        frames = sc.stats.decoder.frames  # and it stays so through two rounds of repeated reports
        await settle(lambda: sc.stats.decoder.frames >= frames + 10, timeout=8)
        assert sc.pads.get("seat2") == want
        assert sc.stats.decoder.dropped > 0
        assert sc.stats.missed_frames > 0  # every dropped frame leaves a sequence gap


async def test_a_broken_reader_is_reported_and_its_return_too(table):
    async with bridge(table.port) as sc:
        await until(sc, online)
        table.fail_reader("seat3")
        down = await until(sc, lambda e: isinstance(e, ReaderStatus))
        assert (down.pad, down.ok, down.detail) == ("seat3", False, "antenna-timeout")
        assert sc.readers_ok["seat3"] is False
        table.fail_reader("seat3", broken=False)
        up = await until(sc, lambda e: isinstance(e, ReaderStatus))
        assert (up.pad, up.ok) == ("seat3", True)


def test_pads_changed_wakes_on_a_changed_report_and_never_on_a_repeated_one():
    """The simulated bots wait for the next change of what the board reports (issue 15)
    instead of polling: the board repeats every pad's report twice a second, and a repeat
    must not wake them; a card laid down must, as soon as it is reported."""
    from firmware_bridge.client import SeatControllerClient
    from hardware.virtual.simtime import LoopClock, run_simulated

    async def main() -> tuple[bool, bool, frozenset[str] | None, float]:
        table = VirtualTable(noise=NoiseModel.clean(), seed=1, simulated=True)
        loop = asyncio.get_running_loop()
        try:
            async with SeatControllerClient(table.port, clock=LoopClock()) as sc:
                while len(sc.pads) < len(PADS):  # the first reports of the empty pads
                    await sc.pads_changed()
                waiting = asyncio.ensure_future(sc.pads_changed())
                # four rounds of repeated reports, in simulated time: the waiter stays asleep
                done, _ = await asyncio.wait({waiting}, timeout=2.0)
                woken_by_repeats = bool(done)
                table.put("AS", "seat2")
                laid = loop.time()
                await asyncio.wait_for(waiting, 1.0)
                return woken_by_repeats, waiting.done(), sc.pads.get("seat2"), loop.time() - laid
        finally:
            table.close()

    woken_by_repeats, woken, seat2, after = run_simulated(main())
    assert not woken_by_repeats
    assert woken and seat2 == frozenset({VirtualTable(autostart=False).deck.uid("AS")})
    assert after < 0.1  # two scans of 20 ms confirm it, then the report: no poll interval in between
