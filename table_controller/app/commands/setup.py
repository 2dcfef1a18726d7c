"""``chicago-table setup``: set a table up, step by step, and write its configuration.

    chicago-table setup                                     # asks, step by step
    chicago-table setup --yes --config /etc/chicago-table/table.toml --name "Bord 7" \\
        --port /dev/chicago-seat-controller --deck-uids scans.txt --data /var/lib/chicago-table

1. The seat controller: ``--port``, else ``/dev/chicago-seat-controller`` (the udev rule's
   name), else every USB serial port; the first that answers is the table's.
2. Its link and every reader (the first checks of ``chicago-table link selftest``).
3. The deck: ``--deck FILE`` (registered before: checked), ``--deck-uids FILE`` (UIDs
   scanned in order 2S..AC), or registered now card by card on the dealer's tray.
4. The camera, if there is one (``--camera SOURCE``): calibrated now from one frame
   (the ArUco markers on the felt), or ``--calibration FILE``.
5. The role tokens: the event's file (``--event-tokens``) or ``tokens.json`` in the data
   folder; an existing file is kept.  The table's Ed25519 signing key (``--key``, default
   the configuration's name with ``.key``), made once and then kept: at a tournament the
   table's publisher signs its chain head with it (``hub publish --key``), and its public
   key, printed here, is registered at the hub (``hub key``).
6. The configuration, written and read back as ``run --config`` reads it.
7. Every view's address with its QR code on this terminal, and the join sheet (PDF) to
   print and tape under the table: without the TL's and the broadcast's codes, which
   show hidden cards (``dashboard/join_sheet.py``).

Nothing is written when a check fails; the text says what to do.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import socket
import sys
from pathlib import Path
from typing import Any

from ..words import add_lang, deck_error_words, means, os_error_with_file, say, say_n, speaking, yes

UDEV_NAME = "/dev/chicago-seat-controller"


class SetupFailed(Exception):
    """A step that cannot go on; the message says what to do.  ``status`` 2 for what was
    given (flags, an existing configuration: nothing was tried), as every command says
    bad input; 1 for a step that was tried and failed (the hardware, the deck)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..argtypes import positive
    from ..web import add_shot_clocks_argument

    p.add_argument("--config", default="table.toml", metavar="FILE", help=say("where to write the configuration"))
    p.add_argument("--yes", action="store_true", help=say("ask nothing: the flags and the defaults"))
    add_lang(p)
    p.add_argument("--force", action="store_true", help=say("replace an existing configuration file"))
    t = p.add_argument_group(say("the table"))
    t.add_argument("--name", help=say("[table] name (default Bord 1)"))
    t.add_argument("--ruleset", help=say("[table] ruleset (default sm2025)"))
    t.add_argument("--data", metavar="DIR", help=say("[table] data folder (default: table-data beside the config)"))
    t.add_argument("--stuck-after", type=float, metavar="SECONDS", help=say("[table] stuck_after (default 120)"))
    add_shot_clocks_argument(t, config_key=True)
    s = p.add_argument_group(say("the seat controller and the deck"))
    s.add_argument(
        "--port", help=say("the seat controller's port (default: {udev}, else every USB serial port)", udev=UDEV_NAME)
    )
    s.add_argument("--connect-seconds", type=float, default=10.0, help=say("how long a port may take to answer"))
    deck = s.add_mutually_exclusive_group()
    deck.add_argument("--deck", metavar="FILE", help=say("a deck registered before (chicago-table deck register)"))
    deck.add_argument("--deck-uids", metavar="FILE", help=say("register the deck from UIDs scanned in order 2S..AC"))
    s.add_argument("--deck-name", default="deck", help=say("the deck's name when registered here"))
    c = p.add_argument_group(say("the camera (optional)"))
    c.add_argument("--camera", metavar="SOURCE", help=say("the overhead camera: device number, file, URL or folder"))
    c.add_argument("--calibration", metavar="FILE", help=say("its calibration (default: calibrate now from one frame)"))
    c.add_argument("--camera-fps", type=positive, help=say("frames read per second (default 30)"))
    d = p.add_argument_group(say("the dashboard"))
    d.add_argument("--host", help=say("[dashboard] host (default 0.0.0.0: the tablets on the hall's network)"))
    d.add_argument("--dashboard-port", type=int, help=say("[dashboard] port (default 8080)"))
    d.add_argument("--broadcast-delay", type=float, help=say("[dashboard] broadcast_delay in seconds (default 60)"))
    d.add_argument("--event-tokens", metavar="FILE", help=say("[dashboard] event_tokens: the event's shared tokens"))
    d.add_argument("--tls-cert", metavar="PEM", help=say("[dashboard] tls_cert"))
    d.add_argument("--tls-key", metavar="PEM", help=say("[dashboard] tls_key"))
    d.add_argument(
        "--url-host",
        help=say("the name or address the tablets reach this machine by (default: this machine's address)"),
    )
    t.add_argument(
        "--key",
        metavar="FILE",
        help=say("the table's signing key for a tournament hub (default: <config>.key; kept when it exists)"),
    )
    d.add_argument(
        "--sheet", metavar="FILE", help=say("the join sheet PDF (default: <config>-join.pdf beside the configuration)")
    )


class Asker:
    """Questions on the terminal; with ``--yes`` every answer is the default."""

    def __init__(self, yes: bool) -> None:
        self.yes = yes

    def ask(self, question: str, default: str) -> str:
        if self.yes:
            return default
        try:
            answer = input(f"{question} [{default}]: ").strip()
        except EOFError:
            return default
        return answer or default

    def yes_no(self, question: str, default: bool) -> bool:
        return yes(self.ask(question + " " + say("(y/n)"), say("y") if default else say("n")))


def main(args: argparse.Namespace) -> int:
    from ..config import ConfigError

    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)  # each step shows as it happens, piped or not
    with speaking(args.lang):
        try:
            return asyncio.run(_setup(args))
        except (SetupFailed, ConfigError) as exc:
            print(f"chicago-table setup: {exc}", file=sys.stderr)
            return getattr(exc, "status", 1)
        except KeyboardInterrupt:
            print("\nchicago-table setup: " + say("stopped; no configuration written"), file=sys.stderr)
            return 130


def _step(n: int, text: str) -> None:
    print(f"\n[{n}/7] {text}", flush=True)


async def _setup(args: argparse.Namespace) -> int:
    from ..config import ConfigError, config_from_mapping, dump_config, load_config

    asker = Asker(args.yes)
    config = Path(args.config).expanduser().absolute()
    folder = config.parent
    if config.is_dir():  # refused before any step writes (stop 72: a traceback at step 6, files written)
        raise SetupFailed(
            say(
                "{config} is a folder: give the configuration file's name, e.g. {example}",
                config=config,
                example=config / "table.toml",
            ),
            status=2,
        )
    replace = args.force or (
        config.exists() and not args.yes and asker.yes_no(say("{config} exists: replace it?", config=config), False)
    )
    if config.exists() and not replace:
        raise SetupFailed(
            say("{config} exists: give --force to replace it, or another --config", config=config), status=2
        )
    if args.sheet:  # said before any step writes anything (the sheet is the last thing written)
        from table_controller.app.outputs import OutputError, check_output

        try:
            check_output(args.sheet, config)
        except OutputError as exc:
            raise SetupFailed(f"--sheet: {exc}", status=2) from None
    deck = folder / "deck.json"
    if not args.deck and deck.exists() and not replace:  # another table's deck, or one kept (stop 72: overwritten)
        raise SetupFailed(
            say(
                "{deck} exists: give it with --deck {deck} to use it, or --force to register a new one over it",
                deck=deck,
            ),
            status=2,
        )
    folder.mkdir(parents=True, exist_ok=True)
    table: dict[str, Any] = {
        "name": args.name or asker.ask(say("The table's name"), "Bord 1"),
        "ruleset": args.ruleset or asker.ask(say("Ruleset (sm2025, sm2019, shootout, classic)"), "sm2025"),
        "data": str(
            Path(args.data or asker.ask(say("Data folder (event log, tokens)"), str(folder / "table-data"))).absolute()
        ),
    }
    if args.stuck_after is not None:
        table["stuck_after"] = args.stuck_after
    if args.shot_clocks is not None:
        table["shot_clocks"] = args.shot_clocks
    dash: dict[str, Any] = {
        "host": args.host or asker.ask(say("Dashboard address to listen on"), "0.0.0.0"),
        "port": args.dashboard_port or int(asker.ask(say("Dashboard port"), "8080")),
    }
    for key, value in (
        ("broadcast_delay", args.broadcast_delay),
        ("event_tokens", args.event_tokens),
        ("tls_cert", args.tls_cert),
        ("tls_key", args.tls_key),
    ):
        if value is not None:
            dash[key] = str(Path(value).absolute()) if key in ("event_tokens", "tls_cert", "tls_key") else value
    try:  # the table's and the dashboard's keys, checked before anything is asked of the hardware
        config_from_mapping({"table": dict(table, virtual=True), "dashboard": dash}, base=folder)
    except ConfigError as exc:
        raise SetupFailed(str(exc).replace("the configuration: ", ""), status=2) from None

    _step(1, say("the seat controller"))
    port = await _find_seat_controller(args, asker)
    _step(2, say("the link and every reader on {port}", port=port))
    await _check_link_and_readers(port, args.connect_seconds)
    _step(3, say("the deck"))
    deck = await _deck(args, asker, port, folder)
    camera: dict[str, Any] | None = None
    _step(4, say("the camera"))
    source = args.camera
    if source is None and not args.yes:
        source = asker.ask(say("The overhead camera's source (a device number like 0; 'none' for no camera)"), "none")
        source = None if source.lower() in ("none", "no", "nej", "ingen", "") else source
    if source is None:
        print(say("no camera: the table plays on the RFID readers alone"))
    else:
        camera = _camera(source, args.calibration, folder)
        if args.camera_fps is not None:
            camera["fps"] = args.camera_fps
    _step(5, say("the role tokens and the table's signing key"))
    tokens, tokens_file = _tokens(table, dash, folder)
    _signing_key(Path(args.key).absolute() if args.key else config.with_suffix(".key"))
    _step(6, say("the configuration {config}", config=config))
    data: dict[str, Any] = {
        "table": table,
        "seat_controller": {"port": port, "deck": str(deck)},
        "dashboard": dash,
    }
    if camera is not None:
        data["camera"] = camera
    cfg = config_from_mapping(data, base=folder)
    text = (
        "# chicago-table run --config "
        f"{config}\n# written by chicago-table setup; the keys: table_controller/app/config.py\n\n" + dump_config(cfg)
    )
    config.write_text(text, encoding="utf-8")
    cfg = load_config(config)  # read back as the service will
    print(
        say(
            "written and read back: {name}, {ruleset}, data in {data}",
            name=cfg.table.name,
            ruleset=cfg.table.ruleset,
            data=cfg.table.data,
        )
    )
    _step(7, say("the views: scan a code with a tablet to join"))
    _views(args, cfg, tokens, tokens_file, config)
    print("\n" + say("The table is set up. Start it: chicago-table run --config {config}", config=config))
    print(say("Check it any time: chicago-table doctor --config {config}", config=config))
    return 0


# --- 1 and 2: the seat controller -----------------------------------------------------------


def candidate_ports() -> list[str]:
    """Where a seat controller may be: the udev rule's name, then USB serial ports."""
    out = [UDEV_NAME] if os.path.exists(UDEV_NAME) else []
    try:
        from serial.tools import list_ports

        out += [p.device for p in list_ports.comports() if p.vid is not None and p.device not in out]
    except ImportError:  # pragma: no cover - pyserial is a dependency
        pass
    return out


def _missing(port: str) -> bool:
    """A device path that is not there (a pyserial URL such as ``socket://`` or
    ``rfc2217://`` is asked, not looked for)."""
    return "://" not in port and not os.path.exists(port)


async def _answers(port: str, connect_s: float) -> str | None:
    """The device's hello line if a seat controller answers on ``port``, else None."""
    from firmware_bridge import SeatControllerClient

    try:
        client = await SeatControllerClient(port).start()
    except (OSError, ValueError):
        return None
    try:
        loop = asyncio.get_running_loop()
        end = loop.time() + connect_s
        while loop.time() < end and not (client.online and client.device is not None):
            try:
                await client.next_event(0.1)
            except TimeoutError:
                pass
        hello = client.device
        if not client.online or hello is None:
            return None
        return f"{hello.device_id}, firmware {hello.firmware}, pads {', '.join(hello.pads)}"
    finally:
        await client.close()


async def _find_seat_controller(args: argparse.Namespace, asker: Asker) -> str:
    if args.port:
        candidates = [args.port]
    else:
        candidates = candidate_ports()
        if not args.yes:
            listed = ", ".join(candidates) or say("none found")
            given = asker.ask(
                say("The seat controller's port (serial ports seen: {ports})", ports=listed), say("search")
            )
            if not means(given, "search"):
                candidates = [given]
    if not candidates:
        raise SetupFailed(
            say(
                "no seat controller found: no {udev} and no USB serial port. Plug it in (a USB data "
                "cable, not a charging cable), install the udev rule (hardware/deploy/install.sh), or give --port",
                udev=UDEV_NAME,
            )
        )
    missing = [p for p in candidates if _missing(p)]
    if missing == candidates:  # nothing to wait for (stop 72: a mistyped --port waited 10 s)
        raise SetupFailed(
            say(
                "there is no port {ports}: check the name (ls /dev/tty*), or leave --port out to search",
                ports=", ".join(candidates),
            )
        )
    for port in candidates:
        if port in missing:
            print("  " + say("there is no port {ports}", ports=port))
            continue
        print(say("trying {port} ...", port=port), flush=True)
        hello = await _answers(port, args.connect_seconds)
        if hello is not None:
            print(say("found the seat controller on {port}: {hello}", port=port, hello=hello))
            return port
        print("  " + say("no seat controller answers on {port}", port=port))
    raise SetupFailed(
        say(
            "no seat controller answered on {ports} within {seconds:g} s: "
            "check the cable, that the board boots into main.py, and that no other program "
            "(a running chicago-table) holds the port",
            ports=", ".join(candidates),
            seconds=args.connect_seconds,
        )
    )


async def _check_link_and_readers(port: str, connect_s: float) -> None:
    from firmware_bridge import SeatControllerClient
    from firmware_bridge.selftest import Bench, Options, SelfTest

    async with SeatControllerClient(port) as client:
        results = await SelfTest(
            client,
            Bench(),
            Options(checks=("link", "readers"), connect_s=connect_s),
            on_result=lambda check: print(check.line(), flush=True),
        ).run()
    failed = [c for c in results if not c.ok]
    if failed or not results:
        raise SetupFailed(
            say(
                "{n} check(s) failed on {port} (above); mend them and run setup again "
                "(the whole bench check: chicago-table link selftest {port})",
                n=len(failed),
                port=port,
            )
        )


# --- 3: the deck ---------------------------------------------------------------------------------


async def _deck(args: argparse.Namespace, asker: Asker, port: str, folder: Path) -> Path:
    from table_controller.deck import Deck, DeckError
    from table_controller.rules.cards import FULL_DECK

    from .deck import read_uids, register_on_port

    out = folder / "deck.json"
    try:
        if args.deck:
            path = Path(args.deck).absolute()
            deck = Deck.load(str(path))
            how = say("registered before")
        else:
            uids_file = args.deck_uids
            if uids_file is None and not args.yes:
                answer = asker.ask(
                    say("The deck: a file of UIDs scanned in order, or 'tray' to register it now"), say("tray")
                )
                uids_file = None if means(answer, "tray") else answer
            if uids_file is not None:
                uids = read_uids(uids_file)
                deck = Deck.from_order(uids, FULL_DECK, args.deck_name)
                print(say("registered {n} of 52 cards from {file}", n=len(deck.cards), file=uids_file))
            else:
                print(say("Lay each card alone on the dealer's tray when asked, then take it off."))
                deck = await register_on_port(port, args.deck_name, None)
            deck.save(str(out))
            path, how = out, say("registered now")
    except DeckError as exc:
        raise SetupFailed(say("the deck: {error}", error=deck_error_words(exc))) from None
    except OSError as exc:
        raise SetupFailed(say("the deck: {error}", error=os_error_with_file(exc))) from None
    report = deck.check()
    for line in report.lines(say, say_n):
        print(f"  {line}")
    if not report.ok:
        raise SetupFailed(say("the deck {path} does not add up (above): register it again", path=path))
    print(say("deck {path} ({how}): {n} cards", path=path, how=how, n=len(deck.cards)))
    return path


# --- 4: the camera -------------------------------------------------------------------------------


def _camera(source: str, calibration: str | None, folder: Path) -> dict[str, Any]:
    """The ``[camera]`` keys: a given calibration checked, or a new one made from a frame."""
    from vision.calibration import Calibration, calibrate
    from vision.errors import VisionError
    from vision.worker import open_frames

    if source.isdigit() or "://" in source or source.startswith("synthetic:"):
        spec = source
    else:
        spec = str(Path(source).absolute())
    try:
        if calibration is not None:
            cal = Calibration.load(calibration)
            path = Path(calibration).absolute()
            print(
                say("calibration {path}: made for {w}x{h} frames", path=path, w=cal.image_size[0], h=cal.image_size[1])
            )
        else:
            frames = open_frames(spec)
            try:
                frame = frames.read()
            finally:
                frames.close()
            if frame is None:
                raise VisionError(say("{source} gave no frame", source=source))
            cal = calibrate(frame)
            path = folder / "camera.json"
            cal.save(str(path))
            import cv2

            from vision.annotate import calibration_picture

            cv2.imwrite(str(folder / "camera.png"), calibration_picture(frame, cal))
            print(
                say(
                    "calibrated from markers {markers} (mean error {mm:.2f} mm): {path}; check the pads on {picture}",
                    markers=list(cal.markers_seen),
                    mm=cal.error_mm,
                    path=path,
                    picture=folder / "camera.png",
                )
            )
    except (VisionError, OSError, ValueError) as exc:
        raise SetupFailed(
            say(
                "the camera {source}: {error}. Point it at the felt with its markers in view, "
                "or set the table up without --camera",
                source=source,
                error=exc,
            )
        ) from None
    return {"source": spec, "calibration": str(path)}


# --- 5 and 7: tokens and views ---------------------------------------------------------------------


def _tokens(table: dict[str, Any], dash: dict[str, Any], folder: Path):
    from dashboard.errors import DashboardError
    from dashboard.tokens import RoleTokens

    from ..web import private_files

    data = Path(table["data"])
    data = data if data.is_absolute() else folder / data
    path = Path(dash["event_tokens"]) if dash.get("event_tokens") else data / "tokens.json"
    existed = path.exists()
    private_files()  # the tokens are secrets: mode 600
    data.mkdir(parents=True, exist_ok=True)
    try:
        tokens = RoleTokens.load_or_create(path)
    except DashboardError as exc:
        raise SetupFailed(str(exc)) from None
    print(f"{path}: " + (say("kept (the tokens already given out stay valid)") if existed else say("new tokens")))
    return tokens, path


def _signing_key(path: Path) -> None:
    """The table's own Ed25519 key (issue 20): made once, never replaced, as a new key
    would no longer match the public key the hub holds for this table."""
    from table_controller.tournament.signing import create_key, load_key, public_hex

    if path.exists():
        try:
            public = public_hex(load_key(path))
        except (ValueError, OSError) as exc:
            raise SetupFailed(say("{error}: move it away for a new key", error=exc)) from None
        print(f"{path}: " + say("kept (the table's signing key)"))
    else:
        public = create_key(path)
        print(f"{path}: " + say("a new signing key for this table (owner only)"))
    print("  " + say("its public key: {public}", public=public))
    print(
        "  "
        + say("at a tournament, register it at the hub: chicago-table hub key HUBFILE TABLE {public}", public=public)
    )


def lan_address() -> str:
    """This machine's address on its network (no packet is sent), else its host name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET: only picks the outgoing interface
            address = s.getsockname()[0]
            if not address.startswith("127."):
                return str(address)
        except OSError:
            pass
    return socket.gethostname()


def url_base(cfg: Any, url_host: str | None) -> str:
    d = cfg.dashboard
    if url_host:
        host = url_host
    elif d.host in ("127.0.0.1", "localhost", "::1"):
        host = "localhost"
    elif d.host in ("0.0.0.0", "::"):
        host = lan_address()
    else:
        host = d.host
    return f"{'https' if d.tls_cert else 'http'}://{host}:{d.port}"


def _views(args: argparse.Namespace, cfg: Any, tokens: Any, tokens_file: Path, config: Path) -> None:
    from dashboard.join_sheet import join_links, join_sheet_pdf, print_join_codes

    base = url_base(cfg, args.url_host)
    links = join_links(base, tokens)
    print_join_codes(links, sys.stdout)
    sheet = Path(args.sheet).absolute() if args.sheet else config.with_name(config.stem + "-join.pdf")
    sheet.write_bytes(join_sheet_pdf(cfg.table.name, links))
    kept = ", ".join(link.view for link in links if link.on_sheet)
    print(say("the join sheet: {sheet} ({views}); print it and tape it under the table.", sheet=sheet, views=kept))
    print("  " + say("The TL's and the broadcast's codes are not on it: those views show hidden cards."))
    print("  " + say("The tokens are in {path}; a new sheet after new tokens: run setup again.", path=tokens_file))
