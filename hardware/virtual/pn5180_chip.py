"""A register-level simulation of an NXP PN5180 and the ISO 15693 tags in its field
(a stack of them): the virtual table's PN5180 pads run the real driver
(hardware/firmware/pn5180.py) against it, and tests/hardware tests the driver with it.

Written from the PN5180 datasheet's host interface and ISO/IEC 15693-3, not from the
driver: it checks what a chip would check and counts every breach in ``violations``:

- SPI frames framed by NSS; BUSY goes high after every frame for ``busy_reads`` reads
  of the pin, and a frame started while BUSY is high is a breach (and is lost).
- Commands WRITE_REGISTER (and its OR/AND forms), READ_REGISTER, READ_EEPROM,
  LOAD_RF_CONFIG, RF_ON/RF_OFF, SEND_DATA, READ_DATA; answers are clocked out in a
  second frame.  SEND_DATA is refused (GENERAL_ERROR) unless SYSTEM_CONFIG holds the
  Transceive command, the transceiver waits to transmit, and the ISO 15693
  configuration (0x0D/0x8D) is loaded with the field on.
- TX_CONFIG with data and start symbol off sends an EOF alone: the next slot of a
  16-slot inventory.
- IRQ_STATUS: TX_IRQ, RX_SOF_DET, RX_IRQ when an answer came; TIMER1_IRQ when nobody
  answered, if TIMER1 was set up to start at the end of sending (otherwise nothing ever
  ends the wait: a driver that forgot the timer hangs).
- RX_STATUS: bytes received, and for two or more answers in one slot
  RX_COLLISION_DETECTED with the first colliding bit and RX_DATA_INTEGRITY_ERROR.
- Tags: 64-bit UIDs, READY or QUIET; an inventory with mask length m and 16 slots makes
  every READY tag whose low m UID bits equal the mask answer in the slot named by its
  next 4 bits; an answer is flags, DSFID and the UID, LSB first (the chip strips the CRC).

Portable (no annotations), so it runs under CPython and MicroPython alike.
"""

_IRQ_RX, _IRQ_TX, _IRQ_TIMER1, _IRQ_SOF, _IRQ_ERROR = 1 << 0, 1 << 1, 1 << 12, 1 << 14, 1 << 17
_TX_CONFIG_ISO15693 = 0x000007C0  # data on, stop symbol, start symbol (after LOAD_RF_CONFIG)


class Tag:
    def __init__(self, uid_hex):
        self.uid = int(uid_hex, 16)  # written MSB first, as on the tag's label: E004...
        self.state = "READY"


class SimulatedPN5180:
    def __init__(self, tags, busy_reads=2, version=b"\x03\x05"):
        self.tags = tags
        self.busy_reads = busy_reads
        self.eeprom = bytearray(0x20)
        self.eeprom[0x10:0x12] = version
        self.reg = [0] * 0x30
        self.rf_config = None
        self.rf_on = False
        self.violations = []
        self.exchanges = 0
        self.frames = 0
        self._busy = 0
        self._selected = False
        self._frame = bytearray()
        self._read_frame = False
        self._answer = None
        self._rx = b""
        self._round = None  # (mask, mask_bits, slot) of a 16-slot inventory

    # --- pins and SPI -------------------------------------------------------------------
    def busy(self):
        if self._busy:
            self._busy -= 1
            return 1
        return 0

    def nss(self, level):
        if level == 0 and not self._selected:
            if self._busy:
                self.violations.append("frame started while BUSY was high")
            self._selected = True
            self._frame = bytearray()
            self._read_frame = False
        elif level == 1 and self._selected:
            self._selected = False
            lost = bool(self.violations) and self.violations[-1] == "frame started while BUSY was high"
            if self._frame and not lost:
                self._command(bytes(self._frame))
            self.frames += 1
            self._busy = self.busy_reads

    def spi_write(self, data):
        if not self._selected:
            self.violations.append("SPI write with NSS high")
            return
        self._frame += data

    def spi_read(self, n):
        if not self._selected:
            self.violations.append("SPI read with NSS high")
            return b"\xff" * n
        if self._answer is None:
            self.violations.append("read without a command that answers")
            return b"\xff" * n
        out, self._answer = self._answer[:n], None
        return out + b"\xff" * (n - len(out))

    # --- commands -------------------------------------------------------------------------
    def _command(self, f):
        cmd = f[0]
        self._answer = None
        if cmd in (0x00, 0x01, 0x02) and len(f) == 6:
            value = f[2] | f[3] << 8 | f[4] << 16 | f[5] << 24
            old = self.reg[f[1]]
            self._reg_write(f[1], value if cmd == 0 else (old | value if cmd == 1 else old & value))
        elif cmd == 0x04 and len(f) == 2:
            v = self.reg[f[1]]
            self._answer = bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF))
        elif cmd == 0x07 and len(f) == 3:
            self._answer = bytes(self.eeprom[f[1] : f[1] + f[2]])
        elif cmd == 0x11 and len(f) == 3:
            self.rf_config = (f[1], f[2])
            if self.rf_config == (0x0D, 0x8D):
                self.reg[0x18] = _TX_CONFIG_ISO15693
        elif cmd == 0x16 and len(f) == 2:
            if not self.rf_on:
                for tag in self.tags:  # power up: every tag READY
                    tag.state = "READY"
            self.rf_on = True
        elif cmd == 0x17 and len(f) == 2:
            self.rf_on = False
            self._round = None
        elif cmd == 0x09 and len(f) >= 2:
            self._send(f[1], f[2:])
        elif cmd == 0x0A and len(f) == 2:
            self._answer = self._rx
        else:
            self.violations.append("unknown command %02X (%d bytes)" % (cmd, len(f)))

    def _reg_write(self, reg, value):
        value &= 0xFFFFFFFF
        if reg == 0x03:  # IRQ_CLEAR
            self.reg[0x02] &= ~value & 0xFFFFFFFF
        elif reg in (0x02, 0x13, 0x1D):
            self.violations.append("write to read-only register %02X" % reg)
        elif reg == 0x00:
            self.reg[0x00] = value
            state = 1 if value & 0x07 == 0x03 else 0  # Transceive: wait to transmit
            self.reg[0x1D] = (self.reg[0x1D] & ~0x07000000) | (state << 24)
        else:
            self.reg[reg] = value

    # --- the air interface ----------------------------------------------------------------
    def _send(self, last_bits, data):
        ready = (
            self.reg[0x00] & 0x07 == 0x03
            and (self.reg[0x1D] >> 24) & 0x07 == 1
            and self.rf_config == (0x0D, 0x8D)
            and self.rf_on
            and last_bits == 0
        )
        if not ready:
            self.reg[0x02] |= _IRQ_ERROR
            return
        self.exchanges += 1
        tx = self.reg[0x18]
        if not tx & (1 << 10) and not tx & 0xC0 and not data:
            answers = self._eof()
        elif tx & (1 << 10) and tx & 0xC0 and data:
            answers = self._request(data)
        else:
            self.violations.append("SEND_DATA with TX_CONFIG %08X and %d bytes" % (tx, len(data)))
            answers = []
        self.reg[0x02] |= _IRQ_TX
        self.reg[0x13] = 0
        if not answers:
            timer = self.reg[0x0F]
            if timer & 1 and timer & (1 << 11) and self.reg[0x0C]:
                self.reg[0x02] |= _IRQ_TIMER1
            return
        frames = [bytes((0x00, 0x00)) + tag.uid.to_bytes(8, "little") for tag in answers]
        self.reg[0x02] |= _IRQ_SOF | _IRQ_RX
        if len(frames) == 1:
            self._rx = frames[0]
            self.reg[0x13] = len(frames[0])
            return
        bit = 0  # the first bit where the answers differ
        while len(set((fr[bit // 8] >> (bit % 8)) & 1 for fr in frames)) == 1:
            bit += 1
        self._rx = frames[0][: bit // 8]
        self.reg[0x13] = (bit // 8) | (1 << 16) | (1 << 18) | ((bit & 0x7F) << 19)

    def _request(self, data):
        self._round = None
        if len(data) < 2:
            return []
        flags, cmd = data[0], data[1]
        if cmd == 0x01 and flags & 0x04:  # INVENTORY
            if flags & 0x10:  # AFI: not used by the driver
                self.violations.append("inventory with AFI")
                return []
            if len(data) < 3:
                return []
            bits = data[2]
            nbytes = (bits + 7) // 8
            if bits > 64 or len(data) != 3 + nbytes:
                return []
            mask = int.from_bytes(data[3 : 3 + nbytes], "little") & ((1 << bits) - 1) if bits else 0
            if flags & 0x20:  # one slot: everyone matching answers
                return self._matching(mask, bits)
            self._round = (mask, bits, 0)
            return self._in_slot()
        if cmd == 0x02 and flags & 0x20 and len(data) == 10:  # STAY QUIET, addressed
            uid = int.from_bytes(data[2:10], "little")
            for tag in self.tags:
                if tag.uid == uid:
                    tag.state = "QUIET"
        return []

    def _matching(self, mask, bits):
        low = (1 << bits) - 1
        return [t for t in self.tags if t.state == "READY" and t.uid & low == mask]

    def _in_slot(self):
        mask, bits, slot = self._round
        return [t for t in self._matching(mask, bits) if (t.uid >> bits) & 0x0F == slot]

    def _eof(self):
        if self._round is None:
            return []
        mask, bits, slot = self._round
        if slot >= 15:
            self._round = None
            return []
        self._round = (mask, bits, slot + 1)
        return self._in_slot()


class SimSPI:
    """machine.SPI wired to one simulated chip; ``log`` sees every byte string written."""

    def __init__(self, chip, log=None):
        self.chip = chip
        self.log = log

    def write(self, data):
        data = bytes(data)
        if self.log is not None:
            self.log(data)
        self.chip.spi_write(data)

    def read(self, n, write=0):
        return self.chip.spi_read(n)


class SimNSS:
    def __init__(self, chip):
        self.chip = chip
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        self.chip.nss(v)


class SimBusy:
    def __init__(self, chip):
        self.chip = chip

    def value(self, v=None):
        return self.chip.busy()
