# Replays one scenario (a JSON file written by tests/hardware/scenarios.py) on the real
# seat-controller firmware and prints a transcript: every frame the board writes, every
# LED/buzzer change, every reader scan and driver sleep, each with the board's time.
# Runs unchanged under CPython and under MicroPython (tests/hardware/test_micropython.py
# compares the two transcripts byte for byte), so it uses only what both have: no
# annotations, no dataclasses, json and binascii only, and prints nothing whose form
# depends on the interpreter (no repr of dicts or sets, no exception texts).

import binascii
import json

import mfrc522_sim
import pn5180_chip as pn5180_sim
import wire
from controller import Config, SeatController
from mfrc522 import MFRC522
from pn5180 import PN5180


def text(data):
    """Bytes as printable text, anything else as \\xNN: exact and readable."""
    out = []
    for b in data:
        if 32 <= b < 127 and b != 92:
            out.append(chr(b))
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


class Clock:
    def __init__(self, now):
        self.now = now

    def ms(self):
        return self.now


class Port:
    def __init__(self, clock):
        self.clock = clock
        self.inbox = b""

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        print("%d TX %s" % (self.clock.now, text(data)))


class ListReader:
    """A reader that returns what the scenario says lies on the pad."""

    def __init__(self, clock):
        self.clock = clock
        self.uids = []
        self.error = None
        self.stall_ms = 0

    def scan(self):
        self.clock.now += self.stall_ms
        if isinstance(self.error, list):
            raise OSError(*self.error)
        if self.error is not None:
            raise OSError(self.error)
        return list(self.uids)


class ChipReader:
    """A real driver (MFRC522 or PN5180) over a simulated SPI bus and chip."""

    def __init__(self, clock, pad, spec):
        self.clock = clock
        self.pad = pad
        self.cards = {}
        self.spi_crc = 0
        if spec["kind"] == "pn5180":
            self._card = pn5180_sim.Tag
            self.chip = pn5180_sim.SimulatedPN5180([], spec.get("busy_reads", 2))
            self.driver = PN5180(
                pn5180_sim.SimSPI(self.chip, self._log),
                pn5180_sim.SimNSS(self.chip),
                pn5180_sim.SimBusy(self.chip),
                64,
                self._sleep,
            )
        else:
            self._card = mfrc522_sim.Card
            self.chip = mfrc522_sim.SimulatedMFRC522([], spec.get("stack_limit", 0), spec.get("seed", 1))
            self.driver = MFRC522(mfrc522_sim.SimSPI(self.chip, self._log), mfrc522_sim.SimPin(), 8, self._sleep)

    def _log(self, data):
        self.spi_crc = binascii.crc32(data, self.spi_crc) & 0xFFFFFFFF

    def _sleep(self, ms):
        print("%d SLEEP %s %d" % (self.clock.now, self.pad, ms))
        self.clock.now += ms  # the board's time goes on while the driver waits

    def field(self, uids):
        cards = []
        for uid in uids:
            if uid not in self.cards:
                self.cards[uid] = self._card(uid)
            cards.append(self.cards[uid])
        if self._card is pn5180_sim.Tag:
            self.chip.tags = cards
        else:
            self.chip.cards = cards

    def scan(self):
        return self.driver.scan()

    def violations(self):
        return len(getattr(self.chip, "violations", ()))


class Logged:
    def __init__(self, clock, pad, reader):
        self.clock = clock
        self.pad = pad
        self.reader = reader
        self.scans = 0

    def scan(self):
        self.scans += 1
        try:
            uids = self.reader.scan()
        except OSError:
            print("%d SCANERR %s" % (self.clock.now, self.pad))
            raise
        print("%d SCAN %s %s" % (self.clock.now, self.pad, ",".join(uids)))
        return uids


class Buttons:
    def __init__(self):
        self.down = []

    def held(self, now_ms=None):
        return set(self.down)


class Leds:
    def __init__(self, clock):
        self.clock = clock

    def show(self, seat, colour):
        print("%d LED %s %s" % (self.clock.now, seat, colour))


class Buzzer:
    def __init__(self, clock):
        self.clock = clock

    def set(self, on):
        print("%d BUZ %d" % (self.clock.now, 1 if on else 0))


class Watchdog:
    def __init__(self, clock):
        self.clock = clock
        self.feeds = 0
        self.last = clock.now
        self.max_gap = 0

    def feed(self):
        self.feeds += 1
        self.max_gap = max(self.max_gap, self.clock.now - self.last)
        self.last = self.clock.now


def run_board(sc):
    clock = Clock(sc.get("start_ms", 1000))
    readers = {}
    chips = {}
    lists = {}
    for pad, spec in sc["readers"]:
        if spec["kind"] in ("chip", "pn5180"):
            reader = ChipReader(clock, pad, spec)
            chips[pad] = reader
        else:
            reader = ListReader(clock)
            lists[pad] = reader
        readers[pad] = Logged(clock, pad, reader)
    port = Port(clock)
    buttons = Buttons()
    dog = Watchdog(clock)
    fw = SeatController(
        port,
        readers,
        buttons,
        Leds(clock),
        Buzzer(clock),
        clock,
        dog,
        sc.get("device_id", "SC-REPLAY"),
        Config(**sc.get("config", {})),
    )
    events = sc.get("events", [])
    i = 0
    end = sc["end_ms"]
    step = sc.get("step_ms", 1)
    while clock.now < end:
        while i < len(events) and events[i][0] <= clock.now:
            ev = events[i]
            i += 1
            kind = ev[1]
            if kind == "uids":
                lists[ev[2]].uids = list(ev[3])
            elif kind == "field":
                chips[ev[2]].field(ev[3])
            elif kind == "error":
                lists[ev[2]].error = ev[3]
            elif kind == "stall":
                lists[ev[2]].stall_ms = ev[3]
            elif kind == "held":
                buttons.down = list(ev[2])
            elif kind == "host":
                port.inbox += binascii.unhexlify(ev[2])
            else:
                raise ValueError("unknown event " + kind)
        fw.step()
        clock.now += step
    scans = ",".join("%s:%d" % (pad, readers[pad].scans) for pad, _ in sc["readers"])
    spi = ",".join(
        "%s:%08X:%d" % (pad, chips[pad].spi_crc, chips[pad].violations()) for pad, _ in sc["readers"] if pad in chips
    )
    print(
        "END %d sent=%d seq=%d rxbad=%d feeds=%d maxgap=%d scans=%s spi=%s"
        % (clock.now, fw.sent, fw.seq, fw._decoder.bad, dog.feeds, dog.max_gap, scans, spi)
    )


def run_decode(sc):
    dec = wire.Decoder()
    for chunk in sc["chunks"]:
        for seq, kind, fields in dec.feed(binascii.unhexlify(chunk)):
            words = [k + "=" + fields[k] for k in sorted(fields)]
            print("FRAME %d %s %s" % (seq, kind, text(" ".join(words).encode())))
    for seq, kind, fields in sc.get("encode", []):
        print("ENC " + text(wire.encode(seq, kind, [tuple(f) for f in fields])))
    print("END bad=%d" % dec.bad)


def main(path):
    with open(path) as f:
        sc = json.load(f)
    run(sc)


def run(sc):
    if sc["kind"] == "many":
        for one in sc["scenarios"]:
            print("SCENARIO " + one["name"])
            run(one)
    elif sc["kind"] == "decode":
        run_decode(sc)
    else:
        run_board(sc)
