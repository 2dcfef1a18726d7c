"""``chicago-table link``: watch the serial link to the seat controller.

    $ chicago-table link monitor /dev/serial/by-id/usb-chicago_seat-controller-if00
    $ chicago-table link monitor /tmp/virtual-table-x/seat-controller --duration 10

On a terminal it shows a live table of the pads and the link's health; otherwise
(piped, logged) it prints one line per sensor event and the counters at the end.

What it says to a person is in Swedish, English with ``--lang en`` (table_controller/app/words.py):
its help, its refusals, the live table, the counters and ``selftest``'s own lines.  The event
lines (``PAD``, ``BUTTON``, ``READER``, ``LINK``: a log to read or grep, the pads' and devices'
names and UIDs as the seat controller gives them) and the bench's check list
(``firmware_bridge.selftest``: what the board's part says) stay as they are, and so do the
exit statuses (0: the link was up, or every check passed; 1: not; 2: bad input).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import TYPE_CHECKING

from firmware_bridge.client import SeatControllerClient
from firmware_bridge.link import LinkStats
from firmware_bridge.selftest import CHECKS, Bench, Options, SelfTest, summary
from table_controller.sensor_events import PADS, ButtonPressed, LinkStatus, PadContents, ReaderStatus, SensorEvent

from ..words import add_lang, missing_port_words, say, speaking, spoken, yes

if TYPE_CHECKING:
    from rich.table import Table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        say("examples:")
        + "\n"
        + "  chicago-table link monitor /dev/serial/by-id/usb-chicago_seat-controller-if00\n"
        + "  python -m hardware.virtual &      # "
        + say("a virtual table; prints its port")
        + "\n"
        + "  chicago-table link monitor /tmp/virtual-table-XXXX/seat-controller --duration 5\n"
    )
    add_lang(parser)
    sub = parser.add_subparsers(dest="link_command", metavar=say("ACTION"))
    mon = sub.add_parser(
        "monitor",
        help=say("show live pad contents, buttons and link health"),
        description=say(
            "Connect to the seat controller, handshake, and show what every "
            "pad holds (card UIDs), button presses, reader and link status, and the "
            "link's counters (dropped, corrupt and missed frames, reconnects). "
            "It reconnects by itself when the device is unplugged or goes silent. "
            "Exit status 0: the link was up at some time while watched; 1: it never came up; 2: bad input."
        ),
    )
    mon.add_argument(
        "port",
        metavar="PORT",
        help=say(
            "serial port path (use the stable /dev/serial/by-id/... name on the Pi) "
            "or a pyserial URL such as socket://host:7000"
        ),
    )
    mon.add_argument(
        "--duration",
        type=float,
        default=None,
        metavar="S",
        help=say("stop after S seconds (default: until Ctrl-C)"),
    )
    mon.add_argument(
        "--silence",
        type=float,
        default=2.0,
        metavar="S",
        help=say("seconds without a frame before the device counts as gone (default %(default)g)"),
    )
    mon.add_argument("--plain", action="store_true", help=say("one line per event even on a terminal (no live table)"))
    st = sub.add_parser(
        "selftest",
        help=say("bench check list for a newly built board: PASS/FAIL per item"),
        description=say(
            "Walk through a new seat controller on the bench: the link answers, "
            "every reader answers, a test tag on each pad reads at once and stays read, a "
            "stack of tags on each pad reads whole within N scans, every console button "
            "reports, every seat LED and the buzzer do what they are told. It says what to do "
            "next (lines starting '>>>'), waits for the board to see it done, and prints PASS "
            "or FAIL per item. Exit status 0 when every item passed, 1 otherwise, 2 for bad input."
        ),
    )
    st.add_argument("port", metavar="PORT", help=say("serial port path or pyserial URL, as for monitor"))
    st.add_argument("--tag", metavar="UID", help=say("the test tag's UID (hex); default: any one tag"))
    st.add_argument(
        "--stack", type=int, default=5, metavar="N", help=say("tags in the test stack (default %(default)s)")
    )
    st.add_argument(
        "--scans",
        type=int,
        default=10,
        metavar="N",
        help=say("the stack must read whole within N scans (default %(default)s)"),
    )
    st.add_argument(
        "--scan-ms",
        type=float,
        default=20.0,
        metavar="MS",
        help=say("the length of one scan on this board, the firmware's scan_ms (default %(default)g)"),
    )
    st.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="S",
        help=say("seconds to do each step at the bench (default %(default)g)"),
    )
    st.add_argument(
        "--pads", default=",".join(PADS), help=say("pads to check, comma separated (default all: %(default)s)")
    )
    st.add_argument(
        "--only",
        metavar="ITEMS",
        help=say("check only these, comma separated: {checks} (default: all)", checks=", ".join(CHECKS)),
    )
    for action in (mon, st):
        add_lang(action, argparse.SUPPRESS)


def main(args: argparse.Namespace) -> int:
    with speaking(getattr(args, "lang", None) or spoken()):
        return _link(args)


def _refuse(text: str, command: str = "link") -> int:
    print(f"chicago-table {command}: {text}", file=sys.stderr)
    return 2


def _link(args: argparse.Namespace) -> int:
    if getattr(args, "link_command", None) == "selftest":
        return _selftest_main(args)
    if getattr(args, "link_command", None) != "monitor":
        return _refuse(say("say what to do, e.g. 'chicago-table link monitor PORT' (see 'chicago-table link --help')"))
    problem = missing_port_words(args.port)
    if problem:
        return _refuse(problem)
    if args.duration is not None and args.duration <= 0:
        return _refuse(say("--duration must be more than 0 seconds"))
    if args.silence <= 0:
        return _refuse(say("--silence must be more than 0 seconds"))
    live = sys.stdout.isatty() and not args.plain
    return asyncio.run(_monitor(args.port, args.duration, args.silence, live))


async def _monitor(port: str, duration: float | None, silence: float, live: bool) -> int:
    client = SeatControllerClient(port, silence_s=silence)
    view = _View()
    deadline = None if duration is None else time.monotonic() + duration
    await client.start()
    print(say("watching {port} (Ctrl-C to stop)", port=port), flush=True)
    display = None
    if live:
        from rich.live import Live

        display = Live(view.render(client), refresh_per_second=8, transient=False)
        display.start()
    try:
        while deadline is None or time.monotonic() < deadline:
            timeout = 0.25 if deadline is None else max(0.0, min(0.25, deadline - time.monotonic()))
            try:
                event = await client.next_event(timeout)
            except TimeoutError:
                event = None
            if event is not None:
                view.add(event)
                if display is None:
                    print(_line(event), flush=True)
            if display is not None:
                display.update(view.render(client))
    except asyncio.CancelledError:  # Ctrl-C, the watch's usual end: its summary and status as at --duration's
        pass
    finally:
        if display is not None:
            display.stop()
        await client.close()
    print(_stats_line(client.stats, client.online))
    if not (view.was_online or client.online):
        said = say("the link to {port} never came up", port=port)
        print(f"chicago-table link: {said}", file=sys.stderr)
        return 1
    return 0


class _View:
    def __init__(self) -> None:
        self.buttons: list[str] = []
        self.status = say("connecting")
        self.was_online = False

    def add(self, event: SensorEvent) -> None:
        if isinstance(event, ButtonPressed):
            self.buttons = (self.buttons + [event.button])[-5:]
        elif isinstance(event, LinkStatus):
            state = say("online") if event.online else say("OFFLINE")
            self.status = f"{state} {event.device} {event.detail}"
            self.was_online = self.was_online or event.online

    def render(self, client: SeatControllerClient) -> Table:
        from rich.table import Table

        table = Table(
            title=say("seat controller: {status}", status=self.status),
            caption=_stats_line(client.stats, client.online),
        )
        table.add_column(say("pad"))
        table.add_column(say("reader"))
        table.add_column(say("cards"), justify="right")
        table.add_column("UIDs")
        for pad in PADS:
            uids = sorted(client.pads.get(pad, ()))
            ok = client.readers_ok.get(pad, True)
            table.add_row(pad, "ok" if ok else "[red]" + say("OFFLINE") + "[/red]", str(len(uids)), " ".join(uids))
        table.add_row(say("buttons"), "", "", " ".join(self.buttons))
        return table


def _line(event: SensorEvent) -> str:
    """One sensor event as the plain watch prints it: a log line, as the seat controller
    names things (never translated: a line to grep)."""
    at = f"{event.at:12.3f}"
    if isinstance(event, PadContents):
        return f"{at} PAD    {event.pad:<6} {len(event.uids)} card(s) {' '.join(sorted(event.uids))}"
    if isinstance(event, ButtonPressed):
        return f"{at} BUTTON {event.button}"
    if isinstance(event, ReaderStatus):
        return f"{at} READER {event.pad:<6} {'ok' if event.ok else 'OFFLINE'} {event.detail}"
    if isinstance(event, LinkStatus):
        state = "online" if event.online else "OFFLINE"
        return f"{at} LINK   {state} {event.device} {event.detail}"
    return f"{at} {event}"


def _stats_line(s: LinkStats, online: bool) -> str:
    """The link's counters, in the words spoken."""
    d = s.decoder
    return say(
        "link {state}: {frames} frames, {dropped} dropped (crc {crc}, cut {cut}, malformed {malformed}, "
        "oversized {oversized}), {garbage} garbage bytes, {missed} missed, {connects} connects, "
        "{silences} silences, {restarts} restarts, {retries} retries, {failures} failed commands",
        state=say("online") if online else say("offline"),
        frames=d.frames,
        dropped=s.dropped,
        crc=d.bad_crc,
        cut=d.cut,
        malformed=d.malformed + s.unknown_messages,
        oversized=d.oversized,
        garbage=d.garbage_bytes,
        missed=s.missed_frames,
        connects=s.connects,
        silences=s.silences,
        restarts=s.restarts,
        retries=s.retries,
        failures=s.command_failures,
    )


# --- selftest ------------------------------------------------------------------------------
class TerminalBench(Bench):
    """The person at the bench, on this terminal."""

    def do(self, instruction: str) -> None:
        print(f">>> {instruction}", flush=True)

    def confirm(self, question: str) -> bool | None:
        if not sys.stdin.isatty():
            return None
        while True:
            answer = input(f"??? {question} [" + say("y/n") + "] ").strip().lower()
            if yes(answer):
                return True
            if answer in ("n", "no", "nej"):
                return False


def _selftest_options(args: argparse.Namespace) -> Options | str:
    pads = tuple(p.strip() for p in args.pads.split(",") if p.strip())
    if not pads or any(p not in PADS for p in pads):
        return say("--pads: some of {pads}, comma separated", pads=", ".join(PADS))
    checks = CHECKS if not args.only else tuple(c.strip() for c in args.only.split(",") if c.strip())
    if not checks or any(c not in CHECKS for c in checks):
        return say("--only: some of {checks}, comma separated", checks=", ".join(CHECKS))
    if args.tag is not None and not (args.tag.isalnum() and len(args.tag) in (8, 14, 16, 20)):
        return say("--tag: the tag's UID in hex, 8, 14, 16 or 20 digits")
    if not 1 <= args.stack <= 16:
        return say("--stack: 1 to 16 tags")
    if args.scans < 1 or args.scan_ms <= 0 or args.wait <= 0:
        return say("--scans, --scan-ms and --wait must be more than 0")
    return Options(
        pads=pads,
        tag=args.tag.upper() if args.tag else None,
        stack=args.stack,
        scans=args.scans,
        scan_ms=args.scan_ms,
        wait_s=args.wait,
        checks=("link",) + tuple(c for c in checks if c != "link"),
    )


def _selftest_main(args: argparse.Namespace) -> int:
    problem = missing_port_words(args.port)
    options = _selftest_options(args)
    if problem or isinstance(options, str):
        return _refuse(problem or str(options), "link selftest")
    return asyncio.run(_selftest(args.port, options))


async def _selftest(port: str, options: Options) -> int:
    client = SeatControllerClient(port)
    await client.start()
    print(say("self-test of the seat controller on {port}", port=port), flush=True)
    try:
        results = await SelfTest(
            client, TerminalBench(), options, on_result=lambda check: print(check.line(), flush=True)
        ).run()
    finally:
        await client.close()
    print(summary(results))
    return 0 if results and all(c.ok for c in results) else 1
