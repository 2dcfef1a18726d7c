"""The hall's public standings page, served from the tournament hub's file (issue 20,
item 3: "a public standings page for the hall").

    $ chicago-table hub web sm2026.hub --port 8090      # http://HUB:8090/ on the hall's screens
    $ chicago-table log verify h1-t3.sqlite --hub http://HUB:8090 --table h1-t3   # /api/witness
    $ chicago-table run --virtual --bots --hub http://HUB:8090 --table-id h1-t3    # /api/draw/h1-t3

Read-only beside a running ``hub serve``: every request folds what the hub's copies
gained since the last one (the rules engine's fold, ``tournament.standings``).  The page
is public: it shows placements, points, scores, whose turn and the särspel, never a card
(the standings hold none) and not the TL's problems and conflicts.  With the event's
tokens, ``/broadcast?token=BROADCAST`` is an OBS source that shows the featured table's own
(delayed) overlay, switching when the producer features another (``hub feature``), and
``/tl?token=TL`` is the TL's event screen: every table, those with open alerts
first, problems, conflicts, särspel, which tables' publishers are offline; the TL acts
on a table through that table's own dashboard (``/hall``).
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse

from table_controller.tournament.standings import Standings
from table_controller.tournament.witness import export_witness

PUBLIC_TABLE_KEYS = (
    "table",
    "heat",
    "number",
    "players",
    "records",
    "started",
    "finished",
    "standings",
    "advancing",
    "current",
    "särspel",
)


def public_document(doc: dict[str, Any]) -> dict[str, Any]:
    """What the hall may see: no problems, no conflicts (the TL's), nothing else added."""
    heats = []
    for heat in doc["heats"]:
        tables = [{k: t[k] for k in PUBLIC_TABLE_KEYS if k in t} for t in heat["tables"]]
        heats.append({**{k: v for k, v in heat.items() if k != "tables"}, "tables": tables})
    return {
        "event": doc["event"],
        "name": doc["name"],
        "ruleset": doc["ruleset"],
        "clubs": doc["clubs"],
        "heats": heats,
    }


STALE_CLOCKS_S = 6.0  # a running clock is re-sent about every 1-2 s; older means no news


def live_clocks(c: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
    """A table's last published clocks as they stand ``now`` (the hub's ``time.time()``):
    seconds left counted down since the snapshot (its age at the table plus the time
    since the hub took it), unless paused; overtime as a negative number.  Names, clock
    kinds and seconds only: no card.

    >>> c = {"seq": 9, "age": 1.0, "received": 100.0, "paused": False, "moved": False,
    ...      "running": {"Bo": {"clock": "play", "remaining": 12.0}}}
    >>> live_clocks(c, 102.5)["running"]["Bo"]
    {'clock': 'play', 'remaining': 8.5}
    >>> live_clocks({**c, "paused": True}, 102.5)["running"]["Bo"]["remaining"]
    12.0
    """
    if not c:
        return None
    since = max(0.0, float(c["age"]) + now - float(c["received"]))
    run = 0.0 if c["paused"] else since
    return {
        "paused": c["paused"],
        "moved": c["moved"],
        "running": {
            p: {"clock": r["clock"], "remaining": round(r["remaining"] - run, 1)} for p, r in c["running"].items()
        },
        "age": round(since, 1),
        "stale": bool(c["running"]) and not c["paused"] and since > STALE_CLOCKS_S,
    }


def tl_document(board: Standings) -> dict[str, Any]:
    """Everything for the TL: the standings with problems and conflicts, and per table its
    open alerts (from its log), whether its publisher is online, its last record's time
    and its running shot clocks (as its publisher last sent them, counted down to now);
    the tables that need the TL first (alerts, then problems, then those still playing)."""
    doc = board.document()
    statuses = board.hub.statuses()
    urls = board.hub.dashboards()
    clocks = board.hub.clocks()
    now = time.time()
    tables = []
    for heat in doc["heats"]:
        for t in heat["tables"]:
            st = statuses.get(t["table"], {})
            t.update(
                alerts=board.alerts(t["table"]),
                online=bool(st.get("online")),
                last_time=board.last_time(t["table"]),
                dashboard=urls.get(t["table"]),
                clocks=None if t["finished"] or not t["started"] else live_clocks(clocks.get(t["table"]), now),
            )
            tables.append(t)
    tables.sort(key=lambda t: (not t["alerts"], not t["problems"], t["finished"], t["heat"], t["number"]))
    doc["attention"] = [t["table"] for t in tables]
    return doc


def create_app(
    open_board: Callable[[], Standings], tl_token: str | None = None, broadcast_token: str | None = None
) -> FastAPI:
    """``open_board``: the standings over the hub's file, opened by the composition root's
    ``hub web`` (read-only); called once, in the event loop's thread.  ``tl_token``,
    ``broadcast_token``: the event's tokens (its tokens.json); without them there is no TL
    page and no broadcast page."""
    app = FastAPI(title="Chicago SM standings", docs_url=None, redoc_url=None, openapi_url=None)
    state: dict[str, Any] = {}

    @app.middleware("http")
    async def no_referrer(request, call_next):
        # the TL's and the broadcast's URLs carry a token: no link or fetch passes it on
        response = await call_next(request)
        response.headers.setdefault("referrer-policy", "no-referrer")
        response.headers.setdefault("x-content-type-options", "nosniff")
        return response

    def tl_denied(token: str | None) -> JSONResponse | None:
        if tl_token is None:
            return JSONResponse({"error": "no TL page here: start 'hub web' with --tokens"}, status_code=404)
        if not token or not hmac.compare_digest(token, tl_token):
            return JSONResponse({"error": "the TL's token is needed"}, status_code=401 if not token else 403)
        return None

    def board() -> Standings:
        # opened in the event loop's thread on first use (sqlite3 connections stay in their thread)
        if "board" not in state:
            state["board"] = open_board()
        b = state["board"]
        b.update()
        return b

    @app.get("/api/standings")
    async def standings() -> JSONResponse:
        return JSONResponse(public_document(board().document()), headers={"Cache-Control": "no-store"})

    @app.get("/api/witness")
    async def witness(table: str | None = None) -> JSONResponse:
        """The hub's witness (record digests, signed heads, public keys: nothing secret),
        for ``chicago-table log verify FILE --hub URL``."""
        w = export_witness(board().hub)
        if table is not None:
            if table not in w["tables"]:
                return JSONResponse({"error": f"the hub holds nothing of table {table!r}"}, status_code=404)
            w["tables"] = {table: w["tables"][table]}
        return JSONResponse(w, headers={"Cache-Control": "no-store"})

    @app.get("/api/draw/{table}")
    async def draw(table: str) -> JSONResponse:
        """One table's seat draw (players, heat, every game's seats; a särspel's once drawn),
        for ``chicago-table run --hub URL --table-id TABLE``: public, as on the hall's wall."""
        drawn = board().hub.table(table)
        if drawn is None:
            return JSONResponse({"error": f"the hub has not drawn a table {table!r}"}, status_code=404)
        return JSONResponse(drawn, headers={"Cache-Control": "no-store"})

    def broadcast_denied(token: str | None) -> JSONResponse | None:
        if broadcast_token is None:
            return JSONResponse({"error": "no broadcast page here: start 'hub web' with --tokens"}, status_code=404)
        if not token or not hmac.compare_digest(token, broadcast_token):
            return JSONResponse({"error": "the broadcast token is needed"}, status_code=401 if not token else 403)
        return None

    @app.get("/api/featured")
    async def featured(token: str | None = None) -> JSONResponse:
        """The table the producer chose ('hub feature') and its dashboard (the overlay's home)."""
        denied = broadcast_denied(token)
        if denied:
            return denied
        hub = board().hub
        table = hub.meta().get("featured")
        return JSONResponse(
            {"table": table, "dashboard": hub.dashboards().get(table) if table else None},
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/broadcast", response_class=HTMLResponse)
    async def broadcast_page(token: str | None = None):
        return broadcast_denied(token) or HTMLResponse(BROADCAST_PAGE)

    @app.get("/api/tl")
    async def tl(token: str | None = None) -> JSONResponse:
        return tl_denied(token) or JSONResponse(tl_document(board()), headers={"Cache-Control": "no-store"})

    @app.get("/tl", response_class=HTMLResponse)
    async def tl_page(token: str | None = None):
        return tl_denied(token) or HTMLResponse(TL_PAGE)

    @app.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        return HTMLResponse(PAGE)

    return app


PAGE = """<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>Ställning / Standings</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; background: #0d2a1c; color: #f4f1e8; margin: 1.5rem; }
h1 { margin: 0 0 .3rem; } h2 { margin: 1.2rem 0 .4rem; border-bottom: 1px solid #4a6b58; }
.tables { display: flex; flex-wrap: wrap; gap: 1rem; }
.t { background: #163d29; border-radius: 8px; padding: .6rem .9rem; min-width: 17rem; }
.t h3 { margin: 0 0 .3rem; font-size: 1.1rem; } .small { color: #b9c7bd; font-size: .85rem; }
table { border-collapse: collapse; width: 100%; } td { padding: .15rem .4rem; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.on td { color: #ffd866; } .acting { text-decoration: underline; }
.sar { color: #ff9e64; } .done { color: #8fd19e; }
</style></head>
<body><h1 id="title">Ställning</h1><div class="small">Standings · uppdateras av sig själv / updates by itself</div>
<div id="heats"></div>
<script>
"use strict";
const PHASE = { tricks: "stick / tricks", exchange_1: "byte 1", exchange_2: "byte 2", exchange_3: "byte 3",
  chicago: "chicago?", deal: "giv / deal", game_start: "nytt parti / new game", game_over: "parti slut / game over",
  table_over: "klart / finished" };
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
function table(t) {
  const going = new Set(t.advancing || []), acting = new Set((t.current && t.current.to_act) || []);
  const state = !t.started ? "inte startat / not started" : t.finished ? "klart / finished"
    : `parti ${t.current.game} · giv ${t.current.deal} · ${PHASE[t.current.phase] || t.current.phase}`;
  const rows = (t.standings || []).map(s => el("tr", { class: going.has(s.player) ? "on" : "", "data-player": s.player },
    el("td", {}, s.rank + "."), el("td", { class: acting.has(s.player) ? "acting" : "" }, s.player),
    el("td", { class: "n" }, s.placement_points + " p"), el("td", { class: "n" }, s.score_total),
    el("td", { class: "n" }, "★".repeat(s.won_chicagos))));
  return el("div", { class: "t", "data-table": t.table },
    el("h3", {}, "Bord " + t.number + " ", el("span", { class: "small" }, t.table)),
    el("div", { class: t.finished ? "small done" : "small" }, state),
    t["särspel"] ? el("div", { class: "sar" }, `Särspel: ${t["särspel"].players.join(", ")} (${t["särspel"].deals} giv)`) : null,
    el("table", {}, rows.length ? rows : t.players.map(p => el("tr", {}, el("td", {}, p)))));
}
async function refresh() {
  try {
    const r = await fetch("api/standings", { cache: "no-store" });
    const doc = await r.json();
    document.getElementById("title").textContent = "Ställning · " + (doc.name || doc.event);
    const heats = doc.heats.slice().reverse().map(h => el("section", { "data-heat": h.heat },
      el("h2", {}, `Heat ${h.heat}`, h.complete ? el("span", { class: "small done" }, " · klart / complete") : null),
      h.advancing ? el("div", { class: "small" }, "Går vidare / advancing: " + h.advancing.join(", ")) : null,
      el("div", { class: "tables" }, h.tables.map(table))));
    document.getElementById("heats").replaceChildren(...heats);
    document.body.dataset.loaded = "1";
  } catch (e) { /* the hub's page stays as it was until the next try */ }
}
refresh(); setInterval(refresh, 2000);
</script></body></html>
"""

TL_PAGE = """<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>TL: hela tävlingen / the whole event</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; background: #1b1d22; color: #eee; margin: 1rem; }
h1 { margin: 0 0 .6rem; font-size: 1.6rem; }
#tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(26rem, 1fr)); gap: .6rem; align-items: start; }
.t { background: #2a2d34; border-radius: 6px; padding: .5rem .8rem; border-left: 6px solid #2a2d34; }
.t.alert { border-left-color: #ff5555; } .t.problem { border-left-color: #ffb86c; }
.t.done { opacity: .75; }
.head { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: baseline; }
.head b { font-size: 1.15rem; }
.alerts, .problems { margin: .3rem 0; padding-left: 1.2rem; }
.alerts li { color: #ff7777; } .problems li { color: #ffb86c; } .small { color: #aaa; font-size: .85rem; }
.off { color: #ff5555; font-weight: bold; } .on { color: #50fa7b; } a { color: #8be9fd; }
.turn { margin: .35rem 0; display: flex; flex-wrap: wrap; gap: .3rem .6rem; align-items: center; }
.grp { display: inline-flex; flex-wrap: wrap; gap: .3rem; align-items: center; }
.kind { color: #ccc; font-size: .9rem; align-self: center; }
.who { font-weight: bold; }
.clk { display: inline-flex; align-items: baseline; gap: .35rem; padding: .05rem .5rem; border-radius: 4px;
  background: #1f3b2a; font-variant-numeric: tabular-nums; white-space: nowrap; }
.clk .s { font-size: 1.35rem; font-weight: bold; color: #50fa7b; min-width: 3.2ch; text-align: right; }
.clk.low { background: #3b3a1f; } .clk.low .s { color: #f1fa8c; } .clk.over { background: #4a1f24; } .clk.over .s { color: #ff5555; }
.clk.paused { background: #1f2d4a; } .clk.paused .s { color: #8be9fd; }
.clk.stale { background: #33353b; } .clk.stale .s { color: #999; }
.badge { padding: .05rem .45rem; border-radius: 4px; font-size: .85rem; font-weight: bold; }
.badge.paused { background: #8be9fd; color: #1b1d22; } .badge.stale { background: #555; color: #eee; }
table { border-collapse: collapse; } td { padding: 0 .4rem; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.acting td { color: #f1fa8c; }
</style></head>
<body><h1 id="title">TL</h1><div id="conflicts"></div><div id="tables"></div>
<script>
"use strict";
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const PHASE = { tricks: "stick / tricks", exchange_1: "byte 1", exchange_2: "byte 2", exchange_3: "byte 3",
  chicago: "chicago?", quads_choice: "fyrtal / quads", deal: "giv / deal", game_start: "nytt parti / new game",
  game_over: "parti slut / game over", table_over: "klart / finished" };
const CLOCK = { exchange: "byte / exchange", chicago: "chicago?", play: "spel / play", quads: "fyrtal / quads" };
let fetchedAt = performance.now();
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
function clockText(left) { return (left < 0 ? "-" + Math.ceil(-left) : Math.ceil(left)) + " s"; }
function tickClocks() {
  const gone = (performance.now() - fetchedAt) / 1000;
  for (const c of document.querySelectorAll(".clk[data-left]")) {
    const left = Number(c.dataset.left) - (c.dataset.run === "1" ? gone : 0);
    c.querySelector(".s").textContent = clockText(left);
    c.classList.toggle("over", left <= 0);
    c.classList.toggle("low", left > 0 && left <= 10);
  }
}
function clockChip(player, r, clocks) {
  const run = !clocks.paused && !clocks.stale;
  const cls = "clk" + (clocks.paused ? " paused" : clocks.stale ? " stale" : "");
  return el("span", { class: cls, "data-player": player, "data-clock": r.clock, "data-left": r.remaining,
      "data-run": run ? "1" : "0",
      title: clocks.stale ? `senast för ${Math.round(clocks.age)} s sedan / last ${Math.round(clocks.age)} s ago` : "" },
    player, el("span", { class: "s" }, clockText(r.remaining)));
}
function turn(t) {
  const c = t.current, clocks = t.clocks;
  if (!t.started || t.finished || !c) return null;
  const running = (clocks && !clocks.moved) ? clocks.running : {};
  const byKind = {};
  for (const [p, r] of Object.entries(running)) (byKind[r.clock] = byKind[r.clock] || []).push([p, r]);
  const groups = Object.entries(byKind).map(([kind, list]) => el("span", { class: "grp" },
    el("span", { class: "kind" }, CLOCK[kind] || kind), list.map(([p, r]) => clockChip(p, r, clocks))));
  const waiting = c.to_act.filter(p => !(p in running));
  return el("div", { class: "turn", "data-clocks": Object.keys(running).length },
    el("span", { class: "small" }, "väntar på / waiting for"), groups,
    waiting.length ? el("span", { class: "who" }, waiting.join(", ")) : null,
    clocks && clocks.paused ? el("span", { class: "badge paused" }, "pausad / paused") : null,
    clocks && clocks.stale ? el("span", { class: "badge stale" }, "inga klockor / no clock news") : null,
    !groups.length && !waiting.length ? el("span", {}, "-") : null);
}
function card(t) {
  const cls = "t" + (t.alerts.length ? " alert" : t.problems.length ? " problem" : "") + (t.finished ? " done" : "");
  const c = t.current;
  const where = !t.started ? "inte startat / not started" : t.finished ? "klart / finished"
    : `parti ${c.game} · giv ${c.deal} · ${PHASE[c.phase] || c.phase}`;
  const acting = new Set((c && !t.finished && c.to_act) || []);
  return el("div", { class: cls, "data-table": t.table, "data-alerts": t.alerts.length },
    el("div", { class: "head" }, el("b", {}, `Bord ${t.number}`), el("span", { class: "small" }, t.table),
      el("span", { class: t.online ? "on" : "off" }, t.online ? "online" : "offline"),
      t.dashboard ? el("a", { class: "act", href: t.dashboard + "/tl?token=" + encodeURIComponent(TOKEN) },
        "öppna bordet / open the table") : null),
    el("div", { class: "small" }, `${where} · ${t.records} poster / records`),
    turn(t),
    t.alerts.length ? el("ul", { class: "alerts" }, t.alerts.map(a => el("li", {}, `[${a.kind}] ${a.text}`))) : null,
    t.problems.length ? el("ul", { class: "problems" }, t.problems.map(p => el("li", {}, p))) : null,
    t["särspel"] ? el("div", {}, `Särspel: ${t["särspel"].players.join(", ")} (${t["särspel"].deals} giv)`) : null,
    el("table", {}, (t.standings || t.players.map(p => ({ player: p }))).map(s =>
      el("tr", { class: acting.has(s.player) ? "acting" : "" },
        el("td", { class: "n" }, s.rank ? s.rank + "." : ""), el("td", {}, s.player),
        el("td", { class: "n" }, s.rank ? s.placement_points + " p" : ""), el("td", { class: "n" }, s.rank ? s.score_total : "")))));
}
async function refresh() {
  let r;
  try { r = await fetch("api/tl?token=" + encodeURIComponent(TOKEN), { cache: "no-store" }); }
  catch (e) { return; /* the screen stays as it was until the next try */ }
  if (!r.ok) { document.getElementById("title").textContent = "TL: " + (await r.json()).error; return; }
  const doc = await r.json();
  fetchedAt = performance.now();
  document.getElementById("title").textContent = "TL · " + (doc.name || doc.event);
  const byId = {};
  for (const h of doc.heats) for (const t of h.tables) byId[t.table] = t;
  document.getElementById("tables").replaceChildren(...doc.attention.map(id => card(byId[id])));
  document.getElementById("conflicts").replaceChildren(...doc.conflicts.map(c =>
    el("div", { class: "t alert" }, `Konflikt / conflict: ${c.table}: ${c.detail}`)));
  document.body.dataset.loaded = "1";
}
refresh(); setInterval(refresh, 2000); setInterval(tickClocks, 250);
</script></body></html>
"""

BROADCAST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Featured table</title>
<style>html, body { margin: 0; height: 100%; background: transparent; overflow: hidden; }
iframe { border: 0; width: 100%; height: 100%; background: transparent; }</style></head>
<body><iframe id="overlay" allowtransparency="true"></iframe>
<script>
"use strict";
// The featured table's own overlay (its server holds the broadcast delay); when the producer
// features another table, the source follows within two seconds.
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const frame = document.getElementById("overlay");
async function follow() {
  try {
    const r = await fetch("api/featured?token=" + encodeURIComponent(TOKEN), { cache: "no-store" });
    const f = await r.json();
    const src = f.dashboard ? f.dashboard + "/broadcast?token=" + encodeURIComponent(TOKEN) : "about:blank";
    if (frame.getAttribute("src") !== src) { frame.setAttribute("src", src); document.body.dataset.table = f.table || ""; }
  } catch (e) { /* keep showing the table we have */ }
}
follow(); setInterval(follow, 2000);
</script></body></html>
"""
