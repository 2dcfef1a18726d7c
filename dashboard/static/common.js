// Shared by every view: the role's WebSocket stream (reconnecting, catching up by seq),
// card and player rendering, and posting actions.  No build step, no CDN.
"use strict";
const TOKEN = document.body.dataset.token;
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const App = { last: null, seq: -2 };

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

function cardEl(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  return h("span", { class: "card suit-" + suit, "data-card": code }, rank + SUITS[suit]);
}
function cardsEl(codes) { return h("span", { class: "cards" }, (codes || []).map(cardEl)); }

function nameEl(p) {
  // RULES.md §12: circled if the player has said Chicago, a star per won Chicago.
  return h("span", { class: "pname" + (p.said_chicago ? " circled" : ""), "data-player": p.name },
    p.name, p.won_chicagos ? h("span", { class: "stars" }, "\u2605".repeat(p.won_chicagos)) : null);
}

function markers(p) {
  return h("span", { class: "markers" },
    p.draw_stop ? h("span", { class: "tag drawstop" }, "draw stop") : null,
    p.out ? h("span", { class: "tag out" }, "out") : null,
    p.dead_hand ? h("span", { class: "tag dead" }, "dead hand") : null);
}

const PHASES = { game_start: "seat draw", deal: "dealing", exchange_1: "exchange 1", exchange_2: "exchange 2",
  exchange_3: "exchange 3", quads_choice: "four of a kind: choice", chicago: "Chicago question",
  tricks: "trick play", game_over: "game over", table_over: "table over" };

function headerEl(m) {
  const s = m.state;
  return h("header", { class: "head" },
    h("span", { class: "table" }, m.table),
    h("span", { id: "where" }, s.game ? `Game ${s.game} \u00b7 deal ${s.deal}` : "Waiting for the first game"),
    h("span", { id: "phase", "data-phase": s.phase }, PHASES[s.phase] || s.phase),
    s.to_act && s.to_act.length ? h("span", { id: "to-act" }, "to act: " + s.to_act.join(", ")) : null,
    m.paused ? h("span", { id: "paused", class: "paused" }, "PAUSED") : null,
    h("span", { id: "seq", "data-seq": m.seq }, "#" + m.seq));
}

function trickEl(s) {
  const out = h("div", { class: "trick-area" });
  if (s.open_card) out.append(h("div", { id: "open-card" }, `Open card for ${s.open_card.player}: `,
    cardEl(s.open_card.card), s.open_card.taken ? " taken" : " declined"));
  if (s.trick) out.append(h("div", { id: "trick" }, `Trick ${s.trick.number}` +
    (s.trick.leader ? ` (lead ${s.trick.leader}): ` : ": "),
    s.trick.cards.map(c => h("span", { class: "played" }, c.player + " ", cardEl(c.card)))));
  if (s.last_award) { const a = s.last_award;
    out.append(h("div", { id: "last-award" }, `Last: ${a.player} ${a.points > 0 ? "+" : ""}${a.points} ${a.reason.replaceAll("_", " ")}`)); }
  return out;
}

// Shot clocks (RULES.md §10) as the live loop last reported them; they count down here
// between messages, and stand still while the table is paused.
function clockEl(s, name) {
  const c = s.clocks && s.clocks.running && s.clocks.running[name];
  if (!c) return null;
  const deadline = s.clocks.paused ? null : performance.now() + c.remaining * 1000;
  const el = h("span", { class: "clock", "data-clock": c.clock, "data-deadline": deadline }, "");
  tickClock(el, c.remaining);
  return el;
}
function tickClock(el, remaining) {
  const left = el.dataset.deadline ? (Number(el.dataset.deadline) - performance.now()) / 1000 : remaining;
  el.textContent = `${el.dataset.clock} ${Math.max(0, Math.ceil(left))} s`;
  el.classList.toggle("over", left <= 0);
}
setInterval(() => document.querySelectorAll(".clock[data-deadline]").forEach(el => tickClock(el, 0)), 250);

async function post(path, body) {
  const r = await fetch(path + "?token=" + encodeURIComponent(TOKEN), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await r.json(); } catch (e) { /* empty body */ }
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function showError(msg) {
  let el = document.getElementById("error");
  if (!el) { el = h("div", { id: "error", class: "error" }); document.body.prepend(el); }
  el.textContent = msg || "";
  el.hidden = !msg;
}

// The stream: a fresh state on connect, live updates after; on a drop it reconnects and
// the first message brings it up to date (every message is the whole state for the role).
function connect(render) {
  const conn = document.getElementById("conn");
  let ws, delay = 300;
  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(TOKEN)}&since=${App.seq}`);
    ws.onopen = () => { delay = 300; conn.dataset.state = "live"; conn.textContent = "live"; };
    ws.onmessage = ev => {
      const m = JSON.parse(ev.data);
      App.last = m; App.seq = m.seq;
      document.body.dataset.seq = m.seq;
      try { render(m); } catch (e) { console.error(e); }
    };
    ws.onclose = () => {
      conn.dataset.state = "reconnecting"; conn.textContent = "reconnecting";
      setTimeout(open, delay); delay = Math.min(delay * 2, 3000);
    };
  }
  open();
  setInterval(() => { if (ws && ws.readyState === 1) ws.send("ping"); }, 20000);
}

function setKids(el, ...kids) {
  el.replaceChildren(...kids.flat().filter(k => k !== null && k !== undefined && k !== false));
}

// One alert with what may be done about it: a rejected line is marked resolved; a sensing
// alert is settled by a correction ("the card at pad 3 is 7H", "dismiss 4").
function alertEl(a) {
  const sensing = String(a.id).startsWith("s");
  const li = h("li", { "data-alert": a.id, class: "alert" }, `[${a.kind}] ${a.text} `);
  if (sensing) {
    const input = h("input", { class: "correction", placeholder: `e.g. the card at pad ${a.pad || 1} is 7H, or dismiss ${String(a.id).slice(1)}` });
    li.append(input, h("button", { onclick: async () => {
      try { await post("/api/correct", { text: input.value }); showError(""); } catch (e) { showError(e.message); } } }, "Correct"));
  } else {
    li.append(h("button", { onclick: async () => {
      try { await post(`/api/alerts/${a.id}/resolve`); showError(""); } catch (e) { showError(e.message); } } }, "Resolved"));
  }
  return li;
}

// Manual entry of a REPLAY.md action (a reader died: the table plays on by hand).  Cards by
// hand are the TL's, and the Revisor's on a camera-only table (the page's data-hands).
const TEMPLATES = {
  game: { do: "game", seats: [], button: "" }, deal: { do: "deal", hands: {} },
  discard: { do: "discard", player: "", cards: [] }, open: { do: "open", player: "", card: "", take: true },
  receive: { do: "receive", player: "", cards: [] }, quads: { do: "quads", player: "", choice: "points" },
  chicago: { do: "chicago", player: "", say: false }, play: { do: "play", player: "", card: "" },
  retract: { do: "retract", player: "" }, timeout: { do: "timeout", player: "", clock: "play" },
  time_call: { do: "time_call", player: "" }, table: { do: "table", ruleset: "sm2025", players: [] },
};
const CARD_KINDS = ["deal", "discard", "open", "receive", "play"];
function manualEntry(withCards) {
  const kinds = Object.keys(TEMPLATES).filter(k => withCards || !CARD_KINDS.includes(k));
  const entry = h("textarea", { id: "manual-json", rows: 3, spellcheck: "false" });
  const kind = h("select", { id: "manual-do", onchange: () => fill() }, kinds.map(k => h("option", { value: k }, k)));
  const note = h("div", { id: "manual-result" });
  function fill() {
    const t = { ...TEMPLATES[kind.value] };
    const s = App.last && App.last.state;
    if ("player" in t && s && s.to_act && s.to_act.length) t.player = s.to_act[0];
    entry.value = JSON.stringify(t);
  }
  async function send(body) {
    try { await post("/api/action", body); note.textContent = "inmatad / entered: " + body.do; showError(""); }
    catch (e) { note.textContent = ""; showError(e.message); }
  }
  const el = h("section", { id: "manual" }, h("h2", {}, "Mata in för hand / Enter an action by hand"), kind, entry,
    h("button", { id: "manual-submit", onclick: () => {
      let body; try { body = JSON.parse(entry.value); } catch (e) { showError("not valid JSON: " + e.message); return; }
      send(body); } }, "Mata in / Enter"), note);
  fill();
  return { el, send };
}
