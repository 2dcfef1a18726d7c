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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import VisionError


def _english(text: str, **params: Any) -> str:
    return text.format(**params) if params else text


def _english_n(singular: str, plural: str, n: int, **params: Any) -> str:
    return (singular if n == 1 else plural).format(n=n, **params)


def _english_error(exc: BaseException) -> str:
    return (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)


@dataclass(frozen=True)
class Words:
    """How ``camera read`` says what it says: in English as written here, unless the
    console gives its own (``chicago-table camera read``: Swedish first, English with
    ``--lang en``; table_controller/app/words.py, whose catalogue holds these texts).
    ``say`` a text, ``say_n`` a counted one, ``error`` an error: a VisionError as it says
    itself, an OSError by the system's reason alone (the text around it names the file)."""

    say: Callable[..., str] = _english
    say_n: Callable[..., str] = _english_n
    error: Callable[[BaseException], str] = _english_error


ENGLISH = Words()


def why_words(say: Callable[..., str] = _english) -> dict[str, str]:
    """Why an 'unknown' line names no card (``recognise.WHY``), in the words spoken.

    >>> from vision.photo.recognise import WHY
    >>> why_words() == WHY
    True
    """
    from .photo.recognise import COLOUR, DISPUTED, FACE, UNSURE

    return {
        UNSURE: say("not sure enough"),
        DISPUTED: say("read on a dark face; the dark-face classifier reads another card"),
        COLOUR: say("grey corners: the suit's colour, not its shape, made it black"),
        FACE: say("a whole face-up card; its index corners not read"),
    }


def add_read_arguments(parser: argparse.ArgumentParser, words: Words = ENGLISH) -> None:
    from .photo.images import MAX_PIXELS
    from .photo.scene_reader import DEFAULT_MIN_CONFIDENCE

    say = words.say
    what = say(
        "Read every card visible in each picture: its rank and suit in our notation (AS, TD, "
        "2C), or 'back' for a face-down card, a confidence between 0 and 1, and where it is "
        "(the index corner's box; for a card read on both index corners, the whole card as it "
        "lies, made of them; for a card named from its face, the face's box, and "
        '"from": "face" in --json; or a face-down card\'s box). A card read with a confidence '
        "below --min-confidence is left out (or listed as 'unknown' with --unknown): a wrong "
        "card is worse than a missing one. Face-down cards have a threshold of their own (the "
        "back detector's; --no-backs leaves them out). A face-up card whose index corners "
        "cannot be read (a hand or another card covers them) is counted when the face "
        "detector finds the whole card: 'face_up_unnamed' in --json (when there are any), "
        '"and N face-up cards not named" in the list (with --unknown each is listed as '
        "'unknown' with the whole card's box; --no-faces does not report them). A card too "
        "small to be read in the whole picture is looked at again, closer, where the face "
        "detector finds a card, and a face no index names is named when the face classifier "
        "reads it surely as a card no other is (a card, listed with --no-faces too). Light "
        "indices on a dark face (as the black and gold deck's) are read inverted; such a corner "
        "at a card's edge, whose white table beside it makes it look light, is named when the "
        "classifier taught dark faces reads it surely as a card no other is. A file "
        "that is not a readable picture (or is one over {megapixels} megapixels) is reported and the "
        "other files are still read; the exit status is then 2.",
        megapixels=MAX_PIXELS // 1_000_000,
    )
    # the reasons an unknown line gives, in the words the list prints them in (WHY)
    reasons = ", ".join(f"'{code}' ({text})" for code, text in why_words(say).items())
    why = say(
        "An 'unknown' line says why (\"why\" in --json): {why}. Its confidence is no sureness of "
        "any card: the map's for an index read (which a witness overruled, when disputed or "
        "colour), the face detector's for a face.",
        why=reasons,
    )
    parser.description = textwrap.fill(what, 84) + "\n\n" + textwrap.fill(why, 84)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("images", nargs="+", metavar="IMAGE", help=say("picture files (JPEG, PNG, HEIC, ...)"))
    parser.add_argument("--json", action="store_true", help=say('print one JSON object: {"images": [...]}'))
    parser.add_argument(
        "--annotate",
        metavar="DIR",
        type=Path,
        help=say(
            "also write each picture with its findings drawn into DIR (created if missing); "
            "face-up cards found but not named are drawn in purple"
        ),
    )
    parser.add_argument(
        "--min-confidence",
        type=lambda text: _probability(text, say),
        default=DEFAULT_MIN_CONFIDENCE,
        metavar="P",
        help=say("report a card only when at least this sure (0..1, default %(default)s)"),
    )
    parser.add_argument("--no-backs", action="store_true", help=say("do not report face-down cards ('back')"))
    parser.add_argument(
        "--no-faces",
        action="store_true",
        help=say(
            "do not report whole face-up cards whose index cannot be read (the face detector still "
            "shows where to look closer at small cards)"
        ),
    )
    parser.add_argument(
        "--unknown",
        action="store_true",
        help=say("also list index corners that could not be read confidently, as 'unknown'"),
    )


def _probability(text: str, say: Callable[..., str] = _english) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("{value} is not a number", value=repr(text))) from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(say("{value} is not between 0 and 1", value=text))
    return v


def main_read(args: argparse.Namespace, words: Words = ENGLISH) -> int:
    """Read the pictures; 0 when every one was read, 2 when one could not be (it is said,
    and the others are read: bad input, as every command's exit status says it)."""
    from .photo.annotate import annotate_to
    from .photo.images import load_image
    from .photo.recognise import UNKNOWN
    from .photo.scene_reader import SceneReader

    say = words.say

    def fail(exc: BaseException) -> None:
        print(f"chicago-table camera read: {words.error(exc)}", file=sys.stderr)

    try:
        # The scene reader (issue 17): every card of a crowded real frame, any scale, either polarity.
        reader = SceneReader.load(
            min_confidence=args.min_confidence, backs=not args.no_backs, report_faces=not args.no_faces
        )
    except VisionError as exc:
        fail(exc)
        return 2
    if args.annotate:
        if args.annotate.exists() and not args.annotate.is_dir():
            said = say("--annotate {path} is a file; give a folder", path=args.annotate)
            print(f"chicago-table camera read: {said}", file=sys.stderr)
            return 2
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            said = say("cannot create {path}: {error}", path=args.annotate, error=words.error(exc))
            print(f"chicago-table camera read: {said}", file=sys.stderr)
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
            results.append({"file": name, "error": str(exc), "cards": []})  # --json: the English, as ever
            if not args.json:
                fail(exc)
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
                fail(exc)
    if progress:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps({"images": results}))
    else:
        for line in list_lines(results, words):
            print(line)
    return 2 if failed else 0


def list_lines(results: list[dict], words: Words = ENGLISH) -> list[str]:
    """The pictures' cards as the list says them (the codes as ``--json`` has them).

    >>> entry = {"file": "t.jpg", "cards": [{"card": "QH", "confidence": 0.985, "corners": [[1, 2], [9, 2], [9, 8], [1, 8]]}]}
    >>> list_lines([entry])
    ['t.jpg: 1 card', '       QH  0.98  at x 1..9, y 2..8']
    """
    from .photo.recognise import FACE, UNKNOWN

    say, say_n = words.say, words.say_n
    why = why_words(say)
    out = []
    for entry in results:
        if "error" in entry and not entry["cards"]:
            continue  # already said on stderr
        cards = entry["cards"]
        named = sum(c["card"] != UNKNOWN for c in cards)
        unnamed = entry.get("face_up_unnamed", 0)
        # the unknown lines of --unknown that are not those faces (counted already)
        unread = sum(c["card"] == UNKNOWN and c["why"] != FACE for c in cards)
        head = (
            say_n("{file}: {n} card", "{file}: {n} cards", named, file=entry["file"])
            if named
            else say("{file}: 0 cards seen", file=entry["file"])
        )
        if unnamed:
            head += say_n(", and {n} face-up card not named", ", and {n} face-up cards not named", unnamed)
        if unread:
            head += say("; {n} unknown", n=unread)
        out.append(head)
        for c in cards:
            xs = [p[0] for p in c["corners"]]
            ys = [p[1] for p in c["corners"]]
            out.append(
                f"  {c['card']:>7}  "
                + say(
                    "{confidence:.2f}  at x {x0:.0f}..{x1:.0f}, y {y0:.0f}..{y1:.0f}",
                    confidence=float(c["confidence"]),
                    x0=float(min(xs)),
                    x1=float(max(xs)),
                    y0=float(min(ys)),
                    y1=float(max(ys)),
                )
                + (f"  ({why[c['why']]})" if "why" in c else "")
                + ("  " + say("(read from its face; no index corner read)") if c.get("from") == "face" else "")
            )
    return out
