// The TL's hall: every table of the event, each through its own TL stream (the tables share
// the event's tokens), with its state, whose turn, scores, pause and open alerts.  A table
// that cannot be reached shows as offline and is retried; the others go on.
"use strict";
const app = document.getElementById("app");
const grid = h("div", { id: "hall", class: "hall" });
const summary = h("p", { id: "hall-summary", class: "small" }, "");
setKids(app, h("header", { class: "head" }, h("span", { class: "table" }, t("All tables"))), summary, grid);

const panels = [];
const STATES = { connecting: t("connecting"), offline: t("offline"), live: t("live") };

function wsUrl(base) {
  const origin = base || location.origin;
  return origin.replace(/^http/, "ws") + "/ws?token=" + encodeURIComponent(TOKEN);
}

function renderPanel(tb) {
  const m = tb.last;
  const open = h("a", { class: "open", href: (tb.base || "") + "/tl?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG }, t("open"));
  if (!m) {
    setKids(tb.el, h("div", { class: "hall-in" }, h("h2", {}, tb.name || tb.base, " ", open),
      h("p", { class: "small" }, STATES[tb.state] || tb.state)));
    tb.el.dataset.state = tb.state;
    fitPanel(tb.el);
    return;
  }
  const s = m.state, alerts = m.alerts || [];
  tb.el.dataset.state = tb.state;
  tb.el.dataset.table = m.table;
  tb.el.dataset.seq = m.seq;
  tb.el.dataset.alerts = alerts.length;
  setKids(tb.el, h("div", { class: "hall-in" },
    h("h2", {}, m.table, " ", open),
    h("div", { class: "where" },
      s.game ? t("Game {game} \u00b7 deal {deal}", { game: s.game, deal: s.deal }) + " \u00b7 " : "", h("span", { class: "phase" }, PHASES[s.phase] || s.phase),
      m.paused ? h("span", { class: "paused" }, " " + t("PAUSED") + " ") : null,
      tb.state !== "live" ? h("span", { class: "tag out" }, STATES[tb.state] || tb.state) : null,
      s.waiting ? h("span", { class: "tag waiting" }, (LANG === "sv" ? s.waiting.text_sv : s.waiting.text) || s.waiting.text) : null,
      h("span", { class: "small" }, " #" + m.seq)),
    h("table", { class: "hall-players" }, s.players.map(p =>
      h("tr", { "data-player": p.name, class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, nameEl(p)), h("td", { class: "score" }, p.score), h("td", {}, markers(p), clockEl(s, p.name))))),
    alerts.length ? h("ul", { class: "hall-alerts" }, alerts.map(hallAlert))
      : h("p", { class: "small" }, t("no open alerts"))));
  fitPanel(tb.el);
}

// A panel whose alerts (or a long name) do not fit its box has its type made smaller until
// they do: a TV in the hall cannot be scrolled (style.css: --fit scales .hall-in's type)
function fitPanel(el) {
  const inner = el.firstElementChild;
  if (!inner) return;
  inner.style.removeProperty("--fit");
  const over = () => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  for (let k = 0.9; k > 0.45 && over(); k -= 0.1) inner.style.setProperty("--fit", k.toFixed(1));
}

// The tables fill the screen (a 1920x1080 TV in the hall, the TL's laptop): the columns that
// give each panel the largest type, a panel wanting about 15 em across and 14 down (its type
// grows with its box: style.css, .hall-in), none narrower than 300 px (more tables than fit
// scroll).  Before, panels of 360 px in 16 px type filled the top of a TV and left the rest.
function fitGrid() {
  const n = Math.max(1, panels.length), W = grid.clientWidth, H = grid.clientHeight;
  let best = null;
  for (let c = 1; c <= n; c++) {
    if (best && W / c < 300) break;
    const r = Math.ceil(n / c), em = Math.min(W / c / 15, H / r / 14);
    if (!best || em > best.em) best = { c, r, em };
  }
  grid.style.setProperty("--cols", best.c);
  grid.style.setProperty("--rows", best.r);
  panels.forEach(tb => fitPanel(tb.el));
}
addEventListener("resize", fitGrid);

// One open alert in a table's panel: its label (a word, never the kind's code) and text
function hallAlert(a) { return h("li", { "data-alert": a.id }, h("b", {}, alertLabel(a)), " ", alertText(a)); }

function renderSummary() {
  const live = panels.filter(tb => tb.state === "live").length;
  const alerts = panels.reduce((n, tb) => n + ((tb.last && tb.last.alerts) || []).length, 0);
  const paused = panels.filter(tb => tb.last && tb.last.paused).length;
  summary.textContent = t("{n} tables, {live} live, {paused} paused, {alerts} open alerts", { n: panels.length, live, paused, alerts });
  document.body.dataset.live = live;
  const conn = document.getElementById("conn");
  conn.dataset.state = live ? "live" : "reconnecting";
  conn.textContent = live === panels.length ? t("live") : t("{n} table(s) unreachable", { n: panels.length - live });
  document.body.dataset.alerts = alerts;
}

function follow(tb) {
  let delay = 500;
  function open() {
    let ws;
    try { ws = new WebSocket(wsUrl(tb.base)); } catch (e) { tb.state = "offline"; renderPanel(tb); return; }
    ws.onopen = () => { delay = 500; };
    ws.onmessage = ev => {
      tb.last = JSON.parse(ev.data); tb.state = "live";
      try { renderPanel(tb); renderSummary(); } catch (e) { console.error(e); }
    };
    ws.onclose = () => {
      tb.state = "offline"; renderPanel(tb); renderSummary();
      setTimeout(open, delay); delay = Math.min(delay * 2, 5000);
    };
  }
  open();
}

// The event's tables, asked again every two seconds until an answer comes whole: a busy
// server or a dropped connection at the first ask left the hall empty for good.
(async function load() {
  let r, d;
  try {
    r = await fetch("/api/tables?token=" + encodeURIComponent(TOKEN));
    if (r.ok) d = await r.json();
  } catch (e) { r = null; }
  if (r && !r.ok && r.status !== 429 && r.status < 500) { showError(t("the hall is the TL's page")); return; }
  if (!d) { showError(t("the event's tables did not come: asking again")); setTimeout(load, 2000); return; }
  showError("");
  for (const tb of d.tables) {
    const p = { base: tb.base, name: tb.name || tb.base, state: "connecting", last: null,
                el: h("section", { class: "hall-table", "data-base": tb.base || "here" }) };
    panels.push(p); grid.append(p.el); renderPanel(p); follow(p);
  }
  fitGrid();
  renderSummary();
  document.body.dataset.seq = 0;   // the page is up
})();
