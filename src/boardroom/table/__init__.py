"""A table across hands (DESIGN.md, table layer): seats, stacks, button, buy-ins, sit-outs,
Dealer's Choice picks and the action clock, driven by an injected time source.

``Table`` is pure and synchronous; the server's actor drives it. ``TableSettings`` holds the
host's choices; ``TableEvent`` is what a table publishes; ``history_for`` writes a finished hand
as one viewer may read it.
"""

from boardroom.table.base import (
    BETWEEN,
    CLOSED,
    DEALING,
    OUT,
    PENDING,
    PICKING,
    PLAYING,
    WAITING,
    Clock,
    SeatState,
)
from boardroom.table.events import HAND, TableEvent
from boardroom.table.history import history_for
from boardroom.table.record import rebuild_hand
from boardroom.table.settings import MAX_SEATS, TableError, TableSettings
from boardroom.table.table import Table

__all__ = [
    "BETWEEN",
    "CLOSED",
    "DEALING",
    "HAND",
    "MAX_SEATS",
    "OUT",
    "PENDING",
    "PICKING",
    "PLAYING",
    "WAITING",
    "Clock",
    "SeatState",
    "Table",
    "TableError",
    "TableEvent",
    "TableSettings",
    "history_for",
    "rebuild_hand",
]
