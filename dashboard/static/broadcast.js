// The OBS overlay (1920x1080, transparent): every hand with its name, delayed on the server.
"use strict";
connect(m => {
  const s = m.state;
  setKids(document.getElementById("app"), 
    h("div", { id: "bar" }, h("span", {}, m.table), h("span", {}, s.game ? `Game ${s.game} \u00b7 deal ${s.deal} \u00b7 ${PHASES[s.phase] || s.phase}` : "")),
    h("div", { id: "seats" }, s.players.map(p => h("div", { class: "seat" + (s.to_act.includes(p.name) ? " acting" : ""), "data-player": p.name },
      h("div", { class: "top" }, nameEl(p), h("span", { class: "score" }, p.score), clockEl(s, p.name)),
      // a live deal's hands are held back until it ends at the table (README "Broadcast delay")
      h("div", { class: "hand" }, p.hand ? cardsEl(p.hand)
        : p.hand_count ? h("span", { class: "held" }, `${p.hand_count} kort \u00b7 visas n\u00e4r given \u00e4r slut / shown when the deal is over`) : null),
      h("div", { class: "hand-name" }, p.hand_name || ""),
      markers(p)))),
    h("div", { id: "center" }, trickEl(s)));
});
