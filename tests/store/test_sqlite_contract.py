"""The SQLite table log passes the event-store contract."""

from table_controller.store import SQLiteStore

from .contract import EventStoreContract


class TestSQLiteStore(EventStoreContract):
    def open_store(self, path, clock=None):
        kwargs = {"clock": clock} if clock else {}
        return SQLiteStore.open(path, create=True, **kwargs)
