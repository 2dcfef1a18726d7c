# CPython only: MicroPython's own micropython module is built in and takes precedence.


def kbd_intr(chr):
    pass
