# A stand-in for MicroPython's neopixel module: records what the strip shows.

WRITES = []


class NeoPixel:
    def __init__(self, pin, n):
        self.pin = pin
        self.pixels = [(0, 0, 0)] * n

    def __setitem__(self, i, colour):
        self.pixels[i] = colour

    def __getitem__(self, i):
        return self.pixels[i]

    def write(self):
        WRITES.append(list(self.pixels))
