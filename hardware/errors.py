"""Errors of the hardware simulator (the virtual table)."""


class VirtualTableError(ValueError):
    """A physical move the virtual table cannot do: an unknown card, pad or button,
    or a move while the table is not running.  The table is unchanged."""
