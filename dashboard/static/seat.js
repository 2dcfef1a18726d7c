// A player's own phone (a seat's link, /seat): on a table without readers the player taps
// their five cards at the deal and sends them; afterwards the page shows that one hand.
// It never receives another player's hidden card, and its answer to a sent hand is the
// same whatever the cards are (README "Security": who may enter what).
"use strict";
// the picker is kept while the state changes around it (another player's hand coming in
// must not undo the taps)
const mine = { picking: false, deal: null, picker: null };

// What the five cards make, in the page's words: the table sends the rules' English name
// ("pair of aces", "full house, kings over twos"); its kind is one of the award reasons.
function handKind(name) {
  const kinds = [["royal flush", "royal_flush"], ["straight flush", "straight_flush"], ["full house", "full_house"],
    ["two pair", "two_pair"], ["pair of", "one_pair"], ["three ", "three_of_a_kind"], ["four ", "four_of_a_kind"],
    ["straight", "straight"], ["flush", "flush"]];
  const k = kinds.find(([start]) => name.startsWith(start));
  return k ? reasonText(k[1]) : t("no combination");
}

function handEl(cards, id) {
  return h("div", { id, class: "my-hand" }, cardsEl(cards));
}

// What the player sent, who is still to send, and a button to change it until then: the
// same for a declared hand and for the cards received in an exchange.
function sentEl(id, cards, title, handId, waiting, allIn, changeLabel, change) {
  return h("section", { id, class: "prompt", "data-cards": cards.join(" ") },
    h("div", { class: "q" }, title), handEl(cards, handId),
    h("p", { class: "small", id: "waiting" }, waiting.length ? t("Waiting for: {players}", { players: waiting.join(", ") })
      : allIn),
    h("button", { id: "change", class: "pick-go", onclick: () => { change(); render(App.last); } }, changeLabel));
}

function declareEl(m, s, me) {
  const key = s.game + "." + s.deal;
  if (mine.deal !== key) { mine.deal = key; mine.picking = false; mine.picker = null; }
  const others = s.players.filter(p => p.name !== me.name && !(m.declared || []).includes(p.name) && !p.out).map(p => p.name);
  if ((m.mine || []).length && !mine.picking) {
    return sentEl("declared", m.mine, t("Your hand is sent"), "sent-hand", others, t("Every hand is in."),
      t("Change my hand"), () => { mine.picking = true; mine.picker = null; });
  }
  if (mine.picker) return mine.picker;
  return mine.picker = h("section", { id: "declare", class: "prompt" },
    h("div", { class: "q" }, t("Deal {n}: tap your five cards", { n: s.deal })),
    cardPicker({ id: "picker", offer: null, min: 5, max: 5, hint: t("Tap the five cards in your hand."), actions: [{
      id: "send-hand", ok: n => n === 5, label: n => (n === 5 ? t("Send my hand") : t("{n} of 5 cards", { n })),
      send: async cards => {
        try {
          await post("/api/hand", { cards });
          mine.picking = false;
          mine.picker = null;
          showError("");
          render(App.last);  // the stream may have brought the new state before this answer
        } catch (e) { showError(e.message); }
      } }] }));
}

// The exchange (README "Security": who may enter what): the player taps the cards they
// place face down, from their own hand, and once everyone has placed, the cards they
// receive face down.  The cards received are held until every player's are in, so they
// may be changed until then; the answer is the same whatever the cards are.
const ex = { key: null, picking: false, picker: null };
function exchangeEl(m, s, me) {
  const st = m.my_step;
  const key = s.game + "." + s.deal + "." + s.phase + ":" + st.step;  // others' entries keep the taps
  if (st.step === "place") {
    if (ex.key === key && ex.picker) return ex.picker;
    ex.key = key;
    const hand = new Set(me.hand || []);
    return ex.picker = h("section", { id: "place", class: "prompt" },
      h("div", { class: "q" }, t("Exchange {n}: tap the cards you place face down", { n: Number(s.phase.slice(9)) })),
      handEl(me.hand || [], "hand"),
      me.hand_name ? h("div", { id: "hand-name", class: "big" }, handKind(me.hand_name)) : null,
      cardPicker({ id: "picker", offer: hand, min: 0, max: st.max, hint: t("Tap the cards you place, or none."), actions: [{
        id: "send-place", ok: () => true,
        label: n => (n ? tn("Place {n} card", "Place {n} cards", n, { n }) : t("I keep all five")),
        send: async cards => {
          try { await post("/api/exchange", { cards }); ex.picker = null; showError(""); render(App.last); }
          catch (e) { showError(e.message); }
        } }] }));
  }
  const waiting = [...(m.open_pending || []), ...Object.keys(m.owed || {})]
    .filter(p => p !== me.name && !(m.received || []).includes(p));
  if ((m.mine_received || []).length && !ex.picking) {
    ex.picker = null;
    return sentEl("received", m.mine_received, t("Your new cards are sent"), "sent-cards", waiting,
      t("Every player's cards are in."), t("Change my new cards"), () => { ex.picking = true; ex.picker = null; });
  }
  if (ex.key === key && ex.picker) return ex.picker;
  ex.key = key;
  const notMine = new Set(ALL_CARDS.filter(c => !(me.hand || []).includes(c) && !(me.placed || []).includes(c)));
  return ex.picker = h("section", { id: "receive", class: "prompt" },
    h("div", { class: "q" }, tn("Exchange {n}: tap the {m} card you received", "Exchange {n}: tap the {m} cards you received", st.n,
      { n: Number(s.phase.slice(9)), m: st.n })),
    handEl(me.hand || [], "hand"),
    cardPicker({ id: "picker", offer: notMine, min: st.n, max: st.n, actions: [{
      id: "send-receive", ok: n => n === st.n, label: n => (n === st.n ? t("Send my new cards") : t("{n} of {m} cards", { n, m: st.n })),
      send: async cards => {
        try { await post("/api/exchange", { cards }); ex.picking = false; ex.picker = null; showError(""); render(App.last); }
        catch (e) { showError(e.message); }
      } }] }));
}

// Step 7 (r28): a four of a kind that zeroes is announced before the Chicago question is
// answered or the first card played; nobody is asked, so its owner announces it here (the
// hand is the player's own; the Revisor may not enter it for them).
function quadsEl(s, me) {
  if (!s.quads_announce || !me.hand_name || !me.hand_name.startsWith("four ")) return forget("quads");
  // asked again by a second tap (twoTaps), as the Revisor's: a dialog stops the page
  return keptPart("quads", [me.hand_name, s.game, s.deal], () => h("section", { id: "quads-announce", class: "prompt" },
    h("div", { class: "q" }, t("Four of a kind: zero the others?")),
    h("button", { id: "quads-zero", onclick: twoTaps(t("Tap again: zero the others"), async () => {
      try { await post("/api/quads"); showError(""); } catch (e) { showError(e.message); } }) }, t("Zero the others"))));
}

// A card played by mistake (a revoke noticed before the next card, r26) is taken back by
// its player: whether it was a revoke is their own hand's fact (the Revisor may not enter
// it).  The button stands under the player's own last card until the next card, after
// every card alike; the card was face up, so naming it tells nobody anything.
function retractEl(s, me) {
  if (s.phase !== "tricks" || !s.trick) return forget("retract");
  const last = s.trick.cards.length ? s.trick.cards[s.trick.cards.length - 1] : s.trick.closed_last;
  if (!last || last.player !== me.name) return forget("retract");
  // asked again by a second tap (twoTaps: a dialog would stop the page and its clock); the
  // same node while the card stands (keptPart), so that a drawing between the taps keeps it armed
  return keptPart("retract", [last.player, last.card, s.trick.number], () => h("div", { id: "retract-row" },
    h("button", { id: "retract", "data-card": last.card,
      onclick: twoTaps(t("Tap again: take back {card}", { card: cardText(last.card) }), async () => {
        try { await post("/api/retract"); showError(""); } catch (e) { showError(e.message); } }) },
      t("Take back my card"), " ", cardEl(last.card))));
}

// A card the camera missed is played here by its player (README "Security": the Revisor
// names no card; a card of one's own hand tells the table nothing it may not know).  The
// row stands while it is this player's turn in the tricks; a tap asks first.
function playEl(s, me) {
  if (!CAMERA_ONLY) return null;  // a table with readers: they see the card
  if (s.phase !== "tricks" || !(s.to_act || []).length || s.to_act[0] !== me.name) return forget("play");
  // a tap arms the card, a second plays it (twoTaps: the play clock runs on, drawn); the same
  // nodes while the turn and the hand stand (keptPart), so a drawing between the taps keeps it armed
  return keptPart("play", [me.hand || [], s.trick.number, s.trick.cards.length], () => h("section", { id: "play", class: "prompt" },
    h("div", { class: "q" }, t("Your turn: if the camera misses your card, tap it here")),
    h("div", { id: "play-cards", class: "my-hand" }, (me.hand || []).map(c => h("button", { class: "play-card", "data-card": c,
      onclick: twoTaps(t("tap again"), async () => {
        try { await post("/api/play", { card: c }); showError(""); } catch (e) { showError(e.message); } }, true) }, cardEl(c))))));
}

function render(m) {
  const s = m.state;
  const me = s.players.find(p => p.seat === m.seat) || (m.player ? { name: m.player } : null);
  const title = h("h1", { id: "who", "data-seat": m.seat ?? "" },
    me ? t("Seat {n}: {player}", { n: m.seat, player: me.name }) : t("Seat {n}", { n: m.seat ?? "?" }));
  let body;
  if (!me) body = h("p", { id: "nobody", class: "small" }, t("Nobody sits at this seat in this game."));
  else if (s.phase === "deal" && m.declared !== undefined) body = declareEl(m, s, me);
  else if (m.my_step) body = exchangeEl(m, s, me);
  else if (me.hand && me.hand.length) body = h("section", { id: "hand-box" }, quadsEl(s, me), retractEl(s, me), playEl(s, me),
    h("div", { class: "small" }, t("Your hand")), handEl(me.hand, "hand"),
    me.hand_name ? h("div", { id: "hand-name", class: "big" }, handKind(me.hand_name)) : null,
    me.placed && me.placed.length ? h("div", { class: "small" }, t("placed"), " ", cardsEl(me.placed)) : null);
  else body = h("p", { id: "no-hand", class: "small" }, t("No cards in your hand now."));
  setKids(document.getElementById("app"), headerEl(m), title, body,
    me && me.score !== undefined ? h("div", { id: "my-score", class: "small" }, t("Your score: {n}", { n: me.score })) : null);
  document.body.dataset.step = body.id || "";
}

connect(render);
