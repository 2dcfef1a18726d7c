"""Live standings: every table's copied log folded by the rules engine (the same fold a
table restarts with), never a second reading of the rules.

    >>> from table_controller.tournament.event import create_event, draw_first_heat, register
    >>> hub = HubStore.open("sm2026.hub.sqlite", create=True)
    >>> create_event(hub, "sm2026", "SM i Chicago 2026", "sm2025")
    >>> register(hub, [("Anna", ""), ("Bo", ""), ("Cilla", "")])
    >>> _ = draw_first_heat(hub, seed="8d1f")
    >>> board = Standings(hub)
    >>> board.update()                       # fold what arrived since the last call
    >>> heat = board.document()["heats"][0]
    >>> heat["complete"], [(t["table"], t["started"]) for t in heat["tables"]]
    (False, [('h1-t1', False)])

Per table: the engine's table document (ranking, placement points, who goes on, r7) and
where play stands; per heat: who goes on when every table has ended, and the särspel
each tied table must play (r11, D10: the engine says who and how many deals).  What
disagrees with the hub's draw (other players, another heat, seats not as drawn) is
listed as a problem for the TL, not corrected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules.cards import without_cards
from table_controller.rules.engine import Engine
from table_controller.rules.replay import current_document, table_document
from table_controller.rules.state import evolve
from table_controller.sensing.alerts import Alert, card_free_text

from ..store.rebuild import events_of
from ..store.records import Record
from .hubstore import HubStore
from .texts import NOT_DRAWN_PLAYERS, NOT_FOLDING, OTHER_HEAT, OTHER_SEATS


@dataclass
class _Table:
    engine: Engine = field(default_factory=Engine)
    seq: int = 0  # records folded so far
    broken: str | None = None
    alerts: dict[Any, dict[str, Any]] = field(default_factory=dict)  # open alerts (the TL's), by id
    last_time: float | None = None


class Standings:
    def __init__(self, hub: HubStore):
        self.hub = hub
        self._tables: dict[str, _Table] = {}

    def update(self, only: set[str] | None = None) -> None:
        """Fold what the hub's copies hold beyond what was folded (all tables, or ``only``)."""
        for tid in self._table_ids():
            if only is not None and tid not in only:
                continue
            st = self._tables.setdefault(tid, _Table())
            if not st.broken:
                self._fold(tid, st, self.hub.records(tid, st.seq + 1))

    def feed(self, table: str, records: Sequence[Record]) -> None:
        """Fold records just taken (the hub's service: no second read of what it stored);
        anything but the next records in order is read from the copy instead."""
        st = self._tables.setdefault(table, _Table())
        if st.broken or not records:
            return
        if records[0].seq != st.seq + 1:
            self.update({table})
            return
        self._fold(table, st, records)

    def _table_ids(self) -> list[str]:
        ids = [r[0] for r in self.hub.conn.execute("SELECT id FROM tables ORDER BY heat, number")]
        return ids

    @staticmethod
    def _fold(tid: str, st: _Table, records: Sequence[Record]) -> None:
        if not records:
            return
        for r in records:
            if r.kind == "alert":
                _alert(st, r)
            elif r.kind == "action":  # a call for the TL without an id stands until play goes on
                st.alerts = {k: v for k, v in st.alerts.items() if not (isinstance(k, tuple) and k[0] == "call")}
        st.last_time = records[-1].time
        try:
            for e in events_of(records, f"table {tid}"):
                evolve(st.engine.state, e)  # as Engine.from_events folds
                st.engine.events.append(e)
        except Exception as exc:  # StoreCorrupt, or an event that does not fit: the TL must look
            # the error may quote the event, hands and all: the TL's screen names no card
            # (a hidden card reaches the TL by a logged reveal only; stop 63's second audit)
            st.broken = NOT_FOLDING.format(error=without_cards(str(exc)))
        st.seq = records[-1].seq

    def playoffs_needed(self, only: set[str] | None = None) -> list[dict[str, Any]]:
        """The särspel tables need now (r11, D10: the engine says who and how many deals)."""
        out = []
        for tid, st in self._tables.items():
            s = st.engine.state
            if (only is None or tid in only) and s.playoff_players and not s.finished:
                out.append(
                    {
                        "table": tid,
                        "players": list(s.playoff_players),
                        "deals": s.playoff_deals,
                        "game": len(s.games) + (0 if s.games and s.games[-1].playoff else 1),
                    }
                )
        return out

    def alerts(self, table: str) -> list[dict[str, Any]]:
        """The table's open alerts, oldest first (from its log: raised and not ended)."""
        st = self._tables.get(table)
        return sorted(st.alerts.values(), key=lambda a: a["seq"]) if st else []

    def last_time(self, table: str) -> float | None:
        st = self._tables.get(table)
        return st.last_time if st else None

    def engine(self, table: str) -> Engine:
        return self._tables.setdefault(table, _Table()).engine

    def table_document(self, t: dict[str, Any]) -> dict[str, Any]:
        tid = t["table"]
        st = self._tables.setdefault(tid, _Table())
        engine, s = st.engine, st.engine.state
        seq, _ = self.hub.head(tid)
        doc: dict[str, Any] = {
            "table": tid,
            "heat": t["heat"],
            "number": t["number"],
            "players": t["players"],
            "records": seq,
            "started": s.rules is not None,
            "finished": bool(s.finished),
            "problems": [],
        }
        if st.broken:
            doc["problems"].append(st.broken)
        if s.rules is None:
            return doc
        doc["ruleset"] = s.rules.name
        doc.update(table_document(engine))
        doc["current"] = current_document(engine)
        # a table that started without a player the TL then withdrew (a no-show: event.withdraw)
        # plays as its TL seated it (r32): the draw's seats, made for them too, do not hold there
        without = sorted(set(t["players"]) - set(s.players))
        settled = bool(without) and set(s.players) < set(t["players"]) and set(without) <= set(self.hub.withdrawn())
        if sorted(s.players) != sorted(t["players"]) and not settled:
            doc["problems"].append(
                NOT_DRAWN_PLAYERS.format(players=", ".join(s.players), drawn=", ".join(t["players"]))
            )
        if settled:
            doc["without"] = without
        if s.rules.heat != t["heat"]:
            doc["problems"].append(OTHER_HEAT.format(heat=s.rules.heat, drawn=t["heat"]))
        drawn = {g["game"]: g for g in t["games"]} if not settled else {}
        for g in s.games:
            want = drawn.get(g.number)
            if want and (list(g.seats) != want["seats"] or g.first_button != want["button"]):
                doc["problems"].append(
                    OTHER_SEATS.format(
                        game=g.number,
                        seats=", ".join(g.seats),
                        button=g.first_button,
                        drawn=", ".join(want["seats"]),
                        drawn_button=want["button"],
                    )
                )
        for sp in self.playoffs_needed({tid}):
            doc["särspel"] = {k: v for k, v in sp.items() if k != "table"}
        return doc

    def document(self) -> dict[str, Any]:
        meta = self.hub.meta()
        clubs = self.hub.players()
        heats = []
        for h in self.hub.heats():
            tables = [self.table_document(t) for t in self.hub.tables(h)]
            complete = bool(tables) and all(t["finished"] for t in tables)
            heat = {
                "heat": h,
                "tables": tables,
                "complete": complete,
                "särspel": [{"table": t["table"], **t["särspel"]} for t in tables if "särspel" in t],
            }
            if complete:
                heat["advancing"] = [p for t in tables for p in t.get("advancing", [])]
            heats.append(heat)
        return {
            "event": meta.get("event"),
            "name": meta.get("name"),
            "ruleset": meta.get("ruleset"),
            "clubs": clubs,
            "heats": heats,
            "conflicts": self.hub.conflicts(),
            "withdrawn": list(self.hub.withdrawn()),  # go on no further (event.withdraw): names only
        }


def _alert(st: _Table, r: Record) -> None:
    d = r.data
    if d.get("state") == "ended":
        st.alerts.pop(d.get("id"), None)
        return
    key = d.get("id") if d.get("id") is not None else ("call", r.seq)
    kind = str(d.get("kind") or "alert")
    text = str(d.get("text", ""))
    player, pad = _str_or_none(d.get("player")), _str_or_none(d.get("pad"))
    sensing = r.source == "sensing"
    if sensing:
        # sensing's own text names the cards of its evidence (for the log only): the TL
        # sees what its table's view shows, the kind and the place, never a card (§3)
        text = card_free_text(Alert(0, kind, text, player, pad))
    # the kind, place and player: for a screen that words the alert in its own language
    # (the hub's TL screen, in Swedish first: dashboard.standings_page)
    st.alerts[key] = {
        "seq": r.seq,
        "time": r.time,
        "kind": kind,
        "text": text,
        "sensing": sensing,
        "player": player,
        "pad": pad,
    }


def _str_or_none(v: object) -> str | None:
    return str(v) if v is not None else None
