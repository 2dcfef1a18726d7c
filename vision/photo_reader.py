"""``chicago-table camera read IMAGE...``: read every card in still pictures.

No calibration: any photo, any deck with standard indices.  For each picture it
lists each card seen (rank and suit in our notation, "AS", "TD"), a confidence
and where it is.  The ``camera`` command (``table_controller/app/commands/camera.py``) delegates its
``camera read`` subcommand here.

    $ chicago-table camera read table.jpg --json
    {"images": [{"file": "table.jpg", "cards": [{"card": "AS", "confidence": 0.97, "corners": [[x, y], ...]}],
                 "face_up_unnamed": 1}]}     (the last only when a face-up card is not named)

With ``--unknown`` an "unknown" line has a ``why`` too ("unsure", "disputed",
"colour", "face": ``recognise.WHY``); a card named from its face alone (no index corner
read) has ``"from": "face"``.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from .errors import VisionError

READ_HELP = "read every card in still pictures (no calibration needed)"
READ_DESCRIPTION = """\
Read every card visible in each picture: its rank and suit in our notation (AS, TD,
2C), or 'back' for a face-down card, a confidence between 0 and 1, and where it is
(the index corner's box; for a card read on both index corners, the whole card as it
lies, made of them; for a card named from its face, the face's box, and
"from": "face" in --json; or a face-down card's box). A card read with a confidence
below --min-confidence is left out (or listed as 'unknown' with --unknown): a wrong
card is worse than a missing one. Face-down cards have a threshold of their own (the
back detector's; --no-backs leaves them out). A face-up card whose index corners
cannot be read (a hand or another card covers them) is counted when the face
detector finds the whole card: 'face_up_unnamed' in --json (when there are any),
"and N face-up cards not named" in the list (with --unknown each is listed as
'unknown' with the whole card's box; --no-faces does not report them). A card too
small to be read in the whole picture is looked at again, closer, where the face
detector finds a card, and a face no index names is named when the face classifier
reads it surely as a card no other is (a card, listed with --no-faces too). Light
indices on a dark face (as the black and gold deck's) are read inverted; such a corner
at a card's edge, whose white table beside it makes it look light, is named when the
classifier taught dark faces reads it surely as a card no other is. A file
that is not a readable picture (or is one over {megapixels} megapixels) is reported and the
other files are still read; the exit status is then 1.

An 'unknown' line says why ("why" in --json): {why}. Its confidence is no sureness of
any card: the map's for an index read (which a witness overruled, when disputed or
colour), the face detector's for a face."""


def add_read_arguments(parser: argparse.ArgumentParser) -> None:
    from .photo.images import MAX_PIXELS
    from .photo.recognise import WHY
    from .photo.scene_reader import DEFAULT_MIN_CONFIDENCE

    # the reasons an unknown line gives, in the words the list prints them in (WHY)
    what, why = READ_DESCRIPTION.split("\n\n")
    reasons = ", ".join(f"'{code}' ({text})" for code, text in WHY.items())
    parser.description = (
        what.format(megapixels=MAX_PIXELS // 1_000_000)
        + "\n\n"
        + textwrap.fill(" ".join(why.split()).format(why=reasons), 84)
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="picture files (JPEG, PNG, HEIC, ...)")
    parser.add_argument("--json", action="store_true", help='print one JSON object: {"images": [...]}')
    parser.add_argument(
        "--annotate",
        metavar="DIR",
        type=Path,
        help="also write each picture with its findings drawn into DIR (created if missing); "
        "face-up cards found but not named are drawn in purple",
    )
    parser.add_argument(
        "--min-confidence",
        type=_probability,
        default=DEFAULT_MIN_CONFIDENCE,
        metavar="P",
        help=f"report a card only when at least this sure (0..1, default {DEFAULT_MIN_CONFIDENCE})",
    )
    parser.add_argument("--no-backs", action="store_true", help="do not report face-down cards ('back')")
    parser.add_argument(
        "--no-faces",
        action="store_true",
        help="do not report whole face-up cards whose index cannot be read (the face detector still "
        "shows where to look closer at small cards)",
    )
    parser.add_argument(
        "--unknown",
        action="store_true",
        help="also list index corners that could not be read confidently, as 'unknown'",
    )


def _probability(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"{v} is not between 0 and 1")
    return v


def main_read(args: argparse.Namespace) -> int:
    from .photo.annotate import annotate_to
    from .photo.images import load_image
    from .photo.recognise import UNKNOWN
    from .photo.scene_reader import SceneReader

    try:
        # The scene reader (issue 17): every card of a crowded real frame, any scale, either polarity.
        reader = SceneReader.load(
            min_confidence=args.min_confidence, backs=not args.no_backs, report_faces=not args.no_faces
        )
    except VisionError as exc:
        print(f"chicago-table camera read: {exc}", file=sys.stderr)
        return 2
    if args.annotate:
        if args.annotate.exists() and not args.annotate.is_dir():
            print(f"chicago-table camera read: --annotate {args.annotate} is a file; give a folder", file=sys.stderr)
            return 2
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"chicago-table camera read: cannot create {args.annotate}: {exc.strerror}", file=sys.stderr)
            return 2
    results, failed, written = [], 0, set[str]()
    progress = sys.stderr.isatty() and len(args.images) > 3
    for n, name in enumerate(args.images, 1):
        if progress:
            print(f"\r[{n}/{len(args.images)}] {name}", end="", file=sys.stderr, flush=True)
        try:
            image = load_image(name)
            seen = reader.read(image)
            cards = [c for c in seen if args.unknown or c.card != UNKNOWN]
        except VisionError as exc:
            failed += 1
            results.append({"file": name, "error": str(exc), "cards": []})
            if not args.json:
                print(f"error: {exc}", file=sys.stderr)
            continue
        entry = {
            "file": name,
            "cards": [
                {"card": c.card, "confidence": c.confidence, "corners": [list(p) for p in c.corners]}
                | ({"why": c.why} if c.card == UNKNOWN else {})
                | ({"from": "face"} if c.from_face else {})
                for c in cards
            ],
        }
        # whole face-up cards found whose index was not read: counted, not named (only when there are)
        unnamed = sum(c.unnamed_face for c in seen)
        if unnamed:
            entry["face_up_unnamed"] = unnamed
        results.append(entry)
        if args.annotate:
            try:
                # the picture shows the face-up cards not named too (counted in the list)
                shown = [c for c in seen if args.unknown or c.card != UNKNOWN or c.unnamed_face]
                annotate_to(args.annotate, name, image, shown, written)
            except VisionError as exc:
                failed += 1
                entry["error"] = str(exc)
                print(f"error: {exc}", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps({"images": results}))
    else:
        _print_list(results)
    return 1 if failed else 0


def _print_list(results: list[dict]) -> None:
    from .photo.recognise import FACE, UNKNOWN, WHY

    for entry in results:
        if "error" in entry and not entry["cards"]:
            continue  # already said on stderr
        cards = entry["cards"]
        named = sum(c["card"] != UNKNOWN for c in cards)
        unnamed = entry.get("face_up_unnamed", 0)
        # the unknown lines of --unknown that are not those faces (counted already)
        unread = sum(c["card"] == UNKNOWN and c["why"] != FACE for c in cards)
        print(
            f"{entry['file']}: {named} card{'s' if named != 1 else ''}"
            + ("" if named else " seen")
            + (f", and {unnamed} face-up card{'s' if unnamed != 1 else ''} not named" if unnamed else "")
            + (f"; {unread} unknown" if unread else "")
        )
        for c in cards:
            xs = [p[0] for p in c["corners"]]
            ys = [p[1] for p in c["corners"]]
            print(
                f"  {c['card']:>7}  {c['confidence']:.2f}  at x {min(xs):.0f}..{max(xs):.0f}, "
                f"y {min(ys):.0f}..{max(ys):.0f}"
                + (f"  ({WHY[c['why']]})" if "why" in c else "")
                + ("  (read from its face; no index corner read)" if c.get("from") == "face" else "")
            )
