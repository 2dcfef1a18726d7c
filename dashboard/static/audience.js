// The audience views' own words and helpers (public hall screen, broadcast overlay), Swedish
// first, English with ?lang=en.  Every text is a t("English") of the shared catalogue
// (dashboard/locale, common.js's t()); loaded for every view but does nothing outside
// view-public and view-broadcast.
"use strict";
const AUD = (() => {
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") === "en" ? "en" : "sv";
  const T = {
    game: t("Game"), of: t("of"), deal: t("Deal"), trick: t("Trick"), waiting: t("Waiting for the first game"),
    score: t("score"), pts: t("pts"), pp: t("placement points"), ppShort: t("Pl.pts"), total: t("Total"),
    scoreCol: t("Score"), totalTitle: t("total score, all games"), chic: t("Won Chicagos"), chicShort: t("Chic."),
    rank: t("Rank"), player: t("Player"), standings: t("Table standings"), thisGame: t("This game"),
    turn: t("To act"), turnOf: t("To act: {p}"), cards: t("{n} cards"),
    held: t("{n} cards · shown when the deal is over"), winner: t("Winner"), goesOn: t("Goes on"),
    gameOver: t("Game {g} over"), tableOver: t("The table is over"), saysChicago: t("{p} says Chicago!"),
    chicagoWon: t("{p} won the Chicago +15"), chicagoLost: t("{p} lost the Chicago −15"),
    chicagoBroken: t("{p} broke the Chicago +10"), saidChicago: t("has said Chicago"), wonChicago: t("won Chicago"),
    drawStop: t("draw stop"), out: t("out"), dead: t("dead hand"), button: t("button"), paused: t("PAUSED"),
    lead: t("leads"), played: t("plays"), open: t("Open card for {p}:"), taken: t("taken"),
    declined: t("declined"), last: t("Last"), results: t("Game results"), provisional: t("provisional"),
    place: t("Place"), particip: t("{n} players"), playoff: t("Playoff: {p}"), noGame: "\u2013",
    dealing: t("{d} is dealt"), pointsFor: "{p} {pts} {why}", trickTo: t("Trick {n} to {p}") };
  const PHASE = {
    game_start: t("Seat draw"), deal: t("Dealing"), exchange_1: t("Exchange 1"), exchange_2: t("Exchange 2"),
    exchange_3: t("Exchange 3"), quads_choice: t("Four of a kind: choice"), chicago: t("Chicago question"),
    tricks: t("Trick play"), game_over: t("Game over"), table_over: t("Table over") };
  const REASON = {
    one_pair: t("one pair"), two_pair: t("two pair"), three_of_a_kind: t("three of a kind"), straight: t("straight"),
    flush: t("flush"), full_house: t("full house"), four_of_a_kind: t("four of a kind"),
    straight_flush: t("straight flush"), royal_flush: t("royal flush"), zeroed: t("zeroed"),
    last_trick: t("last trick"), last_trick_two: t("last trick with a two"), chicago_won: t("won a Chicago"),
    chicago_lost: t("lost a Chicago"), chicago_broken: t("broke a Chicago"), dealer_error: t("dealer error"),
    revoke: t("revoke"), draw_stop_attempt: t("exchange at draw stop"), penalty: t("penalty"),
    adjust: t("TL correction") };
  // rank names for hand names in words (plural as said at the table)
  const RANKS = {
    14: t("aces"), 13: t("kings"), 12: t("queens"), 11: t("jacks"), 10: t("tens"), 9: t("nines"), 8: t("eights"),
    7: t("sevens"), 6: t("sixes"), 5: t("fives"), 4: t("fours"), 3: t("threes"), 2: t("twos") };
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
    if (straight && flush) return t(vals[0] === 14 && !wheel ? "royal flush" : "straight flush");
    if (groups[0][1] === 4) return t("four {r}", { r: R(groups[0][0]) });
    if (groups[0][1] === 3 && groups[1][1] === 2) return t("full house, {a} over {b}", { a: R(groups[0][0]), b: R(groups[1][0]) });
    if (flush) return t("flush");
    if (straight) return t("straight");
    if (groups[0][1] === 3) return t("three {r}", { r: R(groups[0][0]) });
    if (groups[0][1] === 2 && groups[1][1] === 2) return t("two pair, {a} and {b}", { a: R(groups[0][0]), b: R(groups[1][0]) });
    if (groups[0][1] === 2) return t("pair of {r}", { r: R(groups[0][0]) });
    return t("nothing");
  }
  const signed = n => (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n);
  function awardText(a) {
    return fmt("pointsFor", { p: a.player, pts: signed(a.points), why: REASON[a.reason] || a.reason.replaceAll("_", " ") });
  }
  function chicagoText(s) {
    const a = s.last_award;
    if (s.chicago && s.chicago.player && s.phase === "tricks") return fmt("saysChicago", { p: s.chicago.player });
    if (!a || !["chicago_won", "chicago_lost", "chicago_broken"].includes(a.reason)) return "";
    // the deal that ended with it, until the next is dealt (stop 72: "+15" and "+10" stood
    // through the next deal's exchange, and the -15 was looked for in the next deal's awards)
    const g = (s.games || []).find(x => x && x.number === s.game);
    const deal = g && g.deals && g.deals.length ? g.deals[g.deals.length - 1] : null;
    const same = x => x.player === a.player && x.points === a.points && x.reason === a.reason && x.moment === a.moment;
    if (!deal || !(deal.awards || []).some(same)) return "";
    if (a.reason === "chicago_won") return fmt("chicagoWon", { p: a.player });
    // a Chicago that failed: who lost it (-15) and who broke it (+10), both of the same trick
    const both = (deal.awards || []).filter(x => x.moment === a.moment &&
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
  // The card ``player`` has in front of them: in the trick being played, else in the one just closed.
  function playedBy(s, player) {
    const now = s.trick && s.trick.cards.find(c => c.player === player);
    if (now) return { card: now.card, deal: s.deal };
    const lt = closedTrick(s), c = lt && lt.cards.find(x => x.player === player);
    return c ? { card: c.card, deal: lt.deal } : null;
  }
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
  const CLOCK = { exchange: t("exchange"), chicago: t("Chicago question"), quads: t("quads choice"), play: t("play") };
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
    isOver, param, signed, REASON, mark, markCards, bump, clock, brand, eventName, playedBy };
})();
