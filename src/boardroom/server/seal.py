"""Sealed messages between a cluster's workers: nothing a Redis subscriber can read or replay.

A forwarded command, HTTP request or answer may carry a credential (a ``join``'s seat token or
host secret, a tournament request's ``X-Host-Secret`` or ``X-Seat-Token``, a ``sit``'s new seat
token, a new room's host secret, an entry's token). Each message a worker publishes on the
cluster's own channels is sealed with AES-GCM (``cryptography``) under a key derived (HKDF)
from the cluster's shared secret, which is kept in PostgreSQL and never crosses Redis:

- read: the message is ciphertext to anyone without the key;
- forged or moved: the channel it was sealed for is authenticated with it, so a message cannot
  be taken from one worker's channel to another's, nor changed;
- replayed: it carries the time it was sealed; a worker opens it only within ``MAX_AGE``
  seconds and only once (its nonce is remembered that long).

See docs/decisions.md, "Secrets over Redis".
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Callable
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from boardroom.server.encode import WireJSON

MAX_AGE = 30.0  # seconds a sealed message may take to arrive (workers' clocks: NTP)
NONCE = 12


class SealError(ValueError):
    """A message that is not sealed with the cluster's key for this channel, or is too old,
    or was opened before."""


class Sealer:
    """Seals and opens the cluster's messages under one key (``secret``: the cluster's)."""

    def __init__(self, secret: bytes, clock: Callable[[], float] = time.time) -> None:
        if len(secret) < 32:
            raise ValueError("the cluster's secret must be at least 32 bytes")
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                   info=b"boardroom: messages between workers").derive(secret)
        self._aead = AESGCM(key)
        self._clock = clock
        self._seen: dict[bytes, float] = {}  # nonce -> when it may be forgotten
        self._next_prune = 0.0

    def seal(self, channel: str, message: dict[str, Any]) -> str:
        nonce = os.urandom(NONCE)
        body = WireJSON.dumps({"at": self._clock(), "message": message}).encode()
        box = self._aead.encrypt(nonce, body, channel.encode())
        return base64.b64encode(nonce + box).decode()

    def open(self, channel: str, text: str | bytes) -> dict[str, Any]:
        """The message sealed in ``text`` for ``channel``; ``SealError`` if it was not (or is
        too old, or was opened already)."""
        try:
            raw = base64.b64decode(text, validate=True)
            nonce, box = raw[:NONCE], raw[NONCE:]
            body = json.loads(self._aead.decrypt(nonce, box, channel.encode()))
            at, message = float(body["at"]), body["message"]
        except (InvalidTag, ValueError, KeyError, TypeError):
            raise SealError("a message not sealed with the cluster's key") from None
        now = self._clock()
        if abs(now - at) > MAX_AGE:
            raise SealError(f"a sealed message {now - at:.0f} s old")
        if nonce in self._seen:
            raise SealError("a sealed message received twice")
        if now >= self._next_prune:  # once a window: the nonces too old to come again go
            self._seen = {n: until for n, until in self._seen.items() if until > now}
            self._next_prune = now + MAX_AGE
        self._seen[nonce] = at + 2 * MAX_AGE
        if not isinstance(message, dict):
            raise SealError("a sealed message that is not an object")
        return message
