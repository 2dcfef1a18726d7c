# MFRC522 (ISO 14443A) reader on SPI, reading every card in the field per scan.
# MicroPython (machine.SPI/Pin handed in).  Written from the NXP MFRC522 datasheet and
# ISO 14443-3; tested against a register-level simulation of the chip and its cards
# (tests/hardware/mfrc522_sim.py); NOT YET RUN ON A BOARD (hardware/README.md, "Status").
#
# A scan resets the RF field (all cards back to IDLE), then repeats: REQA, bit-wise
# anticollision through the cascade levels to one full UID, SELECT, HLTA, so the
# next REQA finds the next card.  Stacked inlays detune each other: expect 2, at
# most, of a stack per scan; the debouncer unions scans over its gone time.

import time


def sleep_ms(ms):
    # The board's time.sleep_ms; CPython (the simulation in tests/hardware) has only sleep.
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


_CMD, _COMIRQ, _DIVIRQ, _ERR, _FIFO, _FIFOLVL, _CTRL, _BITFRM, _COLL = (
    0x01,
    0x04,
    0x05,
    0x06,
    0x09,
    0x0A,
    0x0C,
    0x0D,
    0x0E,
)
_MODE, _TXCTRL, _TXASK, _CRCH, _CRCL, _TMODE, _TPRESC, _TRELH, _TRELL, _VERSION = (
    0x11,
    0x14,
    0x15,
    0x21,
    0x22,
    0x2A,
    0x2B,
    0x2C,
    0x2D,
    0x37,
)
_IDLE, _CALCCRC, _TRANSCEIVE, _RESET = 0x00, 0x03, 0x0C, 0x0F
_REQA, _HLTA = 0x26, 0x50
_CASCADE = (0x93, 0x95, 0x97)
_CT = 0x88


class ReaderError(OSError):
    pass


class MFRC522:
    def __init__(self, spi, cs, max_cards=8, sleep=None):
        self.spi = spi
        self.cs = cs
        self.max_cards = max_cards
        # The field needs real time to drop and come back; a simulation hands in its own
        # sleep (tests/hardware/micropython records it, so both interpreters wait alike).
        self._sleep = sleep or sleep_ms
        self.cs.value(1)
        self.init()

    # --- registers -------------------------------------------------------------------
    def _w(self, reg, val):
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, val)))
        self.cs.value(1)

    def _r(self, reg):
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        val = self.spi.read(1)[0]
        self.cs.value(1)
        return val

    def _set(self, reg, mask):
        self._w(reg, self._r(reg) | mask)

    def _clear(self, reg, mask):
        self._w(reg, self._r(reg) & ~mask)

    def init(self):
        self._w(_CMD, _RESET)
        self._sleep(50)
        if self._r(_VERSION) not in (0x91, 0x92, 0x88, 0x12):
            raise ReaderError("no-mfrc522")
        self._w(_TMODE, 0x8D)  # timer auto-start, prescaler high bits
        self._w(_TPRESC, 0x3E)  # ~30 us ticks
        self._w(_TRELH, 0)
        self._w(_TRELL, 30)  # ~1 ms timeout per exchange
        self._w(_TXASK, 0x40)  # 100 % ASK
        self._w(_MODE, 0x3D)  # CRC preset 0x6363
        self.antenna(True)

    def antenna(self, on):
        if on:
            self._set(_TXCTRL, 0x03)
        else:
            self._clear(_TXCTRL, 0x03)

    # --- exchanges --------------------------------------------------------------------
    def _transceive(self, data, last_bits=0, rx_align=0):
        """Send bytes (``last_bits`` valid bits in the last one, 0 = all 8); return
        (received bytes, valid bits in the last byte, collision).  ``rx_align`` puts
        the first received bit at that bit of the first byte (anticollision)."""
        self._w(_CMD, _IDLE)
        self._w(_COMIRQ, 0x7F)
        self._w(_FIFOLVL, 0x80)
        for b in data:
            self._w(_FIFO, b)
        self._w(_BITFRM, ((rx_align & 0x07) << 4) | (last_bits & 0x07))
        self._w(_CMD, _TRANSCEIVE)
        self._set(_BITFRM, 0x80)  # StartSend
        for _ in range(200):
            irq = self._r(_COMIRQ)
            if irq & 0x30:  # RxIRq or IdleIRq
                break
            if irq & 0x01:  # timer: no card answered
                return None, 0, False
        else:
            raise ReaderError("mfrc522-timeout")
        self._clear(_BITFRM, 0x80)
        err = self._r(_ERR)
        if err & 0x13:  # buffer overflow, parity, protocol
            return None, 0, False
        collision = bool(err & 0x08)
        n = self._r(_FIFOLVL)
        bits = self._r(_CTRL) & 0x07
        return bytes(self._r(_FIFO) for _ in range(n)), bits, collision

    def _crc(self, data):
        self._w(_CMD, _IDLE)
        self._w(_DIVIRQ, 0x04)
        self._w(_FIFOLVL, 0x80)
        for b in data:
            self._w(_FIFO, b)
        self._w(_CMD, _CALCCRC)
        for _ in range(100):
            if self._r(_DIVIRQ) & 0x04:
                return bytes((self._r(_CRCL), self._r(_CRCH)))
        raise ReaderError("mfrc522-crc")

    def _anticoll(self, level):
        # Bit-wise anticollision (ISO 14443-3 6.5.3): on a collision keep the bits
        # known so far, choose 1 for the colliding bit, and ask again.
        # NVB: high nibble = whole bytes sent (SEL, NVB and the known UID bytes),
        # low nibble = known bits of the partial byte.
        self._clear(_COLL, 0x80)  # bits after a collision read as 0
        known = bytearray()
        known_bits = 0
        sel = _CASCADE[level]
        for _ in range(32):
            align = known_bits % 8
            nvb = ((2 + known_bits // 8) << 4) | align
            frame = bytes((sel, nvb)) + bytes(known)
            rx, _, collision = self._transceive(frame, align, align)
            if rx is None:
                return None
            # Merge the answer into what we know.
            full = bytearray(known[: known_bits // 8])
            if align and rx:
                full.append((known[-1] & ((1 << align) - 1)) | (rx[0] & (0xFF << align) & 0xFF))
                rx = rx[1:]
            full += rx
            if not collision:
                return bytes(full[:5])
            # CollPos: 1-based position, in the whole UID-CLn, of the first colliding bit.
            pos = self._r(_COLL) & 0x1F or 32
            if pos <= known_bits:
                return None
            known_bits = pos
            known = bytearray(full[: (known_bits + 7) // 8])
            bit = (known_bits - 1) % 8
            known[-1] = (known[-1] & ((1 << (bit + 1)) - 1)) | (1 << bit)
        return None

    def _select_one(self):
        uid = bytearray()
        for level in range(3):
            part = self._anticoll(level)
            if part is None or len(part) < 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            frame = bytes((_CASCADE[level], 0x70)) + part
            rx, _, _ = self._transceive(frame + self._crc(frame))
            if rx is None or not rx:
                return None
            # The SAK's cascade bit, not the first byte, says whether the UID goes on:
            # 0x88 is a legal byte at the last cascade level of a 10-byte UID.
            if rx[0] & 0x04:
                if part[0] != _CT:
                    return None
                uid += part[1:4]
                continue
            uid += part[:4]
            return bytes(uid)
        return None

    def scan(self):
        """Every card UID in the field, as upper-case hex texts."""
        self.antenna(False)
        self._sleep(2)  # field off: every card falls back to IDLE
        self.antenna(True)
        self._sleep(3)
        found = []
        for _ in range(self.max_cards):
            rx, _, _ = self._transceive(bytes((_REQA,)), 7)
            if rx is None:
                break
            uid = self._select_one()
            if uid is None:
                continue
            found.append("".join("%02X" % b for b in uid))
            halt = bytes((_HLTA, 0))
            self._transceive(halt + self._crc(halt))  # no answer is the good answer
        return found
