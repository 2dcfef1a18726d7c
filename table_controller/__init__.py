"""Chicago SM table controller: rules engine, sensing, clocks, event store and views."""

__version__ = "0.1.0"
