"""The dashboard's one root exception."""


class DashboardError(ValueError):
    """Bad input to the dashboard (a protocol file, a token file, a posted action); the
    message says what to fix."""
