// The Revisor's tablet (a player at the table): public state, the Chicago question round,
// alerts, and manual entry (cards only on a camera-only table).  It never receives a hidden card.
"use strict";
const live = h("div", { id: "live" });
const alerts = h("section", { id: "alerts" });
// Cards by hand are the TL's unless hidden hands are declared here (a camera-only table).
const manual = manualEntry(document.body.dataset.hands === "revisor");
const send = manual.send;
setKids(document.getElementById("app"), live, alerts, manual.el);

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
