// The TL's overview: the table's state, alerts, the deal's history, penalties and
// corrections with a reason, pause/resume, and revealing a hand for a dispute (logged).
"use strict";
const live = h("div", { id: "live" });
const hist = h("section", { id: "history" });
const audit = h("section", { id: "audit" });
const msg = h("div", { id: "tl-result" });
const who = () => h("select", { class: "who" });
const pPlayer = who(), aPlayer = who(), rPlayer = who();
const pKind = h("select", { id: "penalty-kind" }, ["warning", "sit_out_deal", "sit_out_game", "last_place", "no_placement", "points"].map(k => h("option", { value: k }, k)));
const pPoints = h("input", { id: "penalty-points", type: "number", value: "0" });
const pReason = h("input", { id: "penalty-reason", placeholder: "reason (required)" });
const aPoints = h("input", { id: "adjust-points", type: "number", value: "0" });
const aReason = h("input", { id: "adjust-reason", placeholder: "reason (required)" });
const rReason = h("input", { id: "reveal-reason", placeholder: "dispute (required)" });
const pauseReason = h("input", { id: "pause-reason", placeholder: "why (kept in the audit trail)" });
pPlayer.id = "penalty-player"; aPlayer.id = "adjust-player"; rPlayer.id = "reveal-player";

async function act(path, body, label) {
  try { await post(path, body); msg.textContent = label; showError(""); refresh(); }
  catch (e) { msg.textContent = ""; showError(e.message); }
}
function needReason(input) { if (!input.value.trim()) { showError("give a reason"); return false; } return true; }

setKids(document.getElementById("app"), live,
  h("section", { id: "controls" },
    h("div", {}, h("a", { id: "hall-link", href: "/hall?token=" + encodeURIComponent(TOKEN) }, "All tables of the event")),
    h("div", {}, h("button", { id: "pause", onclick: () => act("/api/pause", { reason: pauseReason.value }, "paused") }, "Pause"),
      h("button", { id: "resume", onclick: () => act("/api/resume", { reason: pauseReason.value }, "resumed") }, "Resume"),
      pauseReason),
    h("div", {}, h("b", {}, "Penalty "), pPlayer, pKind, pPoints, pReason,
      h("button", { id: "penalty-submit", onclick: () => { if (!needReason(pReason)) return;
        const b = { do: "penalty", player: pPlayer.value, kind: pKind.value, reason: pReason.value };
        if (pKind.value === "points") b.points = parseInt(pPoints.value, 10) || 0;
        act("/api/action", b, "penalty given"); } }, "Give")),
    h("div", {}, h("b", {}, "Score correction "), aPlayer, aPoints, aReason,
      h("button", { id: "adjust-submit", onclick: () => { if (!needReason(aReason)) return;
        act("/api/action", { do: "adjust", player: aPlayer.value, points: parseInt(aPoints.value, 10) || 0, reason: aReason.value }, "score corrected"); } }, "Correct")),
    h("div", {}, h("b", {}, "Reveal a hand "), rPlayer, rReason,
      h("button", { id: "reveal-submit", onclick: () => { if (!needReason(rReason)) return;
        act("/api/reveal", { player: rPlayer.value, reason: rReason.value }, "revealed (logged)"); } }, "Reveal"),
      h("button", { id: "hide", onclick: () => act("/api/hide", {}, "hidden") }, "Hide")),
    msg),
  manualEntry(true).el, hist, audit);

let names = "";
async function refresh() {
  const q = "?token=" + encodeURIComponent(TOKEN);
  const [hr, ar] = await Promise.all([fetch("/api/history" + q), fetch("/api/audit" + q)]);
  if (hr.ok) { const d = await hr.json(); hist.dataset.seq = d.seq;
    setKids(hist, h("h2", {}, "This deal"), h("ol", {}, d.events.map(e => h("li", { "data-seq": e.seq },
      e.type.replaceAll("_", " ") + " " + JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k !== "type" && k !== "seq"))))))); }
  if (ar.ok) { const d = await ar.json();
    setKids(audit, h("h2", {}, "Audit trail"), h("ul", {}, d.entries.slice(-20).map(e =>
      h("li", {}, `${new Date(e.at * 1000).toLocaleTimeString()} ${e.by} ${e.what}` + (e.player ? " " + e.player : "") + (e.reason ? ": " + e.reason : ""))))); }
}
let pending = null;
connect(m => {
  const s = m.state;
  const n = s.players.map(p => p.name).join(",");
  if (n !== names) { names = n; for (const sel of [pPlayer, aPlayer, rPlayer]) setKids(sel, ...s.players.map(p => h("option", { value: p.name }, p.name))); }
  setKids(live, headerEl(m),
    h("table", { id: "tl-players" }, h("tr", {}, ["Player", "Score", "", "Hand (revealed only)", "Played", "Warnings"].map(x => h("th", {}, x))),
      s.players.map(p => h("tr", { "data-player": p.name, "data-held": p.hand_count || 0, class: s.to_act.includes(p.name) ? "acting" : "" },
        h("td", {}, nameEl(p)), h("td", { class: "score" }, p.score), h("td", {}, markers(p), clockEl(s, p.name)),
        h("td", { class: "revealed" }, p.hand ? [cardsEl(p.hand), " ", p.hand_name || ""] : "-"),
        h("td", {}, cardsEl(p.played)), h("td", {}, `${p.warnings || 0} / ${p.violations || 0} violations`)))),
    trickEl(s),
    h("section", { id: "tl-alerts" }, h("h2", {}, "Alerts"), (m.alerts || []).length ? h("ul", {}, m.alerts.map(alertEl)) :
      h("p", { class: "small" }, "no open alerts")));
  clearTimeout(pending); pending = setTimeout(refresh, 200);  // the history follows, throttled
});
