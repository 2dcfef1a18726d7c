"""The dashboard's one root exception."""


class DashboardError(ValueError):
    """Bad input to the dashboard (a protocol file, a token file, a posted action); the
    message says what to fix."""


class EntryRejected(DashboardError):
    """A rejected entry whose answer is the same whatever the cards are (``dashboard.entry``):
    its text is shown as it is, never built from the engine's reason."""
