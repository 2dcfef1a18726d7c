"""The audience views at their real sizes (issue 19), in Debian's chromium: the broadcast
overlay (1920x1080, transparent and over a test picture), the hall screen (1920x1080) and
the phone view (390x844), at the start, mid deal, at a Chicago, at game end and table end.
Screenshots go to build/screenshots/ to be looked at; the tests check that no two text
boxes overlap, that nothing runs off the side, and that the standings are the replay
document's ranking (RULES.md §9)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from table_controller.rules.actions import parse_action
from table_controller.rules.replay import replay_lines
from table_controller.store import SQLiteStore
from table_controller.store.recorder import TableRecorder

from .harness import ROOT, Server
from .test_people_pages import VISIBLE_TEXT, _english_fragments, _english_in

pytestmark = pytest.mark.browser

SHOTS = ROOT / "build" / "screenshots"
SCRIPT = [
    x
    for x in (ROOT / "table_controller" / "examples" / "full_table.jsonl").read_text().splitlines()
    if x.strip() and not x.lstrip().startswith("#")
]
ACTIONS = [json.loads(x) for x in SCRIPT]
GAMES = [i for i, a in enumerate(ACTIONS) if a["do"] == "game"]
CHICAGO = next(i for i, a in enumerate(ACTIONS) if a["do"] == "chicago" and a["say"])
CHICAGO_DEAL = max(i for i, a in enumerate(ACTIONS[:CHICAGO]) if a["do"] == "deal")
CHICAGO_END = next(i for i, a in enumerate(ACTIONS) if i > CHICAGO and a["do"] in ("deal", "game"))
HALL = {"width": 1920, "height": 1080}
DELAY = 2.0  # the broadcast delay of the Chicago deal's test
PHONE = {"width": 390, "height": 844}
STREAM_720 = {"width": 1280, "height": 720}  # a 1280x720 stream's browser source
# a stand-in for the table camera's picture, for the overlay "over a test picture"
CAMERA = (
    "radial-gradient(ellipse 46% 38% at 50% 52%, #2f7d3b 0 96%, #6b4a2b 97% 100%, transparent 101%),"
    " linear-gradient(160deg, #3b3f46, #15171b)"
)

# Every text node's boxes; two from different nodes must not meet, and none may leave the page
# sideways (a phone that scrolls sideways hides the score).
OVERLAPS_JS = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
  let n, id = 0;
  while ((n = walker.nextNode())) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement, st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none' || Number(st.opacity) === 0) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    id++;
    for (const b of r.getClientRects()) if (b.width > 0.5 && b.height > 0.5) boxes.push({ id, t: n.textContent.trim(), x0: b.left, x1: b.right, y0: b.top, y1: b.bottom });
  }
  const bad = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.id === b.id) continue;
    if (a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 2 && b.y0 < a.y1 - 2) bad.push([a.t, b.t]);
  }
  const wide = boxes.filter(b => b.x1 > innerWidth + 1 || b.x0 < -1).map(b => b.t);
  return { bad, wide, scroll: document.documentElement.scrollWidth - innerWidth };
}"""


def write_log(data: Path, upto: int) -> None:
    data.mkdir(parents=True, exist_ok=True)
    recorder = TableRecorder(SQLiteStore.open(data / "table.sqlite", create=True))
    for a in ACTIONS[:upto]:
        recorder.apply(parse_action(a))
    recorder.store.close()


def post(s: Server, actions: list[dict]) -> int:
    seq = 0
    for a in actions:
        r = httpx.post(f"{s.base}/api/action", params={"token": s.token("tl")}, json=a, timeout=20)
        assert r.status_code == 200 and r.json()["ok"], (a, r.text)
        seq = r.json()["seq"]
    return seq


def ranking(upto: int) -> list[str]:
    _, doc = replay_lines(SCRIPT[:upto])
    return [s["player"] for s in doc["table"]["standings"]]


@pytest.fixture
def table(tmp_path, request):
    servers = []

    def start(upto: int, delay: float = 0.5) -> Server:
        data = tmp_path / f"t{len(servers)}"
        write_log(data, upto)
        s = Server(data, command="serve", delay=delay)
        servers.append(s)
        return s.start()

    yield start
    for s in servers:
        s.stop()


class FrameGate:
    """Stands between a page and its real server stream (Playwright's WebSocket routing):
    forwards every frame until ``stop(frame)`` holds for one, forwards that one and holds
    the rest, so the page keeps showing that frame for as long as the checks take, whatever
    the table's pace (no sleep, nothing timed)."""

    def __init__(self, stop):
        self.stop, self.closed, self.held = stop, False, []

    def __call__(self, ws) -> None:
        server = ws.connect_to_server()

        def from_server(message) -> None:
            if self.closed:
                self.held.append(message)
                return
            ws.send(message)
            self.closed = bool(self.stop(json.loads(message)))

        server.on_message(from_server)


def hands_and_chicago(m: dict) -> bool:
    """A frame that shows the deal's hands while its Chicago is still in play."""
    s = m.get("state") or {}
    cards = sum(len(p.get("hand") or []) for p in s.get("players") or [])
    return cards >= 10 and bool((s.get("chicago") or {}).get("player"))


def open_view(
    chromium, s: Server, view: str, size: dict, query: str = "", gate: FrameGate | None = None, motion: bool = False
):
    page = chromium.new_page(motion=motion)
    if gate is not None:
        page.route_web_socket(re.compile(r"/ws\b"), gate)
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.set_viewport_size(size)
    page.goto(s.url(view) + query)
    page.wait_for_function("() => Number(document.body.dataset.seq ?? -99) >= 0", timeout=30_000)
    page.wait_for_function("() => [...document.styleSheets].some(x => (x.href || '').includes('audience.css'))")
    return page


def settle(page) -> None:
    """Let the entry animations finish before a screenshot or a box check."""
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")


# Every element on view that holds text of its own, set in fewer CSS pixels than the least
SMALL_TEXT_JS = """least => [...document.body.querySelectorAll('*')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  }).map(e => [e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize), e.textContent.trim().slice(0, 30)])
  .filter(([, px]) => px < least)"""


def check(page, name: str, overlay: bool = False) -> dict:
    page.bring_to_front()  # a tab in the background runs no animation frames
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), omit_background=overlay)
    if overlay:
        # (the page's CSP allows no inline <style>; the CSSOM is the page's own script)
        page.evaluate("css => { document.documentElement.style.background = css; }", CAMERA)
        page.screenshot(path=str(SHOTS / f"{name}-over-camera.png"))
        page.evaluate("() => { document.documentElement.style.background = ''; }")
    if "-en" not in name:  # Swedish first: no English word a person reads (issue 18: every page)
        text = page.evaluate(VISIBLE_TEXT)
        english = _english_in(text, _english_fragments(), {"Anna", "Bo", "Cilla", "Dan"})
        assert not english, (name, english)
    if overlay:  # a stream is watched at 1280x720 or smaller: no text under 16 px of 1920 (stop 73)
        small = page.evaluate(SMALL_TEXT_JS, 16)
        assert small == [], (name, small[:6])
    found = page.evaluate(OVERLAPS_JS)
    assert found["bad"] == [], (name, found["bad"][:6])
    assert found["wide"] == [] and found["scroll"] <= 0, (name, found)
    if name.startswith("hall"):  # a hall screen cannot be scrolled: everything on the one screen
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), name
    assert page.js_errors == [], (name, page.js_errors)
    return found


def hall_pages(chromium, s: Server):
    return open_view(chromium, s, "public", HALL), open_view(chromium, s, "public", PHONE)


def standings_order(page) -> list[str]:
    return page.eval_on_selector_all("#standings tbody tr[data-player]", "rows => rows.map(r => r.dataset.player)")


def wait_seq(page, seq: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.seq ?? -99) >= {seq}", timeout=60_000)


def test_start_of_the_table(table, chromium):
    s = table(GAMES[0] + 1)
    hall, phone = hall_pages(chromium, s)
    bc = open_view(chromium, s, "broadcast", HALL)
    bc.wait_for_selector("#seats .seat[data-player]")
    for page, name in ((hall, "hall-1-start"), (phone, "phone-1-start")):
        check(page, name)
        assert page.locator("#scores > li[data-player]").count() == 4
        assert "#" not in page.inner_text("#aud-head")  # no seq number for the audience
        # the columns' short names said in full: no pointer to hover at a hall screen
        assert page.inner_text("#standings-legend") == "Omg.p.: omgångspoäng \u00b7 Chic.: vunna Chicago"
    assert bc.evaluate(
        "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.documentElement).backgroundColor]"
    ) == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]  # OBS keys nothing out
    check(bc, "overlay-1-start", overlay=True)
    # English on request, the same page otherwise
    en = open_view(chromium, s, "public", PHONE, "&lang=en")
    assert (
        en.inner_text("#where") == "Game 1 of 3 \u00b7 Deal 1"
        and en.locator("#standings th").first.inner_text() == "Rank"
        and en.inner_text("#standings-legend") == "Pl.pts: placement points \u00b7 Chic.: won Chicagos"
    )
    check(en, "phone-1-start-en")
    # the centre of the frame is the camera's: no box of the overlay covers it
    assert bc.evaluate("""() => [...document.querySelectorAll('#app *')].every(el => {
      const r = el.getBoundingClientRect();
      return r.width === 0 || r.right < 660 || r.left > 1260 || r.bottom < 300 || r.top > 760; })""")


def test_mid_deal_with_a_chicago_and_hands_after_the_deal(table, chromium):
    """A deal with a Chicago posted live: the hall shows the trick and whose turn at once;
    the overlay shows the hands only after the deal has ended AND the delay (README)."""
    s = table(CHICAGO_DEAL, delay=DELAY)
    hall, phone = hall_pages(chromium, s)
    bc = open_view(chromium, s, "broadcast", HALL, gate=FrameGate(hands_and_chicago))
    side = open_view(chromium, s, "broadcast", HALL, "&layout=side&ticker=0", gate=FrameGate(hands_and_chicago))
    small = open_view(chromium, s, "broadcast", STREAM_720, gate=FrameGate(hands_and_chicago))
    first_trick = next(i for i in range(CHICAGO, CHICAGO_END) if ACTIONS[i]["do"] == "play")
    mid = first_trick + 5  # the Chicago said, one trick and a card played (the next card breaks it)
    assert mid < CHICAGO_END
    seq = post(s, ACTIONS[CHICAGO_DEAL:mid])
    for page, name in ((hall, "hall-2-chicago-mid-deal"), (phone, "phone-2-chicago-mid-deal")):
        wait_seq(page, seq)
        assert "Chicago" in page.inner_text("#chicago-banner")
        assert page.inner_text("#turn").startswith("Tur: ")
        assert page.locator("#trick .card").count() == 1
        check(page, name)
        assert standings_order(page) == ranking(mid)
    # the deal is live: its frames, delayed or not, show no hidden card (the hall's checks
    # took longer than the delay: the frames up to the Chicago have come, without hands)
    bc.wait_for_function(f"() => Number(document.body.dataset.seq ?? -99) >= {seq}", timeout=60_000)
    assert bc.locator(".seat .hand .cards .card").count() == 0  # no hand
    assert bc.locator(".seat .now-played .card").count() == 1  # the card played is public
    # The deal ends at the live table: its frames now come with the hands; the gates keep
    # the overlays on the first frame that shows them with the Chicago still in play.
    post(s, ACTIONS[mid:CHICAGO_END])
    # the delayed frames of the deal now come with the hands, the Chicago still in play
    bc.wait_for_function(
        "() => document.querySelectorAll('.seat .hand .cards .card').length >= 10 "
        "&& !!document.getElementById('chicago-banner')",
        timeout=60_000,
    )
    names = bc.eval_on_selector_all(".seat .hand-name", "els => els.map(e => e.textContent)")
    assert any(n for n in names) and all("_" not in n for n in names), names
    check(bc, "overlay-2-chicago-mid-deal", overlay=True)
    # a 1280x720 browser source shows the same overlay scaled whole (2/3): nothing cut off,
    # no seat squeezed, every player's name there in full
    small.wait_for_function("() => document.querySelectorAll('.seat .hand .cards .card').length >= 10", timeout=60_000)
    boxes = (
        "() => [...document.querySelectorAll('#strip, .seat, #ticker')].map(e => e.getBoundingClientRect().toJSON())"
    )
    full, scaled = bc.evaluate(boxes), small.evaluate(boxes)
    assert len(full) == len(scaled) == 6
    for a, b in zip(full, scaled):
        assert all(abs(b[k] - a[k] * 2 / 3) < 1.5 for k in ("left", "top", "right", "bottom")), (a, b)
        assert b["left"] >= 0 and b["top"] >= 0 and b["right"] <= 1280 and b["bottom"] <= 720, b
    names = small.eval_on_selector_all(
        ".seat .nm .pname", "els => els.map(e => [e.textContent, e.getBoundingClientRect().width > 20])"
    )
    assert sorted(n for n, shown in names if shown) == ["Anna", "Bo", "Cilla", "Dan"], names
    assert small.evaluate(
        "() => [...document.querySelectorAll('.seat .nm')].every(e => e.scrollWidth <= e.clientWidth)"
    )
    check(small, "overlay-2-chicago-mid-deal-1280x720", overlay=True)
    side.wait_for_function("() => document.querySelectorAll('.seat .hand .cards .card').length >= 10", timeout=60_000)
    check(side, "overlay-2-side-layout", overlay=True)
    assert side.locator("#ticker").count() == 0
    assert bc.locator("#ticker .tk").count() >= 1


def test_game_end(table, chromium):
    s = table(GAMES[1])  # the whole first game
    hall, phone = hall_pages(chromium, s)
    bc = open_view(chromium, s, "broadcast", HALL)
    bc.wait_for_selector("#endcard")
    for page, name in ((hall, "hall-3-game-end"), (phone, "phone-3-game-end")):
        page.wait_for_selector("#end-banner")
        check(page, name)
        assert standings_order(page) == ranking(GAMES[1])
        assert page.locator("#results li").count() == 1
    # the phone's view scrolls: wherever it is scrolled to, the language switch covers no line
    # of it (stop 72: fixed in the corner, it covered the standings' rows)
    covered = phone.evaluate(
        """() => { const out = [], end = document.documentElement.scrollHeight - innerHeight;
          for (const at of [0, end / 4, end / 2, 3 * end / 4, end]) {
            window.scrollTo(0, at);
            const t = document.getElementById('lang-toggle').getBoundingClientRect();
            for (const e of document.querySelectorAll('#app tr, #app li, #app h2, #app p')) {
              const r = e.getBoundingClientRect();
              if (r.width && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
                out.push([at, e.textContent.slice(0, 40)]); } }
          return out; }"""
    )
    assert covered == [], covered
    check(bc, "overlay-3-game-end", overlay=True)
    _, doc = replay_lines(SCRIPT[: GAMES[1]])
    assert bc.inner_text("#endcard .ec-winner").endswith(doc["games"][0]["winner"])


def test_a_player_out_without_chicago_is_marked_ute_not_utgang_r21(table, chromium):
    """r21: reaching 52 without Chicago loses the game at once and the player "sitter ute"; the
    tag said "utgång", the rules' word for going out to win (the viewers' audit, stop 72)."""
    s = table(GAMES[2])  # game 2 over: Anna went out without Chicago
    _, doc = replay_lines(SCRIPT[: GAMES[2]])
    assert doc["games"][1]["out_without_chicago"] == ["Anna"]
    phone = open_view(chromium, s, "public", PHONE)
    phone.wait_for_selector('.pcard[data-player="Anna"] .tag.out')
    assert phone.inner_text('.pcard[data-player="Anna"] .tag.out') == "ute"
    assert "utgång" not in phone.inner_text("#app")


def test_the_card_that_ends_a_deal_and_the_trick_it_closes_reach_the_audience_r25_r27(table, chromium):
    """The viewers' audit (stop 72): the card that closes a trick was in no audience's page
    whole, and the one that ends a deal on none (the next state already waits for the next
    deal). Dan's 9S ends deal 1: the hall screen shows the last trick, Anna's, with it; the
    overlay shows it under Dan's seat and its ticker tells who took the trick and every award."""
    second = [i for i, a in enumerate(ACTIONS) if a["do"] == "deal"][1]
    last = ACTIONS[second - 1]
    assert last == {"do": "play", "player": "Dan", "card": "9S"}
    s = table(second - 1, delay=0.2)
    hall = open_view(chromium, s, "public", HALL)
    bc = open_view(chromium, s, "broadcast", HALL)
    for page in (hall, bc):
        page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {second - 1}")
    post(s, [last])
    hall.wait_for_selector('#last-trick [data-card="9S"]')
    assert hall.inner_text("#last-trick .lbl") == "Stick 5 till Anna"
    assert hall.eval_on_selector_all("#last-trick [data-card]", "cs => cs.map(c => c.dataset.card)") == [
        "AD",
        "QD",
        "3S",
        "9S",
    ]
    assert hall.locator('.pcard[data-player="Dan"] .pc-played [data-card="9S"]').count() == 1
    check(hall, "hall-5-deal-ended")
    bc.wait_for_selector('.seat[data-player="Dan"] .now-played [data-card="9S"]')
    bc.wait_for_function("() => /Stick 5 till Anna/.test(document.querySelector('#ticker')?.textContent || '')")
    told = bc.eval_on_selector_all("#ticker .tk", "ts => ts.map(t => t.textContent)")  # newest first
    # the four the overlay shows: every award of the deal's end (the last trick's too, stop 72's
    # review) before the next deal, after who took the trick (Dan's 9S is the one before them)
    assert told[:4] == ["Giv 2 delas", "Dan +1 ett par", "Anna +5 sista sticket", "Stick 5 till Anna"], told
    check(bc, "overlay-5-deal-ended", overlay=True)
    post(s, [ACTIONS[second]])  # deal 2 dealt: the cards are gathered
    hall.wait_for_selector("#last-trick", state="detached")
    assert hall.locator(".pc-played").count() == 0


def test_table_end_standings_are_the_ranking_and_who_goes_on(table, chromium):
    s = table(len(ACTIONS))
    _, doc = replay_lines(SCRIPT)
    order = [x["player"] for x in doc["table"]["standings"]]
    hall, phone = hall_pages(chromium, s)
    bc = open_view(chromium, s, "broadcast", HALL)
    bc.wait_for_selector("#endcard #goes-on")
    for page, name in ((hall, "hall-4-table-end"), (phone, "phone-4-table-end")):
        page.wait_for_selector("#goes-on")
        check(page, name)
        # RULES.md §9: placement points, then total score, then won Chicagos; never raw score
        assert standings_order(page) == order
        assert page.inner_text("#goes-on").endswith(", ".join(doc["table"]["advancing"]))
        assert page.locator("#results li").count() == 3
    check(bc, "overlay-4-table-end", overlay=True)
    assert bc.eval_on_selector_all("#endcard tr[data-player]", "rs => rs.map(r => r.dataset.player)") == order
    assert bc.inner_text("#goes-on").endswith(", ".join(doc["table"]["advancing"]))
    assert bc.inner_text("#strip-pp").split()[1:3] == [order[0], str(doc["table"]["standings"][0]["placement_points"])]


# Every animation that starts on the page, as [name, the element's classes, its text].
ANIMATIONS_JS = """() => { window.started = [];
  document.addEventListener('animationstart', e => window.started.push(
    [e.animationName, String(e.target.className), e.target.textContent])); }"""


def test_a_card_played_and_points_won_are_animated(table, chromium):
    """Issue 19: animated changes on the overlay and the hall screen (a card coming in, a
    score that changes), only for what is new: the card played and the score it moved."""
    first_trick = next(i for i in range(CHICAGO, CHICAGO_END) if ACTIONS[i]["do"] == "play")
    s = table(first_trick)
    play = ACTIONS[first_trick]
    card = play["card"]
    shown = ("10" if card[0] == "T" else card[0]) + {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[
        card[1]
    ]
    pages = {name: open_view(chromium, s, name, HALL, motion=True) for name in ("broadcast", "public")}
    # a viewer whose device asks for reduced motion sees the same changes, none animated
    still = {name: open_view(chromium, s, name, HALL) for name in ("broadcast", "public")}
    for page in [*pages.values(), *still.values()]:
        page.wait_for_selector(f'.acting[data-player="{play["player"]}"]')
        page.evaluate(ANIMATIONS_JS)
    for action, animation in (
        (play, "aud-in"),
        ({"do": "adjust", "player": "Bo", "points": 3, "reason": "räknefel"}, "aud-bump"),
    ):
        seq = post(s, [action])
        for name, page in pages.items():
            page.bring_to_front()  # a tab in the background runs no animation frames
            wait_seq(page, seq)
            try:
                page.wait_for_function(f"() => window.started.some(a => a[0] === {animation!r})", timeout=30_000)
            except Exception:
                raise AssertionError((name, animation, page.evaluate("window.started"))) from None
    for name, page in pages.items():
        started = page.evaluate("window.started")
        cards = [a for a in started if a[0] == "aud-in" and "card" in a[1]]
        assert cards and all(a[2] == shown for a in cards), (name, started)  # the new card, no other
        bumps = [a for a in started if a[0] == "aud-bump"]
        assert bumps and {a[2] for a in bumps} <= {"10", "10sidopoäng"}, (name, bumps)  # Bo's 7 + 3 only
    for name, page in still.items():
        page.bring_to_front()
        wait_seq(page, seq)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate("window.started") == [] and page.evaluate("document.getAnimations().length") == 0, name
        assert page.locator(f'[data-card="{card}"]').count() >= 1, name


def test_the_chicago_banner_tells_how_the_chicago_ended(table, chromium):
    """Issue 19: a Chicago banner when one is said (above) and its outcome once the deal
    has ended, on the overlay and the hall screen, as the replay document scored it."""
    s = table(CHICAGO_END)
    _, doc = replay_lines(SCRIPT[:CHICAGO_END])
    awards = {a["reason"]: a["player"] for a in doc["games"][-1]["deals"][-1]["awards"]}
    # this deal's Chicago failed: who lost it and who broke it, both told
    assert "chicago_won" not in awards
    expected = (
        f"{awards['chicago_lost']} förlorade sin Chicago \u221215 \u00b7 {awards['chicago_broken']} bröt Chicago +10"
    )
    pages = []
    for name, size in (("broadcast", HALL), ("public", HALL), ("public", PHONE)):
        page = open_view(chromium, s, name, size)
        page.wait_for_selector("#chicago-banner")
        assert page.inner_text("#chicago-banner") == expected, (name, size)
        check(page, f"{'overlay' if name == 'broadcast' else 'hall' if size is HALL else 'phone'}-2b-chicago-outcome")
        pages.append(page)
    # told until the next deal is dealt, not through its exchanges (the viewers' audit, stop 72)
    seq = post(s, [ACTIONS[CHICAGO_END]])
    for page in pages:
        wait_seq(page, seq)
        assert page.locator("#chicago-banner").count() == 0
