"""``chicago-table camera``: calibrate and view the table camera, read cards in photos.

$ chicago-table camera calibrate --source 0 --out table1.json --picture table1.png
$ chicago-table camera view --source 0 --calibration table1.json --out live.png
$ chicago-table camera read ...            (photographs; see its --help)

What it says to a person is in Swedish, English with ``--lang en`` (table_controller/app/words.py),
as the other commands say it: its help, what calibrate and view report, and the camera's
errors (``vision.errors.VisionError``, worded: ``words.said_error``), exit status 2 for all of
them, as every command's bad input.  ``camera read --json`` stays as it is (its ``error``
texts English, for programs).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..words import add_lang, os_error_words, said_error, say, say_n, speaking, spoken


def _source_help() -> str:
    return say("camera device index (0), video file, or stream URL (rtsp://, http://)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = say(
        "The overhead table camera: calibrate it from the markers on the felt, "
        "watch what it reads on every pad, or read cards in photographs."
    )
    add_lang(parser)
    sub = parser.add_subparsers(dest="camera_command", metavar=say("SUBCOMMAND"), parser_class=_LazyParser)

    cal = sub.add_parser(
        "calibrate",
        help=say("find the table in one frame and save the calibration"),
        description=say(
            "Find the ArUco markers on the felt in one frame, save the table "
            "geometry as JSON and write an annotated picture to check by eye. Run it "
            "again whenever the camera was moved or bumped."
        ),
    )
    src = cal.add_mutually_exclusive_group(required=True)
    src.add_argument("--source", help=_source_help())
    src.add_argument("--image", help=say("calibrate from a still picture instead of a camera"))
    _capture_options(cal)
    cal.add_argument("--layout", help=say("table layout JSON (markers and pads); default: the championship felt"))
    cal.add_argument(
        "--out",
        default="camera-calibration.json",
        help=say("where to save the calibration (default %(default)s)"),
    )
    cal.add_argument(
        "--picture",
        default="camera-calibration.png",
        help=say("annotated picture of markers and pads to check by eye (default %(default)s)"),
    )
    add_lang(cal, argparse.SUPPRESS)
    cal.set_defaults(camera_main=_calibrate)

    view = sub.add_parser(
        "view",
        help=say("show the annotated live picture for set-up"),
        description=say(
            "Read every pad continuously and write the annotated picture "
            "(pads, card rows, what was read) to --out, refreshed as it goes, with one "
            "line per change on the terminal. Stop with Ctrl-C."
        ),
    )
    view.add_argument("--source", required=True, help=_source_help())
    view.add_argument("--calibration", required=True, help=say("calibration JSON from 'camera calibrate'"))
    _capture_options(view)
    view.add_argument(
        "--out",
        default="camera-view.png",
        help=say("annotated picture, rewritten as frames come (default %(default)s)"),
    )
    view.add_argument(
        "--frames",
        type=int,
        default=0,
        help=say("stop after this many frames (default 0: until the end or Ctrl-C)"),
    )
    view.add_argument(
        "--every", type=float, default=0.5, help=say("seconds between picture refreshes (default %(default)g)")
    )
    view.add_argument(
        "--no-photo",
        action="store_true",
        help=say(
            "do not ask camera read's reader to name a face-up card the templates cannot "
            "(another deck's print); by default it does, on the whole frame, at its default confidence"
        ),
    )
    add_lang(view, argparse.SUPPRESS)
    view.set_defaults(camera_main=_view)

    # The photo reader (issue 9) owns its options; it is imported only when 'read' is used.
    sub.add_parser(
        "read",
        help=say("read every card in still pictures (no calibration needed)"),
        description=say("Read cards in photographs."),
        setup=_setup_read,
    )


class _LazyParser(argparse.ArgumentParser):
    """A subcommand parser whose options are added only when it is chosen."""

    def __init__(self, *args, setup=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._setup = setup

    def parse_known_args(self, args=None, namespace=None):
        if self._setup is not None:
            setup, self._setup = self._setup, None
            setup(self)
        return super().parse_known_args(args, namespace)


def _words():
    """The photo reader's words: the console's (``say``, ``say_n``; an error as ``said_error``
    says it, the system's by its reason alone)."""
    from vision.photo_reader import Words

    return Words(say, say_n, lambda exc: os_error_words(exc) if isinstance(exc, OSError) else said_error(exc))


def _setup_read(parser: argparse.ArgumentParser) -> None:
    try:
        import vision.photo_reader as reader
    except ModuleNotFoundError as exc:
        if exc.name != "vision.photo_reader":
            raise
        parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        parser.set_defaults(camera_main=_read_unavailable)
        return
    reader.add_read_arguments(parser, _words())
    add_lang(parser, argparse.SUPPRESS)
    parser.set_defaults(camera_main=lambda args: reader.main_read(args, _words()))


def _capture_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--width", type=int, default=1280, help=say("frame width to ask the camera for (default %(default)s)")
    )
    p.add_argument(
        "--height", type=int, default=720, help=say("frame height to ask the camera for (default %(default)s)")
    )
    p.add_argument(
        "--fps", type=float, default=30.0, help=say("frame rate to ask the camera for (default %(default)g)")
    )


def main(args: argparse.Namespace) -> int:
    with speaking(getattr(args, "lang", None) or spoken()):
        return _main(args)


def _main(args: argparse.Namespace) -> int:
    handler = getattr(args, "camera_main", None)
    if handler is None:
        said = say("choose a subcommand: calibrate, view or read (see 'chicago-table camera --help')")
        print(f"chicago-table camera: {said}", file=sys.stderr)
        return 2
    from vision.errors import VisionError

    try:
        return int(handler(args) or 0)
    except VisionError as exc:  # bad input from outside: a picture, a camera, a file (exit 2, as every command's)
        print(f"chicago-table camera: {said_error(exc)}", file=sys.stderr)
        return 2


_KINDS = {"device": lambda: say("device"), "file": lambda: say("file"), "stream": lambda: say("stream")}


def source_words(info) -> str:
    """What a camera source is and gives (a ``vision.source.SourceInfo``), in the words spoken."""
    kind = _KINDS[info.kind]() if info.kind in _KINDS else info.kind
    size = f"{info.width}x{info.height}"
    if info.native_size != (info.width, info.height):
        size += " " + say("(resized from {w}x{h})", w=info.native_size[0], h=info.native_size[1])
    out = say("{kind} {spec}: {size} at {fps:g} fps", kind=kind, spec=info.spec, size=size, fps=float(info.fps))
    if info.frames:
        out += say_n(", {n} frame", ", {n} frames", info.frames)
    return out


def _open(args):
    from vision.source import CameraSource

    cam = CameraSource(args.source, args.width, args.height, args.fps, realtime=True)
    print(say("camera: {source}", source=source_words(cam.info)), file=sys.stderr)
    return cam


def _calibrate(args) -> int:
    import cv2

    from vision.annotate import calibration_picture
    from vision.calibration import calibrate
    from vision.errors import CameraUnavailable, VisionError
    from vision.layout import TableLayout

    layout = TableLayout.load(args.layout) if args.layout else TableLayout.default()
    if args.image:
        from vision.photo.images import UnreadableImage, load_image

        try:  # as camera read opens a photo: iPhone photos (HEIC) too, a huge one refused before it is decoded
            frame = load_image(args.image)
        except UnreadableImage as exc:
            raise VisionError("cannot read picture {error}", error=exc) from None
    else:
        with _open(args) as cam:
            frame = cam.read()
        if frame is None:
            raise CameraUnavailable("{source} gave no frame", source=args.source)
    cal = calibrate(frame, layout)
    picture = calibration_picture(frame, cal)
    if not cv2.imwrite(args.picture, picture):
        raise VisionError("cannot write picture {path}", path=args.picture)
    cal.save(args.out)
    print(
        say(
            "calibrated from markers {markers} (mean error {mm:.2f} mm) for {w}x{h} frames",
            markers=list(cal.markers_seen),
            mm=cal.error_mm,
            w=cal.image_size[0],
            h=cal.image_size[1],
        )
    )
    print(say("saved {path}; check the pads on {picture}", path=args.out, picture=args.picture))
    return 0


def _view(args) -> int:
    import cv2

    from vision.annotate import view_picture
    from vision.calibration import Calibration
    from vision.camera import TableCamera
    from vision.errors import VisionError

    if args.frames < 0 or args.every <= 0:
        raise VisionError("--frames must be 0 or more and --every positive")
    cal = Calibration.load(args.calibration)
    scene = None
    if not args.no_photo:
        from vision.photo.scene_reader import SceneReader

        scene = SceneReader.load(backs=False)  # camera read's reader; face-down cards are the templates'
    with _open(args) as cam:
        camera = TableCamera(cam, cal, scene=scene)
        last_lines: dict[str, str] = {}
        last_write = 0.0
        count = 0
        started = time.monotonic()
        try:
            while not args.frames or count < args.frames:
                events = camera.read()
                if not events:
                    break
                count += 1
                for e in events:
                    cards = " ".join(s.card or "??" for s in e.face_up) or "-"
                    line = say("{pad}: {down} face down, face up {cards}", pad=e.pad, down=e.face_down, cards=cards)
                    if last_lines.get(e.pad) != line:
                        print(say("[frame {n}] {line}", n=count, line=line), flush=True)
                        last_lines[e.pad] = line
                now = time.monotonic()
                if now - last_write >= args.every and camera.last_frame is not None:
                    _write(cv2, args.out, view_picture(camera.last_frame, cal, camera.last_readings))
                    last_write = now
        except KeyboardInterrupt:
            pass
        if camera.last_frame is not None:
            _write(cv2, args.out, view_picture(camera.last_frame, cal, camera.last_readings))
    took = time.monotonic() - started
    print(
        say_n(
            "{n} frame in {seconds:.1f} s; last picture in {path}",
            "{n} frames in {seconds:.1f} s; last picture in {path}",
            count,
            seconds=took,
            path=args.out,
        )
    )
    return 0


def _write(cv2, path: str, img) -> None:
    # Write then rename, so a viewer refreshing the file never sees half a picture.
    root, ext = os.path.splitext(path)
    tmp = f"{root}.part{ext or '.png'}"
    if not cv2.imwrite(tmp, img):
        from vision.errors import VisionError

        raise VisionError("cannot write picture {path}", path=path)
    os.replace(tmp, path)


def _read_unavailable(args) -> int:
    said = say("not available: the photo reader (vision.photo_reader, issue 9) is not installed")
    print(f"chicago-table camera read: {said}", file=sys.stderr)
    return 2
