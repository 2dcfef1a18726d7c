"""Serve a virtual table on a pseudo-terminal:  python -m hardware.virtual --help"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from ..errors import VirtualTableError
from .noise import NoiseModel
from .script import parse_moves
from .table import VirtualTable

DEMO = """
button seat1
deal seat2 AS KS QS JS TS
wait 1
pickup seat2
deal seat3 2C 3C 4C 5C 7D
wait 1
pickup seat3
press next
put AS seat2
wait 0.5
tray 2C
wait 1
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m hardware.virtual",
        description="Run a virtual seat controller (the real firmware logic on "
        "simulated readers) and serve its serial protocol on a pseudo-terminal. "
        "Prints the port to open, then plays a script of physical moves.",
    )
    p.add_argument(
        "--script",
        metavar="FILE",
        help="moves to play, one per line (default: a short demo "
        "deal, repeated); see hardware/README.md for the move words",
    )
    p.add_argument(
        "--noise",
        choices=("clean", "rough"),
        default="clean",
        help="reader flicker, stacked cards, corrupt bytes (default clean)",
    )
    p.add_argument(
        "--reader",
        choices=("mfrc522", "pn5180"),
        default="mfrc522",
        help="the reader under every pad: mfrc522 reads a stack a few cards per scan "
        "(the noise's stack limit), pn5180 (ISO 15693) reads it whole (default mfrc522)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed of the noise")
    p.add_argument("--once", action="store_true", help="play the script once, then keep serving")
    p.add_argument(
        "--idle",
        action="store_true",
        help="play no script: serve the pseudo-terminal with empty pads until stopped "
        "(a seat controller to set a table up against: chicago-table setup --port ...)",
    )
    p.add_argument(
        "--print-uids",
        action="store_true",
        help="print the virtual deck's UIDs in registration order (2S 3S .. AC), one a line, "
        "and exit: chicago-table deck register --uids / setup --deck-uids",
    )
    args = p.parse_args(argv)
    if args.print_uids:
        from table_controller.rules.cards import FULL_DECK

        from .deck import INLAYS, virtual_uid

        for card in FULL_DECK:
            print(virtual_uid(card.code, inlay=INLAYS[args.reader]))
        return 0
    if args.idle:
        args.script, args.once = None, True
    try:
        text = Path(args.script).read_text() if args.script else ("" if args.idle else DEMO)
        moves = parse_moves(text)
    except (OSError, VirtualTableError) as exc:
        print(f"hardware.virtual: {exc}", file=sys.stderr)
        return 2
    noise = NoiseModel.rough() if args.noise == "rough" else NoiseModel.clean()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with VirtualTable(noise=noise, seed=args.seed, reader=args.reader) as table:
        print(table.port, flush=True)
        try:
            while True:
                for move in moves:
                    move.apply(table)
                    time.sleep(0.05)
                if args.once:
                    while True:
                        time.sleep(3600)
                for pad in ("seat1", "seat2", "seat3", "seat4", "tray"):
                    for code in table.on_pad(pad):
                        table.remove(code)
                table.pick_up("seat2")
        except KeyboardInterrupt:
            return 0
        except VirtualTableError as exc:
            print(f"hardware.virtual: {exc}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
