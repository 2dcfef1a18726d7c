// The Revisor's tablet (a player at the table): public state, the Chicago question round,
// alerts, and manual entry of any action.  It never receives a hidden card.
"use strict";
const TEMPLATES = {
  game: { do: "game", seats: [], button: "" }, deal: { do: "deal", hands: {} },
  discard: { do: "discard", player: "", cards: [] }, open: { do: "open", player: "", card: "", take: true },
  receive: { do: "receive", player: "", cards: [] }, quads: { do: "quads", player: "", choice: "points" },
  chicago: { do: "chicago", player: "", say: false }, play: { do: "play", player: "", card: "" },
  retract: { do: "retract", player: "" }, timeout: { do: "timeout", player: "", clock: "play" },
  time_call: { do: "time_call", player: "" }, table: { do: "table", ruleset: "sm2025", players: [] },
};

const live = h("div", { id: "live" });
const alerts = h("section", { id: "alerts" });
const entry = h("textarea", { id: "manual-json", rows: 3, spellcheck: "false" });
const kind = h("select", { id: "manual-do", onchange: () => fill() },
  Object.keys(TEMPLATES).map(k => h("option", { value: k }, k)));
const note = h("div", { id: "manual-result" });
function fill() {
  const t = { ...TEMPLATES[kind.value] };
  const s = App.last && App.last.state;
  if ("player" in t && s && s.to_act && s.to_act.length) t.player = s.to_act[0];
  entry.value = JSON.stringify(t);
}
async function send(body) {
  try { await post("/api/action", body); note.textContent = "entered: " + body.do; showError(""); }
  catch (e) { note.textContent = ""; showError(e.message); }
}
setKids(document.getElementById("app"), live, alerts,
  h("section", { id: "manual" }, h("h2", {}, "Enter an action by hand"), kind, entry,
    h("button", { id: "manual-submit", onclick: () => {
      let body; try { body = JSON.parse(entry.value); } catch (e) { showError("not valid JSON: " + e.message); return; }
      send(body); } }, "Enter"), note));
fill();

function questionEl(s) {
  if (s.phase === "chicago" && s.chicago.asking) {
    const p = s.chicago.asking;  // D3: asked in turn, the first yes ends the round
    return h("section", { id: "chicago-round", class: "prompt" },
      h("div", { class: "q" }, `S\u00e4ger du Chicago? `, h("b", { id: "asking" }, p)),
      h("button", { id: "chicago-yes", class: "yes", "data-player": p, onclick: () => send({ do: "chicago", player: p, say: true }) }, "Yes"),
      h("button", { id: "chicago-no", class: "no", "data-player": p, onclick: () => send({ do: "chicago", player: p, say: false }) }, "No"));
  }
  if (s.phase === "quads_choice" && s.to_act.length) {
    const p = s.to_act[0];
    return h("section", { id: "quads-round", class: "prompt" }, h("div", { class: "q" }, `Four of a kind: ${p} chooses`),
      h("button", { id: "quads-zero", onclick: () => send({ do: "quads", player: p, choice: "zero" }) }, "Zero the others"),
      h("button", { id: "quads-points", onclick: () => send({ do: "quads", player: p, choice: "points" }) }, "8 points"));
  }
  return null;
}

connect(m => {
  const s = m.state;
  const players = h("div", { id: "players", class: "players" }, s.players.map(p =>
    h("div", { class: "player" + (s.to_act.includes(p.name) ? " acting" : ""), "data-player": p.name },
      h("div", { class: "top" }, nameEl(p), h("span", { class: "score" }, p.score)),
      markers(p), clockEl(s, p.name),
      h("div", { class: "small" }, `seat ${p.seat ?? "-"} \u00b7 ${p.hand_count} cards` + (p.placed_count ? ` \u00b7 placed ${p.placed_count}` : "")),
      p.played.length ? h("div", { class: "played" }, "played ", cardsEl(p.played)) : null)));
  setKids(live, headerEl(m), questionEl(s), players, trickEl(s));
  setKids(alerts, h("h2", {}, "Alerts"), (m.alerts || []).length ? h("ul", {}, m.alerts.map(alertEl)) :
    h("p", { class: "small" }, "none"));
});
