// The TL's hall: every table of the event, each through its own TL stream (the tables share
// the event's tokens), with its state, whose turn, scores, pause and open alerts.  A table
// that cannot be reached shows as offline and is retried; the others go on.
"use strict";
const app = document.getElementById("app");
const grid = h("div", { id: "hall", class: "hall" });
const summary = h("p", { id: "hall-summary", class: "small" }, "");
setKids(app, h("header", { class: "head" }, h("span", { class: "table" }, "All tables")), summary, grid);

const panels = [];

function wsUrl(base) {
  const origin = base || location.origin;
  return origin.replace(/^http/, "ws") + "/ws?token=" + encodeURIComponent(TOKEN);
}

function renderPanel(t) {
  const m = t.last;
  const open = h("a", { class: "open", href: (t.base || "") + "/tl?token=" + encodeURIComponent(TOKEN) }, "open");
  if (!m) {
    setKids(t.el, h("h2", {}, t.name || t.base, " ", open), h("p", { class: "small" }, t.state));
    t.el.dataset.state = t.state;
    return;
  }
  const s = m.state, alerts = m.alerts || [];
  t.el.dataset.state = t.state;
  t.el.dataset.table = m.table;
  t.el.dataset.seq = m.seq;
  t.el.dataset.alerts = alerts.length;
  setKids(t.el,
    h("h2", {}, m.table, " ", open),
    h("div", { class: "where" },
      s.game ? `Game ${s.game} \u00b7 deal ${s.deal} \u00b7 ` : "", h("span", { class: "phase" }, PHASES[s.phase] || s.phase),
      m.paused ? h("span", { class: "paused" }, " PAUSED ") : null,
      t.state !== "live" ? h("span", { class: "tag out" }, t.state) : null,
      h("span", { class: "small" }, " #" + m.seq)),
    h("table", { class: "hall-players" }, s.players.map(p =>
      h("tr", { "data-player": p.name, class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, nameEl(p)), h("td", { class: "score" }, p.score), h("td", {}, markers(p), clockEl(s, p.name))))),
    alerts.length ? h("ul", { class: "hall-alerts" }, alerts.map(a => h("li", { "data-alert": a.id }, `[${a.kind}] ${a.text}`)))
      : h("p", { class: "small" }, "no open alerts"));
}

function renderSummary() {
  const live = panels.filter(t => t.state === "live").length;
  const alerts = panels.reduce((n, t) => n + ((t.last && t.last.alerts) || []).length, 0);
  const paused = panels.filter(t => t.last && t.last.paused).length;
  summary.textContent = `${panels.length} tables, ${live} live, ${paused} paused, ${alerts} open alerts`;
  document.body.dataset.live = live;
  const conn = document.getElementById("conn");
  conn.dataset.state = live ? "live" : "reconnecting";
  conn.textContent = live === panels.length ? "live" : `${panels.length - live} table(s) unreachable`;
  document.body.dataset.alerts = alerts;
}

function follow(t) {
  let delay = 500;
  function open() {
    let ws;
    try { ws = new WebSocket(wsUrl(t.base)); } catch (e) { t.state = "offline"; renderPanel(t); return; }
    ws.onopen = () => { delay = 500; };
    ws.onmessage = ev => {
      t.last = JSON.parse(ev.data); t.state = "live";
      try { renderPanel(t); renderSummary(); } catch (e) { console.error(e); }
    };
    ws.onclose = () => {
      t.state = "offline"; renderPanel(t); renderSummary();
      setTimeout(open, delay); delay = Math.min(delay * 2, 5000);
    };
  }
  open();
}

(async () => {
  const r = await fetch("/api/tables?token=" + encodeURIComponent(TOKEN));
  if (!r.ok) { showError("the hall is the TL's page"); return; }
  const d = await r.json();
  for (const t of d.tables) {
    const p = { base: t.base, name: t.name || t.base, state: "connecting", last: null,
                el: h("section", { class: "hall-table", "data-base": t.base || "here" }) };
    panels.push(p); grid.append(p.el); renderPanel(p); follow(p);
  }
  renderSummary();
  document.body.dataset.seq = 0;   // the page is up
})();
