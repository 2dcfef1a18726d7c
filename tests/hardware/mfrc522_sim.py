"""A register-level simulation of an MFRC522 and the ISO 14443A cards in its field,
for testing hardware/firmware/mfrc522.py.

It models what the driver uses: the register file over SPI (address byte: bit 7 =
read, bits 6..1 = register), the FIFO, Transceive with TxLastBits/RxAlign, CalcCRC,
the antenna switch, and the cards' state machine (IDLE, READY per cascade level,
ACTIVE, HALT) with bit-wise anticollision: colliding answers give ErrorReg.CollErr and
CollReg.CollPos, the 1-based position of the first colliding bit in the UID-CLn.  That
last reading of the datasheet is an assumption this simulation shares with the driver;
a real chip is the final judge.

A stack detunes the antenna: with ``stack_limit`` set, only that many of the cards in
the field (chosen by a seeded xorshift, so every interpreter picks the same ones) get
power each time the field comes on; the others stay silent until the next field reset.

Portable: no annotations, no ``next(it, default)``, only integer arithmetic, so the
same simulation runs under CPython and under MicroPython (tests/hardware/micropython).
"""

CT = 0x88


def crc_a(data):
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes((crc & 0xFF, crc >> 8))


def _levels(uid):
    """The UID-CLn blocks (4 bytes + BCC) of a 4, 7 or 10 byte UID."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes((CT,)) + uid[:3], uid[3:]]
    else:
        parts = [bytes((CT,)) + uid[:3], bytes((CT,)) + uid[3:6], uid[6:]]
    return [p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)) for p in parts]


def _bits(block):
    return [(block[i // 8] >> (i % 8)) & 1 for i in range(8 * len(block))]


class Card:
    def __init__(self, uid_hex):
        self.uid = bytes.fromhex(uid_hex)
        self.levels = _levels(self.uid)
        self.state = "IDLE"
        self.level = 0


class SimulatedMFRC522:
    """The chip behind one chip-select.  ``cards`` is the list of cards in the field
    (the caller may change it between scans)."""

    def __init__(self, cards, stack_limit=0, seed=1):
        self.cards = cards
        self.stack_limit = stack_limit
        self._rng = (seed & 0xFFFFFFFF) or 1
        self.reg = [0] * 64
        self.reg[0x37] = 0x92
        self.fifo = []
        self._read_reg = None
        self.exchanges = 0

    # --- SPI side ---------------------------------------------------------------------
    def spi_write(self, data):
        addr = data[0]
        reg = (addr >> 1) & 0x3F
        if addr & 0x80:
            self._read_reg = reg
        else:
            self._write(reg, data[1])

    def spi_read(self):
        reg = self._read_reg
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.reg[reg]

    # --- registers ---------------------------------------------------------------------
    def _write(self, reg, val):
        if reg == 0x09:
            self.fifo.append(val)
        elif reg == 0x0A:
            if val & 0x80:
                self.fifo = []
        elif reg == 0x04:  # ComIrqReg: writing 0 bits with Set1=0 clears the marked bits
            self.reg[0x04] &= ~val & 0x7F if not val & 0x80 else 0xFF
        elif reg == 0x05:
            self.reg[0x05] &= ~val & 0x7F if not val & 0x80 else 0xFF
        elif reg == 0x14:
            was_on = self.reg[0x14] & 0x03
            self.reg[0x14] = val
            if was_on and not val & 0x03:
                for card in self.cards:  # field off: every card loses power
                    card.state, card.level = "IDLE", 0
            elif val & 0x03 and not was_on:
                self._power_up()
        elif reg == 0x01:
            self.reg[0x01] = val & 0x0F
            if val & 0x0F == 0x0F:
                self.reg[0x14] = 0x80
            elif val & 0x0F == 0x03:
                crc = crc_a(bytes(self.fifo))
                self.reg[0x22], self.reg[0x21] = crc[0], crc[1]
                self.reg[0x05] |= 0x04
        elif reg == 0x0D:
            self.reg[0x0D] = val
            if val & 0x80 and self.reg[0x01] == 0x0C:
                self._transceive(val & 0x07, (val >> 4) & 0x07)
        else:
            self.reg[reg] = val

    def _random(self):
        x = self._rng
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x

    def _power_up(self):
        # The field comes on: with a stack limit, only some of the stack gets enough power.
        for card in self.cards:
            card.state, card.level = "IDLE", 0
        if self.stack_limit and len(self.cards) > self.stack_limit:
            left = list(self.cards)
            while len(left) > self.stack_limit:
                left.pop(self._random() % len(left))
            for card in self.cards:
                if card not in left:
                    card.state = "OFF"

    # --- the air interface ----------------------------------------------------------------
    def _transceive(self, tx_last_bits, rx_align):
        self.exchanges += 1
        tx = bytes(self.fifo)
        self.fifo = []
        self.reg[0x06] = 0
        self.reg[0x0E] &= 0x80
        answer = self._picc(tx, tx_last_bits) if self.reg[0x14] & 0x03 else None
        if answer is None:
            self.reg[0x04] |= 0x01  # timer: nobody answered
            return
        data, last_bits, coll_pos = answer
        self.fifo = list(data)
        self.reg[0x0C] = (self.reg[0x0C] & ~0x07) | last_bits
        if coll_pos:
            self.reg[0x06] |= 0x08
            self.reg[0x0E] = (self.reg[0x0E] & 0x80) | (coll_pos & 0x1F)
        self.reg[0x04] |= 0x30

    def _picc(self, tx, tx_last_bits):
        if tx_last_bits == 7 and len(tx) == 1 and tx[0] in (0x26, 0x52):
            wake = ("IDLE",) if tx[0] == 0x26 else ("IDLE", "HALT")
            woken = [c for c in self.cards if c.state in wake]
            for c in woken:
                c.state, c.level = "READY", 0
            return (bytes((0x44, 0x00)), 0, 0) if woken else None
        if len(tx) == 4 and tx[0] == 0x50 and tx[1] == 0 and crc_a(tx[:2]) == tx[2:]:
            for c in self.cards:
                if c.state == "ACTIVE":
                    c.state = "HALT"
            return None
        if len(tx) >= 2 and tx[0] in (0x93, 0x95, 0x97):
            level = (0x93, 0x95, 0x97).index(tx[0])
            nvb = tx[1]
            if nvb == 0x70:
                return self._select(level, tx)
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            return self._anticoll(level, _bits(tx[2:])[:known] if known else [], known)
        for c in self.cards:  # anything else: READY cards fall back
            if c.state == "READY":
                c.state = "IDLE"
        return None

    def _ready(self, level):
        return [c for c in self.cards if c.state == "READY" and c.level == level and level < len(c.levels)]

    def _anticoll(self, level, known_bits, k):
        answering = [c for c in self._ready(level) if _bits(c.levels[level])[:k] == known_bits]
        if not answering:
            return None
        blocks = [_bits(c.levels[level]) for c in answering]
        coll = None
        for i in range(k, 40):
            if len(set(b[i] for b in blocks)) > 1:
                coll = i
                break
        first = blocks[0]
        out_bits = [0] * 40
        for i in range(k, 40 if coll is None else coll):
            out_bits[i] = first[i]
        start = (k // 8) * 8
        data = bytes(sum(out_bits[start + 8 * j + i] << i for i in range(8)) for j in range((40 - start) // 8))
        return data, 0, 0 if coll is None else coll + 1

    def _select(self, level, tx):
        if len(tx) != 9 or crc_a(tx[:7]) != tx[7:]:
            return None
        chosen = [c for c in self._ready(level) if c.levels[level] == tx[2:7]]
        for c in self._ready(level):
            if c not in chosen:
                c.state = "IDLE"
        if not chosen:
            return None
        # Cards whose UIDs share this whole cascade level are selected together and go
        # on to the next level, where anticollision tells them apart.
        sak = 0x08
        for card in chosen:
            if level + 1 < len(card.levels):
                card.level += 1
                sak = 0x04
            else:
                card.state = "ACTIVE"
        return bytes((sak,)) + crc_a(bytes((sak,))), 0, 0


class SimSPI:
    """A machine.SPI stand-in wired to one simulated chip (through its CS pin).
    ``log`` (optional, a callable) sees every byte string written, for comparing the
    driver's register traffic between interpreters."""

    def __init__(self, chip, log=None):
        self.chip = chip
        self.log = log

    def write(self, data):
        data = bytes(data)
        if self.log is not None:
            self.log(data)
        self.chip.spi_write(data)

    def read(self, n):
        return bytes(self.chip.spi_read() for _ in range(n))


class SimPin:
    def __init__(self):
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
