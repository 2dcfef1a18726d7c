// The Revisor's tablet (a player at the table): the public state, the Chicago question and
// the quads choice, each award in words at its scoring moment, the game's deals, the running
// protocol (the server's drawing, as in the PDF), alerts, and entering by hand (cards only
// on a camera-only table).  It never receives a hidden card.
"use strict";
const live = h("div", { id: "live" });
const alerts = h("section", { id: "alerts" });
const deals = h("section", { id: "deals" });
const protocol = h("section", { id: "protocol-box" });
// Cards by hand are the TL's unless hidden hands are declared here (a camera-only table).
const manual = manualEntry(document.body.dataset.hands === "revisor");
const send = manual.send;
const more = h("details", { id: "manual-box" }, h("summary", {}, t("Enter an action by hand")), manual.el);
// a tablet: the table left, the game's deals and the protocol right; a phone: one column
setKids(document.getElementById("app"), h("div", { class: "rev-main" }, h("div", { class: "rev-left" }, live, alerts, more),
  h("div", { class: "rev-right" }, deals, protocol)));

function questionEl(s) {
  if (s.phase === "chicago" && s.chicago.asking) {
    const p = s.chicago.asking;  // D3: asked in turn, the first yes ends the round
    return h("section", { id: "chicago-round", class: "prompt" },
      h("div", { class: "q" }, t("Do you say Chicago?"), " ", h("b", { id: "asking" }, p)),
      h("button", { id: "chicago-yes", class: "yes", "data-player": p, onclick: () => send({ do: "chicago", player: p, say: true }) }, t("Yes")),
      h("button", { id: "chicago-no", class: "no", "data-player": p, onclick: () => send({ do: "chicago", player: p, say: false }) }, t("No")),
      clockEl(s, p));
  }
  if (s.phase === "quads_choice" && s.to_act.length) {
    const p = s.to_act[0];
    return h("section", { id: "quads-round", class: "prompt" }, h("div", { class: "q" }, t("Four of a kind: {player} chooses", { player: p })),
      h("button", { id: "quads-zero", onclick: () => send({ do: "quads", player: p, choice: "zero" }) }, t("Zero the others")),
      h("button", { id: "quads-points", onclick: () => send({ do: "quads", player: p, choice: "points" }) }, t("8 points")),
      clockEl(s, p));
  }
  return null;
}

// Time by taps for whoever is to act: "time" called, or the clock ran out (r29, r30).
function timeEl(s) {
  if (awaitingCards(s)) return null;  // the dealer's turn, not the players'
  if (!s.to_act || !s.to_act.length || !["exchange_1", "exchange_2", "exchange_3", "tricks", "chicago", "quads_choice"].includes(s.phase)) return null;
  const clock = s.phase === "tricks" ? "play" : s.phase === "chicago" ? "chicago" : s.phase === "quads_choice" ? "quads" : "exchange";
  return h("section", { id: "time-taps" }, h("b", {}, t("Time:")), " ", s.to_act.map(p => h("span", { class: "tap-group" }, p, " ",
    h("button", { class: "time-call", "data-player": p, onclick: () => send({ do: "time_call", player: p }) }, t("Call time")),
    h("button", { class: "timeout", "data-player": p, onclick: () => {
      if (window.confirm(t("{player}'s time is up?", { player: p }))) send({ do: "timeout", player: p, clock }); } }, t("Time is up")))));
}

// A new game by taps (r2-r4): the seats in order and the button, from the table's players.
let gameForm = null;
function gameStartEl(s) {
  if (!["game_start", "game_over"].includes(s.phase) || !s.players.length) { gameForm = null; return null; }
  const names = [...s.players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99)).map(p => p.name);
  const key = s.phase + ":" + s.game + ":" + names.join(",");
  if (gameForm && gameForm.key === key) return gameForm.el;  // keep what was chosen across updates
  const form = { key, el: null, touched: false };
  const touch = () => { form.touched = true; };
  const seats = names.map((n, i) => h("select", { class: "seat-pick", "data-seat": i + 1, onchange: touch },
    names.map(x => h("option", { value: x, selected: x === n }, x))));
  const button = h("select", { id: "button-pick", onchange: touch }, names.map(x => h("option", { value: x }, x)));
  const note = h("div", { id: "drawn-note", class: "small" });
  form.el = h("section", { id: "game-start", class: "prompt" },
    h("div", { class: "q" }, t("New game: the seats in order and the button")),
    seats.map((sel, i) => h("label", { class: "seat-label" }, t("seat {seat}", { seat: i + 1 }), " ", sel)), " ",
    h("label", { class: "seat-label" }, t("Button: {player}", { player: "" }), button),
    h("button", { id: "game-submit", onclick: () => send({ do: "game", seats: seats.map(x => x.value), button: button.value }) },
      t("Start the game")), note);
  gameForm = form;
  drawnSeats(form, (s.game || 0) + 1, seats, button, note);
  return form.el;
}

// At a tournament ([hub] in the table's configuration) the hub drew every game's seats
// and button (r7): the form shows them, so nobody picks or types; a särspel's (r11) once
// the hub has drawn them.  A table without a draw answers 404 and the form stays as it is.
async function drawnSeats(form, number, seats, button, note) {
  let d = null;
  try {
    const r = await fetch("/api/draw?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG);
    if (r.ok) d = await r.json();
  } catch (e) { return; }
  const g = d && (d.games || []).find(x => x.game === number && x.seats.length === seats.length);
  if (!g || gameForm !== form || form.touched) return;
  g.seats.forEach((p, i) => { seats[i].value = p; });
  button.value = g.button;
  form.el.dataset.drawn = String(number);
  note.textContent = t("Seats and button as the hub drew them (r7)");
}

// The game's deals with their awards in words, newest first (the paper's tally, as text).
function dealsEl(s) {
  const g = (s.games || []).find(x => x.number === s.game) || (s.games || []).slice(-1)[0];
  if (!g) return [];
  return [h("h2", {}, t("Game {n}: deal by deal", { n: g.number })),
    h("ol", { reversed: true }, [...g.deals].reverse().map(d => h("li", { "data-deal": d.number },
      h("b", {}, t("Deal {n}", { n: d.number })), ": ",
      d.awards.length ? d.awards.map(awardText).join("; ") : t("no points"),
      d.scores_after ? h("div", { class: "small" }, Object.entries(d.scores_after).map(([p, v]) => `${p} ${v}`).join(" \u00b7 ")) : null)))];
}

let shownProtocol = -1, protocolTimer = null;
async function refreshProtocol(seq) {
  if (seq === shownProtocol) return;
  shownProtocol = seq;
  const r = await fetch("/api/protocol.html?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG);
  if (!r.ok) return;
  const box = h("div", { id: "protocol" });
  box.innerHTML = await r.text();  // server-rendered SVG, built from public protocol data
  setKids(protocol, h("h2", {}, t("Protocol"), " ",
    h("a", { id: "pdf", href: "/api/protocol.pdf?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG }, t("Printable PDF"))), box);
}

connect(m => {
  const s = m.state;
  // the awards of the latest scoring moment, in words, as the Revisor writes them down
  const g = (s.games || []).find(x => x.number === s.game);
  const dealAwards = (g && g.deals.length && g.deals[g.deals.length - 1].awards) || [];
  const moment = s.last_award ? dealAwards.filter(a => a.moment === s.last_award.moment) : [];
  const award = s.last_award ? h("section", { id: "award", class: "award", "data-reason": s.last_award.reason,
    "data-moment": s.last_award.moment },
    h("div", { class: "small" }, t("Awards at {moment}", { moment: MOMENTS[s.last_award.moment] || s.last_award.moment })),
    (moment.length ? moment : [s.last_award]).map(a => h("div", { class: "big" }, awardText(a)))) : null;
  const players = h("div", { id: "players", class: "players" }, s.players.map(p =>
    h("div", { class: "player" + (s.to_act.includes(p.name) ? " acting" : ""), "data-player": p.name },
      h("div", { class: "top" }, nameEl(p), h("span", { class: "score" }, p.score)),
      markers(p), clockEl(s, p.name),
      h("div", { class: "small" }, p.seat ? t("seat {seat}", { seat: p.seat }) + " \u00b7 " : "", tn("{n} card", "{n} cards", p.hand_count || 0),
        p.placed_count ? " \u00b7 " + t("placed {n}", { n: p.placed_count }) : ""),
      p.played.length ? h("div", { class: "played" }, t("played"), " ", cardsEl(p.played)) : null)));
  // at the end of a game: its result, then the review and sign-off, before anything else
  setKids(live, headerEl(m), questionEl(s), resultEl(s), signEl(m, "revisor"), gameStartEl(s), award, players, timeEl(s),
    trickEl(s));
  setKids(alerts, h("h2", {}, t("Alerts")), (m.alerts || []).length ? h("ul", {}, m.alerts.map(alertEl)) :
    h("p", { class: "small" }, t("none")));
  setKids(deals, ...dealsEl(s));
  // at most every 300 ms (a throttle: a busy table never starves it)
  if (!protocolTimer) protocolTimer = setTimeout(() => { protocolTimer = null; refreshProtocol(App.seq); }, 300);
});
