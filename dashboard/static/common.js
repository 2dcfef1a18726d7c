// Shared by every view: the role's WebSocket stream (reconnecting, catching up by seq),
// card and player rendering, posting actions, and the texts in the page's language.
// No build step, no CDN.
"use strict";
// Fresh: made by h() since the last morphKids (DRAWING counts those; morphKids may fold a
// fresh node into the node already at its place on the page).  LIVE: a node with a
// listener, a form control, or a node the page keeps between drawings (one passed again);
// a node that is or holds one is never folded into another, nor another into it.
let DRAWING = 0;
const BORN = new WeakMap(), LIVE = new WeakSet();
const fresh = n => BORN.get(n) === DRAWING;
const CONTROLS = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "OPTION", "DETAILS", "FORM"]);
// what is drawn of a list of kids: every one but null, undefined and false
const present = kids => kids.flat().filter(k => k !== null && k !== undefined && k !== false);
// a kid made in an earlier drawing is one the page keeps
function noteKept(kid) { if (kid instanceof Node && kid.nodeType === 1 && !fresh(kid)) LIVE.add(kid); }
// found on the subtree, so that a listener added by hand (el.append) counts too
function holdsLive(n) {
  if (LIVE.has(n)) return true;
  if (n.nodeType === 1) for (const d of n.querySelectorAll("*")) if (LIVE.has(d)) return true;
  return false;
}
const TOKEN = document.body.dataset.token;
// The catalogue (dashboard/locale, loaded as /static/i18n.js before this file): Swedish by
// default, English with ?lang=en.  t("English text", {name: ...}); tn(singular, plural, n).
const LANG = (typeof I18N !== "undefined" && I18N.lang) || document.body.dataset.lang || "sv";
const MESSAGES = (typeof I18N !== "undefined" && I18N.messages) || {};
function fill(text, params) {
  if (!params) return text;
  // Swedish's genitive of a name ending in s, x or z takes no s: "Lars hand" (i18n.py: genitive)
  text = text.replace(/\{(\w+)\}s\b/g, (m, k) => (k in params && /[sxz]$/i.test(String(params[k])) ? `{${k}}` : m));
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}
function t(msgid, params) {
  const m = MESSAGES[msgid];
  return fill(typeof m === "string" && m ? m : msgid, params);
}
function tn(singular, plural, n, params) {
  const m = MESSAGES[singular];
  const forms = Array.isArray(m) && m[0] ? m : [singular, plural];
  return fill(n === 1 ? forms[0] : forms[1], { n, ...(params || {}) });
}
// The language switch, on every page but the broadcast overlay (hidden by its style).
function langUrl(lang) {
  const u = new URL(location.href);
  u.searchParams.set("lang", lang);
  return u.pathname + u.search;
}
document.body.append(h("a", { id: "lang-toggle", class: "lang-toggle", lang: LANG === "sv" ? "en" : "sv",
  href: langUrl(LANG === "sv" ? "en" : "sv") }, LANG === "sv" ? "In English" : "P\u00e5 svenska"));
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// drawStart: when the page's last drawing began (performance.now()): the time a drawing is
// due counts from the end of the one before it (connect, DRAW_GAP)
const App = { last: null, seq: -2, drawStart: null };

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  BORN.set(el, DRAWING);
  if (CONTROLS.has(el.tagName)) LIVE.add(el);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) { el.addEventListener(k.slice(2), v); LIVE.add(el); }
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of present(kids)) {
    noteKept(kid);
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

// setKids for a drawing that is mostly the last one again: a new node that equals the node
// at its place on the page (same tag, no listener, no form control, the same inline style)
// is folded into it (its attributes and text brought up to date, its children in turn), so
// only what changed is laid out and painted again, and a running animation runs on.
function morphKids(el, ...kids) {
  morphInto(el, kids, false);
  DRAWING++;  // what this drawing made is on the page now: no longer fresh
}
// A part of a drawing with controls in it (an alert's Dismiss, the TL's history and audit
// trail), made again only when what it shows (``key``, as JSON) changed: the same node (or
// nodes, when ``make`` gives a list) otherwise, which stays on the page.
// A control made anew takes the old one's place (a node with a listener is never folded),
// and a tap's press and release on two nodes is no click: a tap on a busy table, whose
// every change draws the page again, was lost.
// A part made anew is LIVE at once, so it takes the old one's place too: folded into the
// old node (a part with no listener, the audit trail before a ruling), its new children
// moved to the page's node and the kept node, short of them, was drawn next time.
const KEPT_PARTS = new Map();
function keptPart(name, key, make) {
  const k = JSON.stringify(key), had = KEPT_PARTS.get(name);
  if (had && had.key === k) return had.node;
  const node = make();
  present([node]).forEach(n => { if (n instanceof Node) LIVE.add(n); });
  KEPT_PARTS.set(name, { key: k, node });
  return node;
}
// A kept part no longer shown is forgotten, so that it is made anew when it is shown again
// (an armed button, twoTaps, never comes back armed: a card armed, the turn gone and back)
function forget(name) { KEPT_PARTS.delete(name); return null; }
// ``clean``: neither side holds a LIVE node (a pair is folded only then, so its children
// need no second look)
function morphInto(el, kids, clean) {
  const want = present(kids).map(k => (k instanceof Node ? k : document.createTextNode(String(k))));
  want.forEach(noteKept);
  const had = [...el.childNodes];
  const passed = new Set(want);
  const out = want.map((n, i) => {
    const o = had[i];
    if (!o || o === n || passed.has(o) || (!clean && holdsLive(o))) return n;
    if (n.nodeType === 3 && o.nodeType === 3) {
      if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
      return o;
    }
    if (n.nodeType !== 1 || o.nodeType !== 1 || !fresh(n) || n.tagName !== o.tagName || (!clean && holdsLive(n))) return n;
    if (o.isEqualNode(n)) return o;
    if (o.getAttribute("style") !== n.getAttribute("style")) return n;
    for (const a of [...o.attributes]) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
    for (const a of n.attributes) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
    morphInto(o, [...n.childNodes], true);
    return o;
  });
  const kept = new Set(out);
  for (const o of had) if (!kept.has(o)) o.remove();  // first, so that no kept node moves
  out.forEach((n, i) => { if (el.childNodes[i] !== n) el.insertBefore(n, el.childNodes[i] || null); });
}

// A card as people write it ("10♠" for TS).
function cardText(code) { return (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]]; }
function cardEl(code) {
  return h("span", { class: "card suit-" + code[1], "data-card": code }, cardText(code));
}
function cardsEl(codes) { return h("span", { class: "cards" }, (codes || []).map(cardEl)); }

function nameEl(p) {
  // RULES.md §12: circled if the player has said Chicago, a star per won Chicago.
  return h("span", { class: "pname" + (p.said_chicago ? " circled" : ""), "data-player": p.name },
    p.name, p.won_chicagos ? h("span", { class: "stars" }, "\u2605".repeat(p.won_chicagos)) : null);
}

function markers(p) {
  return h("span", { class: "markers" },
    p.draw_stop ? h("span", { class: "tag drawstop" }, t("draw stop")) : null,
    p.out ? h("span", { class: "tag out" }, t("out")) : null,
    p.dead_hand ? h("span", { class: "tag dead" }, t("dead hand")) : null);
}

const PHASES = { game_start: t("seat draw"), deal: t("dealing"), exchange_1: t("exchange 1"),
  exchange_2: t("exchange 2"), exchange_3: t("exchange 3"), quads_choice: t("four of a kind: choice"),
  chicago: t("Chicago question"), tricks: t("trick play"), game_over: t("game over"), table_over: t("table over") };

// Award reasons (REPLAY.md) in words, as the Revisor writes them in the protocol.
const REASONS = { one_pair: t("one pair"), two_pair: t("two pair"), three_of_a_kind: t("three of a kind"),
  straight: t("straight"), flush: t("flush"), full_house: t("full house"), four_of_a_kind: t("four of a kind"),
  straight_flush: t("straight flush"), royal_flush: t("royal flush"), last_trick: t("last trick"),
  last_trick_two: t("last trick with a two"), chicago_won: t("Chicago won"), chicago_lost: t("Chicago failed"),
  chicago_broken: t("Chicago broken"), revoke: t("revoke"), dealer_error: t("dealer's error"),
  zeroed: t("zeroed (four of a kind)"), draw_stop_attempt: t("exchange at draw stop"),
  penalty: t("penalty (TL)"), adjust: t("score correction (TL)") };
const MOMENTS = { exchange_1: t("exchange 1"), exchange_2: t("exchange 2"), exchange_3: t("exchange 3"),
  tricks: t("trick play"), final: t("the end of the deal"), tl: t("the TL's decision") };
function reasonText(r) { return REASONS[r] || String(r || "").replaceAll("_", " "); }
const CLOCKS = { exchange: t("exchange time"), chicago: t("Chicago time"), quads: t("four of a kind time"), play: t("play time"),
  time_call: t("time called") };
// Everyone has placed: the players in to_act wait for the dealer's cards, and no shot clock
// runs for them (D11: the exchange clock is for placing).  Shown as such, not as a missing clock.
function awaitingCards(s) {
  const running = (s.clocks && s.clocks.running) || {};
  return (s.phase || "").startsWith("exchange_") && (s.to_act || []).length > 0 && !s.to_act.some(p => running[p]);
}
function signed(n) { return (n > 0 ? "+" : "") + n; }
// "Anna +2 two pair (exchange 1)": one award in words.
function awardText(a) {
  return t("{player} {points} for {reason}", { player: a.player, points: signed(a.points), reason: reasonText(a.reason) });
}

function headerEl(m) {
  const s = m.state;
  return h("header", { class: "head" },
    h("span", { class: "table" }, m.table),
    h("span", { id: "where" }, s.game ? t("Game {game} \u00b7 deal {deal}", { game: s.game, deal: s.deal }) : t("Waiting for the first game")),
    h("span", { id: "phase", "data-phase": s.phase }, PHASES[s.phase] || s.phase),
    s.to_act && s.to_act.length ? h("span", { id: "to-act", "data-awaiting": awaitingCards(s) ? "1" : null },
      awaitingCards(s) ? t("cards owed to: {players}", { players: s.to_act.join(", ") }) : t("to act: {players}", { players: s.to_act.join(", ") })) : null,
    m.paused ? h("span", { id: "paused", class: "paused" }, t("PAUSED")) : null,
    // the log's count of events: what the TL and the Revisor name a moment by ("händelse 176")
    h("span", { id: "seq", "data-seq": m.seq, title: t("events in the table's log so far") }, t("event {n}", { n: m.seq })));
}

// The trick closed last, while no card of the next lies: its four cards stay in view, as on
// the table, and the card that ended a deal is seen (stop 72: it never was).
function closedTrick(s) { return s.last_trick && !(s.trick && s.trick.cards.length) ? s.last_trick : null; }

function trickEl(s) {
  const out = h("div", { class: "trick-area" });
  if (s.open_card) out.append(h("div", { id: "open-card" }, t("Open card for {player}:", { player: s.open_card.player }), " ",
    cardEl(s.open_card.card), " ", s.open_card.taken ? t("taken") : t("declined")));
  if (s.trick) out.append(h("div", { id: "trick" }, (s.trick.leader ? t("Trick {n} (lead {player}):", { n: s.trick.number, player: s.trick.leader })
    : t("Trick {n}:", { n: s.trick.number })) + " ",
    s.trick.cards.map(c => h("span", { class: "played" }, c.player + " ", cardEl(c.card)))));
  // the trick just taken, until the next card or deal (the card that ends a deal is seen)
  const lt = closedTrick(s);
  if (lt) out.append(h("div", { id: "last-trick", "data-number": lt.number }, t("Trick {n} to {player}:", { n: lt.number, player: lt.winner }) + " ",
    lt.cards.map(c => h("span", { class: "played" }, c.player + " ", cardEl(c.card)))));
  if (s.last_award) out.append(h("div", { id: "last-award", "data-reason": s.last_award.reason },
    t("Last award:"), " ", awardText(s.last_award)));
  return out;
}

// The result when a game or the table is over: who placed where, who goes on.
function resultEl(s) {
  const tb = s.table || {};
  if (s.phase === "table_over" && (tb.standings || []).length)
    return h("section", { id: "result", class: "result" }, h("b", {}, t("Table result")), " ",
      tb.standings.map(x => t("{rank}. {player}: {pp} placement points ({score} points)",
        { rank: x.rank, player: x.player, pp: x.placement_points, score: x.score_total })).join(" \u00b7 "),
      (tb.advancing || []).length ? h("div", { id: "result-goes-on" }, h("b", {}, t("Goes on: {players}",
        { players: tb.advancing.join(", ") }))) : null);
  const g = (s.games || []).find(x => x.number === s.game);
  if (s.phase === "game_over" && g && g.places)
    return h("section", { id: "result", class: "result" }, h("b", {}, t("Game {n} result", { n: g.number })), " ",
      Object.entries(g.places).sort((a, b) => a[1] - b[1]).map(([p, place]) =>
        t("{rank}. {player} ({score} points)", { rank: place, player: p, score: (g.scores || {})[p] ?? "-" })).join(" \u00b7 "));
  return null;
}

// Signing each finished game's protocol (RULES.md §12): "Revisorn intygar", then the TL
// countersigns; each an audit record.  ``role``: "revisor" or "tl".
function signEl(m, role) {
  const signed = m.signed || {};
  const games = ((m.state && m.state.games) || []).filter(g => g.finished);
  if (!games.length) return null;
  return h("section", { id: "signing" }, games.map(g => {
    const by = signed[String(g.number)] || [];
    const status = by.includes("tl") ? t("Game {n}: signed by the Revisor, countersigned by the TL", { n: g.number })
      : by.includes("revisor") ? t("Game {n}: signed by the Revisor", { n: g.number })
      // the TL's console says whom it waits for (stop 71: "not signed" alone)
      : role === "tl" ? t("Game {n}: not signed; waiting for the Revisor to certify it", { n: g.number })
      : t("Game {n}: not signed", { n: g.number });
    const mine = role === "revisor" ? !by.includes("revisor") : by.includes("revisor") && !by.includes("tl");
    const label = role === "revisor" ? t("The Revisor certifies game {n}", { n: g.number }) : t("Countersign game {n}", { n: g.number });
    return h("div", { class: "sign-row", "data-game": g.number, "data-signed": by.join(",") }, status, " ",
      mine ? h("button", { class: "sign", "data-game": g.number, onclick: async () => {
        if (!window.confirm(label + "?")) return;
        try { await post("/api/sign", { game: g.number }); showError(""); } catch (e) { showError(e.message); } } }, label) : null);
  }));
}
// signEl, kept while the finished games and their signatures stand (keptPart)
function keptSignEl(m, role) {
  const done = ((m.state && m.state.games) || []).filter(g => g.finished).map(g => g.number);
  return keptPart("signing", [done, m.signed || {}], () => signEl(m, role));
}

// Shot clocks (RULES.md §10) as the live loop last reported them; they count down here
// between messages, and stand still while the table is paused.  A player who is to act
// and has no clock running (none for this step, or it was not started) shows "no clock",
// so nobody reads a missing clock as time left.
function clockEl(s, name) {
  const call = s.clocks && s.clocks.time_calls && s.clocks.time_calls[name];
  const shot = shotClockEl(s, name);
  if (!call) return shot;
  // "time" called on the player (RULES.md §10): 60 s, then a 10 s countdown; at zero the hand is dead
  const deadline = s.clocks.paused ? null : performance.now() + call.remaining * 1000;
  const el = h("span", { class: "clock time-called", "data-clock": "time_call", "data-deadline": deadline }, "");
  tickClock(el, call.remaining);
  return h("span", { class: "clocks" }, shot, " ", el);
}
function shotClockEl(s, name) {
  const c = s.clocks && s.clocks.running && s.clocks.running[name];
  if (!c) {
    if (!s.to_act || !s.to_act.includes(name) || s.phase === "game_start" || s.phase === "deal") return null;
    return awaitingCards(s) ? h("span", { class: "clock none", "data-clock": "dealer" }, t("gets cards from the dealer"))
      : h("span", { class: "clock none", "data-clock": "none" }, t("no clock"));
  }
  const deadline = s.clocks.paused ? null : performance.now() + c.remaining * 1000;
  const el = h("span", { class: "clock", "data-clock": c.clock, "data-deadline": deadline }, "");
  tickClock(el, c.remaining);
  return el;
}
function tickClock(el, remaining) {
  const left = el.dataset.deadline ? (Number(el.dataset.deadline) - performance.now()) / 1000 : remaining;
  el.textContent = left <= 0 ? t("{clock}: time is up", { clock: CLOCKS[el.dataset.clock] || el.dataset.clock })
    : `${CLOCKS[el.dataset.clock] || el.dataset.clock} ${Math.ceil(left)} s`;
  el.classList.toggle("over", left <= 0);
}
setInterval(() => document.querySelectorAll(".clock[data-deadline]").forEach(el => tickClock(el, 0)), 250);

async function post(path, body) {
  const r = await fetch(path + "?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await r.json(); } catch (e) { /* empty body */ }
  if (!r.ok) throw new Error(data.error || t("The server did not say why it refused ({status}).", { status: r.status }));
  return data;
}

// A step that binds (a Chicago "yes", every other score zeroed, a card played or taken back
// on a player's phone) is asked once more on its own button: the first tap arms it (it then says what a second tap enters), a second tap within
// ARM_MS does it, and it falls back by itself otherwise.  Not a dialog: window.confirm stops
// the whole page while the table's shot clock runs on (D12: the Chicago question's expiry
// counts as "no" and is a violation on the player), so the clock would freeze on the screen
// and the answer could come too late through no fault of the player's.
// ``under``: the button keeps what it shows (a card's face) and says ``ask`` under it.
const ARM_MS = 4000;
function twoTaps(ask, act, under = false) {
  return ev => {
    const b = ev.currentTarget;
    if (b.dataset.armed) { disarm(b); act(); return; }
    document.querySelectorAll("[data-armed]").forEach(disarm);  // one armed at a time: the last tapped
    b.dataset.armed = "1";
    b.shown = [...b.childNodes];
    if (under) b.append(h("span", { class: "arm-note" }, ask));
    else b.replaceChildren(ask);
    b.classList.add("armed");
    b.disarmTimer = setTimeout(() => disarm(b), ARM_MS);
  };
}
function disarm(b) {
  clearTimeout(b.disarmTimer);
  if (!b.dataset.armed) return;
  delete b.dataset.armed;
  b.replaceChildren(...b.shown);
  b.classList.remove("armed");
}

function showError(msg) {
  let el = document.getElementById("error");
  if (!el) { el = h("div", { id: "error", class: "error" }); document.body.prepend(el); }
  el.textContent = msg || "";
  el.hidden = !msg;
}

// The stream: a fresh state on connect, live updates after; on a drop it reconnects and
// the first message brings it up to date (every message is the whole state for the role).
// So a page draws only the latest state, DRAW_GAP ms after its last drawing at the soonest: a burst (a
// reconnect, a table played at the demo's pace) is drawn once, not once per action, and a
// tablet or the Pi's browser is not kept busy drawing states nobody sees.  `each`, when
// given, still sees every message in order (the overlay's ticker tells every card played).
// The body's data-seq is the seq of the state drawn: a render that is async (it fetches)
// sets it itself with showSeq, when it puts the new state on the page.
const DRAW_GAP = 100;
function showSeq(m) { document.body.dataset.seq = m.seq; }
// What the server's drawing of the protocol (/api/protocol.html) is made of: the ruleset,
// the games, the table's standings and who signed.  A page fetches the drawing again only
// when this changes, not on every card played.
function protocolKey(m) {
  const s = (m && m.state) || {};
  return JSON.stringify([s.ruleset, s.games, s.table, (m && m.signed) || {}]);
}
function connect(render, each) {
  const conn = document.getElementById("conn");
  let ws, delay = 300, latest = null, timer = null, drawing = false, drawnAt = -Infinity;
  async function draw() {
    timer = null;
    if (drawing || !latest) return;
    const m = latest;
    latest = null; drawing = true; App.drawStart = performance.now();
    try {
      const done = render(m);
      if (done && typeof done.then === "function") await done; else showSeq(m);
    } catch (e) { console.error(e); }
    drawing = false; drawnAt = performance.now();  // the gap counts from a drawing's end: a slow device gets its rest too
    if (latest) later();
  }
  function later() {
    if (timer === null && !drawing) timer = setTimeout(draw, Math.max(0, drawnAt + DRAW_GAP - performance.now()));
  }
  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(TOKEN)}&since=${App.seq}`);
    ws.onopen = () => { delay = 300; conn.dataset.state = "live"; conn.textContent = t("live"); };
    ws.onmessage = ev => {
      const m = JSON.parse(ev.data);
      App.last = m; App.seq = m.seq;
      // a stuck table (live.stuck): who it waits for, instead of "live"
      const w = m.state && m.state.waiting;
      if (w) { conn.dataset.state = "waiting"; conn.textContent = (LANG === "sv" ? w.text_sv : w.text) || w.text; }
      else if (conn.dataset.state === "waiting") { conn.dataset.state = "live"; conn.textContent = t("live"); }
      if (each) { try { each(m); } catch (e) { console.error(e); } }
      latest = m;
      later();
    };
    ws.onclose = () => {
      conn.dataset.state = "reconnecting"; conn.textContent = t("reconnecting");
      setTimeout(open, delay); delay = Math.min(delay * 2, 3000);
    };
  }
  open();
  setInterval(() => { if (ws && ws.readyState === 1) ws.send("ping"); }, 20000);
}

function setKids(el, ...kids) {
  const list = present(kids);
  list.forEach(noteKept);
  el.replaceChildren(...list);
}

// One alert with what may be done about it: a rejected line is marked resolved; a sensing
// alert is settled by a correction.  The server sends a table alert's text in both
// languages (text: English, text_sv); a sensing alert's kind and place are worded here.
// The Revisor may only dismiss a sensing alert; the TL also sees its evidence (logged) and
// corrects it by tapping the card (tl.js: TL_ALERT).
const ALERT_KINDS = { rejected: t("rejected"), alert: t("alert"), camera_offline: t("camera offline"), overtime: t("overtime"),
  tl_called: t("TL called"), engine_failed: t("not judged"), log_failed: t("log not written") };
// An alert's label: its kind's name; a sensing alert of a kind without one is "sensing"
function alertLabel(a) { return ALERT_KINDS[a.kind] || (String(a.id).startsWith("s") ? t("sensing") : t("alert")); }
const SENSING_KINDS = { unknown_uid: t("an unknown tag"), two_pads: t("a card read on two pads"),
  foreign_card: t("a card from another player's hand"), misdeal: t("too many cards dealt"),
  dealer_count: t("wrong number of replacement cards (dealer error)"), draw_stop_discard: t("a discard at draw stop"),
  out_of_turn: t("a card played out of turn"), revoke: t("a revoke"), unsure_count: t("a count that does not add up: spread the cards"),
  camera_disagrees: t("camera and reader disagree"), reader_offline: t("a reader offline"),
  link_offline: t("the seat controller link is down"), rejected: t("the rules refused what the pads show") };
// What to do about a sensing alert, in words that name no card (the log's own text names
// them, so the pages show its kind and this; stop 71: "too many cards dealt" said nothing of
// what comes next).  Most alerts end by themselves once the table is put right.
const SENSING_NEXT = {
  unknown_uid: t("Say which card it is (a correction), or take it off the table."),
  two_pads: t("Move the pads apart, or correct where the card lies."),
  foreign_card: t("Give the card back to its owner, or correct the read."),
  misdeal: t("The dealer takes back the extra cards: the alert ends by itself when the pad holds five."),
  dealer_count: t("The dealer takes back the extra cards and presses NEXT: the alert ends by itself."),
  draw_stop_discard: t("The cards go back to the hand: a player at draw stop does not exchange (D5)."),
  out_of_turn: t("The card is taken back, or the TL decides (r25)."),
  unsure_count: t("Spread the cards on the pad so that each is read, or enter them by hand."),
  camera_disagrees: t("Spread the cards on the pad so that each is read, or enter them by hand."),
  reader_offline: t("Enter that seat's cards by hand until its reader is back."),
  link_offline: t("Connect the seat controller again, or enter the actions by hand."),
  rejected: t("Put it right at the table, or enter a correction."),
};
// Sensing's alerts whose text is fixed (no seat, no card) are in the catalogue whole.
const SENSING_TEXTS = {
  camera_offline: t("The camera is offline: the table plays on with the RFID readers"),
};
function padName(pad) { return /^seat\d$/.test(pad || "") ? t("pad {n}", { n: pad.slice(4) }) : pad === "tray" ? t("the tray") : pad; }
function alertText(a) {
  if (String(a.id).startsWith("s") && SENSING_TEXTS[a.kind] && !a.pad) return SENSING_TEXTS[a.kind];
  if (String(a.id).startsWith("s") && SENSING_KINDS[a.kind]) {
    const where = [a.pad ? padName(a.pad) : null, a.player ? `(${a.player})` : null].filter(Boolean).join(" ");
    const text = SENSING_KINDS[a.kind] + (where ? " " + t("at {where}", { where }) : "");
    return text[0].toUpperCase() + text.slice(1);
  }
  return (LANG === "sv" && a.text_sv) || a.text;
}
const TL_ALERT = { extra: null };  // the TL's page sets it: evidence and the card correction
function alertEl(a) {
  const sensing = String(a.id).startsWith("s");
  const next = sensing && SENSING_NEXT[a.kind] ? h("div", { class: "small alert-next" }, SENSING_NEXT[a.kind]) : null;
  const li = h("li", { "data-alert": a.id, "data-kind": a.kind, class: "alert" },
    h("b", { class: "alert-kind" }, alertLabel(a)), " ", alertText(a), " ", next);
  if (sensing) {
    const n = String(a.id).slice(1);
    const send = async text => {
      try { await post("/api/correct", { text }); showError(""); } catch (e) { showError(e.message); } };
    // one tap: the alert is settled as the table lies now (a card slid, a reader hiccup); the
    // dealer's call for the TL is the TL's to close
    if (a.kind !== "tl_called" || TL_ALERT.extra)
      li.append(h("button", { class: "dismiss", "data-alert": a.id, onclick: () => {
        if (window.confirm(t("Accept the table as it lies and close this alert?"))) send("dismiss " + n); } }, t("Dismiss")));
    // an overtime (D12) or a call for the TL has no pad reading to look at or put right: the TL
    // decides, then dismisses
    if (TL_ALERT.extra && a.kind !== "overtime" && a.kind !== "tl_called") li.append(TL_ALERT.extra(a, send));
  } else {
    li.append(h("button", { onclick: async () => {
      try { await post(`/api/alerts/${a.id}/resolve`); showError(""); } catch (e) { showError(e.message); } } }, t("Resolved")));
  }
  return li;
}

// What is wrong with an entry typed by hand that is not JSON, in the page's words (the
// browser's own message is English): where its reading stopped, as line and column (the
// position the browser names, else the end of the text).
function jsonProblem(text, error) {
  const said = String(error && error.message);
  const lc = /line (\d+) column (\d+)/.exec(said);  // Firefox's words (Chromium's too, beside the position)
  if (lc) return t("Not valid JSON near line {line}, column {col}: check the quotes, commas and braces.",
    { line: Number(lc[1]), col: Number(lc[2]) });
  const m = /position (\d+)/.exec(said);
  const at = m ? Math.min(Number(m[1]), text.length) : text.length;
  const before = text.slice(0, at).split("\n");
  return t("Not valid JSON near line {line}, column {col}: check the quotes, commas and braces.",
    { line: before.length, col: before[before.length - 1].length + 1 });
}

// Manual entry of a REPLAY.md action (a reader died: the table plays on by hand).  Cards by
// hand are the TL's; on a camera-only table (the page's data-hands) each player enters their
// own on their phone and the camera reads the face-up ones: the Revisor names no card.
const TEMPLATES = {
  game: { do: "game", seats: [], button: "" }, deal: { do: "deal", hands: {} },
  discard: { do: "discard", player: "", cards: [] }, open: { do: "open", player: "", card: "", take: true },
  receive: { do: "receive", player: "", cards: [] }, quads: { do: "quads", player: "", choice: "points" },
  chicago: { do: "chicago", player: "", say: false }, play: { do: "play", player: "", card: "" },
  retract: { do: "retract", player: "" }, timeout: { do: "timeout", player: "", clock: "play" },
  time_call: { do: "time_call", player: "" }, table: { do: "table", ruleset: "sm2025", players: [] },
};
const ACTION_NAMES = { game: t("new game (seats, button)"), deal: t("deal (cards)"), discard: t("exchange: cards placed"),
  open: t("open card"), receive: t("exchange: cards received"), quads: t("four of a kind: choice"),
  chicago: t("Chicago answer"), play: t("card played"), retract: t("card taken back"), timeout: t("time is up"),
  time_call: t("time called"), table: t("new table (players)") };
const CARD_KINDS = ["deal", "discard", "open", "receive", "play"];
// a hand dead by "time" is entered by the clocks at the call's zero, or by the TL (RULES.md §10)
const TL_KINDS = ["time_call"];
// On a camera-only table the TL enters for a player without a phone what the phone would
// (the seat's hand, the seat's exchange): another route than the actions'.
const SEAT_ENTRIES = {
  seat_hand: { route: "/api/hand", body: { seat: 1, cards: [] }, name: t("a player's hand, for a seat without a phone") },
  seat_exchange: { route: "/api/exchange", body: { seat: 1, cards: [] }, name: t("a player's exchange, for a seat without a phone") },
};
// A camera-only table (the page's data-hands): each player enters their own hidden cards
// on their phone, and the Revisor names no card.
const CAMERA_ONLY = document.body.dataset.hands === "revisor";
// cards: "all" (the TL) or none: "phones" (the Revisor at a camera-only table: the players'
// phones, the camera or the TL enter every card) or "none" (the table's readers do)
function manualEntry(cards) {
  const allowed = cards === "all" ? CARD_KINDS : [];
  const kinds = Object.keys(TEMPLATES).filter(k => (!CARD_KINDS.includes(k) || allowed.includes(k))
    && (!TL_KINDS.includes(k) || cards === "all"));
  const seats = cards === "all" && CAMERA_ONLY ? Object.keys(SEAT_ENTRIES) : [];
  const entry = h("textarea", { id: "manual-json", rows: 3, spellcheck: "false", oninput: () => { following = false; empty(); } });
  // A role that may not enter every card gets a choice of none: what it shows while the
  // table waits for cards that others enter (the hint says who), instead of another kind's
  // template; an entry typed by hand goes as it is, whatever kind is chosen.
  const none = cards === "all" ? [] : [h("option", { value: "" }, t("choose what to enter"))];
  const kind = h("select", { id: "manual-do", onchange: () => { following = false; template(); } },
    none, kinds.map(k => h("option", { value: k }, ACTION_NAMES[k] || k)),
    seats.map(k => h("option", { value: k }, SEAT_ENTRIES[k].name)));
  const hint = h("p", { id: "manual-hint", class: "small", hidden: true });
  const note = h("div", { id: "manual-result" });
  const submit = h("button", { id: "manual-submit", onclick: () => {
    let body; try { body = JSON.parse(entry.value); } catch (e) { showError(jsonProblem(entry.value, e)); return; }
    send(body, SEAT_ENTRIES[kind.value]).then(ok => { if (ok) { following = true; written = entry.value; follow(App.last); } }); } },
    t("Enter"));
  // The box follows the table (the next action's template) until somebody picks a kind or
  // types, and again once an entry is taken.
  let following = true, written = null;
  function template() {
    if (!kind.value) entry.value = written = "";
    else {
      const body = { ...(SEAT_ENTRIES[kind.value] ? SEAT_ENTRIES[kind.value].body : TEMPLATES[kind.value]) };
      const s = App.last && App.last.state;
      if ("player" in body && s && s.to_act && s.to_act.length) body.player = s.to_act[0];
      if (Array.isArray(body.seats) && s && s.players) body.seats = seatOrder(s);  // as they sit now; changed by choosing
      entry.value = written = JSON.stringify(body);
    }
    empty();
    shown();  // the form and the picker show the new entry (an entry taken, its answer after the state: stop 70)
  }
  function empty() { submit.disabled = !entry.value.trim(); }  // nothing typed, nothing to send
  // The action the table waits for now (REPLAY.md's phases): an exchange waits for cards
  // placed, then (awaitingCards, as the header says) for cards received.
  const BY_PHASE = { game_start: "game", game_over: "game", deal: "deal", quads_choice: "quads", chicago: "chicago", tricks: "play" };
  function awaited(s) {
    if (!s) return null;
    return (!s.ruleset ? "table" : s.phase.startsWith("exchange_") ? (awaitingCards(s) ? "receive" : "discard") : BY_PHASE[s.phase]) || null;
  }
  // Called with each state a page draws.
  function follow(m) {
    const k = awaited(m && m.state);
    const offered = k !== null && kinds.includes(k);
    const elsewhere = k !== null && !offered;  // cards this role does not enter
    const said = !elsewhere ? "" : cards === "none"
      ? t("The table waits for: {action}. The table's readers enter it; nothing to enter here.", { action: ACTION_NAMES[k] })
      : t("The table waits for: {action}. The players' phones or the TL enter it, not this box.", { action: ACTION_NAMES[k] });
    if (hint.textContent !== said) { hint.textContent = said; hint.hidden = !elsewhere; }  // each state drawn: the DOM only on a change
    if (!following || entry.value !== written || document.activeElement === entry || document.activeElement === kind) return;
    if (offered) kind.value = k;
    else if (elsewhere && none.length) kind.value = "";
    template();
  }
  async function send(body, seatEntry) {
    const what = seatEntry ? seatEntry.name : ACTION_NAMES[body.do] || body.do;
    try {
      await post(seatEntry ? seatEntry.route : "/api/action", body); note.textContent = t("entered: {what}", { what }); showError("");
      return true;
    }
    catch (e) { note.textContent = ""; showError(e.message); return false; }
  }
  // The cards of an entry tapped, not typed (the TL's, who may name every card): whose they
  // are, then the cards; the box below shows the entry as it will be sent and may still be
  // edited by hand.  A tap changes the entry in the box; a box that is not JSON is left alone.
  // The deck is laid out when the TL asks for it, not before: a page's cards are the table's
  // (the whole-table DOM check finds every card a page shows), and 52 buttons are not.
  const whose = h("select", { id: "manual-player", onchange: () => { edit(b => setPlayer(b, whose.value)); } });
  let grid = [];
  const deck = h("div", {});
  // whose hand a tap fills: a deal's (an entry of one player's cards names them above)
  const whoseLabel = h("label", {}, t("Whose cards:"), " ", whose);
  const tapped = h("div", { id: "manual-cards", class: "picker", hidden: true }, whoseLabel, deck);
  const opener = h("button", { id: "manual-open-cards", hidden: true, onclick: () => {
    if (grid.length) { grid = []; deck.replaceChildren(); } else layOut();
    shown(); } }, "");
  function layOut() {
    grid = ALL_CARDS.map(code => h("button", { class: "pick suit-" + code[1], "data-card": code,
      "aria-pressed": "false", onclick: () => edit(b => tap(b, code)) }, cardText(code)));
    deck.replaceChildren(...[..."SHDC"].map(st => h("div", { class: "pick-suit" }, grid.filter(x => x.dataset.card[1] === st))));
  }
  function body() { try { const b = JSON.parse(entry.value); return b && typeof b === "object" ? b : null; } catch (e) { return null; } }
  // an entry whose cards are tapped: an action naming cards, or a seat's hand or exchange
  function cardEntry(b) { return CARD_KINDS.includes(b.do) || (b.do === undefined && Array.isArray(b.cards)); }
  function listOf(b) {  // the cards of ``b`` the picker edits, as a list
    if (b.do === "deal") return (b.hands = b.hands || {})[whose.value] = b.hands[whose.value] || [];
    if (b.do === "discard" || b.do === "receive" || b.do === undefined) return b.cards = Array.isArray(b.cards) ? b.cards : [];
    return null;
  }
  function tap(b, code) {
    if (b.do === "play" || b.do === "open") { b.card = b.card === code ? "" : code; return; }
    const list = listOf(b);
    if (!list) return;
    const i = list.indexOf(code);
    if (i >= 0) list.splice(i, 1); else if (list.length < 5) list.push(code);
  }
  function setPlayer(b, p) { if ("player" in b) b.player = p; }
  function edit(change, any = false) {
    const b = body();
    if (!b || !(any || cardEntry(b))) return;
    change(b);
    entry.value = JSON.stringify(b);
    following = false;
    empty(); shown();
  }
  // the table's players in their seats' order (a new table's in the order they were named)
  function seatOrder(s) { return [...s.players].sort((x, y) => (x.seat ?? 99) - (y.seat ?? 99)).map(p => p.name); }
  // The entry's other parts are chosen, not typed: who, yes or no, which clock, which choice,
  // a new game's seats and button, a new table's rules and players.  A choice changes the
  // entry in the box as a tap does; the box may still be edited by hand.
  const fields = h("div", { id: "manual-fields" });
  let fieldsKey = null;
  const CHOICES = {
    take: [[true, t("taken")], [false, t("declined")]],
    say: [[true, t("Yes")], [false, t("No")]],
    choice: [["zero", t("Zero the others")], ["points", t("Take the points")]],
    clock: Object.entries(CLOCKS),
    ruleset: [["sm2025", t("SM 2025 (rules of June 2025)")], ["sm2019", t("SM 2019")], ["shootout", t("Chicago Shootout")], ["classic", t("classic Chicago")]],
  };
  const FIELD_NAMES = { player: t("Player:"), take: t("The card is:"), say: t("Says Chicago:"), choice: t("Four of a kind:"),
    clock: t("Clock:"), ruleset: t("Rules:"), seat: t("Seat:"), button: t("Dealer button:"), players: t("Players (names, separated by commas):") };
  function choiceEl(key, options, value, set) {
    const sel = h("select", { "data-field": key, onchange: () => set(options[sel.selectedIndex][0]) },
      options.map(([v, label]) => h("option", { value: String(v) }, label)));
    const i = options.findIndex(([v]) => v === value);
    sel.selectedIndex = i;  // -1: nothing chosen yet (a template's empty name)
    return sel;
  }
  function labelled(key, el) { return h("label", { class: "manual-field" }, FIELD_NAMES[key] || key, " ", el); }
  // the choices of a field: the table's players, its seats' numbers, or CHOICES'
  function optionsFor(key, names) {
    if (key === "player" || key === "button") return names.map(n => [n, n]);
    if (key === "seat") return names.map((_, i) => [i + 1, String(i + 1)]);
    return CHOICES[key] || null;
  }
  function drawFields(b, names) {
    const set = key => v => edit(x => { x[key] = v; }, true);
    const pick = optionsFor("player", names);
    const out = [];
    for (const key of Object.keys(b)) {
      const options = optionsFor(key, names);
      if (options) out.push(labelled(key, choiceEl(key, options, b[key], set(key))));
      else if (key === "seats" && Array.isArray(b.seats)) {
        const seats = names.map((_, i) => choiceEl("seats", pick, b.seats[i], v => edit(x => {
          x.seats = names.map((__, j) => (j === i ? v : (x.seats || [])[j] || "")); }, true)));
        seats.forEach((el, i) => el.setAttribute("data-seat", i + 1));
        out.push(h("div", { class: "manual-field" }, t("Seats, clockwise:"), " ",
          seats.map((el, i) => h("label", {}, t("seat {n}", { n: i + 1 }), " ", el))));
      } else if (key === "players" && Array.isArray(b.players) && b.do === "table") {
        const input = h("input", { "data-field": "players", type: "text", autocomplete: "off", value: b.players.join(", "),
          oninput: () => edit(x => { x.players = input.value.split(",").map(n => n.trim()).filter(Boolean); }, true) });
        out.push(labelled(key, input));
      }
    }
    fields.replaceChildren(...out);
  }
  // The form shows the entry in the box; it is drawn anew only when the kind or the table's
  // players change (a choice being made is not taken from under a finger).
  function formShown(b) {
    const s = App.last && App.last.state;
    const names = s && s.players ? seatOrder(s) : [];
    const key = b ? JSON.stringify([b.do, Object.keys(b), names]) : null;
    if (key !== fieldsKey) { fieldsKey = key; if (b) drawFields(b, names); else fields.replaceChildren(); }
    if (!b) return;
    for (const sel of fields.querySelectorAll("select[data-field]")) {
      const k = sel.dataset.field;
      const options = optionsFor(k, names);
      if (options && document.activeElement !== sel) sel.selectedIndex = options.findIndex(([v]) => v === b[k]);
    }
    for (const sel of fields.querySelectorAll("select[data-seat]"))
      if (document.activeElement !== sel) sel.selectedIndex = names.indexOf((b.seats || [])[Number(sel.dataset.seat) - 1]);
    const input = fields.querySelector("input[data-field=players]");
    if (input && document.activeElement !== input) input.value = (b.players || []).join(", ");
  }
  // The picker shows the entry in the box: its kind's cards pressed, its player chosen.
  function shown() {
    const b = body();
    formShown(b);
    const on = cards === "all" && b && cardEntry(b);
    opener.hidden = !on;
    opener.textContent = grid.length ? t("Hide the cards") : t("Choose the cards by tapping");
    tapped.hidden = !on || !grid.length;
    if (tapped.hidden) return;
    const s = App.last && App.last.state;
    const names = (s && s.players ? s.players.map(p => p.name) : []);
    if (whose.options.length !== names.length || [...whose.options].some((o, i) => o.value !== names[i]))
      whose.replaceChildren(...names.map(n => h("option", { value: n }, n)));
    if ("player" in b && names.includes(b.player)) whose.value = b.player;
    whoseLabel.hidden = b.do !== "deal";
    const list = b.do === "play" || b.do === "open" ? [b.card] : b.do === "deal" ? ((b.hands || {})[whose.value] || []) : (b.cards || []);
    for (const x of grid) x.setAttribute("aria-pressed", list.includes(x.dataset.card) ? "true" : "false");
  }
  entry.addEventListener("input", shown);  // a kind chosen shows itself (template), a player chosen too (edit)
  const el = h("section", { id: "manual" }, h("h2", {}, t("Enter an action by hand")), hint, kind, fields, opener, tapped,
    // the entry as JSON, folded: what is sent, for whoever wants to see or edit it by hand
    h("details", { id: "manual-json-box" }, h("summary", { class: "small" }, t("The entry as JSON (what is sent; may be edited by hand)")), entry),
    submit, note);
  const followed = follow;
  template();
  return { el, send, follow: m => { followed(m); shown(); } };
}

// A card picker (issue 18): the cards are tapped, not typed.  ``offer``: the cards that may
// be picked (the rest are greyed out); ``min``/``max``: how many; ``actions``: the buttons
// under it, [{id, label(n), ok(n), send(cards)}].  Used only where the role may name the
// cards (the TL; a player's own phone, its own cards): a blind role's page never has it.
const RANKS = "23456789TJQKA";
const ALL_CARDS = [..."SHDC"].flatMap(s => [...RANKS].map(r => r + s));
function cardPicker({ id, offer, min = 0, max = 5, actions, hint }) {
  const picked = [];
  const chosen = h("div", { class: "picked" });
  const buttons = actions.map(a => h("button", { id: a.id, class: "pick-go", onclick: async () => {
    if (!a.ok(picked.length)) return;
    for (const b of buttons) b.disabled = true;
    try { await a.send([...picked]); } finally { for (const b of buttons) b.disabled = false; update(); } } }, ""));
  const cards = ALL_CARDS.map(code => h("button", { class: "pick suit-" + code[1], "data-card": code,
    "aria-pressed": "false", disabled: offer && !offer.has(code) ? true : null, onclick: () => {
      const i = picked.indexOf(code);
      if (i >= 0) picked.splice(i, 1);
      else if (picked.length < max) picked.push(code);
      else if (max === 1) picked.splice(0, 1, code);  // one card: a tap changes it
      update(); } }, cardText(code)));
  function update() {
    for (const b of cards) b.setAttribute("aria-pressed", picked.includes(b.dataset.card) ? "true" : "false");
    setKids(chosen, picked.length ? [t("Chosen:"), " ", cardsEl(picked)] : h("span", { class: "small" }, hint || t("Tap the cards.")));
    actions.forEach((a, i) => { buttons[i].textContent = a.label(picked.length); buttons[i].disabled = !a.ok(picked.length); });
  }
  update();
  return h("div", { class: "picker", id }, [..."SHDC"].map(s => h("div", { class: "pick-suit" }, cards.filter(b => b.dataset.card[1] === s))),
    chosen, h("div", { class: "pick-actions" }, buttons));
}
