"""A key per table (Ed25519) that signs the head of the table's log chain.

    >>> public = create_key("table7.key")              # at setup; the file is the table's secret
    >>> head = signed_head(load_key("table7.key"), "sm2026", "h1-t7", 412, "ab12...")
    >>> verify_head(public, head)                       # raises BadSignature if anything differs

What is signed is the text ``chicago-head/v1|EVENT|TABLE|SEQ|DIGEST``: the chain's
last record and its digest, which commits to every record before it.  The hub keeps
the heads it received (a witness); someone who can rewrite the table's files can
recompute the unkeyed chain, but not what the hub already holds.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


class BadSignature(ValueError):
    pass


def head_text(event: str, table: str, seq: int, digest: str) -> bytes:
    return f"chicago-head/v1|{event}|{table}|{seq}|{digest}".encode()


def create_key(path: str | os.PathLike) -> str:
    """A new private key in a new file (owner-only); returns the public key (hex)."""
    path = Path(path)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never overwrite a table's key
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    return public_hex(key)


def load_key(path: str | os.PathLike) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path}: not a table key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 key")
    return key


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def public_key(text: str) -> Ed25519PublicKey:
    try:
        raw = bytes.fromhex(text)
        if len(raw) != 32:
            raise ValueError
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise ValueError(f"{text!r} is not an Ed25519 public key (64 hex digits)") from None


def signed_head(key: Ed25519PrivateKey, event: str, table: str, seq: int, digest: str) -> dict[str, Any]:
    return {
        "event": event,
        "table": table,
        "seq": seq,
        "digest": digest,
        "sig": key.sign(head_text(event, table, seq, digest)).hex(),
    }


def verify_head(public: str, head: Mapping[str, Any]) -> None:
    try:
        sig = bytes.fromhex(str(head["sig"]))
        public_key(public).verify(sig, head_text(head["event"], head["table"], int(head["seq"]), head["digest"]))
    except (KeyError, ValueError, TypeError, InvalidSignature):
        raise BadSignature(
            f"the head of {head.get('table')!r} at record {head.get('seq')!r} "
            f"is not signed by the table's registered key"
        ) from None
