// The Revisor's tablet (a player at the table): the public state, the Chicago question and
// the quads choice, each award in words at its scoring moment, the game's deals, the running
// protocol (the server's drawing, as in the PDF), alerts, and entering by hand (cards only
// on a camera-only table).  It never receives a hidden card.
"use strict";
const live = h("div", { id: "live" });
const alerts = h("section", { id: "alerts" });
const deals = h("section", { id: "deals" });
const protocol = h("section", { id: "protocol-box" });
// Cards by hand are the TL's (or, on a camera-only table, each player's own on their phone).
const manual = manualEntry(CAMERA_ONLY ? "phones" : "none");
const send = manual.send;
const more = h("details", { id: "manual-box" }, h("summary", {}, t("Enter an action by hand")), manual.el);
// a tablet: the table and the protocol under it left, the game's deals right (stop 71: in the
// narrower right column, under the deals, the protocol's text was 7 px and far down); a phone:
// one column
setKids(document.getElementById("app"), h("div", { class: "rev-main" }, h("div", { class: "rev-left" }, live, alerts, protocol, more),
  h("div", { class: "rev-right" }, deals)));

// The question's buttons stay the same nodes while the question stands (keptPart: a click
// whose press and release a drawing falls between is not lost); its clock is drawn anew.
function questionEl(s) {
  const chicago = s.phase === "chicago" && s.chicago.asking;
  const quads = s.phase === "quads_choice" && s.to_act.length;
  if (!chicago && !quads) return null;
  const p = chicago ? s.chicago.asking : s.to_act[0];  // D3: asked in turn, the first yes ends the round
  const el = keptPart("question", [s.phase, p], () => chicago ?
    h("section", { id: "chicago-round", class: "prompt" },
      h("div", { class: "q" }, t("Do you say Chicago?"), " ", h("b", { id: "asking" }, p)),
      // a yes binds the player to every trick and ends the round (D3): asked once more, by a
      // second tap (twoTaps: the Chicago clock runs on meanwhile); a no is the common answer
      // and goes at one tap
      h("button", { id: "chicago-yes", class: "yes", "data-player": p,
        onclick: twoTaps(t("Tap again: {player} says Chicago", { player: p }), () => send({ do: "chicago", player: p, say: true })) },
        t("Yes")),
      h("button", { id: "chicago-no", class: "no", "data-player": p, onclick: () => send({ do: "chicago", player: p, say: false }) }, t("No")),
      h("span", { class: "clock-slot" }))
    : h("section", { id: "quads-round", class: "prompt" }, h("div", { class: "q" }, t("Four of a kind: {player} chooses", { player: p })),
      // every other score to 0 and the deal over (§5): asked once more, by a second tap (the
      // quads clock runs on meanwhile)
      h("button", { id: "quads-zero", onclick: twoTaps(t("Tap again: zero the others"), () => send({ do: "quads", player: p, choice: "zero" })) },
        t("Zero the others")),
      h("button", { id: "quads-points", onclick: () => send({ do: "quads", player: p, choice: "points" }) }, t("8 points")),
      h("span", { class: "clock-slot" })));
  setKids(el.querySelector(".clock-slot"), clockEl(s, p));
  return el;
}

// Time by taps for whoever is to act: "time" called, or the clock ran out (r29, r30).
function timeEl(s) {
  if (awaitingCards(s)) return null;  // the dealer's turn, not the players'
  if (!s.to_act || !s.to_act.length || !["exchange_1", "exchange_2", "exchange_3", "tricks", "chicago", "quads_choice"].includes(s.phase)) return null;
  const clock = s.phase === "tricks" ? "play" : s.phase === "chicago" ? "chicago" : s.phase === "quads_choice" ? "quads" : "exchange";
  return keptPart("time", [clock, s.to_act], () => h("section", { id: "time-taps" }, h("b", {}, t("Time:")), " ", s.to_act.map(p => h("span", { class: "tap-group" }, p, " ",
    // "time" starts the call's 60 s and 10 s countdown on the table's clocks (RULES.md §10),
    // which end the hand at zero unless the player acts; it does not end the hand itself
    h("button", { class: "time-call", "data-player": p, onclick: async () => {
      try { await post("/api/call_time", { player: p }); showError(""); } catch (e) { showError(e.message); } } }, t("Call time")),
    h("button", { class: "timeout", "data-player": p, onclick: () => {
      if (window.confirm(t("{player}'s time is up?", { player: p }))) send({ do: "timeout", player: p, clock }); } }, t("Time is up"))))));
}

// A new game by taps (r2-r4): the seats in order and the button, from the table's players.
let gameForm = null;
function gameStartEl(s) {
  if (!["game_start", "game_over"].includes(s.phase) || !s.players.length) { gameForm = null; return null; }
  const names = [...s.players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99)).map(p => p.name);
  const key = s.phase + ":" + s.game + ":" + names.join(",");
  if (gameForm && gameForm.key === key) return gameForm.el;  // keep what was chosen across updates
  const form = { key, el: null, touched: false };
  const touch = () => { form.touched = true; };
  const seats = names.map((n, i) => h("select", { class: "seat-pick", "data-seat": i + 1, onchange: touch },
    names.map(x => h("option", { value: x, selected: x === n }, x))));
  const button = h("select", { id: "button-pick", onchange: touch }, names.map(x => h("option", { value: x }, x)));
  const note = h("div", { id: "drawn-note", class: "small" });
  form.el = h("section", { id: "game-start", class: "prompt" },
    h("div", { class: "q" }, t("New game: the seats in order and the button")),
    seats.map((sel, i) => h("label", { class: "seat-label" }, t("seat {seat}", { seat: i + 1 }), " ", sel)), " ",
    h("label", { class: "seat-label" }, t("Button: {player}", { player: "" }), button),
    h("button", { id: "game-submit", onclick: () => send({ do: "game", seats: seats.map(x => x.value), button: button.value }) },
      t("Start the game")), note);
  gameForm = form;
  drawnSeats(form, (s.game || 0) + 1, seats, button, note);
  return form.el;
}

// At a tournament ([hub] in the table's configuration) the hub drew every game's seats
// and button (r7): the form shows them, so nobody picks or types; a särspel's (r11) once
// the hub has drawn them.  A table without a draw answers 404 and the form stays as it is.
async function drawnSeats(form, number, seats, button, note) {
  let d = null;
  try {
    const r = await fetch("/api/draw?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG);
    if (r.ok) d = await r.json();
  } catch (e) { return; }
  const g = d && (d.games || []).find(x => x.game === number && x.seats.length === seats.length);
  if (!g || gameForm !== form || form.touched) return;
  g.seats.forEach((p, i) => { seats[i].value = p; });
  button.value = g.button;
  form.el.dataset.drawn = String(number);
  note.textContent = t("Seats and button as the hub drew them (r7)");
}

// Who enters the deal's cards (README "Security"): on a camera-only table the players enter
// their own hidden cards on their phones (/seat: the dealt hand, the cards placed and
// received face down), the camera reads the open card and the cards played (a card it
// misses: its player on their phone, the open card the TL), and the page says whom the
// table waits for.  The Revisor names no card: a card named here would be judged against
// hands the Revisor may not see.  Elsewhere the readers enter the cards (or the TL).
function owedTo(p) { return Math.max(0, 5 - (p.hand_count || 0)); }

function entryEl(s, m) {
  const cardPhase = s.phase === "deal" || s.phase === "tricks" || (s.phase || "").startsWith("exchange_");
  if (!cardPhase || !s.players.length) return null;
  if (!CAMERA_ONLY) return h("section", { id: "tap-entry", class: "small" }, t("The table's readers enter the cards; by hand, cards are the TL's."));
  const el = h("section", { id: "tap-entry", class: "prompt", "data-step": "" });
  if (s.phase === "deal") {
    // each player declares their own five cards on their phone (a seat's link): the
    // Revisor sees who has, never a card (README "Security": who may enter what)
    const declared = new Set((m && m.declared) || []);
    const waiting = s.players.filter(p => !p.out && !declared.has(p.name)).map(p => p.name);
    el.dataset.step = "deal:players";
    setKids(el, h("div", { class: "q" }, t("Deal {n}: each player declares their own hand on their phone", { n: s.deal })),
      h("div", { id: "declared-list", class: "small", "data-declared": [...declared].join(",") },
        waiting.length ? t("Waiting for: {players}", { players: waiting.join(", ") }) : t("Every hand is in.")));
    return el;
  }
  const p = (s.to_act || [])[0];
  if (!p) return null;
  if (s.phase === "tricks") {
    el.dataset.step = "play:" + p;
    setKids(el, h("div", { class: "q" }, t("Trick {n}: {player} plays", { n: s.trick ? s.trick.number : 1, player: p })),
      clockEl(s, p),
      h("p", { id: "waiting-list", class: "small", "data-waiting": p },
        t("The camera reads the card; a card it misses, {player} plays on their phone.", { player: p })));
    return el;
  }
  const ex = Number(s.phase.slice(9));
  // the cards placed and received face down are each player's own to enter on their phone,
  // the open card the camera's (README "Security"): the tablet says who the exchange waits for
  const declined = s.open_card && !s.open_card.taken ? s.open_card.player : null;
  const owed = (m && m.owed) || {};
  const placing = ((m && m.placing) || []).length > 0;
  const pending = s.players.filter(q => q.placed_count === 1 && owedTo(q) > 0 && !(q.name in owed) && q.name !== declined);
  if (!placing && pending.length) {
    el.dataset.step = "open:" + pending[0].name;
    setKids(el, h("div", { class: "q" }, t("Exchange {n}: the open card for {player}", { n: ex, player: pending[0].name })),
      h("p", { id: "waiting-list", class: "small", "data-waiting": pending[0].name },
        t("The camera reads the open card; a card it misses, the TL enters.")));
    return el;
  }
  const waiting = placing ? m.placing : Object.keys(owed).filter(q => !((m && m.received) || []).includes(q));
  el.dataset.step = placing ? "discard:players" : "receive:players";
  setKids(el, h("div", { class: "q" }, placing ? t("Exchange {n}: each player places their cards on their phone", { n: ex })
    : t("Exchange {n}: each player enters the cards received on their phone", { n: ex })),
    h("div", { id: "waiting-list", class: "small", "data-waiting": waiting.join(",") },
      waiting.length ? t("Waiting for: {players}", { players: waiting.join(", ") }) : ""));
  return el;
}

// A player's record at the table: the TL's warnings (a warned player who errs again may be
// punished harder, r33) and the shot clocks' violations (§10, r34), as the TL's console
// counts them; nothing while both are 0.
function recordEl(p) {
  if (!p.warnings && !p.violations) return null;
  return h("div", { class: "small record", "data-warnings": p.warnings || 0, "data-violations": p.violations || 0 },
    [p.warnings ? tn("{n} warning", "{n} warnings", p.warnings) : null,
      p.violations ? tn("{n} time violation", "{n} time violations", p.violations) : null].filter(Boolean).join(" \u00b7 "));
}

// The game's deals with their awards in words, newest first (the paper's tally, as text).
function dealsEl(s) {
  const g = (s.games || []).find(x => x.number === s.game) || (s.games || []).slice(-1)[0];
  if (!g) return [];
  return [h("h2", {}, t("Game {n}: deal by deal", { n: g.number })),
    h("ol", { reversed: true }, [...g.deals].reverse().map(d => h("li", { "data-deal": d.number },
      h("b", {}, t("Deal {n}", { n: d.number })), ": ",
      d.awards.length ? d.awards.map(awardText).join("; ") : t("no points"),
      d.scores_after ? h("div", { class: "small" }, Object.entries(d.scores_after).map(([p, v]) => `${p} ${v}`).join(" \u00b7 ")) : null)))];
}

// "Stämmer": one tap confirms the awards of this scoring moment as shown in words (an audit
// record the TL sees); once confirmed, the box says so.
function confirmEl(m, game, deal, moment) {
  const key = `${game}.${deal}.${moment}`;
  if ((m.confirmed || []).includes(key)) return h("div", { id: "award-confirmed", class: "confirmed", "data-key": key }, "\u2713 ", t("Confirmed by the Revisor"));
  return h("button", { id: "award-confirm", class: "confirm", "data-key": key, onclick: async () => {
    try { await post("/api/confirm", { game, deal, moment }); showError(""); } catch (e) { showError(e.message); } } }, t("That's correct"));
}

let shownProtocol = null, protocolTimer = null;
async function refreshProtocol(key, seq) {
  if (key === shownProtocol) return;
  shownProtocol = key;
  const r = await fetch("/api/protocol.html?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG);
  if (!r.ok) return;
  const text = await r.text();
  // answers can overtake each other on a busy table: an older one never replaces a newer
  if (key !== shownProtocol) return;
  const box = h("div", { id: "protocol", "data-seq": seq });  // the table's seq when it was asked for
  box.innerHTML = text;  // server-rendered SVG, built from public protocol data
  setKids(protocol, h("h2", {}, t("Protocol"), " ",
    h("a", { id: "pdf", href: "/api/protocol.pdf?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG }, t("Printable PDF"))), box);
}

connect(m => {
  const s = m.state;
  manual.follow(m);
  // the awards of the latest scoring moment, in words, as the Revisor writes them down
  const g = (s.games || []).find(x => x.number === s.game);
  const dealAwards = (g && g.deals.length && g.deals[g.deals.length - 1].awards) || [];
  const moment = s.last_award ? dealAwards.filter(a => a.moment === s.last_award.moment) : [];
  // the same box (and its "Stämmer") while the award and its confirmation stand
  const deal = g && g.deals.length ? g.deals[g.deals.length - 1].number : null;
  // a deal's awards stand until the next deal is dealt (stop 71: the last trick's box stayed
  // into the next deal's first exchange); a TL's award between deals stands alone
  const standing = s.last_award && (moment.length || s.last_award.moment === "tl");
  const award = standing ? keptPart("award", [s.last_award, moment, deal, m.confirmed || []], () => h("section", { id: "award",
    class: "award", "data-reason": s.last_award.reason, "data-moment": s.last_award.moment },
    h("div", { class: "small" }, t("Awards at {moment}", { moment: MOMENTS[s.last_award.moment] || s.last_award.moment })),
    (moment.length ? moment : [s.last_award]).map(a => h("div", { class: "big" }, awardText(a))),
    moment.length ? confirmEl(m, g.number, deal, s.last_award.moment) : null)) : null;
  const players = h("div", { id: "players", class: "players" }, s.players.map(p =>
    h("div", { class: "player" + (s.to_act.includes(p.name) ? " acting" : ""), "data-player": p.name },
      h("div", { class: "top" }, nameEl(p), h("span", { class: "score" }, p.score)),
      markers(p), recordEl(p), clockEl(s, p.name),
      h("div", { class: "small" }, p.seat ? t("seat {seat}", { seat: p.seat }) + " \u00b7 " : "", tn("{n} card", "{n} cards", p.hand_count || 0),
        p.placed_count ? " \u00b7 " + t("placed {n}", { n: p.placed_count }) : ""),
      p.played.length ? h("div", { class: "played" }, t("played"), " ", cardsEl(p.played)) : null)));
  // at the end of a game: the last awards to confirm ("Stämmer"), its result, then the review
  // and sign-off, before anything else (stop 71: the last "Stämmer" came below the sign-off)
  const over = ["game_over", "table_over"].includes(s.phase);
  morphKids(live, headerEl(m), questionEl(s), over ? award : null, resultEl(s), keptSignEl(m, "revisor"), gameStartEl(s),
    entryEl(s, m), over ? null : award, players, timeEl(s), trickEl(s));
  morphKids(alerts, h("h2", {}, t("Alerts")), keptPart("alerts", m.alerts || [], () => (m.alerts || []).length ?
    h("ul", {}, m.alerts.map(alertEl)) : h("p", { class: "small" }, t("none"))));
  morphKids(deals, ...dealsEl(s));
  // at most every 300 ms (a throttle: a busy table never starves it), and only when what the
  // drawing shows has changed (protocolKey): a card played changes nothing on it
  if (!protocolTimer) protocolTimer = setTimeout(() => { protocolTimer = null; refreshProtocol(protocolKey(App.last), App.seq); }, 300);
});
