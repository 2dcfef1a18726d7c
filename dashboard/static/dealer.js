// The dealer console's view: whose turn, the phase, the button; no card of any hand.
"use strict";
connect(m => {
  const s = m.state;
  setKids(document.getElementById("app"), headerEl(m),
    h("div", { id: "button" }, "Button: " + (s.button || "-")),
    h("ul", { id: "seats" }, s.players.map(p => h("li", { "data-player": p.name,
      class: s.to_act.includes(p.name) ? "acting" : "" }, `${p.seat ?? "-"}: `, nameEl(p),
      ` holds ${p.hand_count}, placed ${p.placed_count}`, clockEl(s, p.name)))),
    trickEl(s));
});
