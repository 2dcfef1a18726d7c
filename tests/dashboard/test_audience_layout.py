"""Where things stand on the audience's views as their users see them, in Debian's chromium at
their sizes: the public view's game-end banner takes no room from what is below it (a phone
and a hall screen), and the overlay's side layout places the players as they sit."""

from __future__ import annotations

import math

import pytest

from .harness import Server
from .test_audience import (
    ACTIONS,
    CHICAGO,
    CHICAGO_END,
    GAMES,
    HALL,
    PHONE,
    check,
    open_view,
    post,
    settle,
    write_log,
)

pytestmark = pytest.mark.browser

TABLET = {"width": 1280, "height": 800}
TOP_OF = "sel => document.querySelector(sel).getBoundingClientRect().top"


@pytest.fixture
def served(tmp_path):
    servers: list[Server] = []

    def start(upto: int) -> Server:
        data = tmp_path / f"t{len(servers)}"
        write_log(data, upto)
        servers.append(Server(data, command="serve", delay=0.5).start())
        return servers[-1]

    yield start
    for s in servers:
        s.stop()


def test_the_game_end_banner_does_not_push_the_grid_down(served, chromium):
    """The game's last card is played: the banner ("Omgång 1 klar", the winner) comes, and
    the scores and standings below stay where they were, on a phone and on a hall screen
    (stop 74: it came between the header and the grid and pushed the grid down by its
    height, the page jumping under the reader's eyes)."""
    last = GAMES[1] - 1  # the last card of game 1
    assert ACTIONS[last]["do"] == "play"
    s = served(last)
    pages = {
        name: open_view(chromium, s, "public", size)
        for name, size in (("phone", PHONE), ("tablet", TABLET), ("hall", HALL))
    }
    before = {name: page.evaluate(TOP_OF, ".aud-grid") for name, page in pages.items()}
    for page in pages.values():
        assert page.locator("#end-banner").count() == 0
    post(s, [ACTIONS[last]])
    for name, page in pages.items():
        page.wait_for_selector("#end-banner")
        assert page.inner_text("#end-banner .t") == "Omgång 1 klar"
        assert page.evaluate(TOP_OF, ".aud-grid") == pytest.approx(before[name], abs=0.5), name
        # the banner is whole on view, over nothing of the grid
        box = page.locator("#end-banner").bounding_box()
        assert box and box["height"] > 20 and box["y"] >= 0 and box["y"] + box["height"] <= before[name], (name, box)
        assert page.evaluate(
            "() => [...document.querySelectorAll('#end-banner > div')].every(e => e.scrollWidth <= e.clientWidth)"
        )
        check(page, f"public-game-end-banner-{name}")


def test_the_side_layout_places_the_players_as_they_sit(served, chromium):
    """?layout=side: two players down each edge, in the seat order of the table, clockwise as
    they sit: up the left edge, then down the right, so a player's neighbours at the table
    are theirs on screen (stop 74: by list order seat 1 and seat 2, neighbours, faced each
    other across the frame, and seat 1 stood above seat 3, who sits opposite)."""
    s = served(GAMES[0] + 1)  # game 1 begun: seats Dan, Anna, Cilla, Bo (clockwise)
    seats = ACTIONS[GAMES[0]]["seats"]
    page = open_view(chromium, s, "broadcast", HALL, "&layout=side")
    page.wait_for_selector("#seats .seat[data-player]")
    boxes = {p: page.locator(f'#seats .seat[data-player="{p}"]').bounding_box() for p in seats}
    mid = {p: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for p, b in boxes.items()}
    left = [p for p in seats if mid[p][0] < HALL["width"] / 2]
    assert left == seats[:2], mid  # seats 1 and 2 on the left, 3 and 4 on the right
    first, second, third, fourth = seats
    assert mid[first][1] > mid[second][1] and mid[third][1] < mid[fourth][1], mid  # up the left, down the right
    # clockwise on screen (y grows downwards), seen from the seats' centre, once round in seat order
    cx, cy = sum(x for x, _ in mid.values()) / len(mid), sum(y for _, y in mid.values()) / len(mid)
    angle = [math.atan2(mid[p][1] - cy, mid[p][0] - cx) for p in seats]
    turns = [(b - a) % (2 * math.pi) for a, b in zip(angle, angle[1:] + angle[:1])]
    assert all(0 < t < math.pi for t in turns) and sum(turns) == pytest.approx(2 * math.pi), (mid, turns)
    check(page, "overlay-side-layout-seats", overlay=True)


# What fills the public view's screen: each panel's bottom; what overflows its box (a panel, the
# players' list or a card, a name cut by its ellipsis); every text's box that is off the screen,
# outside its panel or under the language switch; the players' names' type (px).
FILL_JS = """() => {
  const vh = innerHeight, lang = document.getElementById('lang-toggle').getBoundingClientRect();
  const panels = [...document.querySelectorAll('.aud-grid > .panel')];
  const over = [...document.querySelectorAll('.aud-grid > .panel, #scores, #scores > li, .pc-name, .pc-tags')]
    .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map(e => e.id || e.className);
  const cut = [], walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    if (!n.textContent.trim() || getComputedStyle(n.parentElement).visibility === 'hidden') continue;
    const panel = n.parentElement.closest('.panel')?.getBoundingClientRect();
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects()) {
      if (b.bottom > vh || (panel && (b.bottom > panel.bottom || b.right > panel.right))
          || (b.left < lang.right && lang.left < b.right && b.top < lang.bottom && lang.top < b.bottom))
        cut.push(n.textContent.trim().slice(0, 30));
    }
  }
  return { vh, scroll: document.documentElement.scrollHeight - vh, over, cut,
    bottoms: panels.map(p => p.getBoundingClientRect().bottom),
    names: [...document.querySelectorAll('#scores .pc-name')].map(e => parseFloat(getComputedStyle(e).fontSize)) };
}"""
STYLED = "() => [...document.styleSheets].some(x => (x.href || '').includes('audience.css'))"
# the players' names' type before (stop 74: 1.45 x min(1.5vw, 2.6vh) of the screen)
NAMES_BEFORE = {"hall": 40.7, "tablet": 27.8}


def test_the_hall_screen_fills_a_tv_mid_deal_and_at_the_end(served, chromium):
    """The public view on a 1920x1080 TV in the hall (and a 1280x800 laptop) fills the screen:
    its three panels reach the language switch's strip at the bottom, nothing in them cut off or
    over its box, the players' names in type at least as large as before, mid deal (a Chicago
    said, a trick on the table) and at the table's end, the tallest the middle panel gets (every
    game's places), in Swedish and after the switch in English.  Stop 74: each panel as high as
    its content, and on a TV the panels ended 80% down and left the bottom fifth empty.  A phone
    scrolls, as before."""
    first_trick = next(i for i in range(CHICAGO, CHICAGO_END) if ACTIONS[i]["do"] == "play")
    for upto, ready in ((first_trick + 5, "#trick"), (len(ACTIONS), "#goes-on")):
        s = served(upto)
        for name, size in (("hall", HALL), ("tablet", TABLET)):
            page = open_view(chromium, s, "public", size)
            page.wait_for_selector(ready)
            settle(page)
            found = page.evaluate(FILL_JS)
            assert all(0.9 * found["vh"] < b <= found["vh"] for b in found["bottoms"]), (name, upto, found)
            assert found["scroll"] <= 0 and found["over"] == [] and found["cut"] == [], (name, upto, found)
            assert len(found["names"]) == 4 and min(found["names"]) >= NAMES_BEFORE[name], (name, upto, found)
            check(page, f"hall-fills-{name}-{upto}")
            if ready == "#trick":  # the switch, in the corner under the panels: the same in English
                page.click("#lang-toggle")
                page.wait_for_url("**lang=en**")
                page.wait_for_function("() => document.documentElement?.lang === 'en'")
                page.wait_for_selector(ready)
                page.wait_for_function(STYLED)
                settle(page)
                found = page.evaluate(FILL_JS)
                assert all(0.9 * found["vh"] < b <= found["vh"] for b in found["bottoms"]), (name, "en", found)
                assert found["scroll"] <= 0 and found["over"] == [] and found["cut"] == [], (name, "en", found)
                assert page.inner_text("#turn") == "To act: Cilla"
                check(page, f"hall-fills-{name}-{upto}-en")
        phone = open_view(chromium, s, "public", PHONE)
        phone.wait_for_selector(ready)
        found = phone.evaluate(FILL_JS)
        assert found["scroll"] > 0 and found["over"] == [], (upto, found)  # one column, scrolled
        check(phone, f"phone-fills-{upto}")
