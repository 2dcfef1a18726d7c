"""Errors of the serial bridge.  Bad bytes from the wire never raise (they are counted
in ``LinkStats``); these are for the host's own requests."""


class BridgeError(Exception):
    """Root of the bridge's errors."""


class CommandFailed(BridgeError):
    """A command to the seat controller was refused (NAK), never answered after its
    retries, or asked for while the link is down.  Say what to do: check the link
    (``chicago-table link monitor PORT``) or the command's fields."""


class BadCommand(CommandFailed, ValueError):
    """A command with fields the protocol cannot carry (unknown seat or colour)."""
