"use strict";
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const PHASE = { tricks: "stick / tricks", exchange_1: "byte 1", exchange_2: "byte 2", exchange_3: "byte 3",
  chicago: "chicago?", quads_choice: "fyrtal / quads", deal: "giv / deal", game_start: "ny omgång / new game",
  game_over: "omgång slut / game over", table_over: "klart / finished" };
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
// Swedish first: the English under it, smaller, unless the text says both already (a
// text of the table's own in both languages, a name the catalogue keeps as it is).
function english(en, sv) {
  return en.includes(sv) ? null : el("span", { class: "en", lang: "en" }, en);
}
function card(t) {
  const cls = "t" + (t.alerts.length ? " alert" : t.problems.length ? " problem" : "") + (t.finished ? " done" : "");
  const c = t.current;
  const where = !t.started ? "inte startat / not started" : t.finished ? "klart / finished"
    : `omgång ${c.game} · giv ${c.deal} · ${PHASE[c.phase] || c.phase}`;
  const acting = new Set((c && !t.finished && c.to_act) || []);
  return el("div", { class: cls, "data-table": t.table, "data-alerts": t.alerts.length },
    // the heat beside the number: heat 2's "Bord 1" is not heat 1's; a finished table whose
    // publisher has stopped is not down (stop 71's audit: heat 1 shown red once heat 2 began)
    el("div", { class: "head" }, el("b", {}, `Heat ${t.heat} · Bord ${t.number}`), el("span", { class: "small" }, t.table),
      t.online ? el("span", { class: "on" }, "uppkopplat / online")
        : t.finished ? el("span", { class: "small" }, "klart, inte uppkopplat / finished, not connected")
        : el("span", { class: "off" }, "nere / offline"),
      t.dashboard ? el("a", { class: "act", href: t.dashboard + "/tl?token=" + encodeURIComponent(TOKEN) },
        "öppna bordet / open the table") : null),
    el("div", { class: "small" }, `${where} · ${t.records} poster / records`),
    turn(t),
    t.alerts.length ? el("ul", { class: "alerts" }, t.alerts.map(a => el("li", { "data-kind": a.kind },
      el("b", {}, a.label_sv), " ", a.text_sv, english(`${a.label}: ${a.text}`, a.text_sv)))) : null,
    t.problems.length ? el("ul", { class: "problems" }, t.problems.map((p, i) => el("li", {},
      t.problems_sv[i], english(p, t.problems_sv[i])))) : null,
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
  let doc = null;
  try { doc = await r.json(); } catch (e) { /* not the hub's answer (a proxy's page) or cut off */ }
  if (!r.ok || !doc) {  // the hub's own refusal is said; anything else: the next try, the screen kept
    if (doc && doc.error) document.getElementById("title").textContent = "TL: " + doc.error;
    return;
  }
  fetchedAt = performance.now();
  document.getElementById("title").textContent = "TL · " + (doc.name || doc.event);
  document.getElementById("event-clocks").textContent = "betänketider / shot clocks (D11): " +
    Object.entries(doc.shot_clocks || {}).map(([k, v]) => `${CLOCK[k] || k} ${v} s`).join(" · ");
  const byId = {};
  for (const h of doc.heats) for (const t of h.tables) byId[t.table] = t;
  document.getElementById("tables").replaceChildren(...doc.attention.map(id => card(byId[id])));
  document.getElementById("conflicts").replaceChildren(...doc.conflicts.map(c =>
    el("div", { class: "t alert" }, `Konflikt: ${c.table}: ${c.detail_sv}`,
      english(`Conflict: ${c.table}: ${c.detail}`, c.detail_sv))));
  document.body.dataset.loaded = "1";
}
refresh(); setInterval(refresh, 2000); setInterval(tickClocks, 250);
