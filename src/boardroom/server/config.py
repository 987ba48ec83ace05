"""How a server is set up: its data folder, database, clock, web folder and public address."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardroom.cards import RandomSource
from boardroom.store.leases import LEASE_SECONDS, RENEW_SECONDS

WEB = Path(__file__).resolve().parent.parent / "web"

# How uvicorn serves the WebSockets (docs/decisions.md: the server's cost per action). No
# per-message deflate: every browser offers it, and its zlib streams cost each connection about
# 50 KiB and every message a compression, for updates of a few kilobytes. No WebSocket pings of
# uvicorn's own: Engine.IO already pings every connection (every 25 s, closing it after 20 s
# without an answer), so a second timer per connection found nothing the first does not.
UVICORN_WEBSOCKETS: dict[str, Any] = {
    "ws": "websockets-sansio", "ws_per_message_deflate": False, "ws_ping_interval": None,
    "ws_ping_timeout": None,
}


@dataclass
class ServerConfig:
    data: Path = Path("data")
    database: str | None = None  # None: SQLite in the data folder
    clock: Callable[[], float] = time.time
    rng: RandomSource | None = None  # None: secrets (tests inject a seeded generator)
    web: Path | None = field(default_factory=lambda: WEB)
    bot_think: float = 0.8  # seconds a bot waits before it acts, so people can follow
    # The address players open (``https://poker.example.org/``): join links are built from it,
    # never from the request's Host header, which any client sets. None: the request's address.
    public_url: str | None = None
    # A cluster's worker (server.cluster): Redis for the messages between workers, this
    # worker's id (unique in the cluster) and its leases' length and renewal, in seconds.
    # None: a single server, which runs every room.
    redis: str | None = None
    worker_id: str | None = None
    lease_seconds: float = LEASE_SECONDS
    renew_seconds: float = RENEW_SECONDS

    def __post_init__(self) -> None:
        if self.public_url is not None:
            self.public_url = check_public_url(self.public_url)


def check_public_url(url: str) -> str:
    """``url`` with one trailing slash if it is an http(s) address with a host and no query or
    fragment; ``ValueError`` saying so otherwise."""
    parts = urllib.parse.urlsplit(url)
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.query
            or parts.fragment or any(c.isspace() for c in url)):
        raise ValueError(f"the public URL must be an http:// or https:// address with a host "
                         f"and no query, like https://poker.example.org/ (got {url!r})")
    return url.rstrip("/") + "/"
