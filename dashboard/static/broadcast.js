// The OBS overlay (1920x1080, transparent).  Lower-thirds per player, a scoreboard strip,
// whose turn with the clock, an action ticker in words, game-end and table-end graphics;
// the centre of the frame is left to the table camera while a deal is played.
// URL: ?layout=bottom|side  &ticker=0  &strip=0  &event=NAME  &lang=en
// Hidden cards come only as the server releases them (README "Broadcast delay": after the
// delay AND after the deal has ended at the live table); this page never asks for more.
"use strict";
(() => {
  const app = document.getElementById("app");
  const { T, fmt } = AUD;
  const layout = AUD.param("layout", "bottom") === "side" ? "side" : "bottom";
  const showTicker = AUD.param("ticker", "1") !== "0";
  const showStrip = AUD.param("strip", "1") !== "0";
  document.body.classList.add("layout-" + layout);
  // The overlay is drawn for a 1920x1080 canvas.  A browser source of another size (a
  // 1280x720 stream, a 4K canvas) shows it whole, scaled, never cut off or squeezed (at
  // 1280 px the squeezed seats had no room left for the players' names).
  function fit() {
    const k = Math.min(innerWidth / 1920, innerHeight / 1080);
    document.body.style.transform = Math.abs(k - 1) < 1e-3 ? "" : `scale(${k})`;
  }
  addEventListener("resize", fit);
  fit();
  const ticker = [];
  let prev = null;

  let tickerCount = 0;
  function note(text) {
    if (text && ticker[0] !== text) { ticker.unshift(text); ticker.length = Math.min(ticker.length, 6); tickerCount++; }
  }

  const notePlayed = c => note(`${c.player} ${T.played} ${cardText(c.card)}`);

  // what happened between two frames, in words (the frames are the delayed ones), oldest
  // first: a trick closed (its last cards, who took it) and the awards of its scoring come
  // before a new deal or game, which comes after them at the table
  function diff(a, s) {
    if (!a) { if (s.last_award) note(AUD.awardText(s.last_award)); return; }  // a fresh page: the last award
    const lt = s.last_trick, seen = a.last_trick;
    if (lt && !(seen && seen.deal === lt.deal && seen.number === lt.number)) {
      const told = a.trick && a.trick.number === lt.number && a.deal === lt.deal ? a.trick.cards.length : 0;
      lt.cards.slice(told).forEach(notePlayed);
      note(fmt("trickTo", { n: lt.number, p: lt.winner }));
    }
    const awards = newAwards(a, s);  // every one since the last frame (a trick's and the hands' at once)
    const award = awards.length > 0;
    const newGame = s.game && s.game !== a.game;
    const newDeal = !newGame && s.deal && s.deal !== a.deal && s.phase !== "game_over";
    if (award && (newGame || newDeal)) awards.forEach(x => note(AUD.awardText(x)));  // the deal's end scored before the next deal
    if (newGame) note(`${T.game} ${s.game}`);
    else if (newDeal) note(fmt("dealing", { d: `${T.deal} ${s.deal}` }));
    else if (s.phase !== a.phase && !["tricks"].includes(s.phase)) note(AUD.phaseText(s));
    if (s.chicago && s.chicago.player && !(a.chicago && a.chicago.player)) note(fmt("saysChicago", { p: s.chicago.player }));
    const before = a.trick && s.trick && a.trick.number === s.trick.number ? a.trick.cards.length : 0;
    if (s.trick) s.trick.cards.slice(before).forEach(notePlayed);
    if (award && !newGame && !newDeal) awards.forEach(x => note(AUD.awardText(x)));
  }

  // The awards of frame ``s`` that frame ``a`` did not have, oldest first: the game's deals'
  // (stop 72's review: the last trick's +5 was lost when the hands' scoring came with it);
  // across a new game, or a change not in the deals (a TL's between deals), the last award.
  function newAwards(a, s) {
    const of = x => { const g = (x.games || []).find(y => y && y.number === x.game); return g ? g.deals.flatMap(d => d.awards) : []; };
    // a game's awards are only added to (a TL's change is an award of its own): the list of
    // the frame before is this one's beginning when its last award is where it was, so each
    // frame compares one award, not the game's every award (ten frames a second)
    const before = a.game === s.game ? of(a) : [], now = of(s);
    const same = !before.length || JSON.stringify(before[before.length - 1]) === JSON.stringify(now[before.length - 1]);
    const added = same && now.length > before.length ? now.slice(before.length) : [];
    if (added.length) return added;
    return s.last_award && JSON.stringify(s.last_award) !== JSON.stringify(a.last_award) ? [s.last_award] : [];
  }

  function strip(m, s) {
    const standings = AUD.standings(s);
    return h("div", { id: "strip", class: "strip" },
      h("div", { class: "st-event" }, AUD.brand("st-brand"), h("span", { class: "tb" }, m.table)),
      h("div", { id: "where", class: "st-where" }, AUD.whereText(s),
        s.game && !AUD.isOver(s) ? h("span", { id: "phase", class: "st-phase", "data-phase": s.phase }, AUD.phaseText(s)) : null),
      h("div", { id: "strip-pp", class: "st-pp" }, h("span", { class: "lbl" }, T.ppShort),
        standings.map(r => h("span", { class: "pp", "data-player": r.player }, h("b", {}, r.player), " ", AUD.num(r.placement_points)))));
  }

  function seat(s, p, at) {
    const acting = (s.to_act || []).includes(p.name) && !AUD.isOver(s);
    const played = AUD.playedBy(s, p.name);
    // in trick play the hand is what is left plus what was played: name the whole five
    const handName = p.hand ? AUD.handName([...p.hand, ...(p.played || [])]) : "";
    return h("div", { class: "seat" + (acting ? " acting" : "") + (p.out ? " is-out" : ""), "data-player": p.name,
      "data-side": at && at.side, "data-row": at && at.row },
      h("div", { class: "top" },
        h("span", { class: "nm" }, nameEl(p), s.button === p.name ? h("span", { class: "btn-mark" }, "D") : null),
        acting ? h("span", { class: "turn" }, T.turn) : null, AUD.clock(s, p.name),
        AUD.bump(h("span", { class: "sc" }, h("b", {}, p.score), h("small", {}, T.score)), "score:" + p.name, p.score)),
      h("div", { class: "hand" }, p.hand ? AUD.markCards(cardsEl(p.hand), `${s.game}.${s.deal}:`)
        : p.hand_count ? h("span", { class: "held" }, fmt("held", { n: p.hand_count })) : null,
        played ? h("span", { class: "now-played" }, h("small", {}, T.played),
          AUD.markCards(h("span", {}, cardEl(played.card)), `${s.game}.${played.deal}.played:`)) : null),
      h("div", { class: "bottom" },
        h("span", { class: "hand-name" }, handName),
        h("span", { class: "marks" },
          p.said_chicago ? h("span", { class: "mk said" }, T.saidChicago) : null,
          p.won_chicagos ? h("span", { class: "mk won" }, "\u2605".repeat(p.won_chicagos), " ", T.wonChicago) : null,
          p.draw_stop ? h("span", { class: "mk drawstop" }, T.drawStop) : null,
          p.out ? h("span", { class: "mk out" }, T.out) : null,
          p.dead_hand ? h("span", { class: "mk dead" }, T.dead) : null)));
  }

  // The analysis (issue 21): what best play makes of the hidden cards, or each player's odds
  // to score at the next scoring moment.  It comes only in a frame the server has released
  // whole (after the delay AND the deal's end at the live table), never in a masked one.
  function analysisLines(a) {
    const v = a.verdict;
    if (a.kind === "verdict" && v) {
      if (v.chicago) {
        return [v.chicago_stands ? t("Chicago holds with best play")
          : t("With best play {player} breaks the Chicago", { player: v.breaker })];
      }
      return v.last_trick ? [t("With best play {player} takes the last trick with {card}",
        { player: v.last_trick.player, card: cardText(v.last_trick.card) })] : [];
    }
    if (a.kind === "chicago_question" && v) {
      return [v.chicago_stands ? t("If {player} says Chicago, it holds with best play", { player: a.player })
        : t("If {player} says Chicago, {breaker} breaks it with best play", { player: a.player, breaker: v.breaker })];
    }
    if (a.kind === "odds" && a.odds) {
      return Object.entries(a.odds.score_next).map(([p, e]) => t("{player} {pct} % to score", { player: p, pct: Math.round(100 * e.p) }));
    }
    return [];
  }

  function analysisBox(m, s) {
    const a = m.analysis;
    if (!a || AUD.isOver(s) || a.game !== s.game || a.deal !== s.deal) return null;
    const lines = analysisLines(a);
    if (!lines.length) return null;
    return AUD.mark(h("div", { id: "analysis", class: "analysis", "data-kind": a.kind },
      h("span", { class: "an-lbl" }, a.kind === "odds" ? t("Odds") : t("Best play")),
      lines.map(l => h("span", { class: "an-line" }, l)),
      a.kind === "odds" ? h("small", { class: "an-note" }, t("{n} deals sampled", { n: a.odds.samples })) : null),
      `an:${a.seq}`);
  }

  function endCard(s) {
    if (!AUD.isOver(s)) return null;
    const table = s.table || {};
    if (s.phase === "table_over") {
      const rows = AUD.standings(s);
      return h("div", { id: "endcard", class: "endcard" }, h("div", { class: "ec-title" }, T.tableOver),
        rows.length ? h("div", { class: "ec-winner" }, `${T.winner}: ${rows[0].player}`) : null,
        h("table", { class: "ec-table" }, h("tr", {}, h("th", {}, T.rank), h("th", {}, T.player), h("th", { class: "n" }, T.ppShort),
          h("th", { class: "n" }, T.total), h("th", { class: "n" }, T.chicShort)),
          rows.map(r => h("tr", { "data-player": r.player, class: (table.advancing || []).includes(r.player) ? "goes-on" : "" },
            h("td", {}, `${r.rank}.`), h("td", {}, r.player), h("td", { class: "n" }, AUD.num(r.placement_points)),
            h("td", { class: "n" }, r.score_total), h("td", { class: "n" }, r.won_chicagos)))),
        h("div", { id: "goes-on", class: "ec-on" }, `${T.goesOn}: ${(table.advancing || []).join(", ")}`));
    }
    const g = AUD.gamesOfTable(s).find(x => x.number === s.game);
    if (!g) return null;
    const places = Object.entries(g.places).sort((a, b) => a[1] - b[1]);
    return h("div", { id: "endcard", class: "endcard" }, h("div", { class: "ec-title" }, fmt("gameOver", { g: g.number })),
      g.winner ? h("div", { class: "ec-winner" }, `${T.winner}: ${g.winner}`) : null,
      h("table", { class: "ec-table" }, h("tr", {}, h("th", {}, T.place), h("th", {}, T.player), h("th", { class: "n" }, T.scoreCol),
        h("th", { class: "n" }, T.ppShort)),
        places.map(([name, place]) => h("tr", { "data-player": name }, h("td", {}, `${place}.`), h("td", {}, name),
          h("td", { class: "n" }, g.scores[name]), h("td", { class: "n" }, AUD.num(g.placement_points[name] ?? 0))))));
  }

  // ?layout=side: the players as they sit, clockwise in seat order round the camera's table:
  // up the left edge, then down the right (four: seat 1 bottom left, 2 top left, 3 top right,
  // 4 bottom right), so neighbours at the table are neighbours on screen (by list order, seats
  // 1 and 3, who face each other, stood one above the other).  The page keeps seat order.
  function sideSpot(i, n) {
    const left = Math.ceil(n / 2);
    return i < left ? { side: "left", row: left - i } : { side: "right", row: i - left + 1 };
  }

  connect(m => {
    const s = m.state;
    const seats = [...s.players].sort((a, b) => (a.seat || 99) - (b.seat || 99));
    const chic = AUD.isOver(s) ? "" : AUD.chicagoText(s);  // at an end the end card tells it
    morphKids(app,
      showStrip ? strip(m, s) : null,
      chic ? AUD.mark(h("div", { id: "chicago-banner", class: "chicago-banner" }, chic), `chic:${s.game}.${s.deal}:${chic}`) : null,
      AUD.mark(endCard(s), `end:${s.game}:${s.phase}`),
      analysisBox(m, s),
      h("div", { id: "seats", class: "seats" }, seats.map((p, i) => seat(s, p, layout === "side" ? sideSpot(i, seats.length) : null))),
      showTicker && ticker.length ? h("div", { id: "ticker", class: "ticker" }, h("span", { class: "tk-lbl" }, T.last),
        ticker.slice(0, 4).map((t, i) => i === 0 ? AUD.mark(h("span", { class: "tk first" }, t), `tk:${tickerCount}`) : h("span", { class: "tk" }, t))) : null);
  }, m => {  // every frame, drawn or not, adds what happened to the ticker
    diff(prev, m.state);
    prev = m.state;
  });
})();
