"""A table started from the hub's seat draw (issue 20): who plays, the heat, and the
seats and button of every game, so nobody types a name at the table.

    >>> draw = check_draw({"table": "h1-t1", "heat": 1, "number": 1, "players": ["Anna", "Bo", "Cilla"],
    ...     "ruleset": "sm2025", "options": {"heat": 1},
    ...     "games": [{"game": 1, "seats": ["Bo", "Cilla", "Anna"], "button": "Cilla", "playoff": False}]}, "h1-t1")
    >>> table_start(draw).to_dict()["players"]
    ['Anna', 'Bo', 'Cilla']
    >>> game_start(draw, 1, ["Anna", "Bo", "Cilla"]).to_dict()
    {'do': 'game', 'seats': ['Bo', 'Cilla', 'Anna'], 'button': 'Cilla'}
    >>> game_start(draw, 2, ["Anna", "Bo", "Cilla"]) is None     # not drawn (yet)
    True

Where the draw comes from (:func:`load_draw`): the hub's web server
(``chicago-table hub web``, ``GET /api/draw/TABLE``; the seat draw is public, as it is on
the hall's wall), or a file the TL exported (``chicago-table hub draw --json > heat1.json``,
or ``hub advance --json``).  The URL is the usual way: it also carries a särspel's seats,
which the hub draws only when a table ends tied (r11); a file holds the regular games.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from table_controller.rules import actions as act
from table_controller.rules.rulesets import ClockError, parse_shot_clocks

from .topics import PayloadError, check_id


class SeatingError(ValueError):
    """No usable draw for the table; the message says why.  ``unreachable``: the hub gave
    no answer at all (``load_draw_kept`` then plays the draw kept beside the log)."""

    def __init__(self, text: str, unreachable: bool = False) -> None:
        super().__init__(text)
        self.unreachable = unreachable


def load_draw(source: str, table: str, timeout: float = 10.0) -> dict[str, Any]:
    """The hub's draw of ``table``: ``source`` is the hub's web address (http://HUB:8090)
    or an exported draw file (JSON)."""
    try:
        check_id(table, "table")
    except PayloadError as exc:
        raise SeatingError(str(exc)) from None
    if source.startswith(("http://", "https://")):
        url = source.rstrip("/") + "/api/draw/" + table
        try:
            with urllib.request.urlopen(url, timeout=timeout) as answer:
                doc = json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            try:
                why = json.loads(exc.read()).get("error", exc.reason)
            except (ValueError, AttributeError):
                why = exc.reason
            raise SeatingError(f"the hub at {source} has no draw for {table}: {why}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise SeatingError(f"cannot read the draw from the hub at {source}: {exc}", unreachable=True) from None
        return check_draw(doc, table)
    try:
        doc = json.loads(Path(source).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SeatingError(f"cannot read the draw file {source}: {exc}") from None
    if isinstance(doc, Mapping) and "tables" in doc:  # 'hub draw --json': the whole heat
        doc = doc["tables"]
    if isinstance(doc, list):
        doc = next((t for t in doc if isinstance(t, Mapping) and t.get("table") == table), None)
        if doc is None:
            raise SeatingError(f"the draw file {source} has no table {table}")
    return check_draw(doc, table)


def load_draw_kept(source: str, table: str, keep: Path | None) -> tuple[dict[str, Any], str | None]:
    """``load_draw``, the draw kept in ``keep`` (a file beside the table's log) each time the
    hub gives it, and read from there when the hub cannot be reached: a table that resumes
    its log while the hub's web server is down plays on as drawn (README: a hub that is down
    costs the table nothing).  Returns the draw and, when the kept one is played, why the
    hub's was not; a hub that answers that it has no such draw is believed.

        >>> import tempfile, json
        >>> folder = Path(tempfile.mkdtemp())
        >>> drawn = {"table": "h1-t1", "players": ["A", "B", "C"], "ruleset": "sm2025", "games": []}
        >>> _ = (folder / "draw.json").write_text(json.dumps(drawn))
        >>> load_draw_kept(str(folder / "draw.json"), "h1-t1", folder / "kept.json")[1] is None
        True
        >>> doc, why = load_draw_kept("http://127.0.0.1:9/", "h1-t1", folder / "kept.json")
        >>> doc["players"], why is not None
        (['A', 'B', 'C'], True)
    """
    try:
        doc = load_draw(source, table)
    except SeatingError as exc:
        if not exc.unreachable or keep is None or not keep.is_file():
            raise
        try:
            return check_draw(json.loads(keep.read_text(encoding="utf-8")), table), str(exc)
        except (OSError, ValueError, SeatingError):
            raise exc from None
    if keep is not None:
        try:
            keep.parent.mkdir(parents=True, exist_ok=True)
            tmp = keep.with_name(keep.name + ".tmp")
            tmp.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            tmp.replace(keep)
        except OSError:
            pass  # kept when it can be: the draw itself is in hand
    return doc, None


def check_draw(doc: Any, table: str) -> dict[str, Any]:
    """The draw of one table as the hub publishes it (TOPICS.md, "draw"), checked."""
    if not isinstance(doc, Mapping) or doc.get("table") != table:
        raise SeatingError(f"not the draw of table {table}")
    players = doc.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise SeatingError(f"the draw of {table}: 'players' must be 2 to 4 different names")
    if not isinstance(doc.get("ruleset"), str) or not isinstance(doc.get("options", {}), Mapping):
        raise SeatingError(f"the draw of {table}: bad 'ruleset' or 'options'")
    if "shot_clocks" in doc:
        if not isinstance(doc["shot_clocks"], str):
            raise SeatingError(f"the draw of {table}: 'shot_clocks' must be a text such as \"play=30\"")
        try:
            parse_shot_clocks(doc["shot_clocks"])
        except ClockError as exc:
            raise SeatingError(f"the draw of {table}: bad 'shot_clocks' ({exc})") from None
    games = doc.get("games")
    if not isinstance(games, list):
        raise SeatingError(f"the draw of {table}: 'games' must be a list")
    for g in games:
        if (
            not isinstance(g, Mapping)
            or not isinstance(g.get("game"), int)
            or not isinstance(g.get("seats"), list)
            or not set(g["seats"]) <= set(players)
            or len(set(g["seats"])) != len(g["seats"])
            or g.get("button") not in g["seats"]
        ):
            raise SeatingError(f"the draw of {table}: a game's seats must be the table's players, button among them")
    return dict(doc)


def drawn_clock_limits(draw: Mapping[str, Any], own: str = "") -> dict[str, float]:
    """The shot clocks of a table the hub drew: the event's (``"shot_clocks"`` in the draw,
    D11: "configurable per event"), else the table's ``own`` setting (the text
    ``parse_shot_clocks`` reads).  A table whose own setting differs from the event's
    is a ``SeatingError``: one table of an event must not run other clocks than the rest."""
    own_limits = parse_shot_clocks(own)
    if "shot_clocks" not in draw:
        return own_limits
    event = parse_shot_clocks(draw["shot_clocks"])
    if own.strip() and own_limits != event:
        raise SeatingError(
            f"this table's shot clocks ({own}) are not the event's ({draw['shot_clocks']}, the hub's "
            "draw): leave them out of this table's settings, the hub sets the event's"
        )
    return event


def table_start(draw: Mapping[str, Any]) -> act.TableStart:
    """The ``table`` action as drawn: the players, the ruleset and the heat (``options``)."""
    return act.TableStart(tuple(draw["players"]), draw["ruleset"], options=dict(draw.get("options") or {}))


def game_start(draw: Mapping[str, Any], number: int, players: Sequence[str]) -> act.GameStart | None:
    """Game ``number``'s ``game`` action as drawn (r7), for the ``players`` who play it
    (all of the table, or a särspel's); None when the draw has no such game for them."""
    for g in draw.get("games", []):
        if g["game"] == number and sorted(g["seats"]) == sorted(players):
            return act.GameStart(tuple(g["seats"]), g["button"])
    return None
