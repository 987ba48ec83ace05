"""Events: one record for every change a hand goes through (DESIGN.md: the event list is the
hand history, its persistence format and its replay).

Events are small frozen records. Cards are plain ints (``boardroom.cards``); ``None`` stands for
a card this viewer may not see (see ``boardroom.engine.view.events_for``). A ``Seat`` is the
player's table seat (``Hand(seats=...)``; 0..n-1 for a hand dealt without them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardroom.cards import Card

Seat = int

@dataclass(frozen=True, slots=True)
class Event:
    """Base of every hand event."""

@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    seat: Seat
    amount: int
    blind: str  # "small", "big" or "straddle" (engine.straddle)

@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    street: str

@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    card: Card | None  # None when the history does not say which card (PHH has no burn action)

@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    board: str
    cards: tuple[Card, ...]

@dataclass(frozen=True, slots=True)
class HoleDealt(Event):
    seat: Seat
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]  # stud: True for a card dealt face up (public)

@dataclass(frozen=True, slots=True)
class BringInPosted(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class Folded(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class Checked(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: Seat
    amount: int  # chips added (less than the bet when all-in)

@dataclass(frozen=True, slots=True)
class RaisedTo(Event):
    """A bet, raise or stud completion: the seat's total bet this round becomes ``amount``."""

    seat: Seat
    amount: int
    full: bool  # False: an all-in short of a full raise, which does not reopen the betting

@dataclass(frozen=True, slots=True)
class UncalledReturned(Event):
    seat: Seat
    amount: int

@dataclass(frozen=True, slots=True)
class HandShown(Event):
    seat: Seat
    cards: tuple[Card, ...]

@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    seat: Seat

@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot paid: its chips, who could win it, and the chips each winner took."""

    index: int  # 0 = main pot
    amount: int
    eligible: tuple[Seat, ...]
    shares: tuple[tuple[Seat, int], ...]
    showdown: bool  # False when everybody else folded
    run: int = 1  # the run whose share of the pot this is (engine.runs); 1 for a hand run once

@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    stacks: tuple[tuple[Seat, int], ...]  # (seat, its stack at the end), in the hand's order

@dataclass(frozen=True, slots=True)
class Redrawn(HoleDealt):
    """Redraw cards from the pool (RULES.md s.3): extra hole cards, private like any other."""

@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """The draw: a seat throws ``cards`` (none: it stands pat); private, others see the count.
    The seat's new cards follow as a ``HoleDealt``."""

    seat: Seat
    cards: tuple[Card | None, ...]

@dataclass(frozen=True, slots=True)
class PoolChanged(Event):
    """The pool's size, which is public: after each redraw distribution and each fold."""

    size: int

@dataclass(frozen=True, slots=True)
class AllocationStarted(Event):
    """The river betting closed with two or more players: they must allocate their cards."""

    seats: tuple[Seat, ...]

@dataclass(frozen=True, slots=True)
class AllocationCommitted(Event):
    """A seat committed its allocation (hidden until every seat has committed)."""

    seat: Seat
    automatic: bool  # True: the engine's best allocation, given on a timeout

@dataclass(frozen=True, slots=True)
class AllocationsRevealed(Event):
    """Every allocation at once: (seat, ((category, cards), ...)); discards are never shown."""

    allocations: tuple[tuple[Seat, tuple[tuple[str, tuple[Card, ...]], ...]], ...]

# The fields of each event type that name players, and how: one seat, several, or pairs led by
# a seat ((seat, chips), (seat, stack), (seat, allocation)).
_ONE, _MANY, _PAIRS = "one", "many", "pairs"
_SEAT_FIELDS = {"seat": _ONE, "seats": _MANY, "eligible": _MANY, "shares": _PAIRS,
                "stacks": _PAIRS, "allocations": _PAIRS}

_FIELDS_OF: dict[type[Event], tuple[tuple[str, str], ...]] = {}

def _seat_fields(kind: type[Event]) -> tuple[tuple[str, str], ...]:
    found = _FIELDS_OF.get(kind)
    if found is None:
        found = _FIELDS_OF[kind] = tuple((f.name, _SEAT_FIELDS[f.name])
                                         for f in dataclasses.fields(kind)
                                         if f.name in _SEAT_FIELDS) + _OWN_SEAT_FIELDS.get(kind, ())
    return found

def renamed(event: Event, seats: Sequence[Seat]) -> Event:
    """``event`` with each player's position in the hand (0..n-1) replaced by its table seat
    ``seats[position]``: the engine's events name the players by their table seats."""
    changes: dict[str, Any] = {}
    for name, how in _seat_fields(type(event)):
        value = getattr(event, name)
        if how == _ONE:
            changes[name] = seats[value]
        elif how == _MANY:
            changes[name] = tuple(seats[position] for position in value)
        else:
            changes[name] = tuple((seats[position], rest) for position, rest in value)
    return dataclasses.replace(event, **changes) if changes else event

@dataclass(frozen=True, slots=True)
class RunsOffered(Event):
    """Every player left is all-in before the last card: each of ``seats`` may agree to run
    the rest up to ``most`` times (engine.runs)."""

    seats: tuple[Seat, ...]
    most: int

@dataclass(frozen=True, slots=True)
class RunsUnavailable(Event):
    """Running it more than once was not offered: ``reason`` says why (the cards left)."""

    reason: str

@dataclass(frozen=True, slots=True)
class RunsChosen(Event):
    """A seat's answer to the offer: 1 (once: a decline or a timeout), 2 or 3."""

    seat: Seat
    runs: int
    automatic: bool = False  # True: the seat's clock ran out (once)

@dataclass(frozen=True, slots=True)
class RunsAgreed(Event):
    """Every answer is in: the rest is dealt ``runs`` times (the fewest anyone chose)."""

    runs: int

@dataclass(frozen=True, slots=True)
class RunDealt(Event):
    """Run ``run`` (2 or 3) of the rest of the hand: the board cards it dealt, board by board,
    and each live seat's redraws in it (hidden like any redraw until the hands are shown)."""

    run: int
    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    cards: tuple[tuple[Seat, tuple[Card | None, ...]], ...]


# Fields that name players under a name other events use for something else (a run's ``cards``
# are (seat, redraws) pairs; a board's ``cards`` are cards).
_OWN_SEAT_FIELDS: dict[type[Event], tuple[tuple[str, str], ...]] = {RunDealt: (("cards", _PAIRS),)}
