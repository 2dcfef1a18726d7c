"""The in-memory log passes the same event-store contract as the SQLite file."""

from typing import ClassVar

from table_controller.store import MemoryStore

from .contract import EventStoreContract


class TestMemoryStore(EventStoreContract):
    volumes: ClassVar[dict] = {}  # path -> records: what "the file" keeps between a close and an open

    def open_store(self, path, clock=None):
        kwargs = {"clock": clock} if clock else {}
        return MemoryStore(self.volumes.setdefault(str(path), []), **kwargs)
