"use strict";
const PHASE = { tricks: "stick / tricks", exchange_1: "byte 1", exchange_2: "byte 2", exchange_3: "byte 3",
  chicago: "chicago?", quads_choice: "fyrtal / quads", deal: "giv / deal", game_start: "ny omgång / new game", game_over: "omgång slut / game over",
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
    : `omgång ${t.current.game} · giv ${t.current.deal} · ${PHASE[t.current.phase] || t.current.phase}`;
  const rows = (t.standings || []).map(s => el("tr", { class: going.has(s.player) ? "on" : "", "data-player": s.player },
    el("td", {}, s.rank + "."), el("td", { class: acting.has(s.player) ? "acting" : "" }, s.player),
    el("td", { class: "n" }, s.placement_points + " p"), el("td", { class: "n" }, s.score_total),
    el("td", { class: "n" }, "★".repeat(s.won_chicagos))));
  return el("div", { class: "t", "data-table": t.table },
    el("h3", {}, "Bord " + t.number + " ", el("span", { class: "small" }, t.table)),
    el("div", { class: t.finished ? "small done" : "small" }, state),
    t["särspel"] ? el("div", { class: "sar" }, `Särspel: ${t["särspel"].players.join(", ")} (${t["särspel"].deals} giv)`) : null,
    // a särspel played: the places of the equal figures below are its (r11), said so
    t.finished && t.playoff ? el("div", { class: "sar", "data-settled": "1" },
      `Särspel mellan ${t.playoff.players.join(", ")} avgjorde placeringen / a playoff settled the places`) : null,
    el("table", {}, rows.length ? rows : t.players.map(p => el("tr", {}, el("td", {}, p)))));
}
async function refresh() {
  try {
    const r = await fetch("api/standings", { cache: "no-store" });
    const doc = await r.json();
    document.getElementById("title").textContent = "Ställning · " + (doc.name || doc.event);
    // a player the TL withdrew goes on no further: said beside the name (stop 71's review)
    const gone = new Set(doc.withdrawn || []);
    const going = names => names.map(p => gone.has(p) ? `${p} (struken / withdrawn)` : p).join(", ");
    const heats = doc.heats.slice().reverse().map(h => el("section", { "data-heat": h.heat },
      el("h2", {}, `Heat ${h.heat}`, h.complete ? el("span", { class: "small done" }, " · klart / complete") : null),
      // the final: one goes on from a heat that is over, and that is the event's winner
      h.complete && h.advancing && h.advancing.length === 1
        ? el("div", { class: "winner" }, "Vinnare / winner: " + h.advancing[0])
        : h.advancing ? el("div", { class: "small", id: `goes-on-${h.heat}` }, "Går vidare / advancing: " + going(h.advancing)) : null,
      el("div", { class: "tables" }, h.tables.map(table))));
    document.getElementById("heats").replaceChildren(...heats);
    document.body.dataset.loaded = "1";
  } catch (e) { /* the hub's page stays as it was until the next try */ }
}
refresh(); setInterval(refresh, 2000);
