# The board glue (hal_pico.py) on simulated Pico parts: board.json picks each pad's
# reader, the readers scan simulated chips over the fake machine.SPI, buttons, LEDs,
# buzzer, service jumper and device id go through the fake machine and neopixel
# modules.  Prints a transcript; tests/hardware/test_board_glue.py runs it under CPython
# and MicroPython and compares.  Portable: no annotations, json only.

import json

import hal_pico
import machine
import mfrc522_sim
import neopixel
import pn5180_chip as pn5180_sim
from controller import Config, _word


class Mfrc522Device:
    def __init__(self, chip):
        self.spi = mfrc522_sim.SimSPI(chip)

    def write(self, data):
        self.spi.write(data)

    def read(self, n):
        return self.spi.read(n)


class Pn5180Device:
    def __init__(self, chip):
        self.chip = chip

    def write(self, data):
        self.chip.spi_write(data)

    def read(self, n):
        return self.chip.spi_read(n)


def main(config_path, cards, tags):
    with open(config_path, "w") as f:
        json.dump(
            {
                "readers": {"seat2": "pn5180", "seat4": "nfc9", "tray": "pn5180"},
                "config": {"gone_ms": 900, "scan_ms": "fast", "no_such_field": 3},
            },
            f,
        )
    kinds, overrides = hal_pico.board_config(config_path)
    print("kinds " + " ".join(p + "=" + kinds[p] for p in sorted(kinds)))
    print("overrides " + " ".join(k + "=" + str(overrides[k]) for k in sorted(overrides)))
    cfg = hal_pico.apply_config(Config(), overrides)
    print("config gone_ms=%d scan_ms=%d" % (cfg.gone_ms, cfg.scan_ms))
    for bad in ("[1, 2]", "{not json"):
        with open(config_path, "w") as f:
            f.write(bad)
        print("bad config: " + ",".join(sorted(set(hal_pico.board_config(config_path)[0].values()))))
    print("no config: " + ",".join(sorted(set(hal_pico.board_config(config_path + ".none")[0].values()))))

    # seat1: an MFRC522 with 3 cards; seat2: a PN5180 with one tag; tray: a PN5180 with
    # a stack; seat3: no chip on its select; seat4: a kind board.json got wrong
    chips = {"seat1": mfrc522_sim.SimulatedMFRC522([mfrc522_sim.Card(u) for u in cards])}
    machine.BUS[hal_pico.READER_CS["seat1"]] = Mfrc522Device(chips["seat1"])
    for pad, uids in (("seat2", tags[:1]), ("tray", tags)):
        chip = pn5180_sim.SimulatedPN5180([pn5180_sim.Tag(u) for u in uids])
        chips[pad] = chip
        machine.BUS[hal_pico.READER_CS[pad]] = Pn5180Device(chip)
        machine.LISTENERS[hal_pico.READER_CS[pad]] = chip.nss
        machine.INPUTS[hal_pico.READER_BUSY[pad]] = chip.busy
    spi = machine.SPI(
        0,
        baudrate=1000000,
        sck=machine.Pin(hal_pico.SPI_SCK),
        mosi=machine.Pin(hal_pico.SPI_MOSI),
        miso=machine.Pin(hal_pico.SPI_MISO),
    )
    readers = {pad: hal_pico.Reader(spi, pad, kinds[pad]) for pad in hal_pico.READER_CS}
    for attempt in (1, 2):
        for pad in sorted(readers):
            try:
                print("scan %d %s %s" % (attempt, pad, ",".join(sorted(readers[pad].scan()))))
            except OSError as exc:
                print("scan %d %s ERR %s" % (attempt, pad, _word(exc)))
    print("violations " + " ".join("%s=%d" % (p, len(chips[p].violations)) for p in ("seat2", "tray")))

    buttons = hal_pico.Buttons()
    machine.INPUTS[hal_pico.BUTTON_PINS["next"]] = lambda: 0
    machine.INPUTS[hal_pico.BUTTON_PINS["time:seat3"]] = lambda: 0
    print("held " + ",".join(sorted(buttons.held(0))))
    leds = hal_pico.Leds()
    leds.show("seat2", "red")
    leds.show("seat4", "blue")
    print("pixels " + " ".join("%d,%d,%d" % p for p in neopixel.WRITES[-1]))
    buzzer = hal_pico.Buzzer()
    buzzer.set(True)
    on = machine.LEVELS[hal_pico.BUZZER_PIN]
    buzzer.set(False)
    print("buzzer %d %d" % (on, machine.LEVELS[hal_pico.BUZZER_PIN]))
    print("service %s" % hal_pico.service_mode())
    machine.INPUTS[hal_pico.SERVICE_PIN] = lambda: 0
    print("service jumper %s" % hal_pico.service_mode())
    print("id " + hal_pico.device_id())
