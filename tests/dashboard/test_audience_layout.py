"""Where things stand on the audience's views as their users see them, in Debian's chromium at
their sizes: the public view's game-end banner takes no room from what is below it (a phone
and a hall screen), and the overlay's side layout places the players as they sit."""

from __future__ import annotations

import math

import pytest

from .harness import Server
from .test_audience import ACTIONS, GAMES, HALL, PHONE, check, open_view, post, write_log

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
