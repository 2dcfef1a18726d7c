# PN5180 (NXP) reader for ISO 15693 tags (ICODE SLIX class inlays), on SPI with its
# BUSY line, reading a whole stack per scan.  MicroPython (machine.SPI/Pin handed in).
# Written from NXP's PN5180 datasheet (host interface, registers, IRQ and RX status
# bits) and ISO/IEC 15693-3 (inventory, 16 slots, anticollision by mask); tested against
# a register-level simulation of the chip and a stack of tags (hardware/virtual/pn5180_chip.py)
# under CPython and MicroPython; NOT YET RUN ON A BOARD (hardware/README.md, "Status").
#
# A scan is an ISO 15693 inventory, first with one slot (an empty pad or a lone tag
# answers at once), on a collision with 16 slots: every tag answers in the slot named by
# the 4 UID bits after the mask, and the reader moves from slot to slot by sending an EOF.
# A slot where two or more tags answered (a collision) is asked again with the mask
# grown by that slot's 4 bits, until every tag has had a slot of its own.  The field
# stays on between scans; inventory does not change a tag's state.

import time

# Host interface commands (one SPI frame each; answers come in a second frame)
_WRITE_REGISTER, _WRITE_OR, _WRITE_AND, _READ_REGISTER = 0x00, 0x01, 0x02, 0x04
_READ_EEPROM, _SEND_DATA, _READ_DATA, _LOAD_RF_CONFIG, _RF_ON = 0x07, 0x09, 0x0A, 0x11, 0x16
# Registers
_SYSTEM_CONFIG, _IRQ_STATUS, _IRQ_CLEAR, _TIMER1_RELOAD, _TIMER1_CONFIG = 0x00, 0x02, 0x03, 0x0C, 0x0F
_RX_STATUS, _TX_CONFIG = 0x13, 0x18
# IRQ_STATUS bits
_RX_IRQ, _TIMER1_IRQ, _GENERAL_ERROR = 1 << 0, 1 << 12, 1 << 17
# RX_STATUS bits
_RX_BYTES, _RX_INTEGRITY, _RX_PROTOCOL, _RX_COLLISION = 0x1FF, 1 << 16, 1 << 17, 1 << 18
# TX_CONFIG: data and start symbol off = an EOF alone (the next inventory slot)
_TX_DATA_ENABLE, _TX_START_SYMBOL = 1 << 10, 0xC0
_EEPROM_PRODUCT_VERSION = 0x10
_ISO15693_TX, _ISO15693_RX = 0x0D, 0x8D  # 26 kbit/s, ASK 100 %
# TIMER1 as the no-answer timeout: started when sending ends, stopped by a start of
# frame, 53 kHz prescaler; 64 ticks = 1.2 ms, past ISO 15693's answer time t1 (320 us)
_TIMER1_SETUP = (1 << 20) | (1 << 11) | (7 << 3) | (1 << 2) | 1
_TIMER1_TICKS = 64
_INVENTORY, _FLAGS_16_SLOTS, _FLAGS_1_SLOT = 0x01, 0x06, 0x26  # high data rate, inventory
_BUSY_POLLS = 2000  # BUSY reads before the chip counts as hung
_IRQ_POLLS = 50
_COLLISION = "collision"
_MAX_MASK = 60  # a 64-bit UID: masks up to 60 bits + 4


def sleep_ms(ms):
    # The board's time.sleep_ms; CPython (the simulation in tests/hardware) has only sleep.
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


class ReaderError(OSError):
    pass


class PN5180:
    # max_cards: a whole deck and the puck fit.  The discard tray holds every discard of
    # a deal; a lower cap left the same tags unresolved in every scan (the virtual
    # table's bots lost a declined open card on a full tray that way).
    def __init__(self, spi, nss, busy, max_cards=64, sleep=None):
        self.spi = spi
        self.nss = nss
        self.busy = busy
        self.max_cards = max_cards
        self._sleep = sleep or sleep_ms
        self.exchanges = 0
        self.nss.value(1)
        self.init()

    # --- host interface ---------------------------------------------------------------
    def _wait_ready(self):
        for _ in range(_BUSY_POLLS):
            if not self.busy.value():
                return
        raise ReaderError("pn5180-busy")

    def _frame(self, data, answer=0):
        # One command (datasheet, host interface): wait for BUSY low, send the frame;
        # for an answer, wait for BUSY low again and clock it out in a second frame.
        self._wait_ready()
        self.nss.value(0)
        self.spi.write(data)
        self.nss.value(1)
        if not answer:
            return None
        self._wait_ready()
        self.nss.value(0)
        out = self.spi.read(answer, 0xFF)
        self.nss.value(1)
        return out

    def _write(self, reg, value, op=_WRITE_REGISTER):
        self._frame(bytes((op, reg)) + (value & 0xFFFFFFFF).to_bytes(4, "little"))

    def _read(self, reg):
        return int.from_bytes(self._frame(bytes((_READ_REGISTER, reg)), 4), "little")

    def init(self):
        version = self._frame(bytes((_READ_EEPROM, _EEPROM_PRODUCT_VERSION, 2)), 2)
        if version in (b"\x00\x00", b"\xff\xff"):
            raise ReaderError("no-pn5180")  # nothing drives MISO: no chip on this select
        self._frame(bytes((_LOAD_RF_CONFIG, _ISO15693_TX, _ISO15693_RX)))
        self._write(_TIMER1_RELOAD, _TIMER1_TICKS)
        self._write(_TIMER1_CONFIG, _TIMER1_SETUP)
        self._tx_config = self._read(_TX_CONFIG)  # as the RF configuration set it
        self._frame(bytes((_RF_ON, 0)))
        self._sleep(2)  # the tags power up (ISO 15693: 1 ms)

    # --- ISO 15693 --------------------------------------------------------------------
    def _slot(self, frame):
        """Send a request (``frame``) or, with None, an EOF (the next slot); return the
        answering tag's UID (8 bytes, LSB first), None for silence, or _COLLISION."""
        self.exchanges += 1
        if frame is None:
            self._write(_TX_CONFIG, self._tx_config & ~(_TX_DATA_ENABLE | _TX_START_SYMBOL))
        else:
            self._write(_TX_CONFIG, self._tx_config)
        # Idle, then Transceive, for every slot: the transceiver then waits to transmit
        # whatever state the last exchange left it in
        self._write(_SYSTEM_CONFIG, 0xFFFFFFF8, _WRITE_AND)
        self._write(_SYSTEM_CONFIG, 0x00000003, _WRITE_OR)
        self._write(_IRQ_CLEAR, 0x000FFFFF)
        self._frame(bytes((_SEND_DATA, 0)) + (frame or b""))
        for _ in range(_IRQ_POLLS):
            irq = self._read(_IRQ_STATUS)
            if irq & _GENERAL_ERROR:
                raise ReaderError("pn5180-error")
            if irq & _RX_IRQ:
                break
            if irq & _TIMER1_IRQ:
                return None  # nobody answered in this slot
        else:
            raise ReaderError("pn5180-timeout")
        status = self._read(_RX_STATUS)
        n = status & _RX_BYTES
        if status & (_RX_COLLISION | _RX_INTEGRITY | _RX_PROTOCOL) or n != 10:
            return _COLLISION  # two answers on top of each other
        data = self._frame(bytes((_READ_DATA, 0)), n)
        if data[0] & 0x01:  # the error flag: not an inventory answer
            return _COLLISION
        return bytes(data[2:10])

    def _inventory(self, mask, mask_bits, found):
        request = bytes((_FLAGS_16_SLOTS, _INVENTORY, mask_bits))
        request += mask.to_bytes((mask_bits + 7) // 8, "little") if mask_bits else b""
        collided = []
        for slot in range(16):
            answer = self._slot(request if slot == 0 else None)
            if answer is _COLLISION:
                collided.append(slot)
            elif answer is not None:
                uid = _hex(answer)
                if uid not in found:
                    found.append(uid)
        for slot in collided:
            if len(found) >= self.max_cards or mask_bits >= _MAX_MASK:
                break
            self._inventory(mask | (slot << mask_bits), mask_bits + 4, found)

    def scan(self):
        """Every tag UID in the field, as upper-case hex texts (16 digits, MSB first)."""
        # One slot first: an empty pad or a lone card costs one exchange; only when
        # answers collide (a stack) does the 16-slot inventory run.
        answer = self._slot(bytes((_FLAGS_1_SLOT, _INVENTORY, 0)))
        if answer is None:
            return []
        if answer is not _COLLISION:
            return [_hex(answer)]
        found = []  # type: list[str]
        self._inventory(0, 0, found)
        return found


def _hex(uid):
    return "".join("%02X" % b for b in reversed(uid))  # MSB first, as printed on tags: E0...
