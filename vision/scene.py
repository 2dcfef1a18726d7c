"""Synthetic table scenes with known truth, for tests and benchmarks.

A felt with its ArUco markers, cards laid in rows on the pads (trick rows overlap,
face-down cards are spread), seen through a perspective camera with a lighting
gradient, glare, blur, sensor noise and JPEG loss.  ``severity`` 0..1 scales all
the disturbances; the seed fixes everything, so a benchmark's scenes are never
the scenes the recogniser was tuned on (those use other seeds).

    >>> scene = random_scene(seed=7, severity=0.5)
    >>> image = render(scene); image.shape
    (720, 1280, 3)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from .cardcodes import ALL_CODES
from .faces import PX_PER_MM as FACE_PX
from .faces import card_back, card_face, card_mask
from .layout import CARD_H_MM, CARD_W_MM, TableLayout

FRAME_W, FRAME_H = 1280, 720
SUPER = 2  # render at twice the size, then shrink: edges look like a lens's
FACE_SRC_PX = 4  # card images are shrunk to this many px per mm before warping


@dataclass(frozen=True, slots=True)
class Placement:
    """One card on a pad: its code, or ``None`` for a face-down card (its back)."""

    pad: str
    code: str | None
    u: float  # card's top-left in the pad's upright frame, mm
    v: float
    angle: float = 0.0  # degrees, about the card's centre
    turned: bool = False  # laid half round (upside down for its owner)


@dataclass(frozen=True, slots=True)
class Scene:
    placements: tuple[Placement, ...]
    corners: tuple[tuple[float, float], ...]  # image px of the felt's TL, TR, BR, BL
    severity: float = 0.0
    seed: int = 0
    back: str = "blue"
    layout: TableLayout = field(default_factory=TableLayout.default)

    def truth(self) -> dict[str, tuple[int, tuple[str, ...]]]:
        """Per pad: (face-down count, face-up codes left to right in the owner's view)."""
        out: dict[str, tuple[int, tuple[str, ...]]] = {}
        for pad in self.layout.pads:
            mine = sorted((p for p in self.placements if p.pad == pad.name), key=lambda p: p.u)
            out[pad.name] = (sum(p.code is None for p in mine), tuple(p.code for p in mine if p.code))
        return out

    def homography(self) -> np.ndarray:
        """Table mm -> image px."""
        lay = self.layout
        src = np.array([[0, 0], [lay.width, 0], [lay.width, lay.height], [0, lay.height]], dtype=np.float32)
        return cv2.getPerspectiveTransform(src, np.array(self.corners, dtype=np.float32))


def random_scene(
    seed: int,
    severity: float = 0.5,
    layout: TableLayout | None = None,
    fill: float = 0.8,
    max_cards: int = 8,
    down_shares: tuple[float, ...] = (0.0, 0.3, 0.6, 1.0),
) -> Scene:
    """A random deal of rows on the pads; each pad holds a row with probability ``fill``,
    its cards face down with a share drawn from ``down_shares``."""
    rng = random.Random(seed)
    layout = layout or TableLayout.default()
    deck = list(ALL_CODES)
    rng.shuffle(deck)
    placements: list[Placement] = []
    for pad in layout.pads:
        if rng.random() > fill:
            continue
        offset = rng.uniform(16.0, 27.0)
        n_max = max(1, min(max_cards, int((pad.width - 12 - CARD_W_MM) // offset) + 1))
        n = rng.randint(1, n_max)
        span = CARD_W_MM + (n - 1) * offset
        u0 = rng.uniform(4.0, max(4.0, pad.width - 4 - span))
        v0 = (pad.depth - CARD_H_MM) / 2 + rng.uniform(-5.0, 5.0)
        row_angle = rng.uniform(-4.0, 4.0)
        p_down = rng.choice(down_shares)
        ra = math.radians(row_angle)
        for i in range(n):
            d = i * offset + rng.uniform(-1.0, 1.0)
            code = None if rng.random() < p_down else deck.pop()
            placements.append(
                Placement(
                    pad.name,
                    code,
                    u0 + d * math.cos(ra),
                    v0 + d * math.sin(ra) + rng.uniform(-1.0, 1.0),
                    row_angle + rng.uniform(-1.5, 1.5),
                    code is not None and rng.random() < 0.2,
                )
            )
    return Scene(tuple(placements), _camera(rng, severity, layout), severity, seed, rng.choice(("blue", "red")), layout)


def _camera(rng: random.Random, severity: float, layout: TableLayout) -> tuple[tuple[float, float], ...]:
    """Felt corners in the image: centred with a margin, then tilted and turned a little."""
    scale = min((FRAME_W - 90) / layout.width, (FRAME_H - 50) / layout.height)
    w, h = layout.width * scale, layout.height * scale
    x0, y0 = (FRAME_W - w) / 2, (FRAME_H - h) / 2
    keystone = rng.uniform(-0.06, 0.06) * (0.3 + severity)  # camera tilt: far edge shorter
    jitter = 18 * (0.3 + severity)
    pts = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
    pts[0] = (pts[0][0] + keystone * w / 2, pts[0][1])
    pts[1] = (pts[1][0] - keystone * w / 2, pts[1][1])
    return tuple((x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter / 2, jitter / 2)) for x, y in pts)


@lru_cache(maxsize=64)
def _small_face(code: str | None, back: str) -> tuple[np.ndarray, np.ndarray]:
    img = card_back(back) if code is None else card_face(code)
    f = FACE_SRC_PX / FACE_PX
    size = (int(CARD_W_MM * FACE_SRC_PX), int(CARD_H_MM * FACE_SRC_PX))
    return (
        (
            cv2.resize(img, size, interpolation=cv2.INTER_AREA),
            cv2.resize(card_mask(), size, interpolation=cv2.INTER_AREA),
        )
        if f < 1
        else (img, card_mask())
    )


@lru_cache(maxsize=8)
def _marker_image(marker_id: int) -> np.ndarray:
    d = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    img = cv2.aruco.generateImageMarker(d, marker_id, 120)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def _card_to_table(scene: Scene, p: Placement) -> np.ndarray:
    """3x3 affine from card-source px to table mm."""
    pad = scene.layout.pad(p.pad)
    a = math.radians(p.angle + (180.0 if p.turned else 0.0))
    c, s = math.cos(a), math.sin(a)
    k = 1.0 / FACE_SRC_PX
    cw, ch = CARD_W_MM / 2, CARD_H_MM / 2
    # card px -> card mm centred -> turned -> pad upright frame -> table
    to_centre = np.array([[k, 0, -cw], [0, k, -ch], [0, 0, 1]])
    turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    to_pad = np.array([[1, 0, p.u + cw], [0, 1, p.v + ch], [0, 0, 1]])
    pa = math.radians(pad.angle)
    pc, ps = math.cos(pa), math.sin(pa)
    to_table = np.array(
        [
            [pc, -ps, pad.cx - (pc * pad.width / 2 - ps * pad.depth / 2)],
            [ps, pc, pad.cy - (ps * pad.width / 2 + pc * pad.depth / 2)],
            [0, 0, 1],
        ]
    )
    return to_table @ to_pad @ turn @ to_centre


def _paste(
    canvas: np.ndarray,
    img: np.ndarray,
    mask: np.ndarray,
    h: np.ndarray,
    shadow: float = 0.0,
    shadow_shift: tuple[float, float] = (0, 0),
) -> None:
    """Warp ``img`` by ``h`` into ``canvas`` (only its bounding box), alpha ``mask``."""
    hh, ww = mask.shape
    pts = cv2.perspectiveTransform(np.array([[[0, 0]], [[ww, 0]], [[ww, hh]], [[0, hh]]], dtype=np.float32), h)
    pad = 12
    x0 = max(int(pts[..., 0].min()) - pad, 0)
    y0 = max(int(pts[..., 1].min()) - pad, 0)
    x1 = min(int(pts[..., 0].max()) + pad, canvas.shape[1])
    y1 = min(int(pts[..., 1].max()) + pad, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    t: np.ndarray = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ h
    size = (x1 - x0, y1 - y0)
    roi: np.ndarray = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        ts = np.array([[1, 0, shadow_shift[0]], [0, 1, shadow_shift[1]], [0, 0, 1]]) @ t
        sm: np.ndarray = cv2.warpPerspective(mask, ts, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        sm = cv2.GaussianBlur(sm, (0, 0), 3)
        roi *= (1 - shadow * sm)[..., None]
    a = cv2.warpPerspective(mask, t, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    w = cv2.warpPerspective(img, t, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    canvas[y0:y1, x0:x1] = roi * (1 - a) + w * a


def _felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    low = cv2.resize(rng.normal(0, 1, (9, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine: np.ndarray = rng.standard_normal((h // 2, w // 2), dtype=np.float32)
    fine = cv2.resize(fine, (w, h), interpolation=cv2.INTER_NEAREST)
    shade = 1 + 0.05 * low + 0.06 * fine
    return cv2.merge([55 * shade, 105 * shade, 35 * shade])  # BGR green baize


def render(scene: Scene, supersample: int = SUPER) -> np.ndarray:
    """The camera's 1280x720 BGR picture of ``scene``.  ``supersample`` 1 draws at
    the final size: four times faster, slightly harder edges (for long tests)."""
    rng = np.random.default_rng(scene.seed)
    sev = scene.severity
    k = supersample
    W, H = FRAME_W * k, FRAME_H * k
    # A small-image pixel centre x lies at k*x + (k-1)/2 in the large one.
    up = np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1.0]])
    table_to_img = up @ scene.homography()
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = (40, 40, 45)  # the floor beyond the felt
    lay = scene.layout
    felt_mask = np.full((int(lay.height), int(lay.width)), 255, np.uint8)
    on_felt = cv2.warpPerspective(felt_mask, table_to_img, (W, H))
    cv2.copyTo(_felt(rng, W, H), on_felt, canvas)
    for m in lay.markers:  # printed on white with a quiet zone
        img = _marker_image(m.id)
        quiet = 120 // 6 + 1
        paper = cv2.copyMakeBorder(img, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=(245, 245, 245))
        mm = m.size / 120  # marker px -> table mm
        h = table_to_img @ np.array([[mm, 0, m.x - quiet * mm], [0, mm, m.y - quiet * mm], [0, 0, 1]])
        _paste(canvas, paper, np.full(paper.shape[:2], 255, np.uint8), h)
    shift = (1.2 * k * 1.5, 1.8 * k * 1.5)
    for p in scene.placements:  # in order: a later card lies on an earlier one
        img, mask = _small_face(p.code, scene.back)
        _paste(canvas, img, mask, table_to_img @ _card_to_table(scene, p), shadow=0.35, shadow_shift=shift)
    canvas = _light(canvas, rng, sev)
    small = cv2.resize(np.clip(canvas, 0, 255).astype(np.uint8), (FRAME_W, FRAME_H), interpolation=cv2.INTER_AREA)
    sigma = 0.3 + 1.0 * sev * rng.uniform(0.5, 1.0)
    small = cv2.GaussianBlur(small, (0, 0), sigma)
    noise = np.asarray(rng.normal(0, 1.0 + 5.0 * sev, small.shape), np.float32)
    small = np.clip(small.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    quality = int(95 - 30 * sev * rng.uniform(0.5, 1.0))
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if not ok or out is None:
        raise RuntimeError("OpenCV cannot encode or decode JPEG")
    return out


def _light(canvas: np.ndarray, rng: np.random.Generator, sev: float) -> np.ndarray:
    """A lighting gradient across the table and a soft glare spot (smooth fields,
    so they are made small and enlarged)."""
    h, w = canvas.shape[:2]
    sh, sw = h // 8, w // 8
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    yy /= sh
    xx /= sw
    ang = rng.uniform(0, 2 * np.pi)
    g = (xx - 0.5) * np.cos(ang) + (yy - 0.5) * np.sin(ang)
    gain = 1.0 + (0.1 + 0.5 * sev) * g * 2 * rng.uniform(0.6, 1.0)
    gain *= 1.0 - 0.5 * sev * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2)  # vignetting
    add = np.zeros_like(gain)
    if sev > 0:
        gx, gy = rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)
        rad = rng.uniform(0.05, 0.12)
        spot = np.exp(-(((xx - gx) * w / h) ** 2 + (yy - gy) ** 2) / (2 * (rad * w / h) ** 2))
        add = (90 * sev * rng.uniform(0.5, 1.0) * spot).astype(np.float32)  # glare washes towards white
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    add = cv2.resize(add.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(canvas, cv2.merge([gain, gain, gain]))
    return cv2.add(out, cv2.merge([add, add, add]))
