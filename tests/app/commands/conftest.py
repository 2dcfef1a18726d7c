"""The fixtures of the parts a command drives, from the folders of those parts' own tests:
the virtual table on a pseudo-terminal (``link``) and the development photos (``camera
read``)."""

from tests.firmware_bridge.conftest import table  # noqa: F401
from tests.vision.photo.conftest import dev_photos  # noqa: F401
