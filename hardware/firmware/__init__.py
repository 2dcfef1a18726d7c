"""The seat controller's firmware (MicroPython on a Raspberry Pi Pico): pads, console,
LEDs and the wire protocol (PROTOCOL.md).  Imports only MicroPython's own modules and
its siblings here; ``hardware/firmware_build.py`` compiles it.
"""
