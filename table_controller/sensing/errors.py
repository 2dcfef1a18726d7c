"""The sensing package's root exception."""


class SensingError(ValueError):
    """Bad input to sensing (a correction that names no pad or card, ...)."""
