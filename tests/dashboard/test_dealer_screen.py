"""The dealer's screen beside the console (1280x800), in Debian's chromium: a Chicago said is
told in words, as the hall screen and the overlay tell it, not only by a ringed name."""

from __future__ import annotations

import pytest

from .harness import Server
from .test_audience import ACTIONS, CHICAGO, CHICAGO_DEAL, CHICAGO_END, post, write_log
from .test_people_pages import TABLET, VISIBLE_TEXT, _english_fragments, _english_in, _shot

pytestmark = pytest.mark.browser


def test_the_dealer_screen_says_who_says_chicago(tmp_path, chromium):
    """Stop 74: the dealer's screen marked a Chicago only by the ring round the player's name
    (RULES.md §12), easy to miss from beside the console; it now says "Anna säger Chicago!"
    while the Chicago's tricks are played, and "har sagt Chicago" by her name, as the hall
    screen does.  Gone when the next deal is dealt; the ring stays for the game."""
    said = ACTIONS[CHICAGO]
    assert said["say"]
    player = said["player"]
    data = tmp_path / "t"
    write_log(data, CHICAGO + 1)  # the Chicago said: its tricks are played
    s = Server(data, command="serve", delay=0.5).start()
    try:
        pages = {}
        for lang in ("sv", "en"):
            page = chromium.new_page()
            page.set_viewport_size(TABLET)
            page.goto(s.url("dealer") + ("&lang=en" if lang == "en" else ""))
            page.wait_for_selector("#chicago", timeout=30_000)
            pages[lang] = page
        sv, en = pages["sv"], pages["en"]
        assert sv.inner_text("#chicago") == f"{player} säger Chicago!"
        assert en.inner_text("#chicago") == f"{player} says Chicago!"
        row = f'#seats tr[data-player="{player}"]'
        assert sv.inner_text(f"{row} .tag.said") == "har sagt Chicago"
        assert en.inner_text(f"{row} .tag.said") == "has said Chicago"
        assert sv.locator("#seats .tag.said.now").count() == 1  # whose Chicago this deal is
        assert sv.locator(f"{row} .pname.circled").count() == 1  # the ring as before
        english = _english_in(sv.evaluate(VISIBLE_TEXT), _english_fragments(), {"Anna", "Bo", "Cilla", "Dan"})
        assert not english, english
        _shot(sv, "dealer-chicago-1280x800")
        # the deal played out and the next dealt: no Chicago in play; the game's ring and word stay
        seq = post(s, ACTIONS[CHICAGO + 1 : CHICAGO_END + 1])
        assert ACTIONS[CHICAGO_END]["do"] == "deal" and CHICAGO_DEAL < CHICAGO < CHICAGO_END
        sv.wait_for_function(f"() => Number(document.body.dataset.seq ?? -99) >= {seq}", timeout=60_000)
        assert sv.locator("#chicago").count() == 0
        assert sv.locator("#seats .tag.said.now").count() == 0
        assert sv.locator(f"{row} .pname.circled").count() == 1 and sv.locator(f"{row} .tag.said").count() == 1
        for page in pages.values():
            page.close()
    finally:
        s.stop()
