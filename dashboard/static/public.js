// The hall screen and the phone view: public state only.  The table's standings in the
// ranking's own order (RULES.md §9), the current deal and trick in large type, whose turn,
// game and table results, who goes on.  One column on a phone, three on a hall screen.
"use strict";
(() => {
  const app = document.getElementById("app");
  const { T, fmt } = AUD;

  // The event and the table, then where the table is; at a game's or the table's end the
  // banner takes the place of where it is, in a box of the same height, so nothing below
  // moves when it comes (it came between the header and the grid and pushed the grid down).
  function head(m) {
    const s = m.state, banner = AUD.mark(endBanner(s), `end:${s.game}:${s.phase}`);
    return h("header", { id: "aud-head", class: "aud-head" + (banner ? " ended" : "") },
      AUD.brand("aud-brand"),
      h("span", { class: "aud-table" }, m.table),
      h("div", { class: "aud-status" },
        h("div", { class: "aud-now" },
          h("span", { id: "where" }, AUD.whereText(s)),
          s.game ? h("span", { id: "phase", class: "aud-phase", "data-phase": s.phase }, AUD.phaseText(s)) : null,
          m.paused ? h("span", { id: "paused", class: "paused" }, T.paused) : null),
        banner));
  }

  function playerCard(s, p) {
    const acting = (s.to_act || []).includes(p.name);
    const played = AUD.playedBy(s, p.name);
    return h("li", { class: "pcard" + (acting ? " acting" : "") + (p.out ? " is-out" : ""), "data-player": p.name },
      h("div", { class: "pc-name" }, nameEl(p), s.button === p.name ? h("span", { class: "btn-mark", title: T.button }, "D") : null),
      AUD.bump(h("div", { class: "pc-score" }, h("span", { class: "num" }, p.score),
        h("span", { class: "lbl" }, T.score)), "score:" + p.name, p.score),
      h("div", { class: "pc-tags" },
        acting ? h("span", { class: "tag turn" }, T.turn) : null, AUD.clock(s, p.name),
        p.said_chicago ? h("span", { class: "tag said" }, T.saidChicago) : null,
        p.draw_stop ? h("span", { class: "tag drawstop" }, T.drawStop) : null,
        p.out ? h("span", { class: "tag out" }, T.out) : null,
        p.dead_hand ? h("span", { class: "tag dead" }, T.dead) : null,
        played ? AUD.markCards(h("span", { class: "pc-played" }, cardEl(played.card)), `${s.game}.${played.deal}:`) : null));
  }

  function playPanel(s) {
    if (AUD.isOver(s)) {  // between games and at the end: the games' results take the middle
      const chic = AUD.chicagoText(s);
      return h("section", { id: "play", class: "panel" }, h("h2", {}, T.results), resultsEl(s),
        chic ? h("div", { id: "chicago-banner", class: "chicago-banner small" }, chic) : null,
        s.last_award ? h("div", { id: "last-award", class: "last-award" }, `${T.last}: ${AUD.awardText(s.last_award)}`) : null);
    }
    const kids = [h("h2", {}, s.game ? `${T.deal} ${s.deal || ""}` : T.waiting)];
    if (s.game && !AUD.isOver(s)) {
      kids.push(h("div", { id: "phase-big", class: "big-phase" }, AUD.phaseText(s)));
      if (s.to_act && s.to_act.length) kids.push(h("div", { id: "turn", class: "turn-big" }, fmt("turnOf", { p: s.to_act.join(", ") })));
    }
    const chic = AUD.chicagoText(s);
    if (chic) kids.push(AUD.mark(h("div", { id: "chicago-banner", class: "chicago-banner" }, chic), `chic:${s.game}.${s.deal}:${chic}`));
    if (s.open_card) kids.push(h("div", { id: "open-card", class: "open-card" }, fmt("open", { p: s.open_card.player }), " ",
      cardEl(s.open_card.card), " ", s.open_card.taken ? T.taken : T.declined));
    if (s.trick && s.trick.cards.length) kids.push(h("div", { id: "trick", class: "trick" },
      h("div", { class: "lbl" }, `${T.trick} ${s.trick.number}`),
      AUD.markCards(h("div", { class: "trick-cards" }, s.trick.cards.map(c => h("span", { class: "played" },
        h("span", { class: "who" }, c.player), cardEl(c.card)))), `${s.game}.${s.deal}.trick:`)));
    const lt = closedTrick(s);  // the trick just taken, until the next card (or deal)
    if (lt) kids.push(h("div", { id: "last-trick", class: "trick", "data-number": lt.number },
      h("div", { class: "lbl" }, fmt("trickTo", { n: lt.number, p: lt.winner })),
      AUD.markCards(h("div", { class: "trick-cards" }, lt.cards.map(c => h("span", { class: "played" + (c.player === lt.winner ? " took" : "") },
        h("span", { class: "who" }, c.player), cardEl(c.card)))), `${s.game}.${lt.deal}.trick:`)));
    if (s.last_award) kids.push(h("div", { id: "last-award", class: "last-award" }, `${T.last}: ${AUD.awardText(s.last_award)}`));
    return h("section", { id: "play", class: "panel" }, kids);
  }

  function standingsPanel(s) {
    const rows = AUD.standings(s);
    const table = s.table || {};
    const kids = [h("h2", {}, T.standings, table.finished ? null : h("span", { class: "small-note" }, ` (${T.provisional})`))];
    if (rows.length) kids.push(h("table", { id: "standings", class: "standings" },
      h("thead", {}, h("tr", {}, h("th", {}, T.rank), h("th", {}, T.player), h("th", { class: "n", title: T.pp }, T.ppShort),
        h("th", { class: "n", title: T.totalTitle }, T.total), h("th", { class: "n", title: T.chic }, T.chicShort))),
      h("tbody", {}, rows.map(r => h("tr", { "data-player": r.player, class: (table.advancing || []).includes(r.player) ? "goes-on" : "" },
        h("td", {}, `${r.rank}.`), h("td", { class: "who" }, r.player), h("td", { class: "n pp" }, AUD.num(r.placement_points)),
        h("td", { class: "n" }, r.score_total), h("td", { class: "n" }, r.won_chicagos))))),
      // the columns' short names said in full: a hall screen has no pointer to hover a title
      h("p", { id: "standings-legend", class: "legend" },
        t("{pp}: placement points \u00b7 {chic}: won Chicagos", { pp: T.ppShort, chic: T.chicShort })));
    if (table.playoff) kids.push(h("p", { id: "playoff" }, fmt("playoff", { p: table.playoff.players.join(", ") })));
    if (table.finished) kids.push(h("div", { id: "goes-on", class: "goes-on-banner" }, `${T.goesOn}: ${(table.advancing || []).join(", ")}`));
    if (!AUD.isOver(s) && resultsEl(s)) kids.push(h("h3", {}, T.results), resultsEl(s));
    return h("section", { id: "table-panel", class: "panel" }, kids);
  }

  // every finished game: places and placement points (RULES.md §8)
  function resultsEl(s) {
    const games = AUD.gamesOfTable(s).filter(g => g.finished);
    if (!games.length) return null;
    return h("ol", { id: "results", class: "results" }, games.map(g => h("li", { "data-game": g.number },
      h("div", { class: "rg" }, `${T.game} ${g.number}`),
      h("div", { class: "rp" }, Object.entries(g.places).sort((a, b) => a[1] - b[1]).map(([name, place]) =>
        h("span", { class: "res" + (name === g.winner ? " winner" : "") }, `${place}. ${name} `,
          h("b", {}, AUD.num(g.placement_points[name] ?? 0))))))));
  }

  function endBanner(s) {
    if (s.phase === "table_over") {
      const top = AUD.standings(s)[0];
      const on = (s.table && s.table.advancing) || [];
      return h("div", { id: "end-banner", class: "end-banner" }, h("div", { class: "t" }, T.tableOver),
        top ? h("div", { class: "w" }, `${T.winner}: ${top.player}`) : null,
        on.length ? h("div", { class: "w on" }, `${T.goesOn}: ${on.join(", ")}`) : null);
    }
    if (s.phase === "game_over") {
      const g = AUD.gamesOfTable(s).find(x => x.number === s.game);
      return h("div", { id: "end-banner", class: "end-banner" }, h("div", { class: "t" }, fmt("gameOver", { g: s.game })),
        g && g.winner ? h("div", { class: "w" }, `${T.winner}: ${g.winner}`) : null);
    }
    return null;
  }

  connect(m => {
    const s = m.state;
    const seats = [...s.players].sort((a, b) => (a.seat || 99) - (b.seat || 99));  // as they sit, not by score
    morphKids(app, head(m),
      h("div", { class: "aud-grid" + (AUD.isOver(s) ? " over" : "") },
        h("section", { id: "game-panel", class: "panel" }, h("h2", {}, s.game ? `${T.game} ${s.game}` : T.thisGame),
          h("ol", { id: "scores", class: "pcards" }, seats.map(p => playerCard(s, p)))),
        playPanel(s), standingsPanel(s)));
  });
})();
