"""The tournament's steps, each checked before anything is written: create the event,
register players, draw a heat, schedule a särspel, advance to the next heat.

    >>> hub = HubStore.open("sm2026.hub.sqlite", create=True)
    >>> create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025")
    >>> register(hub, [("Anna", "Malmö BK"), ("Bo", ""), ("Cilla", "Malmö BK"), ("Dan", "")])
    >>> seed, tables = draw_first_heat(hub, seed="8d1f")   # seed=None: a fresh one, logged with the draw
    >>> [(t["table"], t["players"]) for t in tables]
    [('h1-t1', ['Anna', 'Bo', 'Cilla', 'Dan'])]
    >>> advance(hub, Standings(hub))        # draws heat 2 once heat 1 has ended everywhere
    Traceback (most recent call last):
    table_controller.tournament.hubstore.HubError: heat 1 is not over: h1-t1 still playing

Who goes on is what the engine says for each table (``advancing``: heat 1 top 2,
later heats and shootout the winner, r7); the hub only collects it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence, Set
from typing import Any

from table_controller.rules.rulesets import RULESETS, ClockError, parse_shot_clocks, shot_clocks_text

from . import draw as drawing
from .hubstore import HubError, HubStore
from .standings import Standings
from .topics import PayloadError, check_id


class EventOver(HubError):
    """``advance`` after the final: nothing to draw, the event's winner said (not a fault:
    ``hub advance`` says it and exits 0)."""


def check_event(event: str, ruleset: str, shot_clocks: str = "") -> str:
    """The event's settings checked; returns its shot clocks as the draw carries them
    (``shot_clocks_text``; "" for D11's)."""
    try:
        check_id(event, "event id")
    except PayloadError:
        raise HubError("event id {event}: use 1-40 letters, digits, '-' or '_'", event=repr(event)) from None
    if ruleset not in RULESETS:
        raise HubError(
            "unknown ruleset {ruleset!r}; rulesets: {rulesets}", ruleset=ruleset, rulesets=", ".join(RULESETS)
        )
    try:
        return shot_clocks_text(parse_shot_clocks(shot_clocks))
    except ClockError as exc:
        raise HubError("--shot-clocks: {error}", error=exc) from None


def create_event(hub: HubStore, event: str, name: str, ruleset: str, shot_clocks: str = "") -> None:
    """A new event in ``hub``; ``shot_clocks`` (D11: "configurable per event", e.g.
    ``"play=30"``) go to every table in its draw (``HubStore.tables``)."""
    clocks = check_event(event, ruleset, shot_clocks)
    if hub.meta().get("event"):
        raise HubError(
            "{path} already keeps event {event!r}; one event per hub file", path=hub.path, event=hub.meta()["event"]
        )
    hub.set_meta(event=event, name=name or event, ruleset=ruleset, **({"shot_clocks": clocks} if clocks else {}))


def register(hub: HubStore, players: Sequence[tuple[str, str]]) -> None:
    hub.event_id()
    if hub.heats():
        raise HubError("heat 1 is drawn; players can no longer be registered")
    for name, _club in players:
        if not name.strip() or name != name.strip() or len(name) > 40:
            raise HubError("player name {name!r}: 1-40 characters, no leading or trailing spaces", name=name)
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
            # a file saved in another encoding gives names of NUL bytes and stray signs
            raise HubError("player name {name!r}: a sign no name has (save the players' file as UTF-8 CSV)", name=name)
    hub.add_players(players)


def draw_first_heat(hub: HubStore, seed: str | None = None) -> tuple[str, list[dict[str, Any]]]:
    hub.event_id()
    if hub.heats():
        raise HubError("heat 1 is already drawn")
    gone = hub.withdrawn()
    return _draw(hub, 1, {p: c for p, c in hub.players().items() if p not in gone}, seed)


def withdraw(
    hub: HubStore, player: str, reason: str, seed: str | None = None
) -> tuple[int | None, str | None, list[dict[str, Any]]]:
    """The TL withdraws ``player`` (a no-show; RULES.md is silent, the TL decides, r32):
    before heat 1 is drawn, it is drawn without them; before any table of the heat now
    drawn has started, that heat is drawn again without them (a new seed, logged beside the
    first); once its heat is over, they go on no further (``advance``); a table that started
    without them (a no-show found late: its TL seated the others, r32) then plays on as
    seated, its standings without the problem "not those drawn".  Refused while they play
    in a heat under way: at a table that plays the TL decides there (r33).  Returns
    the heat drawn again, its seed and its tables (None, None, [] when nothing is drawn)."""
    hub.event_id()
    if player not in hub.players():
        raise HubError("no player {player!r} is registered", player=player)
    if player in hub.withdrawn():
        raise HubError("{player} is withdrawn already", player=player)
    if not reason.strip():
        raise HubError("say why {player} is withdrawn (--reason)", player=player)
    heats = hub.heats()
    if not heats:
        hub.withdraw(player, reason.strip())
        return None, None, []
    heat = heats[-1]
    tables = hub.tables(heat)
    # started: its records reached the hub, or its publisher said its log holds some (the
    # records themselves may still be on their way)
    statuses = hub.statuses()
    started = [
        t["table"]
        for t in tables
        if hub.head(t["table"])[0] > 0 or (statuses.get(t["table"], {}).get("last_seq") or 0) > 0
    ]
    playing = [p for t in tables for p in t["players"]]
    board = Standings(hub)  # which of them have ended, as the standings fold them (a särspel reopens one)
    board.update()
    heats_now = board.document()["heats"]  # folded once (every table's log)
    finished = {t["table"] for h in heats_now if h["heat"] == heat for t in h["tables"] if t["finished"]}
    if not started and player in playing:
        seed = seed or drawing.new_seed()
        clubs = hub.players()
        joined: list[str] = []
        entrants = [p for p in playing if p != player]
        previous = [h for h in heats_now if h["heat"] == heat - 1]
        if previous:  # a later heat: who goes on, filled again as advance fills (a filled player left)
            going_on, joined = _going_on(previous[0], {*hub.withdrawn(), player}, seed)
            entrants = going_on + joined
        rest = {p: clubs.get(p, "") for p in entrants}
        if not seatable(len(rest)):
            raise HubError(
                "without {player}, heat {heat} has {n} players, who cannot sit at tables of three or four (r1)",
                player=player,
                heat=heat,
                n=len(rest),
            )
        try:
            again = drawing.draw_heat(rest, heat=heat, seed=seed, ruleset=hub.meta()["ruleset"])
        except drawing.DrawError as exc:
            raise HubError(
                "without {player}, heat {heat} cannot be drawn again: {why}", player=player, heat=heat, why=exc
            ) from None
        _mark_filled(again, joined)  # stop 71: a later heat drawn again lost who sat there by filling
        hub.save_heat(heat, seed, again, again=True, withdrawn=(player, reason.strip()))  # one transaction
        return heat, seed, again
    # a no-show found late: their table started without them, its others as drawn (the TL
    # there seated them, r32), and no table's log has them (stop 72's review: logs published
    # under each other's ids, or a table playing the first draw, must not withdraw a player)
    drawn = next((t for t in tables if player in t["players"]), None)
    sat = board.engine(drawn["table"]).state if drawn is not None and drawn["table"] in started else None
    logged = {p for t in tables if t["table"] in started for p in board.engine(t["table"]).state.players}
    absent = (
        drawn is not None
        and sat is not None
        and sat.rules is not None
        and player not in logged
        and set(sat.players) < set(drawn["players"])
        and set(drawn["players"]) - set(sat.players) <= {*hub.withdrawn(), player}
    )
    if player in playing and not absent and not all(t["table"] in finished for t in tables):
        raise HubError(
            "heat {heat} is under way ({tables}): who leaves a table that plays is the TL's decision "
            "there (r33: sit out the game); withdraw before a heat's tables start, or after it",
            heat=heat,
            tables=", ".join(t for t in started if t not in finished),
        )
    hub.withdraw(player, reason.strip())
    return None, None, []


def _draw(
    hub: HubStore, heat: int, players: dict[str, str], seed: str | None, joined: Sequence[str] = ()
) -> tuple[str, list[dict[str, Any]]]:
    seed = seed or drawing.new_seed()
    try:
        tables = drawing.draw_heat(players, heat=heat, seed=seed, ruleset=hub.meta()["ruleset"])
    except drawing.DrawError as exc:
        raise HubError(exc.text, **exc.params) from None
    _mark_filled(tables, joined)
    hub.save_heat(heat, seed, tables)
    return seed, tables


def _mark_filled(tables: list[dict[str, Any]], joined: Sequence[str]) -> None:
    """Who sits at each table by ``filled_up``, not as a winner: said with the draw."""
    for t in tables:
        if filled := [p for p in t["players"] if p in joined]:
            t["filled"] = filled


def heat_seed(hub: HubStore, heat: int) -> str:
    for d in reversed(hub.draws()):  # the last: a heat drawn again after a withdrawal
        if d["heat"] == heat and d["what"] == "heat":
            return d["seed"]
    raise HubError("heat {heat} is not drawn", heat=heat)


def schedule_playoffs(hub: HubStore, board: Standings, only: set[str] | None = None) -> list[dict[str, Any]]:
    """Draw the seats of every särspel the tables (``only`` these) need now (r11; seats at
    random, r7); returns the new seat draws."""
    new = []
    for sp in board.playoffs_needed(only):
        table = hub.table(sp["table"])
        if table is None or any(g["playoff"] for g in table["games"]):
            continue
        seed = heat_seed(hub, table["heat"])
        game = drawing.draw_seats(sp["players"], seed=seed, table=sp["table"], game=sp["game"], playoff=True)
        hub.save_playoff_seating(table["heat"], sp["table"], seed, game)
        new.append({"table": sp["table"], **game})
    return new


def seatable(n: int) -> bool:
    """Whether ``n`` players sit at tables of three or four (r1).

    >>> [n for n in range(1, 10) if not seatable(n)]
    [1, 2, 5]
    """
    try:
        drawing.table_sizes(n)
    except drawing.DrawError:
        return False
    return True


def filled_up(heat: dict[str, Any], going_on: list[str], seed: str, gone: Set[str] = frozenset()) -> list[str]:
    """Who joins ``going_on`` when they cannot sit at tables of three or four (r1): after a
    later heat two or five winners are left (from 12 or 16 players, two tables' winners).
    RULES.md is silent; ours: the best of the heat's other players join until the tables
    fill (two winners: the final is three), ranked across its tables as a table is
    (§9: placement points, total score, won Chicagos), ties drawn by the heat's seed."""
    if seatable(len(going_on)):
        return []  # one or none left (a winner withdrawn): filled to a final of three
    rows = [
        r for t in heat["tables"] for r in t["standings"] if r["player"] not in going_on and r["player"] not in gone
    ]
    rng = drawing.seeded(seed, "fill", heat["heat"])
    rng.shuffle(rows)  # then sorted stably: an exact tie is drawn
    rows.sort(key=lambda r: (-r["placement_points"], -r["score_total"], -r["won_chicagos"]))
    need = next(n for n in range(len(going_on) + 1, len(going_on) + 4) if seatable(n)) - len(going_on)
    return [r["player"] for r in rows[:need]]


def _going_on(heat: dict[str, Any], gone: Set[str], seed: str) -> tuple[list[str], list[str]]:
    """Who goes on from ``heat`` (its standings' document) but the players ``gone``, and who
    joins them to fill the tables (``filled_up``, ties drawn by ``seed``)."""
    going_on = [p for p in heat["advancing"] if p not in gone]
    return going_on, filled_up(heat, going_on, seed, gone)


def advance(hub: HubStore, board: Standings, seed: str | None = None) -> tuple[int, str, list[dict[str, Any]]]:
    """Draw the next heat from those who go on from the last one; every table of it must
    have ended (särspel included) and have no problem the TL has not settled.  Too few (or
    five) to sit at tables of three or four are joined by the best of the rest
    (``filled_up``); the draw's tables then name them (``"filled"``)."""
    board.update()
    doc = board.document()
    if not doc["heats"]:
        raise HubError("no heat is drawn yet; run 'chicago-table hub draw'")
    last = doc["heats"][-1]
    open_tables = [t["table"] for t in last["tables"] if not t["finished"]]
    if open_tables:
        raise HubError(
            "heat {heat} is not over: {tables} still playing", heat=last["heat"], tables=", ".join(open_tables)
        )
    troubled = [f"{t['table']}: {'; '.join(t['problems'])}" for t in last["tables"] if t["problems"]]
    if troubled:
        raise HubError("settle these first: {problems}", problems=" | ".join(troubled))
    gone = hub.withdrawn()  # a withdrawn player goes on no further
    if len(last["advancing"]) <= 1:  # the final: by who won it, whoever has left since
        going_on = last["advancing"]
        if not going_on:
            raise EventOver("heat {heat} was the final: nobody won", heat=last["heat"])
        raise EventOver("heat {heat} was the final: {players} won", heat=last["heat"], players=", ".join(going_on))
    seed = seed or drawing.new_seed()
    going_on, joined = _going_on(last, set(gone), seed)
    clubs = hub.players()
    seed, tables = _draw(hub, last["heat"] + 1, {p: clubs.get(p, "") for p in going_on + joined}, seed, joined)
    return last["heat"] + 1, seed, tables
