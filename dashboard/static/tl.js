// The TL's console: alerts first, the table's state, the decisions (pause/resume with their
// own reasons, penalty, score correction, reveal) beside it, every one confirmed before it
// applies; the deal's history in plain words and the audit trail below.
"use strict";
const live = h("div", { id: "live" });
const hist = h("section", { id: "history" });
const audit = h("section", { id: "audit" });
const msg = h("div", { id: "tl-result", role: "status" });
const who = id => h("select", { class: "who", id });
const pPlayer = who("penalty-player"), aPlayer = who("adjust-player"), rPlayer = who("reveal-player");
const PENALTIES = { warning: t("warning"), sit_out_deal: t("sit out a deal"), sit_out_game: t("sit out a game"),
  last_place: t("last place in the game"), no_placement: t("no placement points"), points: t("points deducted") };
const pKind = h("select", { id: "penalty-kind" }, Object.entries(PENALTIES).map(([k, v]) => h("option", { value: k }, v)));
const pPoints = h("input", { id: "penalty-points", type: "number", min: "0", value: "0", title: t("points deducted") });
const pReason = h("input", { id: "penalty-reason", placeholder: t("reason (required)") });
const aPoints = h("input", { id: "adjust-points", type: "number", value: "0", title: t("points (+ or -)") });
const aReason = h("input", { id: "adjust-reason", placeholder: t("reason (required)") });
const rReason = h("input", { id: "reveal-reason", placeholder: t("dispute (required)") });
const pauseReason = h("input", { id: "pause-reason", placeholder: t("why (kept in the audit trail)") });
const resumeReason = h("input", { id: "resume-reason", placeholder: t("why (kept in the audit trail)") });

// Every decision is confirmed in words before it applies (issue 18).
function confirmed(text) { return window.confirm(text); }
// The latest award as the Revisor confirmed it ("Stämmer"), beside the award itself.
function awardConfirmedEl(m, s) {
  const g = (s.games || []).find(x => x.number === s.game);
  if (!s.last_award || !g || !g.deals.length) return null;
  const key = `${g.number}.${g.deals[g.deals.length - 1].number}.${s.last_award.moment}`;
  return (m.confirmed || []).includes(key)
    ? h("div", { id: "tl-award-confirmed", class: "confirmed", "data-key": key }, "\u2713 ", t("Confirmed by the Revisor")) : null;
}

async function act(path, body, label, question) {
  if (question && !confirmed(question)) return null;
  try { const r = await post(path, body); msg.textContent = label(r); showError(""); refresh(); return r; }
  catch (e) { msg.textContent = ""; showError(e.message); return null; }
}
function needReason(input) { if (!input.value.trim()) { showError(t("Give a reason.")); input.focus(); return false; } return true; }

// An answer to a penalty or correction says what was applied: the score stops at 0 (r19).
function appliedText(r, player, asked) {
  if (r && r.applied !== undefined && r.applied !== asked)
    return t("{player}: {applied} applied, not {asked}: a score does not go below 0 (r19)",
      { player, applied: signed(r.applied), asked: signed(asked) });
  return "";
}

const controls = h("section", { id: "controls" },
  h("div", { class: "row" }, h("b", {}, t("Pause")), pauseReason,
    h("button", { id: "pause", onclick: () => act("/api/pause", { reason: pauseReason.value },
      () => { pauseReason.value = ""; return t("Table paused"); }, t("Pause the table?")) }, t("Pause"))),
  h("div", { class: "row" }, h("b", {}, t("Resume")), resumeReason,
    h("button", { id: "resume", onclick: () => act("/api/resume", { reason: resumeReason.value },
      () => { resumeReason.value = ""; return t("Play resumed"); }, t("Let play go on?")) }, t("Resume"))),
  h("div", { class: "row" }, h("b", {}, t("Penalty")), pPlayer, pKind, pPoints, pReason,
    h("button", { id: "penalty-submit", onclick: () => { if (!needReason(pReason)) return;
      const b = { do: "penalty", player: pPlayer.value, kind: pKind.value, reason: pReason.value };
      const pts = Math.abs(parseInt(pPoints.value, 10) || 0);
      if (pKind.value === "points") b.points = pts;
      const what = PENALTIES[pKind.value] + (pKind.value === "points" ? ` (${-pts})` : "");
      // a decision taken empties its form: kept, it invited the same penalty twice (stop 71)
      act("/api/action", b, r => { const said = [t("Penalty given: {player}, {what}", { player: b.player, what }),
        b.kind === "points" ? appliedText(r, b.player, -pts) : ""].filter(Boolean).join(". ");
        pReason.value = ""; pPoints.value = "0"; return said; },
        t("Give {player} a penalty: {what}?", { player: b.player, what })); } }, t("Give"))),
  h("div", { class: "row" }, h("b", {}, t("Score correction")), aPlayer, aPoints, aReason,
    h("button", { id: "adjust-submit", onclick: () => { if (!needReason(aReason)) return;
      const pts = parseInt(aPoints.value, 10) || 0;
      const b = { do: "adjust", player: aPlayer.value, points: pts, reason: aReason.value };
      act("/api/action", b, r => { const said = [t("Score corrected: {player} {points}", { player: b.player, points: signed(pts) }),
        appliedText(r, b.player, pts)].filter(Boolean).join(". ");
        aReason.value = ""; aPoints.value = "0"; return said; },
        t("Correct {player}'s score by {points}?", { player: b.player, points: signed(pts) })); } }, t("Correct"))),
  h("div", { class: "row" }, h("b", {}, t("Reveal a hand")), rPlayer, rReason,
    h("button", { id: "reveal-submit", onclick: () => { if (!needReason(rReason)) return;
      act("/api/reveal", { player: rPlayer.value, reason: rReason.value }, () => t("Hand shown to the TL (logged)"),
        t("Show {player}'s hand to the TL? This is logged.", { player: rPlayer.value })); } }, t("Reveal")),
    h("button", { id: "hide", onclick: () => act("/api/hide", {}, () => t("Hands hidden again")) }, t("Hide"))),
  msg,
  h("div", { class: "small" }, h("a", { id: "hall-link", href: "/hall?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG },
    t("All tables of the event"))));

// left: the state, alerts first, and the history; right: the decisions and the audit trail
const manual = manualEntry("all");
setKids(document.getElementById("app"), h("div", { class: "tl-main" }, h("div", { class: "tl-left" }, live, hist),
  h("div", { class: "tl-right" }, controls, audit)), manual.el);

// The history in plain words ("Cilla declined the open card 9♥").
function cardsText(v) { return Array.isArray(v) ? v : null; }
function eventEl(e) {
  const c = x => cardEl(x);
  const n = v => (typeof v === "number" ? v : (v || []).length);
  const words = {
    deal_started: () => [t("Deal {n} dealt; button {player}", { n: e.number, player: e.button })],
    cards_placed: () => [tn("{player} placed {n} card (exchange {x})", "{player} placed {n} cards (exchange {x})",
      n(e.cards), { player: e.player, x: e.exchange })],
    open_card_shown: () => e.taken ? [t("{player} took the open card", { player: e.player }), " ", c(e.card)]
      : [t("{player} declined the open card", { player: e.player }), " ", c(e.card)],
    cards_received: () => [tn("{player} received {n} card", "{player} received {n} cards", n(e.cards), { player: e.player })],
    exchange_ended: () => [t("Exchange {x} over", { x: e.exchange })],
    phase_entered: () => [t("Now: {phase}", { phase: PHASES[e.phase === "exchange" ? "exchange_" + e.exchange : e.phase] || e.phase })],
    awarded: () => [awardText(e) + (e.asked && e.asked !== e.points ? " " + t("(asked {asked}; a score stops at 0)", { asked: signed(e.asked) }) : "")],
    hand_broken: () => [t("{player} broke a scoring hand", { player: e.player })],
    chicago_answered: () => [e.say ? t("{player} said Chicago", { player: e.player }) : t("{player} said no to Chicago", { player: e.player })],
    quads_chosen: () => [e.choice === "zero" ? t("{player} zeroed the others (four of a kind)", { player: e.player })
      : t("{player} took the points (four of a kind)", { player: e.player })],
    card_played: () => [t("{player} played", { player: e.player }), " ", c(e.card), e.revoke ? " " + t("(revoke)") : ""],
    card_retracted: () => [t("{player} took back", { player: e.player }), " ", c(e.card)],
    trick_won: () => [t("{player} won trick {n} with", { player: e.player, n: e.number }), " ", c(e.card)],
    penalty_given: () => [t("Penalty for {player}: {what}", { player: e.player, what: PENALTIES[e.kind] || e.kind }) + (e.reason ? ` (${e.reason})` : "")],
    violation_recorded: () => [t("{player} ran out of time ({clock})", { player: e.player, clock: CLOCKS[e.clock] || e.clock })],
    hand_folded: () => [t("{player}'s hand is folded", { player: e.player })],
    player_out: () => [t("{player} went out", { player: e.player })],
    deal_ended: () => [t("Deal {n} over", { n: e.number })],
    game_ended: () => [e.winner ? t("Game {n} over: {player} won", { n: e.number, player: e.winner }) : t("Game {n} over", { n: e.number })],
    game_places_revised: () => [t("Game {n} placed again after the correction: {places}", { n: e.number,
      places: Object.entries(e.places || {}).sort((x, y) => x[1] - y[1]).map(([p, i]) => `${i}. ${p}`).join(", ") })],
    table_ended: () => [t("The table is over: {ranking}", { ranking: (e.ranking || []).map((p, i) => `${i + 1}. ${p}`).join(", ") })],
    dealer_erred: () => [t("Dealer's error at {player}", { player: e.player })],
    game_started: () => [t("Game {n} started; button {player}", { n: e.number, player: e.button })],
    playoff_needed: () => [t("Särspel between {players}", { players: (e.players || []).join(", ") })],
    table_opened: () => [t("The table opened: {players}", { players: (e.players || []).join(", ") })],
    stub_reshuffled: () => [t("The discards were shuffled into a new stub (r16)")],
    deduction_held: () => [t("{player}: a deduction of {points} held to the end of the deal", { player: e.player, points: e.points })],
    deductions_released: () => [t("{player}: held deductions applied", { player: e.player })],
    chicago_mark_cleared: () => [t("{player}'s Chicago mark cleared", { player: e.player })],
    revoke_stood: () => [e.dead ? t("{player}'s revoke stands: dead hand (r26)", { player: e.player }) : t("{player}'s revoke stands (r26)", { player: e.player })],
  }[e.type];
  return h("li", { "data-seq": e.seq, "data-type": e.type, class: e.type === "deal_started" || e.type === "game_started" ? "hist-head" : null }, ...(words ? words() : [String(e.type).replaceAll("_", " ")]));
}

// A sensing correction in words (the record keeps the console's text: "dismiss 4: ...",
// "the card at seat3 is 7H", "tag 04A2 is 7H"): a dismissal is not a corrected card.
function correctionText(e) {
  const c = String(e.correction || "");
  const card = x => (x[0] === "T" ? "10" : x[0]) + (SUITS[x[1]] || x.slice(1));
  let m = c.match(/^dismiss (\d+)(?:: (.*))?$/);
  if (m) return t("dismissed alert {n}", { n: m[1] }) + (m[2] ? ": " + m[2] : "");
  m = c.match(/^the card at (\S+) is (\S+)$/);
  if (m) return t("corrected sensing") + ": " + t("the card at {pad} is {card}", { pad: padName(m[1]), card: card(m[2]) });
  m = c.match(/^tag (\S+) is (\S+)$/);
  if (m) return t("corrected sensing") + ": " + t("tag {uid} is {card}", { uid: m[1], card: card(m[2]) });
  return t("corrected sensing") + (c ? ": " + c : "");
}

// Who did it, in words: a role, a seat's phone
function byName(by) {
  const roles = { tl: t("TL"), revisor: t("Revisor"), dealer: t("Dealer") };
  return roles[by] || (/^seat\d$/.test(by || "") ? t("Seat {n}", { n: by.slice(4) }) : by);
}
// The reasons the system itself logs in the trail (dashboard/hub.py), in the page's words;
// any other reason is the TL's own, shown as typed
const SYSTEM_REASONS = {
  "settled by the next accepted entry": t("settled by the next accepted entry"),
  "no alert shown by that tag": t("no alert shown by that tag"), "a call for the TL": t("a call for the TL"),
  "a number, not a tag shown": t("a number, not a tag shown"), "no open alert": t("no open alert"),
  "entering cards by hand is the TL's (ARCHITECTURE.md §3)": t("entering cards by hand is the TL's (ARCHITECTURE.md §3)"),
};
function clockTime(at) { return new Date(at * 1000).toLocaleTimeString(LANG === "sv" ? "sv-SE" : "en-GB"); }
// entries: the trail, so that a void names the ruling it voids by its time and kind, not by
// the log's record number
function auditText(e, entries) {
  if (e.what === "correction")
    return `${clockTime(e.at)} ${byName(e.by)} ` + correctionText(e);
  if (e.what === "restored")  // a restart: the clocks as stored, paused until play resumes
    return `${clockTime(e.at)} ` + t("The table started again: its clocks as they were, paused until play is resumed");
  if (e.what === "confirm_award")  // the Revisor's "Stämmer" at a scoring moment
    return `${clockTime(e.at)} ` + t("The Revisor confirmed {awards} (game {game}, deal {deal}, {moment})",
      { awards: (e.awards || []).map(awardText).join("; "), game: e.game, deal: e.deal, moment: MOMENTS[e.moment] || e.moment });
  const WHAT = { pause: t("paused the table"), resume: t("resumed play"), reveal: t("revealed"), hide: t("hid the hands"),
    resolve_alert: t("resolved an alert"), correction: t("corrected sensing"), correction_refused: t("correction refused"),
    penalty: t("gave a penalty to"), adjust: t("corrected the score of"), time: t("called time on"),
    time_call: t("ended by time the hand of"),
    sign: t("signed the protocol of game {n}", { n: e.game }), evidence: t("looked at the evidence of an alert"),
    void: e.what === "void" ? voidText(e, entries) : "" };
  return `${clockTime(e.at)} ${byName(e.by)} ${WHAT[e.what] || e.what}` +
    (e.player ? " " + e.player : "") + (e.what === "penalty" ? ` (${PENALTIES[e.kind] || e.kind}${e.applied !== undefined ? " " + signed(e.applied) : ""})`
      : e.applied !== undefined ? " " + signed(e.applied) : e.points !== undefined ? " " + signed(e.points) : "") +
    (e.what === "evidence" && e.pad ? " (" + padName(e.pad) + ")" : "") + (e.reason ? ": " + (SYSTEM_REASONS[e.reason] || e.reason) : "");
}

function voidText(e, entries) {
  const ruled = (entries || []).find(x => x.seq === e.ruling);
  if (!ruled) return t("voided a ruling");
  return ruled.what === "penalty" ? t("voided the penalty of {time}", { time: clockTime(ruled.at) })
    : t("voided the score correction of {time}", { time: clockTime(ruled.at) });
}

// A TL ruling (a score correction, a points penalty) is voided from the audit trail: the
// points come back by a correction that names it, and the void is on the record.
function voidEl(e) {
  if (!["penalty", "adjust"].includes(e.what) || e.voided || !e.applied) return e.voided ? h("span", { class: "tag voided" }, t("voided")) : null;
  return h("button", { class: "void", "data-ruling": e.seq, onclick: () => {
    // (each t() a call of its own: the catalogue's extraction does not see one inside another's arguments)
    const what = e.what === "penalty" ? t("penalty") : t("score correction");
    const reason = window.prompt(t("Void this ruling ({what}: {player} {points})? Why:", { what, player: e.player, points: signed(e.applied) }));
    if (reason === null) return;
    if (!reason.trim()) { showError(t("Give a reason.")); return; }
    act("/api/void", { ruling: e.seq, reason }, () => t("Ruling voided: {player} {points}", { player: e.player, points: signed(-e.applied) }));
  } }, t("Void"));
}

// The history of the deal, the game or the whole table (issue 18), newest first.
const SCOPES = { deal: t("This deal"), game: t("This game"), table: t("The whole table") };
let scope = "deal";
function scopeTabs() {
  return h("div", { class: "scopes" }, Object.entries(SCOPES).map(([k, v]) => h("button", { class: "scope", "data-scope": k,
    "aria-pressed": k === scope ? "true" : "false", onclick: () => { scope = k; refresh(); } }, v)));
}

// A sensing alert on the TL's page: its evidence on request (it names cards: logged, as a
// reveal is) and the correction by a tap on the card.  Kept per alert across updates.
const alertExtras = new Map();
// The camera's picture of the alert's pad, cut from its last frame (issue 18): a hand pad's
// shows hidden cards, so the route is the TL's alone; without a camera the evidence says so.
function padPictureEl(d) {
  if (!d.pad) return null;
  const what = t("The camera's picture of {pad}", { pad: padName(d.pad) });
  if (!d.camera) return h("div", { class: "crop-none" }, t("No camera at this table: there is no picture of the pad."));
  const url = `/api/alerts/${d.id}/crop?pad=${encodeURIComponent(d.pad)}&token=${encodeURIComponent(TOKEN)}&lang=${LANG}&at=${Date.now()}`;
  const box = h("figure", { class: "crop", "data-pad": d.pad });
  box.append(h("img", { src: url, alt: what, onerror: async () => {
    let why = t("The camera gives no picture now.");
    try { why = (await (await fetch(url)).json()).error || why; } catch (e) { /* the default words */ }
    box.replaceChildren(h("figcaption", { class: "crop-error" }, why));
  } }), h("figcaption", {}, what));
  return box;
}
function evidenceEl(d) {
  const ev = d.evidence || {};
  const named = [].concat(ev.cards || [], ev.card ? [ev.card] : []);
  return h("div", { class: "evidence", "data-alert": d.id },
    h("div", {}, h("b", {}, t("Evidence")), " ", padName(d.pad) || "-", d.player ? ` (${d.player})` : "", " \u00b7 ",
      d.at ? t("raised at {time}", { time: clockTime(d.at) }) : ""),
    named.length ? h("div", {}, t("Cards read:"), " ", cardsEl(named), ev.owner ? " " + t("(from {player}'s hand)", { player: ev.owner }) : "") : null,
    h("div", { class: "pads" }, h("b", {}, t("The pads now:")), (d.pads || []).map(p => h("div", { class: "pad", "data-pad": p.pad },
      padName(p.pad), p.player ? ` (${p.player})` : "", ": ", p.cards.length ? cardsEl(p.cards) : t("empty")))),
    padPictureEl(d));
}
TL_ALERT.extra = (a, send) => {
  if (alertExtras.has(a.id)) return alertExtras.get(a.id);
  const box = h("div", { class: "alert-tools" });
  const n = /^seat\d$/.test(a.pad || "") ? a.pad.slice(4) : null;
  const evidenceBtn = h("button", { class: "evidence-show", "data-alert": a.id, onclick: async () => {
    if (!confirmed(t("Show the evidence? It names the cards read; this is logged."))) return;
    try { const d = await post(`/api/alerts/${a.id}/evidence`); box.querySelector(".evidence")?.remove(); box.prepend(evidenceEl(d)); showError(""); refresh(); }
    catch (e) { showError(e.message); } } }, t("Evidence"));
  const fix = n ? h("button", { class: "correct-open", "data-alert": a.id, onclick: () => {
    if (box.querySelector(".picker")) return;
    box.append(h("div", { class: "small picker-label" }, t("The card on {pad} is:", { pad: padName(a.pad) })),
      cardPicker({ id: "correct-" + a.id, min: 1, max: 1, actions: [{ id: "correct-send", ok: k => k === 1,
        label: () => t("Correct"), send: async cards => {
          if (!confirmed(t("Correct: the card on {pad} is {card}?", { pad: padName(a.pad), card: cards[0] }))) return;
          await send(`the card at pad ${n} is ${cards[0]}`);
          box.querySelectorAll(".picker, .picker-label").forEach(x => x.remove()); refresh(); } }] }));
  } }, t("Correct…")) : null;
  box.append(h("div", {}, evidenceBtn, fix));
  alertExtras.set(a.id, box);
  return box;
};

let names = "";
// Answers can overtake each other: only the newest refresh asked for draws (an older one
// drawn last left the audit trail without the TL's correction until the table moved again).
let refreshes = 0;
async function refresh() {
  const mine = ++refreshes;
  const q = "?token=" + encodeURIComponent(TOKEN);
  let hr, ar;
  try { [hr, ar] = await Promise.all([fetch("/api/history" + q + "&scope=" + scope), fetch("/api/audit" + q)]); }
  catch (e) { hr = ar = null; }
  const body = r => (r && r.ok ? r.json().catch(() => undefined) : null);  // undefined: cut off
  const [hd, ad] = await Promise.all([body(hr), body(ar)]);
  // an answer that did not come (a busy server, a dropped connection, a body cut off on its
  // way) is asked again soon: a table that waits on the TL sends no new state that would ask for it
  const failed = [hr, ar].some(r => !r || r.status === 429 || r.status >= 500) || hd === undefined || ad === undefined;
  if (mine === refreshes && failed && !pending) pending = setTimeout(() => { pending = null; refresh(); }, 1000);
  if (mine !== refreshes) return;  // a newer refresh was asked meanwhile: it draws
  // each list made again only when what it shows changed (keptPart: its buttons stay under a tap)
  if (hd) { const d = hd; hist.dataset.seq = d.seq; hist.dataset.scope = d.scope;
    // newest first: what just happened is what the TL is asked about
    morphKids(hist, ...keptPart("history", [d.scope, d.events], () => [h("h2", {}, t("History, newest first")), scopeTabs(),
      h("ol", { reversed: true, "data-scope": d.scope }, d.events.map(eventEl).reverse())])); }
  // the latest 20 entries, newest first as the history is (stop 71: the trail was oldest first)
  if (ad) { const d = ad; const shown = d.entries.slice(-20).reverse();
    morphKids(audit, ...keptPart("audit", shown, () => [h("h2", {}, t("Audit trail, newest first")), shown.length ? h("ul", {}, shown.map(e =>
      h("li", { "data-what": e.what, "data-seq": e.seq }, auditText(e, d.entries), " ", voidEl(e))))
      : h("p", { class: "small", id: "audit-empty" }, t("no entries yet"))])); }
}
let pending = null;
connect(m => {
  const s = m.state;
  manual.follow(m);
  const n = s.players.map(p => p.name).join(",");
  if (n !== names) { names = n; for (const sel of [pPlayer, aPlayer, rPlayer]) setKids(sel, ...s.players.map(p => h("option", { value: p.name }, p.name))); }
  const alerts = m.alerts || [];
  for (const id of [...alertExtras.keys()]) if (!alerts.some(a => a.id === id)) alertExtras.delete(id);
  morphKids(live, headerEl(m),
    keptPart("alerts", alerts, () => h("section", { id: "tl-alerts", class: alerts.length ? "has-alerts" : "" }, h("h2", {}, t("Alerts")),
      alerts.length ? h("ul", {}, alerts.map(alertEl)) : h("p", { class: "small" }, t("no open alerts")))),
    h("table", { id: "tl-players" }, h("tr", {}, [t("Player"), t("Score"), t("Clock"), t("Hand (revealed only)"), t("Played"), t("Warnings / time violations")].map(x => h("th", {}, x))),
      s.players.map(p => h("tr", { "data-player": p.name, "data-held": p.hand_count || 0, class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, nameEl(p)), h("td", { class: "score", "data-label": t("Score") }, p.score), h("td", { class: "tl-clock" }, markers(p), clockEl(s, p.name)),
        h("td", { class: "revealed", "data-label": t("Hand (revealed only)") }, p.hand ? [cardsEl(p.hand), " ", AUD.handName(p.hand)] : "-"),
        h("td", { "data-label": t("Played") }, cardsEl(p.played)),
        h("td", { class: "tl-warnings", "data-label": t("Warnings / time violations") }, `${p.warnings || 0} / ${p.violations || 0}`)))),
    trickEl(s), awardConfirmedEl(m, s), resultEl(s), keptSignEl(m, "tl"));
  // the history follows, at most every half second (a throttle: a busy table never starves
  // it; at 200 ms a fast table's TL page took a fifth more of chromium and the server)
  if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 500);
});
