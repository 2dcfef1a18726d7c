"""Role tokens: one secret per role per event (ARCHITECTURE.md §4: no token, no data),
and one per seat of a table (``seat1``..``seat4``: a player's own phone, which on a
camera-only table declares that player's hand and sees no other).

>>> tokens = RoleTokens.load_or_create(Path("event/tokens.json"))
>>> request_token = tokens.token("revisor")
>>> tokens.role_of(request_token), tokens.role_of("a guess")
('revisor', None)
>>> tokens.role_of(tokens.token("seat3"))
'seat3'
>>> oct(Path("event/tokens.json").stat().st_mode & 0o777)
'0o600'

A token file made before the seats' tokens gets them added (the other tokens kept; still 0600).

The file is the event's, shared by its tables (``serve --tokens``), so a seat's secret in it
is the same at every table; a table answers to its own seat links only, each made from that
secret and the table's name (``at_table``): the link of seat 1 at "Bord 1" shows nothing at
"Bord 2", where somebody else sits at seat 1.

>>> one, two = tokens.at_table("Bord 1"), tokens.at_table("Bord 2")
>>> one.role_of(one.token("seat1")), two.role_of(one.token("seat1")), one.token("tl") == two.token("tl")
('seat1', None, True)

A table is also its own heat: each heat plays in a new data folder, and the folder's own
random salt (``table_salt``) goes into its seat links, so Anna's link to seat 2 of "Bord 1"
in heat 1 shows nothing of "Bord 1" in heat 2, where Erik sits at seat 2 (stop 63's audit:
it showed Erik's hand).

>>> again = tokens.at_table("Bord 1", salt="a second heat's folder")
>>> again.role_of(one.token("seat1")), again.role_of(again.token("seat1"))
(None, 'seat1')
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import tempfile
from pathlib import Path

from table_controller.views import ROLES, SEATS  # the one role list, the seats

from .errors import DashboardError

__all__ = ["ROLES", "SEATS", "TOKEN_ROLES", "RoleTokens", "seat_token", "table_salt", "view_urls"]

TOKEN_ROLES = ROLES + SEATS
VIEW_OF = {"revisor": "revisor", "tl": "tl", "broadcast": "broadcast", "public": "public", "dealer": "dealer"}


class RoleTokens:
    def __init__(self, tokens: dict[str, str]):
        missing = [r for r in TOKEN_ROLES if not tokens.get(r)]
        if missing:
            raise DashboardError(f"no token for role(s) {', '.join(missing)}")
        if len(set(str(tokens[r]) for r in TOKEN_ROLES)) != len(TOKEN_ROLES):
            raise DashboardError("two roles share a token; every role needs its own")
        self._tokens = {r: str(tokens[r]) for r in TOKEN_ROLES}

    @classmethod
    def generate(cls) -> RoleTokens:
        return cls({r: secrets.token_urlsafe(18) for r in TOKEN_ROLES})

    @classmethod
    def load_or_create(cls, path: Path) -> RoleTokens:
        """The event's tokens from ``path``; new ones written there (mode 600) if absent."""
        if path.exists():
            try:
                data = json.loads(path.read_text())
            except OSError as exc:
                raise DashboardError("cannot read the token file {path}: {reason}", path=path, reason=exc) from exc
            except ValueError as exc:  # not UTF-8, not JSON (stop 72: Python's own words)
                raise DashboardError(
                    "the token file {path} is not the JSON that 'serve' writes (role: token); give the event's "
                    "tokens.json or a new file name",
                    path=path,
                ) from exc
            if not isinstance(data, dict):
                raise DashboardError(f"the token file {path} must hold an object role -> token")
            if all(data.get(r) for r in ROLES) and not all(data.get(r) for r in SEATS):
                # an older event's file: the seats' tokens are added, the roles' kept
                added = cls({**data, **{r: secrets.token_urlsafe(18) for r in SEATS if not data.get(r)}})
                added._write(path, replace=True)
                return added
            return cls(data)
        tokens = cls.generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        if not tokens._write(path):
            return cls.load_or_create(path)  # another process made it first: its tokens count
        return tokens

    def _write(self, path: Path, replace: bool = False) -> bool:
        """Owner-only (0600) from its first byte, and whole when it appears: written aside,
        then linked in (new) or renamed over the old file (``replace``).  False when the
        file was new and another process created it first (its tokens stand)."""
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".new", dir=path.parent)  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(self._tokens, f, indent=2)
            if replace:
                os.replace(tmp, path)
                return True
            try:
                os.link(tmp, path)  # atomic: fails if the file exists
            except FileExistsError:
                return False
            except OSError:  # a file system without hard links: create it exclusively instead
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                except FileExistsError:
                    return False
                with os.fdopen(fd, "w") as f:
                    json.dump(self._tokens, f, indent=2)
            return True
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)

    def at_table(self, name: str, salt: str = "") -> RoleTokens:
        """The tokens one table answers to: the roles' as in the file, each seat's its own at
        the table called ``name`` in the data folder whose ``salt`` it is (``seat_token``,
        ``table_salt``); its links are printed with these."""
        return RoleTokens({**self._tokens, **{s: seat_token(self._tokens[s], name, salt) for s in SEATS}})

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


def seat_token(secret: str, table: str, salt: str = "") -> str:
    """A seat's token at the table called ``table`` in the data folder with ``salt``, from
    that seat's secret in the event's token file (HMAC-SHA256 over the table's name and the
    folder's salt; 24 URL-safe characters, 144 bits)."""
    msg = b"chicago-table seat\0" + table.encode() + (b"\0" + salt.encode() if salt else b"")
    mac = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()


SALT_FILE = "seats.salt"


def table_salt(data: Path) -> str:
    """The data folder's own salt for its seat links (``SALT_FILE``, owner-only), made with
    the folder's table: a new heat is a new folder, so its links are new.  A folder whose
    table was begun before salts (a log and no salt file) keeps the links it printed."""
    path = Path(data) / SALT_FILE
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        pass
    log = Path(data) / "table.sqlite"
    if log.is_file() and log.stat().st_size > 0:
        return ""  # a table already under way: its printed links stay good
    salt = secrets.token_urlsafe(18)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()  # another process made it first
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(salt + "\n")
    return salt


def view_urls(base: str, tokens: RoleTokens, seats: bool = False) -> list[tuple[str, str]]:
    """(view, URL with its token) for every view, the protocol page after them; ``seats``
    (a camera-only table): then each seat's own page, where its player declares a hand."""
    out = [(role, f"{base}/{VIEW_OF[role]}?token={tokens.token(role)}") for role in ROLES]
    out.append(("protocol", f"{base}/protocol?token={tokens.token('revisor')}"))
    if seats:
        out += [(seat, f"{base}/seat?token={tokens.token(seat)}") for seat in SEATS]
    return out
