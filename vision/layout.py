"""The table's geometry in table coordinates (millimetres on the felt).

The origin is the felt's top-left as the camera sees it, x to the right, y down.
ArUco markers printed on the felt fix this frame; each pad is a rectangle in it,
turned so that its *upright* frame is the way its owner sees the cards (x to the
owner's right, y towards the owner).  Cards in a trick row are read in that frame.

    >>> layout = TableLayout.default()
    >>> layout.pad("seat1").to_table((0.0, 0.0))
    (250.0, 320.0)
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass

from .errors import CalibrationError

PAD_NAMES = ("seat1", "seat2", "seat3", "seat4", "tray")
# A tournament deck with a jumbo index (poker size); the recogniser reads its index.
CARD_W_MM = 63.0
CARD_H_MM = 88.0
ARUCO_DICT = "DICT_4X4_50"


@dataclass(frozen=True, slots=True)
class Pad:
    """A pad: centre and size in table mm, ``angle`` turns its upright frame."""

    name: str
    cx: float
    cy: float
    width: float  # along the owner's left-right
    depth: float  # towards the owner
    angle: float  # degrees; 0 for the pad at the bottom edge (seat 1)

    def to_table(self, uv: tuple[float, float]) -> tuple[float, float]:
        """A point in the pad's upright frame (mm from its top-left) in table mm."""
        a = math.radians(self.angle)
        u, v = uv[0] - self.width / 2, uv[1] - self.depth / 2
        x = self.cx + u * math.cos(a) - v * math.sin(a)
        y = self.cy + u * math.sin(a) + v * math.cos(a)
        return (round(x, 6), round(y, 6))

    def corners(self, margin: float = 0.0) -> list[tuple[float, float]]:
        """Table-mm corners of the pad (grown by ``margin``): TL, TR, BR, BL upright."""
        m = margin
        return [
            self.to_table(p)
            for p in ((-m, -m), (self.width + m, -m), (self.width + m, self.depth + m), (-m, self.depth + m))
        ]


@dataclass(frozen=True, slots=True)
class Marker:
    """An ArUco marker on the felt: its id and the table-mm square it covers."""

    id: int
    x: float
    y: float
    size: float

    def corners(self) -> list[tuple[float, float]]:
        # ArUco's corner order: top-left, top-right, bottom-right, bottom-left.
        x, y, s = self.x, self.y, self.size
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Felt size, markers and pads: the table as data, saved with a calibration."""

    width: float
    height: float
    markers: tuple[Marker, ...]
    pads: tuple[Pad, ...]

    def pad(self, name: str) -> Pad:
        for p in self.pads:
            if p.name == name:
                return p
        raise CalibrationError(
            "no pad named {name!r}; pads are {pads}", name=name, pads=", ".join(p.name for p in self.pads)
        )

    def marker(self, marker_id: int) -> Marker | None:
        return next((m for m in self.markers if m.id == marker_id), None)

    @classmethod
    def default(cls) -> TableLayout:
        """The championship felt: 800 x 450 mm under the camera, four corner markers."""
        markers = (Marker(0, 10, 10, 40), Marker(1, 750, 10, 40), Marker(2, 750, 400, 40), Marker(3, 10, 400, 40))
        pads = (
            Pad("seat1", 400, 380, 300, 120, 0),
            Pad("seat2", 730, 225, 300, 120, -90),
            Pad("seat3", 400, 70, 300, 120, 180),
            Pad("seat4", 70, 225, 300, 120, 90),
            Pad("tray", 400, 225, 220, 120, 0),
        )
        return cls(800.0, 450.0, markers, pads)

    def to_dict(self) -> dict:
        return {
            "width": self.width,
            "height": self.height,
            "markers": [asdict(m) for m in self.markers],
            "pads": [asdict(p) for p in self.pads],
        }

    @classmethod
    def from_dict(cls, data: dict) -> TableLayout:
        try:
            layout = cls(
                float(data["width"]),
                float(data["height"]),
                tuple(Marker(int(m["id"]), float(m["x"]), float(m["y"]), float(m["size"])) for m in data["markers"]),
                tuple(
                    Pad(
                        str(p["name"]),
                        float(p["cx"]),
                        float(p["cy"]),
                        float(p["width"]),
                        float(p["depth"]),
                        float(p["angle"]),
                    )
                    for p in data["pads"]
                ),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(
                "table layout is incomplete or malformed ({error!r}); "
                "expected width, height, markers[id,x,y,size], pads[name,cx,cy,width,depth,angle]",
                error=exc,
            ) from exc
        if len(layout.markers) < 2:
            raise CalibrationError("a table layout needs at least two markers")
        if len({p.name for p in layout.pads}) != len(layout.pads):
            raise CalibrationError("pad names in the table layout must be unique")
        return layout

    @classmethod
    def load(cls, path: str) -> TableLayout:
        try:
            with open(path, encoding="utf-8") as fh:
                return cls.from_dict(json.load(fh))
        except OSError as exc:
            raise CalibrationError("cannot read table layout {path}: {error}", path=path, error=exc) from exc
        except UnicodeDecodeError:  # stop 72: a traceback
            raise CalibrationError("table layout {path} is not text in UTF-8 (a layout is JSON)", path=path) from None
        except json.JSONDecodeError as exc:
            raise CalibrationError("table layout {path} is not JSON: {error}", path=path, error=exc) from exc
