// The protocol (RULES.md §12) as the server draws it, refreshed when the table moves
// (at most once every DRAW_GAP ms: common.js connect).
"use strict";
let shownKey = null;
connect(async m => {
  const key = protocolKey(m);
  if (key === shownKey) { showSeq(m); return; }  // the drawing shown is this state's
  shownKey = key;
  const r = await fetch("/api/protocol.html?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG);
  const box = h("div", { id: "protocol" });
  box.innerHTML = await r.text();  // server-rendered SVG, built from public protocol data
  showSeq(m);  // the seq of the protocol now shown, not of the one asked for
  setKids(document.getElementById("app"),
    h("header", { class: "head" }, h("span", { class: "table" }, m.table + ": " + t("Protocol")),
      h("a", { id: "pdf", href: "/api/protocol.pdf?token=" + encodeURIComponent(TOKEN) + "&lang=" + LANG }, t("Printable PDF"))),
    box);
});
