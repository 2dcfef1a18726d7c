"""One table in one service: ``chicago-table run --config table.toml``.

The composition root of a running table (issue 16): in one asyncio loop it starts

- the bridge to the seat controller (or the virtual table, ``virtual = true``),
- the live loop: sensing, the shot clocks, the durable SQLite log in the data folder
  (a restart with the same data folder resumes the same table, its clocks paused until
  the dealer resumes: ``LiveTable._restore_clocks``),
- the stuck-table watch (``live.stuck``: who is waited for, and on what),
- the camera, when ``[camera]`` is configured: ``vision.worker.CameraWorker`` (its own
  process, issue 16 item 3) merged with the seat controller as the live loop's sensors;
  a camera that stops raises ``camera_offline`` and the table plays on the RFID readers,
- the dashboard (uvicorn in the same loop) with its TLS files, broadcast delay, the
  event's tokens and its peer tables.

    cfg = load_config("table.toml")
    asyncio.run(serve_table(cfg))

``extra`` runs beside the table (the demo's bots) and gets the :class:`Running` table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .config import ConfigError, TableConfig
from .words import deck_error_words, os_error_words, say, say_n


@dataclass
class Running:
    """The parts of a running table, for what runs beside it (bots, tests)."""

    config: TableConfig
    hub: Any  # dashboard.hub.TableHub
    tokens: Any  # dashboard.tokens.RoleTokens
    client: Any  # firmware_bridge.SeatControllerClient
    virtual: Any = None  # hardware.virtual.VirtualTable, with virtual = true
    base_url: str = ""
    watch: Any = None  # table_controller.live.stuck.StuckWatch
    stop: Callable[[], None] = lambda: None  # ends the service (the dashboard server, then the rest)


def web_args(cfg: TableConfig) -> argparse.Namespace:
    """The dashboard's web options (the names of ``serve``'s options) from the configuration."""
    from dashboard.limits import SEND_RATE

    d = cfg.dashboard
    e = cfg.event
    return argparse.Namespace(
        certfile=d.tls_cert,
        keyfile=d.tls_key,
        allow_origin=[],
        max_points=200,
        post_rate=20.0,
        send_rate=SEND_RATE,
        event_name=e.name,
        heat=e.heat,
        logo=e.logo,
        round=e.round,
        players_csv=e.players,
    )


def load_deck(cfg: TableConfig):
    """The table's deck: the registered one, checked; the virtual table's own when virtual."""
    from table_controller.deck import Deck, DeckError, virtual_deck

    if cfg.table.virtual:
        return virtual_deck()
    path = cfg.seat_controller.deck
    try:
        deck = Deck.load(str(path))
    except DeckError as exc:
        raise ConfigError(
            say("[seat_controller] deck {path}: {error}", path=path, error=deck_error_words(exc))
        ) from None
    except OSError as exc:
        raise ConfigError(say("[seat_controller] deck {path}: {error}", path=path, error=os_error_words(exc))) from None
    report = deck.check()
    if not report.ok:
        problems = "; ".join(report.lines(say, say_n))  # the deck's report in the words spoken
        raise ConfigError(
            say("[seat_controller] deck {path} does not add up: {problems}", path=path, problems=problems)
        )
    return deck


def load_hub_draw(cfg: TableConfig) -> dict[str, Any]:
    """[hub]: this table as the tournament hub drew it; ``ConfigError`` when there is none."""
    from table_controller.tournament.seating import SeatingError, load_draw_kept

    assert cfg.hub is not None and cfg.hub.draw is not None and cfg.hub.table_id is not None
    keep = Path(cfg.table.data) / f"draw-{cfg.hub.table_id}.json"  # beside the log: a resume needs no hub
    try:
        draw, why = load_draw_kept(cfg.hub.draw, cfg.hub.table_id, keep)
    except SeatingError as exc:
        raise ConfigError(f"[hub] {exc}") from None
    if why is not None:  # the hub gave no answer at all (its own English words stay in the log)
        print(
            say(
                "[hub] the hub at {source} gives no answer; the table plays the draw kept in {path}",
                source=cfg.hub.draw,
                path=keep,
            ),
            file=sys.stderr,
        )
    return draw


async def start_as_drawn(hub: Any, draw: dict[str, Any], cfg: TableConfig, max_points: int, out: TextIO) -> None:
    """A new log starts with the ``table`` action as drawn (players, ruleset, heat): nobody
    types a name; a log that already holds a table must hold the one drawn."""
    from table_controller.tournament.seating import table_start

    state = hub.live.engine.state
    if state.rules is not None:
        if sorted(state.players) != sorted(draw["players"]):
            raise ConfigError(
                say(
                    "[hub] table_id {table}: the log in {data} holds a table of {players}, the hub drew "
                    "{drawn}; give this table a new [table] data folder",
                    table=draw["table"],
                    data=cfg.table.data,
                    players=", ".join(state.players),
                    drawn=", ".join(draw["players"]),
                )
            )
        return
    action = table_start(draw).to_dict()
    # as a table started on the dashboard: the engine's bound of the TL's points (serve's --max-points)
    action["options"] = {**action.get("options", {}), "tl_points_limit": max(1, min(max_points, 1000))}
    await hub.post(action, "tl")
    print(
        say("{table}: started as the hub drew it: {players}", table=draw["table"], players=", ".join(draw["players"])),
        file=out,
    )


def base_url(cfg: TableConfig) -> str:
    from .web import shown_host

    d = cfg.dashboard
    return f"{'https' if d.tls_cert else 'http'}://{shown_host(d.host)}:{d.port}"


async def serve_table(
    cfg: TableConfig,
    *,
    extra: Callable[[Running], Awaitable[Any]] | None = None,
    show_tokens: bool = False,
    out: TextIO | None = None,
    virtual_table: Any = None,
    default_delay: float = 60.0,
    web: argparse.Namespace | None = None,
    clock: Any = None,
) -> None:
    """Run the table until the dashboard server stops (SIGINT/SIGTERM); raises
    ``ConfigError`` or ``dashboard.errors.DashboardError`` before anything starts when
    the configuration cannot run.  ``web``: the dashboard's web options as ``serve``'s
    flags (the demo's: --allow-origin, --max-points, --post-rate).  ``virtual_table``: a VirtualTable made by the caller
    (the demo's quick one); by default, with ``virtual = true``, one with its defaults.
    ``clock``: the table's one clock (the bridge's event stamps, sensing, the shot clocks,
    the stuck watch, the broadcast delay); ``demo --fast`` gives a ``LoopClock`` on a
    ``SimulatedTimeLoop`` with a simulated virtual table.  Monotonic seconds by default."""
    import uvicorn

    from dashboard.app import create_app
    from dashboard.hall import peer_bases
    from firmware_bridge import SeatControllerClient
    from table_controller.clocks import parse_shot_clocks
    from table_controller.live.stuck import StuckWatch
    from table_controller.tournament.seating import SeatingError, drawn_clock_limits

    from .table_files import open_table
    from .web import (
        port_problem,
        print_urls,
        private_files,
        uvicorn_config,
        warn_plain_http,
        web_settings,
    )

    out = out or sys.stdout
    d = cfg.dashboard
    problem = port_problem(d.host, d.port)
    if problem:
        raise ConfigError(f"[dashboard] port {d.port}: {problem.split(';')[0]}")
    # the tokens in plain text beyond this machine: said, as serve says it
    warn_plain_http(d.host, d.tls_cert is not None)
    deck = load_deck(cfg)
    peers = peer_bases(list(d.peers))
    args = web or web_args(cfg)
    settings = dataclasses.replace(web_settings(args, peers), ruleset=cfg.table.ruleset)
    if cfg.hub is not None:
        settings = dataclasses.replace(
            settings, draw_source=cfg.hub.draw, table_id=cfg.hub.table_id, draw=load_hub_draw(cfg)
        )
    try:  # at a tournament the event's clocks, as the hub drew the table
        own = cfg.table.shot_clocks
        limits = parse_shot_clocks(own) if settings.draw is None else drawn_clock_limits(settings.draw, own)
    except SeatingError as exc:
        raise ConfigError(f"[table] shot_clocks: {exc}") from None
    private_files()  # the log holds every dealt hand

    table = virtual_table
    own_table = False
    if cfg.table.virtual and table is None:
        from hardware.virtual import VirtualTable
        from table_controller.sim.virtual import mild_noise

        table = VirtualTable(noise=mild_noise(), seed=0, autostart=False)
        own_table = True
        laid = _lay_out_logged_table(table, cfg.table.data / "table.sqlite")
        if laid:
            print(
                say_n(
                    "the virtual table: its cards laid out as {n} logged action left them",
                    "the virtual table: its cards laid out as {n} logged actions left them",
                    laid,
                ),
                file=out,
            )
        table.start()
    port = str(table.port if table is not None else cfg.seat_controller.port)
    camera = None
    try:
        async with SeatControllerClient(port, clock=clock) as sc:
            camera, camera_note = await _start_camera(cfg)
            sensors = sc if camera is None else camera_merged(sc, camera)
            hub, tokens = open_table(
                cfg.table.data,
                cfg.table.name,
                d.broadcast_delay,
                default_delay=default_delay,
                sensors=sensors,
                leds=sc.set_led,
                deck=deck,
                tokens_file=d.event_tokens,
                camera=camera,
                clock_limits=limits,
                **({} if clock is None else {"table_clock": clock, "monotonic": clock.now}),
            )
            if settings.draw is not None:
                await start_as_drawn(hub, settings.draw, cfg, settings.max_points, out)
            watch = StuckWatch(
                hub.live,
                cfg.table.stuck_after,
                link_online=lambda: sc.online,
                camera_online=None if camera is None else (lambda: bool(camera.online)),
            )
            running = Running(cfg, hub, tokens, sc, table, base_url(cfg), watch)
            _print_start(running, port, show_tokens, out, print_urls, camera_note)
            server = uvicorn.Server(uvicorn_config(create_app(hub, tokens, settings=settings), args, d.host, d.port))
            running.stop = lambda: setattr(server, "should_exit", True)
            beside = [asyncio.create_task(watch.run(), name="stuck-watch")]
            if extra is not None:
                beside.append(asyncio.ensure_future(extra(running)))
            try:
                with _sigterm_exits():
                    await server.serve()
            finally:
                for t in beside:
                    t.cancel()
                for t in beside:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await t
    finally:
        if camera is not None:
            await camera.close()
        if own_table:
            table.close()


def _lay_out_logged_table(table: Any, log_path: Path) -> int:
    """A restarted virtual table: its cards back where the logged actions left them
    (``sim.resume``), as a real table's cards stay where they lie while the Pi restarts."""
    import sqlite3

    from table_controller.rules.actions import parse_action
    from table_controller.sim.resume import rebuild_table
    from table_controller.store import StoreError, read_actions

    if not log_path.is_file() or log_path.stat().st_size == 0:
        return 0
    try:
        actions = [parse_action(a) for a in read_actions(log_path)]
    except (StoreError, sqlite3.Error, OSError):
        return 0  # open_table reports a damaged log in words
    if actions:
        rebuild_table(actions, table)
    return len(actions)


@contextlib.contextmanager
def _sigterm_exits():
    """systemd stops the unit with SIGTERM: uvicorn shuts the dashboard down gracefully and
    then raises the signal again for the handler it found.  Ours ends the service through
    its own clean-up (link, camera, virtual table) with status 0, not killed by the signal."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def camera_merged(client: Any, camera: Any) -> Any:
    from vision.worker import merged

    return merged(client, camera)


async def _start_camera(cfg: TableConfig) -> tuple[Any, str]:
    """The camera worker for ``[camera]`` (None without one), and a line about it."""
    c = cfg.camera
    if c is None:
        return None, ""
    try:
        from vision.worker import CameraWorker
    except ImportError:
        return None, say(
            "camera {source}: the vision part (OpenCV) is not installed; the table plays on the RFID readers",
            source=c.source,
        )
    rendered = c.source.startswith("synthetic:") or Path(c.source).is_dir()
    if c.calibration is None and not rendered:
        raise ConfigError(say("[camera] calibration is missing: calibrate the camera (chicago-table camera calibrate)"))
    worker = CameraWorker.for_camera(c.source, str(c.calibration) if c.calibration else None, fps=c.fps)
    await worker.start()
    how = say("calibration {path}", path=c.calibration) if c.calibration else say("calibrated on its first frame")
    return worker, say(
        "camera {source}: in its own process (pid {pid}) at {fps:g} fps, {how}",
        source=c.source,
        pid=worker.pid,
        fps=c.fps,
        how=how,
    )


def _print_start(r: Running, port: str, show_tokens: bool, out: TextIO, print_urls, camera_note: str) -> None:
    """The start banner, in the words spoken (``run --lang``, ``demo --lang``)."""
    from .web import print_hall

    cfg = r.config
    hub = r.hub
    where = (
        say("the virtual table on {port}", port=port)
        if r.virtual is not None
        else say("the seat controller on {port}", port=port)
    )
    events = say_n("{n} event", "{n} events", hub.seq)
    if hub.seq:
        events += " " + say("(resumed: clocks paused until the dealer resumes)")
    print(
        say(
            "{table}: {where}; data in {data}; {events}; broadcast delay {delay:g} s.",
            table=hub.name,
            where=where,
            data=cfg.table.data,
            events=events,
            delay=hub.delay.delay,
        ),
        file=out,
    )
    if camera_note:
        print(camera_note, file=out)
    print(say("Views:"), file=out)
    tokens_file = cfg.dashboard.event_tokens or cfg.table.data / "tokens.json"
    print_urls(r.base_url, r.tokens, out=out, show_tokens=show_tokens, where=str(tokens_file))
    if cfg.dashboard.peers:
        print_hall(r.base_url, r.tokens.token("tl") if show_tokens else "...", len(cfg.dashboard.peers) + 1, out)
    out.flush()
