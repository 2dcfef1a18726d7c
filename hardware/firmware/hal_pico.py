# The real board under the firmware loop: Raspberry Pi Pico (RP2040), MicroPython.
# Pin numbers follow hardware/README.md ("Wiring").  NOT YET RUN ON A BOARD.

import json
import select
import sys
import time

import machine
import neopixel

from mfrc522 import MFRC522
from pn5180 import PN5180

SPI_SCK, SPI_MOSI, SPI_MISO = 18, 19, 16
READER_CS = {"seat1": 17, "seat2": 20, "seat3": 21, "seat4": 22, "tray": 26}
READER_RST = 27
# A PN5180 (ISO 15693, reads stacks whole) needs a BUSY line besides its chip select.
READER_BUSY = {"seat1": 0, "seat2": 1, "seat3": 11, "seat4": 12, "tray": 28}
READER_KINDS = ("mfrc522", "pn5180")
BOARD_CONFIG = "board.json"  # on the Pico (hardware/README.md, "A PN5180 build"); optional
BUTTON_PINS = {
    "next": 2,
    "declined": 3,
    "time": 4,
    "tl": 5,
    "pause": 6,
    "time:seat1": 7,
    "time:seat2": 8,
    "time:seat3": 9,
    "time:seat4": 10,
}
LED_PIN, BUZZER_PIN, SERVICE_PIN = 15, 14, 13
RGB = {
    "off": (0, 0, 0),
    "green": (0, 60, 0),
    "yellow": (60, 45, 0),
    "red": (70, 0, 0),
    "blue": (0, 0, 70),
    "white": (50, 50, 50),
}
SEAT_PIXEL = {"seat1": 0, "seat2": 1, "seat3": 2, "seat4": 3}


def service_mode():
    # Jumper GP13 to GND at power-up: skip the loop and keep the REPL for flashing.
    return machine.Pin(SERVICE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


class UsbPort:
    """The USB CDC serial line (MicroPython's stdin/stdout), non-blocking."""

    def __init__(self):
        import micropython

        micropython.kbd_intr(-1)  # a 0x03 from the host is data, not Ctrl-C
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def read(self):
        data = b""
        while self._poll.poll(0) and len(data) < 256:
            data += self._in.read(1)
        return data

    def write(self, data):
        self._out.write(data)


def board_config(path=BOARD_CONFIG):
    """The board's config file: ``{"readers": {"tray": "pn5180", ...}, "config": {"gone_ms":
    900}}``, both parts optional.  Returns (reader kind per pad, Config overrides); pads
    it does not name have an MFRC522.  Never raises: the loop must start to say what is wrong."""
    kinds = {pad: "mfrc522" for pad in READER_CS}
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError:  # no config file: the MFRC522 build
        return kinds, {}
    except ValueError:  # unreadable: every pad reports it (RDR detail), none is guessed
        return {pad: "bad-board-json" for pad in READER_CS}, {}
    if not isinstance(data, dict):
        return {pad: "bad-board-json" for pad in READER_CS}, {}
    named = data.get("readers", {})
    for pad in kinds:
        if isinstance(named, dict) and pad in named:
            kinds[pad] = str(named[pad])
    overrides = {}
    given = data.get("config", {})
    if isinstance(given, dict):
        for key in given:
            if isinstance(given[key], int):
                overrides[key] = given[key]
    return kinds, overrides


def apply_config(config, overrides):
    """Set the known Config fields among ``overrides``; unknown names are ignored."""
    for key in overrides:
        if hasattr(config, key):
            setattr(config, key, overrides[key])
    return config


class Reader:
    """One pad's reader (MFRC522 or PN5180); a missing or dead module, or a kind the
    config got wrong, raises OSError, as the loop expects (the host sees RDR ok=0)."""

    def __init__(self, spi, pad, kind):
        self._spi = spi
        self._pad = pad
        self._kind = kind
        self._cs = machine.Pin(READER_CS[pad], machine.Pin.OUT, value=1)
        self._chip = None

    def scan(self):
        if self._chip is None:  # retried every scan until the chip answers
            if self._kind == "pn5180":
                busy = machine.Pin(READER_BUSY[self._pad], machine.Pin.IN)
                self._chip = PN5180(self._spi, self._cs, busy)
            elif self._kind == "mfrc522":
                self._chip = MFRC522(self._spi, self._cs)
            else:
                raise OSError("reader-kind-" + self._kind)
        return self._chip.scan()


class Buttons:
    def __init__(self):
        self._pins = {name: machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for name, p in BUTTON_PINS.items()}

    def held(self, now_ms=None):
        return {name for name, pin in self._pins.items() if pin.value() == 0}


class Leds:
    def __init__(self):
        self._np = neopixel.NeoPixel(machine.Pin(LED_PIN), 4)

    def show(self, seat, colour):
        self._np[SEAT_PIXEL[seat]] = RGB[colour]
        self._np.write()


class Buzzer:
    def __init__(self):
        self._pin = machine.Pin(BUZZER_PIN, machine.Pin.OUT, value=0)

    def set(self, on):
        self._pin.value(1 if on else 0)


class Clock:
    """Milliseconds that never wrap (ticks_ms wraps after ~12 days)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0

    def ms(self):
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last)
        self._last = now
        return self._ms


def make_board(kinds=None):
    if kinds is None:
        kinds = board_config()[0]
    rst = machine.Pin(READER_RST, machine.Pin.OUT, value=0)
    time.sleep_ms(10)
    rst.value(1)
    spi = machine.SPI(
        0, baudrate=1000000, sck=machine.Pin(SPI_SCK), mosi=machine.Pin(SPI_MOSI), miso=machine.Pin(SPI_MISO)
    )
    readers = {pad: Reader(spi, pad, kinds[pad]) for pad in READER_CS}
    return UsbPort(), readers, Buttons(), Leds(), Buzzer(), Clock()


def device_id():
    return "SC-" + "".join("%02X" % b for b in machine.unique_id())[-8:]
