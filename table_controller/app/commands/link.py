"""``chicago-table link``: watch the serial link to the seat controller.

    $ chicago-table link monitor /dev/serial/by-id/usb-chicago_seat-controller-if00
    $ chicago-table link monitor /tmp/virtual-table-x/seat-controller --duration 10

On a terminal it shows a live table of the pads and the link's health; otherwise
(piped, logged) it prints one line per sensor event and the counters at the end.
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
from firmware_bridge.transports import missing_port
from table_controller.sensor_events import PADS, ButtonPressed, LinkStatus, PadContents, ReaderStatus, SensorEvent

if TYPE_CHECKING:
    from rich.table import Table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "examples:\n"
        "  chicago-table link monitor /dev/serial/by-id/usb-chicago_seat-controller-if00\n"
        "  python -m hardware.virtual &      # a virtual table; prints its port\n"
        "  chicago-table link monitor /tmp/virtual-table-XXXX/seat-controller --duration 5\n"
    )
    sub = parser.add_subparsers(dest="link_command", metavar="ACTION")
    mon = sub.add_parser(
        "monitor",
        help="show live pad contents, buttons and link health",
        description="Connect to the seat controller, handshake, and show what every "
        "pad holds (card UIDs), button presses, reader and link status, and the "
        "link's counters (dropped, corrupt and missed frames, reconnects). "
        "It reconnects by itself when the device is unplugged or goes silent. "
        "Exit status 0: the link was up at some time while watched; 1: it never came up.",
    )
    mon.add_argument(
        "port",
        metavar="PORT",
        help="serial port path (use the stable /dev/serial/by-id/... name on the Pi) "
        "or a pyserial URL such as socket://host:7000",
    )
    mon.add_argument(
        "--duration", type=float, default=None, metavar="S", help="stop after S seconds (default: until Ctrl-C)"
    )
    mon.add_argument(
        "--silence",
        type=float,
        default=2.0,
        metavar="S",
        help="seconds without a frame before the device counts as gone (default 2)",
    )
    mon.add_argument("--plain", action="store_true", help="one line per event even on a terminal (no live table)")
    st = sub.add_parser(
        "selftest",
        help="bench check list for a newly built board: PASS/FAIL per item",
        description="Walk through a new seat controller on the bench: the link answers, "
        "every reader answers, a test tag on each pad reads at once and stays read, a "
        "stack of tags on each pad reads whole within N scans, every console button "
        "reports, every seat LED and the buzzer do what they are told. It says what to do "
        "next (lines starting '>>>'), waits for the board to see it done, and prints PASS "
        "or FAIL per item. Exit status 0 when every item passed, 1 otherwise.",
    )
    st.add_argument("port", metavar="PORT", help="serial port path or pyserial URL, as for monitor")
    st.add_argument("--tag", metavar="UID", help="the test tag's UID (hex); default: any one tag")
    st.add_argument("--stack", type=int, default=5, metavar="N", help="tags in the test stack (default 5)")
    st.add_argument(
        "--scans", type=int, default=10, metavar="N", help="the stack must read whole within N scans (default 10)"
    )
    st.add_argument(
        "--scan-ms",
        type=float,
        default=20.0,
        metavar="MS",
        help="the length of one scan on this board, the firmware's scan_ms (default 20)",
    )
    st.add_argument(
        "--wait", type=float, default=60.0, metavar="S", help="seconds to do each step at the bench (default 60)"
    )
    st.add_argument("--pads", default=",".join(PADS), help="pads to check, comma separated (default all)")
    st.add_argument("--only", metavar="ITEMS", help="check only these, comma separated: " + ", ".join(CHECKS))


def main(args: argparse.Namespace) -> int:
    if getattr(args, "link_command", None) == "selftest":
        return _selftest_main(args)
    if getattr(args, "link_command", None) != "monitor":
        print(
            "chicago-table link: say what to do, e.g. 'chicago-table link monitor PORT' "
            "(see 'chicago-table link --help')",
            file=sys.stderr,
        )
        return 2
    problem = missing_port(args.port)
    if problem:
        print(f"chicago-table link: {problem}", file=sys.stderr)
        return 2
    if args.duration is not None and args.duration <= 0:
        print("chicago-table link: --duration must be more than 0 seconds", file=sys.stderr)
        return 2
    if args.silence <= 0:
        print("chicago-table link: --silence must be more than 0 seconds", file=sys.stderr)
        return 2
    live = sys.stdout.isatty() and not args.plain
    return asyncio.run(_monitor(args.port, args.duration, args.silence, live))


async def _monitor(port: str, duration: float | None, silence: float, live: bool) -> int:
    client = SeatControllerClient(port, silence_s=silence)
    view = _View()
    deadline = None if duration is None else time.monotonic() + duration
    await client.start()
    print(f"watching {port} (Ctrl-C to stop)", flush=True)
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
        print(f"chicago-table link: the link to {port} never came up", file=sys.stderr)
        return 1
    return 0


class _View:
    def __init__(self) -> None:
        self.buttons: list[str] = []
        self.status = "connecting"
        self.was_online = False

    def add(self, event: SensorEvent) -> None:
        if isinstance(event, ButtonPressed):
            self.buttons = (self.buttons + [event.button])[-5:]
        elif isinstance(event, LinkStatus):
            self.status = ("online " if event.online else "OFFLINE ") + f"{event.device} {event.detail}"
            self.was_online = self.was_online or event.online

    def render(self, client: SeatControllerClient) -> Table:
        from rich.table import Table

        table = Table(title=f"seat controller: {self.status}", caption=_stats_line(client.stats, client.online))
        table.add_column("pad")
        table.add_column("reader")
        table.add_column("cards", justify="right")
        table.add_column("UIDs")
        for pad in PADS:
            uids = sorted(client.pads.get(pad, ()))
            ok = client.readers_ok.get(pad, True)
            table.add_row(pad, "ok" if ok else "[red]OFFLINE[/red]", str(len(uids)), " ".join(uids))
        table.add_row("buttons", "", "", " ".join(self.buttons))
        return table


def _line(event: SensorEvent) -> str:
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
    d = s.decoder
    return (
        f"link {'online' if online else 'offline'}: {d.frames} frames, {s.dropped} dropped "
        f"(crc {d.bad_crc}, cut {d.cut}, malformed {d.malformed + s.unknown_messages}, "
        f"oversized {d.oversized}), {d.garbage_bytes} garbage bytes, {s.missed_frames} missed, "
        f"{s.connects} connects, {s.silences} silences, {s.restarts} restarts, "
        f"{s.retries} retries, {s.command_failures} failed commands"
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
            answer = input(f"??? {question} [y/n] ").strip().lower()
            if answer in ("y", "yes", "j", "ja"):
                return True
            if answer in ("n", "no", "nej"):
                return False


def _selftest_options(args: argparse.Namespace) -> Options | str:
    pads = tuple(p.strip() for p in args.pads.split(",") if p.strip())
    if not pads or any(p not in PADS for p in pads):
        return f"--pads: some of {', '.join(PADS)}, comma separated"
    checks = CHECKS if not args.only else tuple(c.strip() for c in args.only.split(",") if c.strip())
    if not checks or any(c not in CHECKS for c in checks):
        return f"--only: some of {', '.join(CHECKS)}, comma separated"
    if args.tag is not None and not (args.tag.isalnum() and len(args.tag) in (8, 14, 16, 20)):
        return "--tag: the tag's UID in hex, 8, 14, 16 or 20 digits"
    if not 1 <= args.stack <= 16:
        return "--stack: 1 to 16 tags"
    if args.scans < 1 or args.scan_ms <= 0 or args.wait <= 0:
        return "--scans, --scan-ms and --wait must be more than 0"
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
    problem = missing_port(args.port)
    options = _selftest_options(args)
    if problem or isinstance(options, str):
        print(f"chicago-table link selftest: {problem or options}", file=sys.stderr)
        return 2
    return asyncio.run(_selftest(args.port, options))


async def _selftest(port: str, options: Options) -> int:
    client = SeatControllerClient(port)
    await client.start()
    print(f"self-test of the seat controller on {port}", flush=True)
    try:
        results = await SelfTest(
            client, TerminalBench(), options, on_result=lambda check: print(check.line(), flush=True)
        ).run()
    finally:
        await client.close()
    print(summary(results))
    return 0 if results and all(c.ok for c in results) else 1
