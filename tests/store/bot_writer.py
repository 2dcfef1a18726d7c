"""A table controller stand-in for the kill test: plays bot games into a real log file,
printing ``stored SEQ KIND`` after each durable append, until killed or the table ends.

    python tests/store/bot_writer.py TABLE.sqlite SEED

On start it resumes the file if there is one (exactly as a restarted Pi would).

    python -u tests/store/bot_writer.py --serve FD

is the kill test's parent of writers (issue 15): it has imported the table controller once
and forks a writer for each request on the SEQPACKET socket FD, so the test kills real
processes without paying a Python start and the imports (about 0.15 s of CPU) for each of
its 60-odd writers.  It never opens a file itself: every writer starts from the same
pristine, just-imported state.  Requests (JSON) and answers, one message each:

    ["start", PATH, SEED]  ->  "PID", with the writer's stdout and stderr (pipes' read ends)
    ["poll"]               ->  "running" or "ended"
    ["kill"]               ->  SIGKILL unless it has ended; then its exit code, as Popen's
                               returncode (-9 when killed)

The writer is reaped only after it has been polled as ended or killed, so its pid can never
be someone else's when the kill is sent.  The socket closed: a running writer is killed and
the server ends.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import sys
import traceback

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


def _writer(sock: socket.socket, out_w: int, err_w: int, path: str, seed: int) -> None:
    """In the forked child: stdout and stderr to the pipes, play, and end as a process would."""
    sock.close()
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.close(out_w)
    os.close(err_w)
    code = 1
    try:
        code = main(path, seed)
        gc.collect()  # the recorder's file closed as at the end of a fresh interpreter
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve(fd: int) -> int:
    sock = socket.socket(fileno=fd)
    pid, code = 0, None  # the current writer; code once it is reaped
    while True:
        message = sock.recv(65536)
        request = json.loads(message) if message else []
        if not request:  # the test has closed its end
            if pid and code is None:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            return 0
        if request[0] == "start":
            assert pid == 0 or code is not None, "one writer at a time"
            out_r, out_w = os.pipe()
            err_r, err_w = os.pipe()
            pid, code = os.fork(), None
            if pid == 0:
                os.close(out_r)
                os.close(err_r)
                _writer(sock, out_w, err_w, request[1], int(request[2]))
            os.close(out_w)
            os.close(err_w)
            socket.send_fds(sock, [str(pid).encode()], [out_r, err_r])
            os.close(out_r)
            os.close(err_r)
        elif request[0] == "poll":
            if code is None:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    code = os.waitstatus_to_exitcode(status)
            sock.send(b"running" if code is None else b"ended")
        elif request[0] == "kill":
            if code is None:
                os.kill(pid, signal.SIGKILL)
                code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            sock.send(str(code).encode())
        else:
            raise ValueError(f"unknown request {request!r}")


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        sys.exit(serve(int(sys.argv[2])))
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
