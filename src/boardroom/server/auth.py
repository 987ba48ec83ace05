"""Seat tokens and host secrets.

A seat token is ``payload.signature``: the room, seat and player id, signed with HMAC-SHA256
under the server's secret (kept in the data folder, so tokens survive a restart). It proves who
the player is; the table says whether that player still sits there. A host secret is a random
string shown once to the host; the store keeps only its SHA-256.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path


class AuthError(ValueError):
    """A token or secret that is missing, malformed, forged or no longer valid; ``code`` is
    ``bad_seat_token`` or ``bad_host_secret``."""

    def __init__(self, message: str, code: str = "bad_seat_token") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SeatClaim:
    room: str
    seat: int
    player: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs and checks seat tokens with one server secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("the server secret must be at least 32 bytes")
        self._secret = secret

    @classmethod
    def from_folder(cls, folder: Path) -> Signer:
        """The secret in ``folder/secret.key``, created (readable by its owner only) if absent."""
        path = folder / "secret.key"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_hex(32))
        return cls(bytes.fromhex(path.read_text().strip()))

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._secret, payload.encode(), hashlib.sha256).digest())

    def seat_token(self, room: str, seat: int, player: str) -> str:
        payload = _b64(json.dumps({"r": room, "s": seat, "p": player},
                                  separators=(",", ":")).encode())
        return f"{payload}.{self._sign(payload)}"

    def read(self, token: object) -> SeatClaim:
        """The claim of a genuine token; ``AuthError`` for anything else."""
        # A token is base64url text: anything else (a non-ASCII character, which compare_digest
        # refuses to compare) is no token at all.
        if (not isinstance(token, str) or len(token) > 512 or not token.isascii()
                or token.count(".") != 1):
            raise AuthError("not a seat token")
        payload, signature = token.split(".")
        if not hmac.compare_digest(self._sign(payload), signature):
            raise AuthError("the seat token is not valid (bad signature)")
        try:
            data = json.loads(_unb64(payload))
            claim = SeatClaim(str(data["r"]), int(data["s"]), str(data["p"]))
        except (ValueError, KeyError, TypeError):
            raise AuthError("not a seat token") from None
        return claim


def new_host_secret() -> str:
    return secrets.token_urlsafe(24)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def is_host_secret(given: object, stored_hash: str) -> bool:
    return isinstance(given, str) and len(given) < 200 and hmac.compare_digest(
        secret_hash(given), stored_hash)
