"""What a table publishes: numbered events, each public, or one per viewer for hand events.

Every change to a table appends a ``TableEvent`` with the next version. Table events (a seat
taken, a game picked, a hand started) carry public plain data. A hand event carries the engine's
event as it really happened (``truth``, for the store only) and, for each viewer, the same event
with the cards that viewer may not see hidden (``views``, built by ``engine.view.events_for``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boardroom.engine.events import Event

HAND = "hand"  # the kind of a hand event


@dataclass(frozen=True, slots=True)
class TableEvent:
    version: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)  # public, JSON-ready
    hand_no: int | None = None
    truth: Event | None = None  # hand events: what happened, every card included (store only)
    views: Mapping[int | None, Event] | None = None  # table seat (None: everyone else) -> event
    private: Mapping[str, Any] | None = None  # store only (the finished hand's record)
    at: float = 0.0

    def view_for(self, seat: int | None) -> Event | None:
        """The hand event as the player at table ``seat`` (None: a spectator) may see it."""
        if self.views is None:
            return None
        return self.views.get(seat, self.views[None])
