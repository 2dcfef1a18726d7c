"""The dashboard's one root exception."""

from typing import Any


class DashboardError(ValueError):
    """Bad input to the dashboard (a protocol file, a token file, a posted action); the
    message says what to fix.  ``DashboardError("no player {player!r} here", player=p)``:
    the text is a catalogue id (English), answered in the request's language
    (``dashboard.i18n.tr_error``); ``str()`` is the English text."""

    def __init__(self, text: str, **params: Any):
        self.msgid, self.params = text, params
        super().__init__(text.format(**params) if params else text)


class EntryRejected(DashboardError):
    """A rejected entry whose answer is the same whatever the cards are (``dashboard.entry``):
    its text is shown as it is, never built from the engine's reason."""


class NotJudged(DashboardError):
    """The engine failed on an action (a bug, not a rule): the action was rolled back and
    the TL alerted.  One fixed text whatever the action named: nothing of the failure
    (its message may name a hidden card) reaches the answer."""


class Unavailable(DashboardError):
    """The table's log cannot be written now (a full disk, a file gone): nothing was
    changed; or the camera gives no picture now (offline, no answer).  Answered 503."""


class NotFound(DashboardError):
    """Something asked for that this table does not have (a camera's picture at a table
    without a camera): answered 404 with the text."""


class Refused(PermissionError):
    """A role that may not do this (answered 403); a catalogue id with params, like
    ``DashboardError``."""

    def __init__(self, text: str, **params: Any):
        self.msgid, self.params = text, params
        super().__init__(text.format(**params) if params else text)
