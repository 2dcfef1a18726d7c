"""The protocol of each game as plain text (the replay command's default output)."""

from __future__ import annotations

from typing import Any


def tally(points: int) -> str:
    """Tally marks in fences of five (r9): 7 -> '||||/ ||'."""
    if points <= 0:
        return ""
    fences, rest = divmod(points, 5)
    return " ".join(["||||/"] * fences + (["|" * rest] if rest else []))


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def render_text(doc: dict[str, Any]) -> str:
    ruleset = doc["ruleset"] or "none (no table: the first action must be 'table')"
    out: list[str] = [f"Ruleset: {ruleset}"]
    for g in doc["games"]:
        said = set(g["said_chicago"])
        out.append("")
        status = (
            f"winner {g['winner']}"
            if g["finished"] and g["winner"]
            else ("finished" if g["finished"] else "in progress")
        )
        out.append(f"Game {g['number']} ({status})")
        names = list(g["scores"])
        for name in names:
            label = f"({name})" if name in said else name  # r10: circled
            label += "*" * g["won_chicagos"].get(name, 0)
            gained = sum(
                a["points"] for d in g["deals"] for a in d["awards"] if a["player"] == name and a["points"] > 0
            )
            lost = -sum(a["points"] for d in g["deals"] for a in d["awards"] if a["player"] == name and a["points"] < 0)
            place = g["places"].get(name)
            pp = g["placement_points"].get(name)
            tail = f"  place {place}, {_fmt(pp)} placement points" if place else ""
            minus = f"  minus {lost}" if lost else ""
            out.append(f"  {label:<14} {g['scores'][name]:>3}  {tally(gained)}{minus}{tail}")
        for d in g["deals"]:
            aw = ", ".join(f"{a['player']} {a['points']:+d} {a['reason']}" for a in d["awards"]) or "no points"
            out.append(f"    deal {d['number']} (button {d['button']}): {aw}")
        if g["out_without_chicago"]:
            out.append(f"  out without Chicago: {', '.join(g['out_without_chicago'])}")
    t = doc["table"]
    out.append("")
    out.append("Table" + (" (finished)" if t["finished"] else ""))
    for s in t["standings"]:
        out.append(
            f"  {s['rank']}. {s['player']:<12} {_fmt(s['placement_points'])} placement points, "
            f"{s['score_total']} points, {s['won_chicagos']} won Chicagos"
        )
    c = doc["current"]
    out.append("")
    out.append(
        f"Now: game {c['game']}, deal {c['deal']}, {c['phase']}"
        + (f", waiting for {', '.join(c['to_act'])}" if c["to_act"] else "")
    )
    if doc["rejected"]:
        out.append("")
        out.append("Rejected lines:")
        for r in doc["rejected"]:
            out.append(f"  line {r['line']}: {r['action']}: {r['reason']}")
    return "\n".join(out) + "\n"
