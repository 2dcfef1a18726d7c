"""Where things stand on the audience's views as their users see them, in Debian's chromium at
their sizes: the overlay's side layout places the players as they sit."""

from __future__ import annotations

import math

import pytest

from .harness import Server
from .test_audience import ACTIONS, GAMES, HALL, check, open_view, write_log

pytestmark = pytest.mark.browser


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
