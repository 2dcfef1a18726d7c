"""The scene reader's confidence map (``vision.photo.scene_calibrate``) and the labels it
is fitted against (``scenes_data``)."""

from __future__ import annotations

import csv

import numpy as np

from vision.photo import scene_calibrate, scenes_data


def _cards(n: int, seed: int = 0) -> np.ndarray:
    """``n`` cards' features as the reader gives them: two logits, a second corner's
    probability, read inverted or not, and the intercept's 1."""
    rng = np.random.default_rng(seed)
    return np.column_stack(
        [rng.normal(3, 1, n), rng.normal(1, 0.5, n), rng.uniform(0, 1, n), rng.integers(0, 2, n), np.ones(n)]
    )


def _confidence(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The confidence the map ``w`` gives each card (as either path's)."""
    return scene_calibrate.apply_paths({"w": w, "w_second": w}, x, np.zeros(len(x), bool))


def test_a_path_with_no_wrong_card_is_as_sure_as_its_cards_allow():
    # 169 first-path cards, all right (the validation folds since the labels were
    # corrected): the map is about 1 - 1/(n + 2) sure, not certain.
    x = _cards(169)
    w = scene_calibrate.fit_card_map(x, np.ones(len(x)))
    conf = _confidence(w, x)
    assert np.all(np.isfinite(w))
    assert abs(float(np.median(conf)) - 170 / 171) < 0.002
    assert conf.max() < 0.999


def test_the_rule_of_succession_hardly_moves_a_path_with_wrong_cards():
    # a path whose right and wrong cards differ in the best corner's probability
    x = _cards(400, seed=1)
    rng = np.random.default_rng(2)
    y = (rng.uniform(size=len(x)) < 1 / (1 + np.exp(-(2 * (x[:, 0] - 3))))).astype(float)
    with_prior = _confidence(scene_calibrate.fit_card_map(x, y), x)
    without = _confidence(scene_calibrate.fit_card_map(x, y, succession=False), x)
    assert np.abs(with_prior - without).max() < 0.01


def test_labels_the_photos_contradict_are_corrected(scenes):
    truth = {p.file: p.truth for p in scenes}
    assert truth["rf_phone_77xx/IMG_7794.jpg"] == {"7S"}  # seven spade pips, a 7 in both corners
    assert truth["rf_phone_77xx/IMG_7768.jpg"] == {"5D", "AC"}  # an ace: one club in the middle
    assert truth["edje/IMG_2396.jpg"] == {"T"}  # a ten of diamonds
    rows = [r for r in scenes_data.label_rows() if r["file"] == "rf_phone_77xx/IMG_7794.jpg"]
    assert [(r["rank"], r["suit"]) for r in rows] == [("7", "S"), ("7", "S")]
    # every fix mends a label the data set holds
    with open(scenes_data.data_dir() / "labels.csv", newline="") as fh:
        labelled = {(r["file"], r["rank"], r["suit"]) for r in csv.DictReader(fh)}
    for file, fixes in scenes_data.LABEL_FIXES.items():
        for rank, suit in fixes:
            assert (file, rank, suit) in labelled
