"""The development photos load, and the held-out split is fixed by file name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision.cardcodes import ALL_CODES
from vision.photo.dataset import JOKER, card_code, is_heldout, is_validation


def test_codes_are_ours():
    assert card_code("10", "d") == "TD"
    assert card_code("A", "S") == "AS"
    assert card_code("JOKER", "") == JOKER


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=30))
def test_split_depends_on_the_name_only(name):
    assert is_heldout(f"{name}.jpg") == is_heldout(f"some/other/folder/{name}.jpg")


def test_split_of_the_development_photos(dev_photos):
    held = [p for p in dev_photos if p.heldout]
    assert len(dev_photos) == 438
    assert len(held) == 89  # fixed by the hash: a change here moves photos between parts
    assert all(c in ALL_CODES or c == JOKER for p in dev_photos for c in p.cards)
    # Every held-out photo has boxes, and every box's card is among the photo's cards.
    assert all(p.boxes and {b.code for b in p.boxes} == set(p.cards) for p in held)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=30))
def test_validation_fold_is_never_held_out_and_depends_on_the_name_only(name):
    assert not (is_validation(f"{name}.jpg") and is_heldout(f"{name}.jpg"))
    assert is_validation(f"{name}.jpg") == is_validation(f"x/{name}.jpg")


def test_validation_fold_of_the_development_photos(dev_photos):
    val = [p for p in dev_photos if p.validation]
    assert len(val) == 78  # fixed by the hash, like the held-out part
    assert not any(p.heldout for p in val)


def test_unlabelled_cards_name_real_photos_and_add_to_their_labels(dev_photos):
    from vision.photo.dataset import UNLABELLED

    by_name = {p.file.rsplit("/", 1)[-1]: p for p in dev_photos}
    assert set(UNLABELLED) <= set(by_name)
    for name, extra in UNLABELLED.items():
        p = by_name[name]
        assert extra and extra <= set(ALL_CODES) and not extra & p.cards
        assert p.in_view == p.chicago_cards | extra
    plain = next(p for p in dev_photos if p.file.rsplit("/", 1)[-1] not in UNLABELLED)
    assert plain.in_view == plain.chicago_cards
