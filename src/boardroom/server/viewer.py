"""Who a connection is: the room it joined, its role, its seat; and the audiences of a push."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardroom.server.protocol import RateLimit

Audience = int | None  # a table seat, or None: the spectators (and players without a seat)


@dataclass(eq=False, slots=True)
class Viewer:
    """One connection: who it is in which room (slots: about 350 bytes less a connection than
    an instance dictionary, seven connections a table)."""

    sid: str
    limit: RateLimit
    room: str | None = None
    role: str = "player"  # or "spectator"
    seat: int | None = None
    player: str | None = None
    host: bool = False
    name: str | None = None
    origin: str | None = None  # the worker the connection is on (a cluster's); None: this one

    def describe(self) -> dict[str, Any]:
        return {"room": self.room, "role": self.role, "seat": self.seat, "host": self.host}
