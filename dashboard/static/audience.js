// The audience views' own words and helpers (public hall screen, broadcast overlay), Swedish
// first, English with ?lang=en.  Kept apart from the shared catalogue so it can move there
// later; loaded for every view but does nothing outside view-public and view-broadcast.
"use strict";
const AUD = (() => {
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") === "en" ? "en" : "sv";
  const T = {
    sv: { game: "Omgång", of: "av", deal: "Giv", trick: "Stick", waiting: "Väntar på första omgången",
      score: "sidopoäng", pts: "p", pp: "omgångspoäng", ppShort: "Omg.p.", total: "Summa", scoreCol: "Sidopoäng", totalTitle: "summa sidopoäng, alla omgångar", chic: "Vunna Chicago",
      chicShort: "Chic.", rank: "Plac.", player: "Spelare", standings: "Bordets ställning", thisGame: "Omgången",
      turn: "Tur", turnOf: "Tur: {p}", cards: "{n} kort", held: "{n} kort \u00b7 visas när given är slut",
      winner: "Vinnare", goesOn: "Går vidare", gameOver: "Omgång {g} klar", tableOver: "Bordet är klart",
      saysChicago: "{p} säger Chicago!", chicagoWon: "{p} vann sin Chicago +15", chicagoLost: "{p} förlorade sin Chicago \u221215",
      chicagoBroken: "{p} bröt Chicago +10", saidChicago: "har sagt Chicago", wonChicago: "vunnen Chicago",
      drawStop: "köpstopp", out: "ute", dead: "död hand", button: "giv", paused: "PAUS", lead: "spelar ut",
      played: "spelar", open: "Öppet kort till {p}", taken: "tar det", declined: "tar inte", last: "Senast",
      results: "Omgångarnas resultat", provisional: "preliminär", place: "Plats", particip: "{n} spelare",
      playoff: "Särspel: {p}", noGame: "–", dealing: "{d} delas", pointsFor: "{p} {pts} {why}" },
    en: { game: "Game", of: "of", deal: "Deal", trick: "Trick", waiting: "Waiting for the first game",
      score: "score", pts: "pts", pp: "placement points", ppShort: "Pl.pts", total: "Total", scoreCol: "Score", totalTitle: "total score, all games", chic: "Won Chicagos",
      chicShort: "Chic.", rank: "Rank", player: "Player", standings: "Table standings", thisGame: "This game",
      turn: "To act", turnOf: "To act: {p}", cards: "{n} cards", held: "{n} cards \u00b7 shown when the deal is over",
      winner: "Winner", goesOn: "Goes on", gameOver: "Game {g} over", tableOver: "The table is over",
      saysChicago: "{p} says Chicago!", chicagoWon: "{p} won the Chicago +15", chicagoLost: "{p} lost the Chicago \u221215",
      chicagoBroken: "{p} broke the Chicago +10", saidChicago: "has said Chicago", wonChicago: "won Chicago",
      drawStop: "draw stop", out: "out", dead: "dead hand", button: "button", paused: "PAUSED", lead: "leads",
      played: "plays", open: "Open card for {p}", taken: "takes it", declined: "declines it", last: "Last",
      results: "Game results", provisional: "provisional", place: "Place", particip: "{n} players",
      playoff: "Playoff: {p}", noGame: "–", dealing: "{d} is dealt", pointsFor: "{p} {pts} {why}" },
  }[lang];
  const PHASE = {
    sv: { game_start: "Platslottning", deal: "Given delas", exchange_1: "Byte 1", exchange_2: "Byte 2", exchange_3: "Byte 3",
      quads_choice: "Fyrtal: valet", chicago: "Chicagofrågan", tricks: "Stickspel", game_over: "Omgången klar",
      table_over: "Bordet klart" },
    en: { game_start: "Seat draw", deal: "Dealing", exchange_1: "Exchange 1", exchange_2: "Exchange 2", exchange_3: "Exchange 3",
      quads_choice: "Four of a kind: choice", chicago: "Chicago question", tricks: "Trick play", game_over: "Game over",
      table_over: "Table over" },
  }[lang];
  const REASON = {
    sv: { one_pair: "ett par", two_pair: "två par", three_of_a_kind: "triss", straight: "stege", flush: "färg",
      full_house: "kåk", four_of_a_kind: "fyrtal", straight_flush: "färgstege", royal_flush: "royal straight flush",
      zeroed: "nollad", last_trick: "sista sticket", last_trick_two: "sista sticket med en tvåa", chicago_won: "vann Chicago",
      chicago_lost: "förlorade Chicago", chicago_broken: "bröt Chicago", dealer_error: "givarfel", revoke: "bekände inte färg",
      draw_stop_attempt: "byte trots köpstopp", penalty: "straff", adjust: "TL-rättelse" },
    en: { one_pair: "one pair", two_pair: "two pair", three_of_a_kind: "three of a kind", straight: "straight", flush: "flush",
      full_house: "full house", four_of_a_kind: "four of a kind", straight_flush: "straight flush", royal_flush: "royal flush",
      zeroed: "zeroed", last_trick: "last trick", last_trick_two: "last trick with a two", chicago_won: "won a Chicago",
      chicago_lost: "lost a Chicago", chicago_broken: "broke a Chicago", dealer_error: "dealer error", revoke: "revoke",
      draw_stop_attempt: "exchange at draw stop", penalty: "penalty", adjust: "TL correction" },
  }[lang];
  // rank names for hand names in words (plural as said at the table)
  const RANKS = {
    sv: { 14: "ess", 13: "kungar", 12: "damer", 11: "knektar", 10: "tior", 9: "nior", 8: "åttor", 7: "sjuor", 6: "sexor",
      5: "femmor", 4: "fyror", 3: "treor", 2: "tvåor" },
    en: { 14: "aces", 13: "kings", 12: "queens", 11: "jacks", 10: "tens", 9: "nines", 8: "eights", 7: "sevens", 6: "sixes",
      5: "fives", 4: "fours", 3: "threes", 2: "twos" },
  }[lang];
  const RV = { T: 10, J: 11, Q: 12, K: 13, A: 14 };
  const rv = c => RV[c[0]] || Number(c[0]);

  function fmt(key, vars) {
    return (T[key] || key).replace(/\{(\w+)\}/g, (_, k) => (vars && k in vars ? vars[k] : ""));
  }
  // RULES.md §2: the hand's category and the ranks that make it, in words
  function handName(cards) {
    if (!cards || cards.length !== 5) return "";
    const vals = cards.map(rv).sort((a, b) => b - a);
    const count = {};
    vals.forEach(v => { count[v] = (count[v] || 0) + 1; });
    const groups = Object.entries(count).map(([v, n]) => [Number(v), n]).sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    const flush = cards.every(c => c[1] === cards[0][1]);
    const uniq = [...new Set(vals)];
    const wheel = uniq.join() === "14,5,4,3,2";  // D1: A2345
    const straight = uniq.length === 5 && (vals[0] - vals[4] === 4 || wheel);
    const R = v => RANKS[v];
    const sv = lang === "sv";
    if (straight && flush) return vals[0] === 14 && !wheel ? (sv ? "royal straight flush" : "royal flush") : (sv ? "färgstege" : "straight flush");
    if (groups[0][1] === 4) return sv ? `fyrtal i ${R(groups[0][0])}` : `four ${R(groups[0][0])}`;
    if (groups[0][1] === 3 && groups[1][1] === 2) return sv ? `kåk, ${R(groups[0][0])} över ${R(groups[1][0])}` : `full house, ${R(groups[0][0])} over ${R(groups[1][0])}`;
    if (flush) return sv ? "färg" : "flush";
    if (straight) return sv ? "stege" : "straight";
    if (groups[0][1] === 3) return sv ? `triss i ${R(groups[0][0])}` : `three ${R(groups[0][0])}`;
    if (groups[0][1] === 2 && groups[1][1] === 2) return sv ? `två par, ${R(groups[0][0])} och ${R(groups[1][0])}` : `two pair, ${R(groups[0][0])} and ${R(groups[1][0])}`;
    if (groups[0][1] === 2) return sv ? `par i ${R(groups[0][0])}` : `pair of ${R(groups[0][0])}`;
    return sv ? "inget" : "nothing";
  }
  const signed = n => (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n);
  function awardText(a) {
    return fmt("pointsFor", { p: a.player, pts: signed(a.points), why: REASON[a.reason] || a.reason.replaceAll("_", " ") });
  }
  function chicagoText(s) {
    const a = s.last_award;
    if (s.chicago && s.chicago.player && s.phase === "tricks") return fmt("saysChicago", { p: s.chicago.player });
    if (a && a.reason === "chicago_won") return fmt("chicagoWon", { p: a.player });
    if (!a || (a.reason !== "chicago_lost" && a.reason !== "chicago_broken")) return "";
    // a Chicago that failed: who lost it (-15) and who broke it (+10), both of the same trick
    const g = (s.games || []).find(x => x && x.number === s.game);
    const deal = g && g.deals && g.deals.length ? g.deals[g.deals.length - 1] : null;
    const both = ((deal && deal.awards) || []).filter(x => x.moment === a.moment &&
      (x.reason === "chicago_lost" || x.reason === "chicago_broken"));
    return (both.length ? both : [a]).sort((x, y) => (x.reason === "chicago_lost" ? -1 : 1) - (y.reason === "chicago_lost" ? -1 : 1))
      .map(x => fmt(x.reason === "chicago_lost" ? "chicagoLost" : "chicagoBroken", { p: x.player })).join(" \u00b7 ");
  }
  // The table ranking as the engine keeps it (RULES.md §9: placement points, then total
  // score, then won Chicagos): the server's order, never re-sorted by score here.
  function standings(s) { return (s.table && s.table.standings) || []; }
  function num(v) { return typeof v === "number" && !Number.isInteger(v) ? v.toFixed(1).replace(".", lang === "sv" ? "," : ".") : String(v); }
  function gamesOfTable(s) { return (s.games || []).filter(g => g && g.number); }
  function phaseText(s) { return PHASE[s.phase] || s.phase || ""; }
  function whereText(s, gamesPerTable) {
    if (!s.game) return T.waiting;
    const deal = s.deal ? ` \u00b7 ${T.deal} ${s.deal}` : "";
    return `${T.game} ${s.game} ${T.of} ${gamesPerTable || 3}${s.phase === "game_over" || s.phase === "table_over" ? "" : deal}`;
  }
  function isOver(s) { return s.phase === "game_over" || s.phase === "table_over"; }
  function param(name, dflt) { return params.has(name) ? params.get(name) : dflt; }
  // Every message re-renders the page: only what was not there before is animated, and a
  // page drawn again while the animation runs (the next message, often within 0.1 s) carries
  // it on from where it was (--aud-age in audience.css) instead of cutting it.
  const ANIM_MS = 900;  // longer than the longest animation (aud-bump, 0.8 s)
  const seen = new Map();  // key -> when it was first shown
  function age(el, since, cls) {
    const ms = performance.now() - since;
    if (el && ms < ANIM_MS) { el.classList.add(cls); el.style.setProperty("--aud-age", `-${Math.round(ms)}ms`); }
    return el;
  }
  function mark(el, key) {
    if (el && !seen.has(key)) seen.set(key, performance.now());
    return el ? age(el, seen.get(key), "new") : el;
  }
  // A value that changed (a score): "bump" for as long as its animation runs.
  const values = new Map();  // key -> [value, when it last changed]
  function bump(el, key, value) {
    const was = values.get(key);
    if (!was) { values.set(key, [value, -Infinity]); return el; }  // the first drawing: nothing changed
    if (was[0] !== value) values.set(key, [value, performance.now()]);
    return age(el, values.get(key)[1], "bump");
  }
  function markCards(el, prefix) {
    if (el) el.querySelectorAll("[data-card]").forEach(c => mark(c, prefix + c.dataset.card));
    return el;
  }
  // Shot clocks (RULES.md §10) in words, counting down between messages like common.js's.
  const CLOCK = lang === "sv" ? { exchange: "byte", chicago: "Chicagofrågan", quads: "fyrtalsvalet", play: "utspel" }
    : { exchange: "exchange", chicago: "Chicago question", quads: "quads choice", play: "play" };
  function tick(el) {
    const left = el.dataset.until ? (Number(el.dataset.until) - performance.now()) / 1000 : Number(el.dataset.left);
    el.textContent = `${el.dataset.what} ${Math.max(0, Math.ceil(left))} s`;
    el.classList.toggle("over", left <= 0);
  }
  function clock(s, name) {
    const c = s.clocks && s.clocks.running && s.clocks.running[name];
    if (!c) return null;
    const el = h("span", { class: "aclock", "data-what": CLOCK[c.clock] || c.clock, "data-left": c.remaining,
      "data-until": s.clocks.paused ? null : performance.now() + c.remaining * 1000 });
    tick(el);
    return el;
  }
  setInterval(() => document.querySelectorAll(".aclock").forEach(tick), 250);
  // The event's logo and name (serve --event-name/--logo, [event] in the config; ?event= overrides the name)
  const body = document.body.dataset;
  const eventName = param("event", body.event || "");
  const logoSrc = body.logo ? "/api/logo?token=" + encodeURIComponent(body.token || "") : "";
  function brand(cls) {
    if (!eventName && !logoSrc) return null;
    return h("span", { class: cls, id: "brand" },
      logoSrc ? h("img", { class: "logo", src: logoSrc, alt: "" }) : null,
      eventName ? h("span", { class: "ev" }, eventName) : null);
  }
  // the view's stylesheet, added here so the shared template needs one line only
  if (document.body.classList.contains("view-public") || document.body.classList.contains("view-broadcast")) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/audience.css?token=" + encodeURIComponent(document.body.dataset.token || "");
    document.head.append(link);
    document.documentElement.lang = lang;
  }
  return { lang, T, fmt, handName, awardText, chicagoText, standings, num, gamesOfTable, phaseText, whereText,
    isOver, param, signed, REASON, mark, markCards, bump, clock, brand, eventName };
})();
