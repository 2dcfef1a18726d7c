"""A table controller stand-in for the kill test: plays bot games into a real log file,
printing ``stored SEQ KIND`` after each durable append, until killed or the table ends.

    python tests/store/bot_writer.py TABLE.sqlite SEED

On start it resumes the file if there is one (exactly as a restarted Pi would).
"""

from __future__ import annotations

import sys

from table_controller.sim.bots import RandomBot
from table_controller.store.recorder import TableRecorder
from table_controller.store.snapshots import ClockSnapshot


def main(path: str, seed: int) -> int:
    out = sys.stdout
    recorder, clocks = TableRecorder.resume(path)  # exactly what a restarted Pi does
    assert clocks is None or clocks.paused
    out.write(f"ready {recorder.store.last_seq()} {recorder.engine.phase}\n")
    out.flush()
    bot = RandomBot(seed)
    n = 0
    while True:
        action = bot.next_action(recorder.engine)
        if action is None:
            out.write("over\n")
            out.flush()
            return 0
        recorder.apply(action, source="bot")
        for rec in recorder.last_records:
            out.write(f"stored {rec.seq} {rec.kind}\n")
        n += 1
        if n % 7 == 0:
            left = {p: 30.0 - (n % 30) for p in recorder.engine.to_act()} or {"dealer": 0.0}
            rec = recorder.record_clock(ClockSnapshot(left, paused=False))
            out.write(f"stored {rec.seq} clock\n")
        if n % 11 == 0:
            rec = recorder.record_sensor({"pad": "seat1", "uids": [f"04{n:06x}"]}, "rfid")
            out.write(f"stored {rec.seq} sensor\n")
        out.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
