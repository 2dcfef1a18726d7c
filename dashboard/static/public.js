// The hall's scoreboard: public state only, large type.
"use strict";
connect(m => {
  const s = m.state, app = document.getElementById("app");
  const standings = (s.table && s.table.standings) || [];
  const rows = [...s.players].sort((a, b) => b.score - a.score);
  setKids(app, headerEl(m),
    h("table", { id: "scores", class: "big" },
      h("tr", {}, h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "")),
      rows.map(p => h("tr", { "data-player": p.name, class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, nameEl(p)), h("td", { class: "score" }, p.score), h("td", {}, markers(p))))),
    trickEl(s),
    standings.length ? h("section", { id: "standings" }, h("h2", {}, "Table standings (placement points)"),
      h("ol", {}, standings.map(t => h("li", {}, `${t.player}: ${t.placement_points} (${t.score_total} points)`)))) : null);
});
