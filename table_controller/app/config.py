"""A table's configuration: one TOML file (``chicago-table run --config table.toml``).

    [table]
    name = "Bord 7"
    ruleset = "sm2025"
    data = "/var/lib/chicago-table"      # event log, broadcast queue, audit, tokens
    virtual = false                      # true: the virtual table instead of hardware
    stuck_after = 120                    # s: someone must act and nothing happens -> TL alert
    shot_clocks = { play = 20, exchange = 30 }  # s per clock (RULES.md D11); unnamed: D11's

    [seat_controller]
    port = "/dev/chicago-seat-controller"
    deck = "deck.json"

    [camera]                             # optional
    source = "0"
    calibration = "camera.json"
    fps = 30

    [event]                              # optional: on the audience's views and the protocol
    name = "SM i Chicago 2026"
    heat = "1"
    round = "Kvartsfinal"                # the event's round, beside the heat in the protocol's header
    logo = "logo.png"                    # PNG or JPEG, at most 512 kB
    players = "players.csv"              # name,club[,id] per line: ids and clubs in the protocol's header

    [dashboard]
    host = "0.0.0.0"
    port = 8080
    tls_cert = "table.crt"
    tls_key = "table.key"
    broadcast_delay = 60
    event_tokens = "tokens.json"
    peers = ["http://table8.local:8080"]

    [hub]                                # optional: at a tournament
    draw = "http://hub.local:8090"       # the hub's web address ('hub web'), or an exported draw file
    table_id = "h1-t3"                   # this table as the hub drew it: players, heat, every game's seats

Relative paths are relative to the file's own folder.  Every key is also a flag of
``run`` (``FLAGS``); a flag overrides the file.  A bad value is a :class:`ConfigError`
naming the key and the file's line, and nothing starts.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .words import clock_error_words, os_error_words, say

__all__ = [
    "FLAGS",
    "CameraSection",
    "ConfigError",
    "DashboardSection",
    "EventSection",
    "SeatControllerSection",
    "TableConfig",
    "TableSection",
    "config_from_mapping",
    "dump_config",
    "load_config",
]


class ConfigError(ValueError):
    """A configuration that cannot run; the text names the file, line and key."""


@dataclass(frozen=True, slots=True)
class TableSection:
    name: str = "Bord 1"
    ruleset: str = "sm2025"
    data: Path = Path("table-data")
    virtual: bool = False
    stuck_after: float = 120.0
    shot_clocks: str = ""  # "play=30,exchange=45" (clocks.parse_shot_clocks); "": D11's defaults


@dataclass(frozen=True, slots=True)
class SeatControllerSection:
    port: str | None = None
    deck: Path | None = None


@dataclass(frozen=True, slots=True)
class CameraSection:
    source: str = "0"
    calibration: Path | None = None
    fps: float = 30.0  # frames read per second (recognition runs in its own process)


@dataclass(frozen=True, slots=True)
class DashboardSection:
    host: str = "127.0.0.1"
    port: int = 8080
    tls_cert: Path | None = None
    tls_key: Path | None = None
    broadcast_delay: float | None = None  # None: the stored one (60 s the first time)
    event_tokens: Path | None = None  # None: tokens.json in the data folder
    peers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EventSection:
    name: str = ""
    heat: str = ""
    round: str = ""
    logo: Path | None = None
    players: Path | None = None  # CSV of name,club[,id] (dashboard.scoresheet.head.read_players)


@dataclass(frozen=True, slots=True)
class HubSection:
    """At a tournament: the table as the hub drew it (``tournament.seating``)."""

    draw: str | None = None  # the hub's web address (http://hub.local:8090) or an exported draw file
    table_id: str | None = None  # the table's id in the draw, e.g. h1-t3


@dataclass(frozen=True, slots=True)
class TableConfig:
    table: TableSection = field(default_factory=TableSection)
    seat_controller: SeatControllerSection = field(default_factory=SeatControllerSection)
    camera: CameraSection | None = None
    dashboard: DashboardSection = field(default_factory=DashboardSection)
    event: EventSection = field(default_factory=EventSection)
    hub: HubSection | None = None
    source: Path | None = None  # the file it came from


SECTIONS: dict[str, type] = {
    "table": TableSection,
    "seat_controller": SeatControllerSection,
    "camera": CameraSection,
    "dashboard": DashboardSection,
    "event": EventSection,
    "hub": HubSection,
}

# (section, key) -> the flag of ``chicago-table run`` that sets it
FLAGS: dict[tuple[str, str], str] = {
    ("table", "name"): "--name",
    ("table", "ruleset"): "--ruleset",
    ("table", "data"): "--data",
    ("table", "virtual"): "--virtual",
    ("table", "stuck_after"): "--stuck-after",
    ("table", "shot_clocks"): "--shot-clocks",
    ("seat_controller", "port"): "--port",
    ("seat_controller", "deck"): "--deck",
    ("camera", "source"): "--camera",
    ("camera", "calibration"): "--calibration",
    ("camera", "fps"): "--camera-fps",
    ("dashboard", "host"): "--host",
    ("dashboard", "port"): "--dashboard-port",
    ("dashboard", "tls_cert"): "--tls-cert",
    ("dashboard", "tls_key"): "--tls-key",
    ("dashboard", "broadcast_delay"): "--broadcast-delay",
    ("dashboard", "event_tokens"): "--event-tokens",
    ("dashboard", "peers"): "--peer",
    ("event", "name"): "--event-name",
    ("event", "heat"): "--heat",
    ("event", "round"): "--round",
    ("event", "logo"): "--logo",
    ("event", "players"): "--players-csv",
    ("hub", "draw"): "--hub",
    ("hub", "table_id"): "--table-id",
}


# --- checking one value ---------------------------------------------------------------------


def _text(v: Any) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 200 or any(ord(c) < 32 for c in v):
        raise ValueError(say("must be a text of 1 to 200 characters"))
    return v.strip()


def _flag(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(say("must be true or false"))
    return v


def _seconds(lo: float, hi: float) -> Callable[[Any], float]:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ValueError(
                say("must be a number of seconds from {lo} to {hi}", lo=format(lo, "g"), hi=format(hi, "g"))
            )
        return float(v)

    return check


def _shot_clocks(v: Any) -> str:
    """A TOML table ``{ play = 30 }`` or the flag's text ``play=30,exchange=45``; kept as
    the text (``clocks.shot_clocks_text``)."""
    from table_controller.clocks import ClockError, parse_shot_clocks, shot_clocks_text

    if isinstance(v, dict):
        if not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in v.values()):
            raise ValueError(
                say("must give each clock a number of seconds, e.g. {example}", example="{ play = 30, exchange = 45 }")
            )
        v = ",".join(f"{k}={s}" for k, s in v.items())
    if not isinstance(v, str):
        raise ValueError(
            say("must be a table of seconds per clock, e.g. {example}", example="{ play = 30, exchange = 45 }")
        )
    try:
        return shot_clocks_text(parse_shot_clocks(v))
    except ClockError as exc:
        raise ValueError(say("must name clocks and seconds ({error})", error=clock_error_words(exc))) from None


def _rate(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 120:
        raise ValueError(say("must be a number of frames per second from 1 to 120"))
    return float(v)


def _tcp_port(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 65535:
        raise ValueError(say("must be a whole number from 1 to 65535"))
    return v


def _ruleset(v: Any) -> str:
    from table_controller.rules.rulesets import RULESETS

    if v not in RULESETS:
        raise ValueError(say("must be one of {choices}", choices=", ".join(RULESETS)))
    return str(v)


def _peers(v: Any) -> tuple[str, ...]:
    if not isinstance(v, (list, tuple)) or not all(isinstance(p, str) for p in v):
        raise ValueError(say("must be a list of addresses, e.g. {example}", example='["http://table8.local:8080"]'))
    for p in v:
        if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+(:\d+)?/?", p):
            raise ValueError(say("{address} is not a table's address (http://HOST:PORT)", address=repr(p)))
    return tuple(p.rstrip("/") for p in v)


def _camera_source(base: Path | None) -> Callable[[Any], str]:
    """A device number and a URL stay as they are; a file (a recording) is a path."""

    def check(v: Any) -> str:
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            return str(v)
        text = _text(v)
        if text.isdigit() or "://" in text:
            return text
        return str(_path(base)(text))

    return check


def _draw_source(base: Path | None) -> Callable[[Any], str]:
    """The hub's web address as it is; an exported draw file as a path."""

    def check(v: Any) -> str:
        text = _text(v)
        if re.match(r"https?://", text):
            if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]+(:\d+)?/?", text):
                raise ValueError(say("must be the hub's address (http://HOST:PORT) or a draw file"))
            return text.rstrip("/")
        return str(_path(base, must_exist=True)(text))

    return check


def _table_id(v: Any) -> str:
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", v):
        raise ValueError(say("must be the table's id as the hub drew it (1-40 letters, digits, '-', '_'), e.g. h1-t3"))
    return v


def _path(base: Path | None, must_exist: bool = False) -> Callable[[Any], Path]:
    def check(v: Any) -> Path:
        p = Path(_text(v)).expanduser() if not isinstance(v, Path) else v
        if not p.is_absolute() and base is not None:
            p = base / p
        if must_exist and not p.is_file():
            raise ValueError(say("must name a file that exists"))
        return p

    return check


def _checks(base: Path | None) -> dict[tuple[str, str], Callable[[Any], Any]]:
    from dashboard.delay import LONGEST_DELAY

    return {
        ("table", "name"): _text,
        ("table", "ruleset"): _ruleset,
        ("table", "data"): _path(base),
        ("table", "virtual"): _flag,
        ("table", "stuck_after"): _seconds(1, 24 * 3600),
        ("table", "shot_clocks"): _shot_clocks,
        ("seat_controller", "port"): _text,
        ("seat_controller", "deck"): _path(base, must_exist=True),
        ("camera", "source"): _camera_source(base),
        ("camera", "calibration"): _path(base, must_exist=True),
        ("camera", "fps"): _rate,
        ("dashboard", "host"): _text,
        ("dashboard", "port"): _tcp_port,
        ("dashboard", "tls_cert"): _path(base, must_exist=True),
        ("dashboard", "tls_key"): _path(base, must_exist=True),
        ("dashboard", "broadcast_delay"): _seconds(0, LONGEST_DELAY),  # as --broadcast-delay (it said 3600)
        ("dashboard", "event_tokens"): _path(base),
        ("dashboard", "peers"): _peers,
        ("event", "name"): _text,
        ("event", "heat"): _text,
        ("event", "round"): _text,
        ("event", "logo"): _path(base, must_exist=True),
        ("event", "players"): _path(base, must_exist=True),
        ("hub", "draw"): _draw_source(base),
        ("hub", "table_id"): _table_id,
    }


# --- where a key is written -----------------------------------------------------------------


def _line_of(text: str, section: str, key: str | None = None) -> int | None:
    """The line of ``[section]`` (or of ``key`` in it) in a TOML text, or None."""
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.fullmatch(r"\[\s*([A-Za-z0-9_\-\"' ]+?)\s*\](\s*#.*)?", line)
        if m:
            current = m.group(1).strip("\"' ")
            if key is None and current == section:
                return n
            continue
        if key is not None and current == section and re.match(rf"[\"']?{re.escape(key)}[\"']?\s*=", line):
            return n
    return None


def _where(source: Path | None, text: str, section: str, key: str | None = None) -> str:
    line = _line_of(text, section, key) if text else None
    name = str(source) if source else say("the configuration")
    return say("{name}, line {line}", name=name, line=line) if line else name


# --- loading ----------------------------------------------------------------------------------


def load_config(path: str | Path, overrides: dict[tuple[str, str], Any] | None = None) -> TableConfig:
    """The configuration in ``path`` with ``overrides`` ((section, key) -> value, from the
    flags) applied over it; ``ConfigError`` for anything wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        error = os_error_words(exc) if isinstance(exc, OSError) else say("it is not UTF-8 text")
        raise ConfigError(say("{path}: cannot read the configuration: {error}", path=path, error=error)) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", str(exc))
        if at:  # where, in the words spoken; what the parser found, in its own
            where = say("{name}, line {line}", name=path, line=at.group(1))
            raise ConfigError(
                say(
                    "{where}, column {column}: not valid TOML ({error})",
                    where=where,
                    column=at.group(2),
                    error=str(exc)[: at.start()],
                )
            ) from exc
        raise ConfigError(say("{path}: not valid TOML: {error}", path=path, error=exc)) from exc
    return config_from_mapping(data, base=path.resolve().parent, source=path, text=text, overrides=overrides)


def config_from_mapping(
    data: dict[str, Any],
    base: Path | None = None,
    source: Path | None = None,
    text: str = "",
    overrides: dict[tuple[str, str], Any] | None = None,
) -> TableConfig:
    """The configuration of a parsed TOML document (and flags); relative paths against
    ``base`` (flags' paths against the working folder)."""
    checks = _checks(base)
    flag_checks = _checks(None)
    sections: dict[str, dict[str, Any]] = {}
    for name, body in data.items():
        if name not in SECTIONS:
            raise ConfigError(
                say(
                    "{where}: unknown section [{name}]; the sections are {sections}",
                    where=_where(source, text, name),
                    name=name,
                    sections=", ".join(f"[{s}]" for s in SECTIONS),
                )
            )
        if not isinstance(body, dict):
            raise ConfigError(
                say("{where}: {name} must be a section ([{name}])", where=_where(source, text, name), name=name)
            )
        known = {f.name for f in fields(SECTIONS[name])}
        values: dict[str, Any] = {}
        for key, value in body.items():
            if key not in known:
                raise ConfigError(
                    say(
                        "{where}: [{name}] has no key {key}; its keys are {keys}",
                        where=_where(source, text, name, key),
                        name=name,
                        key=repr(key),
                        keys=", ".join(sorted(known)),
                    )
                )
            try:
                values[key] = checks[(name, key)](value)
            except ValueError as exc:
                raise ConfigError(
                    say(
                        "{where}: [{name}] {key} {problem}, not {value}",
                        where=_where(source, text, name, key),
                        name=name,
                        key=key,
                        problem=exc,
                        value=repr(value),
                    )
                ) from None
        sections[name] = values
    for (name, key), value in (overrides or {}).items():
        if value is None:
            continue
        try:
            sections.setdefault(name, {})[key] = flag_checks[(name, key)](value)
        except ValueError as exc:
            raise ConfigError(
                say(
                    "{flag} ([{name}] {key}) {problem}, not {value}",
                    flag=FLAGS[(name, key)],
                    name=name,
                    key=key,
                    problem=exc,
                    value=repr(value),
                )
            ) from None
    cfg = TableConfig(
        table=TableSection(**sections.get("table", {})),
        seat_controller=SeatControllerSection(**sections.get("seat_controller", {})),
        camera=CameraSection(**sections["camera"]) if "camera" in sections else None,
        dashboard=DashboardSection(**sections.get("dashboard", {})),
        event=EventSection(**sections.get("event", {})),
        hub=HubSection(**sections["hub"]) if "hub" in sections else None,
        source=source,
    )
    _check_whole(cfg, source, text)
    return cfg


def _check_whole(cfg: TableConfig, source: Path | None, text: str) -> None:
    """What no single key can say wrong."""
    if cfg.hub is not None and (cfg.hub.draw is None or cfg.hub.table_id is None):
        raise ConfigError(
            say(
                "{where}: [hub] draw and table_id go together (the hub's address or draw file, and this table's id in it)",
                where=_where(source, text, "hub"),
            )
        )
    d = cfg.dashboard
    if (d.tls_cert is None) != (d.tls_key is None):
        raise ConfigError(
            say(
                "{where}: [dashboard] tls_cert and tls_key go together",
                where=_where(source, text, "dashboard", "tls_cert" if d.tls_cert else "tls_key"),
            )
        )
    if not cfg.table.virtual:
        sc = cfg.seat_controller
        if sc.port is None:
            raise ConfigError(
                say(
                    "{where}: [seat_controller] port is missing (the seat controller's serial port, "
                    "e.g. /dev/chicago-seat-controller), or set [table] virtual = true",
                    where=_where(source, text, "seat_controller"),
                )
            )
        if sc.deck is None:
            raise ConfigError(
                say(
                    "{where}: [seat_controller] deck is missing (the deck file of 'chicago-table deck register')",
                    where=_where(source, text, "seat_controller"),
                )
            )


def with_overrides(cfg: TableConfig, **sections: dict[str, Any]) -> TableConfig:
    """``cfg`` with some keys replaced (already checked values)."""
    out = cfg
    for name, values in sections.items():
        current = getattr(out, name) or SECTIONS[name]()
        out = replace(out, **{name: replace(current, **values)})
    return out


def dump_config(cfg: TableConfig) -> str:
    """The configuration as a TOML text ``load_config`` reads back to the same (paths
    absolute)."""
    out: list[str] = []
    for name in SECTIONS:
        section = getattr(cfg, name)
        if section is None:
            continue
        lines = [f"{f.name} = {_toml(v)}" for f in fields(section) if (v := getattr(section, f.name)) not in (None, "")]
        if lines:  # a section with nothing set is left out (its defaults)
            out += [f"[{name}]", *lines, ""]
    return "\n".join(out)


def _toml(v: Any) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=False)  # a TOML basic string is a JSON string
