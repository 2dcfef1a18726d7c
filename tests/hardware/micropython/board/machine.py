# A stand-in for MicroPython's machine module on the Pico, wired to simulated chips, so
# that hal_pico.py runs (under MicroPython and CPython) in tests/hardware/test_board_glue.py.
# Only what hal_pico uses, with the Pico's signatures (checked against the stubs there).

LEVELS = {}  # pin id -> level last driven by the firmware
INPUTS = {}  # pin id -> callable giving the level read (buttons, BUSY lines)
LISTENERS = {}  # pin id -> callable told each level the firmware drives (NSS)
BUS = {}  # chip-select pin id -> device with write(bytes) and read(n)
UNIQUE_ID = b"\xe6\x61\x41\x04\x03\x2b\x2a\x21"


class Pin:
    IN, OUT, PULL_UP = 0, 1, 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            source = INPUTS.get(self.id)
            return source() if source is not None else LEVELS.get(self.id, 1)
        LEVELS[self.id] = v
        listener = LISTENERS.get(self.id)
        if listener is not None:
            listener(v)
        return None


class SPI:
    def __init__(self, id, baudrate=1000000, sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate

    def _device(self):
        # the chip whose select is low; a select with no chip behind it reads MISO low
        chosen = [cs for cs in BUS if LEVELS.get(cs, 1) == 0]
        if len(chosen) > 1:
            raise RuntimeError("SPI transfer with %d chips selected" % len(chosen))
        return BUS[chosen[0]] if chosen else None

    def write(self, data):
        device = self._device()
        if device is not None:
            device.write(bytes(data))

    def read(self, n, write=0):
        device = self._device()
        return device.read(n) if device is not None else bytes(n)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def unique_id():
    return UNIQUE_ID
