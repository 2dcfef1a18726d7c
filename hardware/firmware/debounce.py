# Card presence on one pad from raw reader scans.
# A reader flickers: a card on the pad is missed now and then, and a stack is read a
# few cards at a time (anticollision finds some, not all, per scan).  So a card counts
# as present after it was seen in `confirm_reads` consecutive scans, and as gone only
# after `gone_ms` without being seen at all.  MicroPython and CPython.


class PadDebouncer:
    def __init__(self, confirm_reads=2, gone_ms=300):
        self.confirm_reads = confirm_reads
        self.gone_ms = gone_ms
        self._streak = {}  # uid -> consecutive scans it was seen in (not yet present)
        self._last_seen = {}  # uid -> ticks_ms of the last scan that saw it
        self.present = set()

    def scan(self, uids, now_ms):
        """Feed one scan's UIDs; return True when the present set changed."""
        changed = False
        seen = set(uids)
        for uid in seen:
            self._last_seen[uid] = now_ms
            if uid in self.present:
                continue
            streak = self._streak.get(uid, 0) + 1
            if streak >= self.confirm_reads:
                self.present.add(uid)
                self._streak.pop(uid, None)
                changed = True
            else:
                self._streak[uid] = streak
        for uid in list(self._streak):
            if uid not in seen:
                del self._streak[uid]  # not consecutive any more
        for uid in list(self.present):
            if uid not in seen and now_ms - self._last_seen[uid] >= self.gone_ms:
                self.present.discard(uid)
                del self._last_seen[uid]
                changed = True
        for uid in list(self._last_seen):
            if uid not in self.present and uid not in self._streak:
                del self._last_seen[uid]
        return changed
