"""Sensor events: what the table's sensors report, before any game meaning.

The serial bridge (``firmware_bridge``) and the camera (``vision``) both produce these,
so sensing fuses them without knowing where they came from; the store keeps them as
"sensor" records.  Pads are named ``seat1``..``seat4`` and ``tray`` (the dealer's
discard tray).  Times are monotonic seconds from the ``Clock`` the producer was given.
A card is known here only by its RFID UID (hex text); turning UIDs into cards is the
deck's job (``table_controller.deck``).

Why here, alone: the producers (bridge, camera) and the consumers (sensing, store, live)
must share these types, and neither side may own them (the bridge importing sensing, or
sensing importing the bridge, would tie the serial line to the rules).  So they live in
one leaf module that imports nothing of the project: importing it loads only this file
(``table_controller/__init__`` holds nothing but a docstring), so the bridge and the
camera stay light and usable alone.  Keep it that way: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PADS = ("seat1", "seat2", "seat3", "seat4", "tray")
CAMERA_DEVICE = "camera"  # LinkStatus.device of the overhead camera (vision.worker)


@dataclass(frozen=True, slots=True)
class SensorEvent:
    at: float


@dataclass(frozen=True, slots=True)
class PadContents(SensorEvent):
    """The whole set of UIDs a reader sees on one pad now (RFID)."""

    pad: str
    uids: frozenset[str]
    source: str = "rfid"


@dataclass(frozen=True, slots=True)
class CardSighting:
    """One face-up card seen by the camera: its code in our notation (``"AS"``) or
    ``None`` when not recognised with confidence."""

    card: str | None
    confidence: float


@dataclass(frozen=True, slots=True)
class CameraPad(SensorEvent):
    """What the overhead camera sees on one pad: face-down count and face-up cards."""

    pad: str
    face_down: int
    face_up: tuple[CardSighting, ...] = ()
    source: str = "camera"


@dataclass(frozen=True, slots=True)
class ButtonPressed(SensorEvent):
    """A dealer-console button: ``next``, ``declined``, ``time``, ``tl``, ``pause``,
    or a seat-specific one as ``time:seat2``."""

    button: str


@dataclass(frozen=True, slots=True)
class ReaderStatus(SensorEvent):
    """A pad's reader went offline or came back."""

    pad: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class LinkStatus(SensorEvent):
    """The link to a device (seat controller or camera) as a whole; the camera's has
    ``device == CAMERA_DEVICE``."""

    online: bool
    device: str = ""
    detail: str = ""
    pads: tuple[str, ...] = field(default=())
