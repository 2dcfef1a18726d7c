# The seat controller's main loop, free of hardware: everything physical comes in
# through small objects (see hal_pico.py for the board, hardware/virtual/ for the
# simulation), so this exact code runs on the Pico and under CPython in the tests.
#
#   port     .read() -> bytes (non-blocking, b"" when nothing), .write(bytes)
#   readers  {pad: reader}, reader.scan() -> list of UID hex texts; raises OSError
#   buttons  .held(now_ms) -> set of button names held down now (a GPIO ignores now_ms;
#            the simulation times a press by the board's clock)
#   leds     .show(seat, colour)   colour "off" when dark (blink handled here)
#   buzzer   .set(on)
#   clock    .ms() -> int, milliseconds, never decreasing
#   watchdog .feed()

try:  # CPython: hardware.firmware is a package; on the board these are top-level files
    from . import wire
    from .debounce import PadDebouncer
except ImportError:
    import wire
    from debounce import PadDebouncer

FW_VERSION = "0.1.0"
PADS = ("seat1", "seat2", "seat3", "seat4", "tray")
SEATS = ("seat1", "seat2", "seat3", "seat4")
COLOURS = ("off", "green", "yellow", "red", "blue", "white")


class Config:
    def __init__(
        self,
        confirm_reads=2,
        gone_ms=300,
        scan_ms=20,
        repeat_ms=500,
        heartbeat_ms=500,
        host_lost_ms=5000,
        button_ms=20,
        blink_ms=250,
        reader_fail_limit=3,
    ):
        self.confirm_reads = confirm_reads
        self.gone_ms = gone_ms
        self.scan_ms = scan_ms
        self.repeat_ms = repeat_ms
        self.heartbeat_ms = heartbeat_ms
        self.host_lost_ms = host_lost_ms
        self.button_ms = button_ms
        self.blink_ms = blink_ms
        self.reader_fail_limit = reader_fail_limit


class SeatController:
    def __init__(self, port, readers, buttons, leds, buzzer, clock, watchdog, device_id="SC-0000", config=None):
        self.port = port
        self.readers = readers
        self.buttons = buttons
        self.leds = leds
        self.buzzer = buzzer
        self.clock = clock
        self.watchdog = watchdog
        self.device_id = device_id
        self.cfg = config or Config()
        self.pads = tuple(p for p in PADS if p in readers)
        self.seq = 0
        self._decoder = wire.Decoder()
        now = clock.ms()
        self._boot_ms = now
        self._pad = {}
        for pad in self.pads:
            self._pad[pad] = {
                "deb": PadDebouncer(self.cfg.confirm_reads, self.cfg.gone_ms),
                "next_scan": now,
                "next_report": now,
                "fails": 0,
                "ok": True,
                "detail": "",
            }
        self._led = {}
        for seat in SEATS:
            self._led[seat] = ("off", False)
        self._shown = {}
        self._buzz_until = 0
        self._buzzing = False
        self._done_cmds = []  # host seqs carried out, newest last (dedup of resends)
        self._host_seen = now
        self._host_lost = False
        self._next_hb = now + self.cfg.heartbeat_ms
        self._btn_raw = set()
        self._btn_since = {}
        self._btn_down = set()
        # seq -> what the newest frames reported, so a frame the host missed can be sent
        # again (RESEND): (seq, kind, pad or button), slot seq % RESEND_SLOTS
        self._sent_log = [None] * RESEND_SLOTS
        self.sent = 0
        self._send_hello()

    # --- output ---------------------------------------------------------------
    def _send(self, kind, fields=()):
        if kind == "PAD" or kind == "BTN":
            self._sent_log[self.seq % RESEND_SLOTS] = (self.seq, kind, fields[0][1])
        self.port.write(wire.encode(self.seq, kind, fields))
        self.seq = (self.seq + 1) % wire.SEQ_MOD
        self.sent += 1

    def _send_hello(self):
        self._send(
            "HELLO",
            (("proto", str(wire.PROTO)), ("fw", FW_VERSION), ("id", self.device_id), ("pads", ",".join(self.pads))),
        )

    def _send_pad(self, pad, now):
        st = self._pad[pad]
        self._send("PAD", (("pad", pad), ("uids", ",".join(sorted(st["deb"].present)))))
        if not st["ok"]:
            self._send("RDR", (("pad", pad), ("ok", "0"), ("detail", st["detail"])))
        st["next_report"] = now + self.cfg.repeat_ms

    # --- the loop -------------------------------------------------------------
    def step(self):
        """One pass of the main loop; call it as often as possible (about every ms)."""
        now = self.clock.ms()
        self._read_host(now)
        for pad in self.pads:
            self._poll_reader(pad, now)
        self._poll_buttons(now)
        if now >= self._next_hb:
            self._send("HB", (("up", str(now - self._boot_ms)), ("rxbad", str(self._decoder.bad))))
            self._next_hb = now + self.cfg.heartbeat_ms
        if not self._host_lost and now - self._host_seen >= self.cfg.host_lost_ms:
            # A dead or unplugged Pi must not leave a shot clock lit.
            self._host_lost = True
            for seat in SEATS:
                self._led[seat] = ("off", False)
        self._drive_outputs(now)
        # Fed last: a reader or port call that hangs stops the feeding, and the
        # hardware watchdog reboots the board (the host then sees a fresh HELLO).
        self.watchdog.feed()

    def _poll_reader(self, pad, now):
        st = self._pad[pad]
        if now < st["next_scan"]:
            return
        st["next_scan"] = now + self.cfg.scan_ms
        try:
            uids = self.readers[pad].scan()
        except OSError as exc:
            st["fails"] += 1
            if st["ok"] and st["fails"] >= self.cfg.reader_fail_limit:
                st["ok"] = False
                st["detail"] = _word(exc)
                self._send("RDR", (("pad", pad), ("ok", "0"), ("detail", st["detail"])))
        else:
            st["fails"] = 0
            if not st["ok"]:
                st["ok"] = True
                st["detail"] = ""
                self._send("RDR", (("pad", pad), ("ok", "1"), ("detail", "")))
            if st["deb"].scan([u.upper() for u in uids], now):
                self._send_pad(pad, now)
                return
        if now >= st["next_report"]:
            self._send_pad(pad, now)

    def _poll_buttons(self, now):
        held = set(self.buttons.held(now))
        for name in held ^ self._btn_raw:
            self._btn_since[name] = now
        self._btn_raw = held
        # Sorted: sets and dicts iterate in another order on MicroPython, and buttons
        # pressed together must go out in the same order on the board as in the tests.
        for name in sorted(self._btn_since):
            since = self._btn_since[name]
            if now - since < self.cfg.button_ms:
                continue
            del self._btn_since[name]
            if name in held and name not in self._btn_down:
                self._btn_down.add(name)
                self._send("BTN", (("name", name),))
            elif name not in held:
                self._btn_down.discard(name)

    def _drive_outputs(self, now):
        phase_on = (now // self.cfg.blink_ms) % 2 == 0
        for seat in SEATS:
            colour, blink = self._led[seat]
            shown = colour if (not blink or phase_on) else "off"
            if self._shown.get(seat) != shown:
                self.leds.show(seat, shown)
                self._shown[seat] = shown
        buzzing = now < self._buzz_until
        if buzzing != self._buzzing:
            self.buzzer.set(buzzing)
            self._buzzing = buzzing

    # --- host commands -----------------------------------------------------------
    def _read_host(self, now):
        data = self.port.read()
        if not data:
            return
        for seq, kind, fields in self._decoder.feed(data):
            self._host_seen = now
            self._host_lost = False
            self._command(seq, kind, fields, now)

    def _command(self, seq, kind, fields, now):
        if kind == "SYNC":
            self._done_cmds = []
            self._send("ACK", (("cmd", str(seq)),))
            self._send_hello()
            for pad in self.pads:
                self._send_pad(pad, now)
            return
        if kind == "PING":
            self._send("ACK", (("cmd", str(seq)),))
            return
        if seq in self._done_cmds:
            self._send("ACK", (("cmd", str(seq)),))  # a resend: our ACK was lost
            return
        err = None
        if kind == "LED":
            seat = fields.get("seat")
            colour = fields.get("colour")
            blink = fields.get("blink", "0")
            if seat not in SEATS:
                err = "bad-seat"
            elif colour not in COLOURS:
                err = "bad-colour"
            elif blink not in ("0", "1"):
                err = "bad-field"
            else:
                self._led[seat] = (colour, blink == "1")
        elif kind == "RESEND":
            seqs = _seqs(fields.get("seqs", ""))
            if seqs is None:
                err = "bad-field"
            else:
                self._resend(seqs, now)
        elif kind == "BUZZ":
            ms = fields.get("ms", "200")
            if not ms.isdigit() or not 1 <= int(ms) <= 2000:
                err = "bad-field"
            else:
                self._buzz_until = now + int(ms)
        else:
            err = "unknown"
        if err:
            self._send("NAK", (("cmd", str(seq)), ("err", err)))
            return
        self._done_cmds.append(seq)
        if len(self._done_cmds) > 16:
            self._done_cmds.pop(0)
        self._drive_outputs(now)  # ACK means done: the LED is lit before the host hears so
        self._send("ACK", (("cmd", str(seq)),))

    def _resend(self, seqs, now):
        """Frames the host missed: a pad's report again (what lies there now), a press
        again.  Other frames repeat by themselves (HB, PAD, RDR) or are retried (ACK)."""
        pads = []
        for seq in seqs:
            entry = self._sent_log[seq % RESEND_SLOTS]
            if entry is None or entry[0] != seq:
                continue  # too old, or never a report or a press
            if entry[1] == "PAD":
                if entry[2] in self._pad and entry[2] not in pads:
                    pads.append(entry[2])
            else:
                self._send("BTN", (("name", entry[2]),))
        for pad in pads:
            self._send_pad(pad, now)


RESEND_SLOTS = 64  # the newest frames a RESEND can name
RESEND_MAX = 16  # seqs one RESEND may name


def _seqs(text):
    # "12,13" -> [12, 13]; None for a bad list (empty, too long, not numbers)
    words = text.split(",") if text else []
    if not words or len(words) > RESEND_MAX:
        return None
    out = []
    for w in words:
        if not w.isdigit() or len(w) > 5 or int(w) >= wire.SEQ_MOD:
            return None
        out.append(int(w))
    return out


def _word(exc):
    # A reader error as one protocol-safe word for RDR's detail field.  From the args,
    # not str(exc): MicroPython writes OSError(110) as "[Errno 110] ETIMEDOUT", CPython
    # as "110", and the host must read the same word from the board as in the tests.
    args = exc.args
    if args and isinstance(args[0], int):
        text = "errno-%d" % args[0]
    elif args:
        text = str(args[0])
    else:
        text = exc.__class__.__name__
    out = ""
    for ch in text:
        out += ch if (ch.isalpha() or ch.isdigit() or ch in "._-") else "-"
    return out[:40]
