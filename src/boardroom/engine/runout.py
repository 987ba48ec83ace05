"""The spots of an all-in run-out: the hand as it stood when no more betting could happen.

Once a betting round ends with two or more players in the hand and at most one of them with
chips behind, the rest of the hand is dealt out with no betting (RULES.md s.2). The hand records
a ``RunoutSpot`` then, and again after each street of the run-out that leaves cards to come: the
boards dealt, every live hand, the pots and the redraw pool. ``boardroom.engine.equity`` turns a
spot into each player's chance of winning each pot. A spot holds live hands' hidden cards, so it
is for the server's eyes until those hands are face up (an all-in showdown shows them all).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardroom.cards import Card
from boardroom.engine.showdown import Pot

Seat = int


@dataclass(frozen=True, slots=True)
class RunoutSpot:
    """The hand after street ``street_index`` (named ``street``) with no more betting to come."""

    street: str
    street_index: int
    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    hands: tuple[tuple[Seat, tuple[Card, ...]], ...]  # every live seat's cards, dealing order
    # (seats, here and in the pots, are table seats: ``Hand.seats``)
    pots: tuple[Pot, ...]
    pool: int | None  # the redraw pool's size (None in games without redraws)
    redraws: int  # redraws each live seat received so far (everyone gets the same)
