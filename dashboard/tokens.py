"""Role tokens: one secret per role per event (ARCHITECTURE.md §4: no token, no data).

>>> tokens = RoleTokens.load_or_create(Path("event/tokens.json"))
>>> request_token = tokens.token("revisor")
>>> tokens.role_of(request_token), tokens.role_of("a guess")
('revisor', None)
>>> oct(Path("event/tokens.json").stat().st_mode & 0o777)
'0o600'
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
from pathlib import Path

from table_controller.views import ROLES  # the one role list

from .errors import DashboardError

__all__ = ["ROLES", "RoleTokens", "view_urls"]

VIEW_OF = {"revisor": "revisor", "tl": "tl", "broadcast": "broadcast", "public": "public", "dealer": "dealer"}


class RoleTokens:
    def __init__(self, tokens: dict[str, str]):
        missing = [r for r in ROLES if not tokens.get(r)]
        if missing:
            raise DashboardError(f"no token for role(s) {', '.join(missing)}")
        if len(set(tokens[r] for r in ROLES)) != len(ROLES):
            raise DashboardError("two roles share a token; every role needs its own")
        self._tokens = {r: str(tokens[r]) for r in ROLES}

    @classmethod
    def generate(cls) -> RoleTokens:
        return cls({r: secrets.token_urlsafe(18) for r in ROLES})

    @classmethod
    def load_or_create(cls, path: Path) -> RoleTokens:
        """The event's tokens from ``path``; new ones written there (mode 600) if absent."""
        if path.exists():
            try:
                data = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                raise DashboardError(f"cannot read the token file {path}: {exc}") from exc
            if not isinstance(data, dict):
                raise DashboardError(f"the token file {path} must hold an object role -> token")
            return cls(data)
        tokens = cls.generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(tokens._tokens, f, indent=2)
        return tokens

    def token(self, role: str) -> str:
        return self._tokens[role]

    def role_of(self, token: str | None) -> str | None:
        """The role this token belongs to, or None.  Constant-time comparison."""
        if not token:
            return None
        found = None
        for role, secret in self._tokens.items():
            if hmac.compare_digest(secret.encode(), token.encode()):
                found = role
        return found

    def as_dict(self) -> dict[str, str]:
        return dict(self._tokens)


def view_urls(base: str, tokens: RoleTokens) -> list[tuple[str, str]]:
    """(view, URL with its token) for every view, the protocol page last."""
    out = [(role, f"{base}/{VIEW_OF[role]}?token={tokens.token(role)}") for role in ROLES]
    out.append(("protocol", f"{base}/protocol?token={tokens.token('revisor')}"))
    return out
