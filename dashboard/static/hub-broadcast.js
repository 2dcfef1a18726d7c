"use strict";
// The featured table's own overlay (its server holds the broadcast delay); when the producer
// features another table, the source follows within two seconds.  The page's policy lets it
// frame the dashboards the hub knew when it was served (body data-frames); a table whose
// dashboard came later is framed after a reload, which brings a policy that names it.
const TOKEN = new URLSearchParams(location.search).get("token") || "";
const FRAMES = new Set((document.body.dataset.frames || "").split(" ").filter(Boolean));
const LOADED = performance.now();
const frame = document.getElementById("overlay");
async function follow() {
  try {
    const r = await fetch("api/featured?token=" + encodeURIComponent(TOKEN), { cache: "no-store" });
    const f = await r.json();
    const src = f.dashboard ? f.dashboard + "/broadcast?token=" + encodeURIComponent(TOKEN) : "about:blank";
    if (frame.getAttribute("src") === src) return;
    if (f.dashboard && !FRAMES.has(new URL(src).origin)) {
      if (performance.now() - LOADED > 5000) location.reload();  // at most one reload in 5 s
      return;
    }
    frame.setAttribute("src", src);
    document.body.dataset.table = f.table || "";
  } catch (e) { /* keep showing the table we have */ }
}
follow(); setInterval(follow, 2000);
