// The dealer's screen, beside the console: what to do now in words, cards owed per seat,
// the open card and the clocks; no card of any hand.
"use strict";
// A hand is five cards (r12): who has placed is owed what is missing, until the dealer gives it.
function owed(ex, p) { return ex && p.placed_count ? Math.max(0, 5 - (p.hand_count || 0)) : 0; }
function exchangeNo(s) { return (s.phase || "").startsWith("exchange_") ? Number(s.phase.slice(9)) : 0; }

// "What to do now" from the public state (the console's buttons: NEXT and DECLINED).
function todo(s) {
  const who = (s.to_act || []).join(", ");
  if (!s.game) return t("Waiting for the first game.");
  if (s.phase === "game_start") return t("Seat draw: waiting for the seats and the button.");
  if (s.phase === "deal") return t("Deal five cards to each player, one at a time, starting left of the button.");
  if (exchangeNo(s)) {
    if (s.open_card && s.to_act.includes(s.open_card.player))
      return t("Open card for {player}: if taken, press NEXT; if declined, press DECLINED and deal the next card face down.",
        { player: s.open_card.player });
    if (awaitingCards(s)) return t("All have placed: press NEXT and deal the cards owed, in turn: {players}.", { n: exchangeNo(s), players: who });
    if (who) return t("Exchange {n}: waiting for {players} to place. When all have placed: press NEXT, then deal the cards owed in turn.",
      { n: exchangeNo(s), players: who });
    return t("Exchange {n}: all have placed: press NEXT and deal the cards owed in turn.", { n: exchangeNo(s) });
  }
  if (s.phase === "quads_choice") return t("Four of a kind: {players} chooses. Wait.", { players: who });
  if (s.phase === "chicago") return t("The Revisor asks the Chicago question ({players}). Wait.", { players: who });
  if (s.phase === "tricks") return t("Trick play: {players} to play. Wait.", { players: who });
  if (s.phase === "game_over") return t("The game is over. Gather the cards and shuffle.");
  if (s.phase === "table_over") return t("The table is over.");
  return "";
}

// A Chicago said, in words as the hall screen and the overlay say it: who says it, while its
// tricks are played, and "has said Chicago" by each name that said one this game (RULES.md
// §12's ring alone was easy to miss on the dealer's screen).
function chicagoOf(s) { return s.phase === "tricks" && s.chicago ? s.chicago.player : null; }

connect(m => {
  const s = m.state, ex = exchangeNo(s), chicago = chicagoOf(s);
  morphKids(document.getElementById("app"), headerEl(m),
    h("section", { id: "todo", class: "prompt", "data-phase": s.phase }, m.paused ? t("The TL has paused the table. Wait.") : todo(s)),
    chicago ? h("div", { id: "chicago", class: "chicago-said", "data-player": chicago }, t("{p} says Chicago!", { p: chicago })) : null,
    h("div", { id: "button" }, t("Button: {player}", { player: s.button || "-" })),
    h("table", { id: "seats" }, h("tr", {}, [t("Seat"), t("Player"), t("Holds"), t("Owed"), ""].map(x => h("th", {}, x))),
      [...s.players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99)).map(p => h("tr", { "data-player": p.name,
        class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, p.seat ?? "-"), h("td", {}, nameEl(p)), h("td", {}, tn("{n} card", "{n} cards", p.hand_count || 0)),
        h("td", { class: "owed" }, owed(ex, p) ? tn("{n} card", "{n} cards", owed(ex, p)) : "-"),
        h("td", {}, p.said_chicago || p.name === chicago ? h("span", { class: "tag said" + (p.name === chicago ? " now" : "") },
          t("has said Chicago")) : null, markers(p), clockEl(s, p.name))))),
    trickEl(s));
});
