"""Judge one action: parse it if it is still a decoded JSON line, apply it, and say what
came of it.  The one place where parse -> apply -> "refused" is written; replay, the log's
checks, import, the single writer (``store.TableRecorder``), sensor replay, the analysis
and the score sheet's notes all judge through it.

    >>> from table_controller.rules.engine import Engine
    >>> engine = Engine()
    >>> judge(engine, {"do": "table", "players": ["Anna", "Bo", "Cilla"]}).accepted
    True
    >>> v = judge(engine, {"do": "table", "players": ["Anna", "Bo"]})
    >>> v.accepted, v.reason
    (False, 'the table has already started')
    >>> v = judge(engine, {"do": "dance"})
    >>> v.action, v.reason.split(";")[0]
    (None, "unknown action 'dance'")

A refusal (a line that is no action, or an action the rules forbid) changes nothing and is
the verdict's ``error``; any other exception is a bug and propagates, after the engine
has put itself back (``Engine.apply`` is all or nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table_controller.rules.actions import Action, parse_action
from table_controller.rules.engine import Engine
from table_controller.rules.errors import ActionError, IllegalAction
from table_controller.rules.events import Event


@dataclass(frozen=True, slots=True)
class Verdict:
    """What came of one line: the action (None: it was not one), the events it caused,
    or the error that refused it."""

    action: Action | None
    events: list[Event] = field(default_factory=list)
    error: ActionError | IllegalAction | None = None

    @property
    def accepted(self) -> bool:
        return self.error is None

    @property
    def reason(self) -> str | None:
        """Why it was refused (the rule, or what is wrong with the line); None if accepted."""
        if isinstance(self.error, IllegalAction):
            return self.error.reason
        return None if self.error is None else str(self.error)


def judge(engine: Engine, item: Action | Mapping[str, Any]) -> Verdict:
    """Apply ``item`` (an action, or a decoded JSON line) to ``engine``."""
    if isinstance(item, Action):
        action = item
    else:
        try:
            action = parse_action(item)
        except ActionError as exc:
            return Verdict(None, error=exc)
    try:
        return Verdict(action, engine.apply(action))
    except IllegalAction as exc:
        return Verdict(action, error=exc)
