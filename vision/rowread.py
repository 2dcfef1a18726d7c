"""Reading one row of cards, straightened to the owner's view at ``S`` px per mm.

A row is cards laid left to right, each on the one before (a trick row, or
face-down cards spread).  Every face-down card shows a run of its back pattern
between white borders; every face-up card shows its index corner (rank over
suit) at its left.  So backs are counted by pattern runs, faces are found by
their rank glyphs and named by matching the index against templates drawn by
``faces``: a match that is weak or close to a second choice is reported as
unknown, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .cardcodes import RANKS
from .faces import PAPER, card_face
from .faces import PX_PER_MM as FACE_PX
from .layout import CARD_H_MM

S = 2  # px per mm of the straightened row
ROW_H = int(CARD_H_MM * S)
MIN_CONFIDENCE = 0.5  # below this a face-up card is reported as unknown
# How well an index of our own decks matches its templates at the least (rendered scenes
# across the noise range, 1,472 cards: rank 0.86, suit 0.89 at the least; 1 % below 0.91 and
# 0.94).  Another deck's print matches worse, and its clubs are taken for spades: 27 such
# wrong cards of 364 named on 200 rows of another print, all but one below these.  A
# weaker match is that print's, and is left to camera read's reader (``TableReader``).
OWN_RANK = 0.85
OWN_SUIT = 0.92
FOREIGN_CONFIDENCE = 0.4  # the most a card of a weaker match is given: unknown
_BODY = (28 * S, 60 * S)  # rows of the card body where a back is solid pattern
_INDEX = (int(1.0 * S), int(15.5 * S))  # rows where rank glyphs stand
_RANK_WIN = (-6.5, 6.5, -1.5, 12.5)  # mm around (glyph centre x, glyph top)
_SUIT_WIN = (-6.0, 6.0, 12.0, 22.5)
_SLACK = 3  # px the match may shift


@dataclass(frozen=True, slots=True)
class SeenCard:
    """One card read in a row: ``code`` None for a face-down card or an unknown face."""

    face_up: bool
    code: str | None
    confidence: float
    x_mm: float  # left edge (face-down) or index (face-up) along the row


def felt(bgr: np.ndarray) -> np.ndarray:
    """Where the green felt shows: cards (white faces, blue or red backs) never are."""
    b, g, r = bgr.astype(np.int16).transpose(2, 0, 1)
    return (g > r + (r >> 2) + 6) & (g > b + (b >> 3) + 4)


def normalise(row_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Luminance and redness divided by the paper's white, which each card's top
    and bottom edge show (faces are white there, backs have a white border); also
    that white and where the felt shows."""
    b, g, r = cv2.split(row_bgr)
    lum = cv2.cvtColor(row_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h = lum.shape[0]
    top = lum[int(1.0 * S) : int(2.3 * S)].max(axis=0)
    bottom = lum[h - int(2.3 * S) : h - int(1.0 * S)].max(axis=0)
    k = 15 * S + 1  # lighting changes slowly: take the brightest paper nearby
    top = cv2.dilate(top[None, :], np.ones((1, k), np.uint8)).ravel()
    bottom = cv2.dilate(bottom[None, :], np.ones((1, k), np.uint8)).ravel()
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None]
    white = np.maximum(top[None, :] * (1 - t) + bottom[None, :] * t, 30.0)
    L = np.clip(lum / white, 0.0, 1.2)
    on_felt = felt(row_bgr)
    L[on_felt] = 1.0  # felt at a row's ragged edge is no printing
    red = np.clip((r.astype(np.float32) - cv2.max(b, g).astype(np.float32)) / white, -1.0, 1.0)
    return L, red, white, on_felt


def back_runs(L: np.ndarray, row_bgr: np.ndarray, white: np.ndarray) -> list[tuple[int, int]]:
    """Column spans (px) where a card back's pattern shows: one per face-down card.

    The pattern is dark or strongly coloured.  Glare adds the same light to every
    channel, so it brightens a back but keeps its colour (max - min channel): a back
    under glare stays one run instead of breaking in two."""
    b, g, r = cv2.split(row_bgr[_BODY[0] : _BODY[1]])
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)).astype(np.float32)
    tinted = (L[_BODY[0] : _BODY[1]] < 0.65) | (spread > (0.35 / 1.5) * white[_BODY[0] : _BODY[1]])
    dark = np.count_nonzero(tinted, axis=0) > 0.92 * tinted.shape[0]
    runs, start = [], None
    for x, d in enumerate(np.append(dark, False)):
        if d and start is None:
            start = x
        elif not d and start is not None:
            if x - start >= 6 * S:
                runs.append((start, x))
            start = None
    return runs


def ink(L: np.ndarray, red: np.ndarray) -> np.ndarray:
    """How much printing a pixel shows: dark, or red (glare washes red ink towards
    paper grey while it stays clearly redder than the paper)."""
    return np.maximum(1.0 - L, 1.3 * red)


def glyph_anchors(ink_img: np.ndarray, blocked: np.ndarray | None = None) -> list[tuple[float, int]]:
    """(centre x, top y) of each rank glyph (``10``'s two digits as one)."""
    zone = (ink_img[_INDEX[0] : _INDEX[1]] > 0.4).astype(np.uint8)
    if blocked is not None:
        zone[:, blocked] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(zone, connectivity=8)
    boxes = []
    for x, y, w, h, area in stats[1:]:
        top = y + _INDEX[0]
        if x < 2.5 * S or x + w > zone.shape[1] - 2.5 * S:  # the row's ends: felt and shadow
            continue
        if 7 * S <= h <= 13 * S and 1.0 * S <= w <= 11.5 * S and top <= 6 * S and area >= 6 * S * S:
            boxes.append([x, top, x + w, top + h])
    boxes.sort()
    merged: list[list[int]] = []
    for b in boxes:  # the digits of 10 stand a fraction of a millimetre apart
        if merged and b[0] - merged[-1][2] <= 1.5 * S and merged[-1][2] - merged[-1][0] < 7 * S:
            m = merged[-1]
            merged[-1] = [m[0], min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])]
        else:
            merged.append(b)
    return [((b[0] + b[2]) / 2.0, b[1]) for b in merged]


def _window(img: np.ndarray, cx: float, top: int, win, slack: int) -> np.ndarray | None:
    x0 = int(round(cx + win[0] * S)) - slack
    x1 = int(round(cx + win[1] * S)) + slack
    y0 = int(round(top + win[2] * S)) - slack
    y1 = int(round(top + win[3] * S)) + slack
    if x0 < 0 or y0 < 0 or x1 > img.shape[1] or y1 > img.shape[0]:
        return None
    return img[y0:y1, x0:x1]


def _inner_window(img: np.ndarray, cx: float, top: int, win) -> np.ndarray:
    """A window without slack where one with slack fitted (or a card face padded with
    paper, as the templates are): it fits too."""
    window = _window(img, cx, top, win, 0)
    if window is None:
        raise ValueError(f"glyph window at ({cx}, {top}) outside a {img.shape} plane")
    return window


@lru_cache(maxsize=1)
def templates() -> tuple[dict[str, dict[str, np.ndarray]], dict[str, np.ndarray]]:
    """Rank templates per colour (``"SC"`` black, ``"HD"`` red) and suit templates,
    cut from our faces at ``S`` px per mm by the same glyph finder the rows use,
    so the anchors agree."""
    ranks: dict[str, dict[str, np.ndarray]] = {"SC": {}, "HD": {}}
    suits: dict[str, np.ndarray] = {}
    for code in [r + s for s in "SH" for r in RANKS] + ["AD", "AC"]:
        face = card_face(code)
        small = cv2.resize(
            face, (face.shape[1] * S // FACE_PX, face.shape[0] * S // FACE_PX), interpolation=cv2.INTER_AREA
        )
        small = cv2.GaussianBlur(small, (0, 0), 0.6)
        # Paper to the left, as a row has felt there: the glyph finder skips the ends.
        small = cv2.copyMakeBorder(small, 0, 0, 4 * S, 0, cv2.BORDER_CONSTANT, value=PAPER)
        L, red, _, _ = normalise(small)
        ((cx, top),) = glyph_anchors(ink(L, red)[:, : int(18 * S)])
        dark = 1.0 - L
        colour = "HD" if code[1] in "HD" else "SC"
        ranks[colour].setdefault(code[0], _inner_window(dark, cx, top, _RANK_WIN).copy())
        if code[0] == "A":
            suits[code[1]] = _inner_window(dark, cx, top, _SUIT_WIN).copy()
    return ranks, suits


def _unit(a: np.ndarray) -> np.ndarray:
    a = a.astype(np.float32) - float(a.mean())
    return a / (float(np.linalg.norm(a)) + 1e-6)


def _match(search: np.ndarray, temps: dict[str, np.ndarray], keys) -> tuple[str, float, float]:
    """Best key, its correlation, and where the patch lies between the best and the
    runner-up: 1.0 is exactly the best template, 0.0 exactly the runner-up."""
    scores = []
    for k in keys:
        r = cv2.matchTemplate(search, temps[k], cv2.TM_CCOEFF_NORMED)
        _, v, _, loc = cv2.minMaxLoc(r)
        scores.append((float(v), k, loc))
    scores.sort(key=lambda t: -t[0])
    (v1, k1, (x, y)), (_, k2, _) = scores[0], scores[1]
    t1, t2 = _unit(temps[k1]), _unit(temps[k2])
    h, w = t1.shape
    patch = _unit(search[y : y + h, x : x + w])
    d = t1 - t2
    between = float(np.sum((patch - t2) * d) / (float(np.sum(d * d)) + 1e-6))
    return k1, v1, between


def _confidence(score: float, between: float) -> float:
    """High only for a strong match that is clearly nearer the best template."""
    return float(min(np.clip((score - 0.5) / 0.3, 0, 1), np.clip((between - 0.5) / 0.3, 0, 1)))


_B = 4 * S  # paper added round a row: match windows may reach past its edge


def classify(
    dark: np.ndarray, printed_ink: np.ndarray, red: np.ndarray, cx: float, top: int
) -> tuple[str | None, float]:
    """Name the card whose rank glyph is anchored at (cx, top) of the row: code and
    confidence (None when unsure); confidence -1 when the mark there is no index.
    The planes (darkness 1 - L, ink, redness) are the row's, padded by ``_B``."""
    ranks, suits = templates()
    cx, top = cx + _B, top + _B
    rs = _window(dark, cx, top, _RANK_WIN, _SLACK)
    ss = _window(dark, cx, top, _SUIT_WIN, _SLACK)
    if rs is None or ss is None:
        return None, 0.0
    rwin = _inner_window(red, cx, top, _RANK_WIN)
    printed = _inner_window(printed_ink, cx, top, _RANK_WIN) > 0.4
    if printed.sum() < 4 * S * S:
        return None, -1.0
    redness = float(rwin[printed].mean())
    colour_conf = float(np.clip(abs(redness - 0.12) / 0.08, 0, 1))
    suit_keys = "HD" if redness > 0.12 else "SC"
    # Shapes are matched on luminance: JPEG keeps it sharp, colour it blurs.
    rank, rank_score, rank_between = _match(rs, ranks[suit_keys], RANKS)
    suit, suit_score, suit_between = _match(ss, suits, suit_keys)
    if rank_score < 0.55:  # a blot that matches no rank at all is not an index
        return None, -1.0
    conf = min(_confidence(rank_score, rank_between), _confidence(suit_score, suit_between), colour_conf)
    if rank_score < OWN_RANK or suit_score < OWN_SUIT:  # not our print: never named by its look alone
        conf = min(conf, FOREIGN_CONFIDENCE)
    code = rank + suit
    return (code if conf >= MIN_CONFIDENCE else None), round(conf, 3)


def read_row(row_bgr: np.ndarray) -> list[SeenCard]:
    """All cards of one straightened row, left to right."""
    L, red, white, on_felt = normalise(row_bgr)
    runs = back_runs(L, row_bgr, white)
    # Columns with felt lie beyond the cards (a row's ends, a gap): no index there.
    blocked = (
        cv2.dilate((on_felt.mean(axis=0) > 0.3).astype(np.uint8)[None, :], np.ones((1, 3 * S), np.uint8))
        .ravel()
        .astype(bool)
    )
    for a, b in runs:  # a back's pattern and its border are no index
        blocked[max(a - 5 * S, 0) : b + S // 2] = True
    seen = [SeenCard(False, None, 1.0, a / S - 4.0) for a, _ in runs]
    printed = ink(L, red)
    pad = (_B, _B, _B, _B, cv2.BORDER_CONSTANT)
    dark_p = cv2.copyMakeBorder(1.0 - L, *pad, value=0.0)
    ink_p = cv2.copyMakeBorder(printed, *pad, value=0.0)
    red_p = cv2.copyMakeBorder(red, *pad, value=0.0)
    for cx, top in glyph_anchors(printed, blocked):
        code, conf = classify(dark_p, ink_p, red_p, cx, top)
        if conf < 0:
            continue
        seen.append(SeenCard(True, code, conf, cx / S))
    seen.sort(key=lambda c: c.x_mm)
    return seen
