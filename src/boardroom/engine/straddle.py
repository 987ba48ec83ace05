"""Straddles: a voluntary blind of twice the big blind, posted before the cards (blind games).

A hand has at most one straddle: the *UTG straddle* (the player left of the big blind posts it)
or the *button straddle* (the button posts it); who may straddle, and who chose to, is the
table's (``table.settings``, ``table.driver``). Either way the straddler acts last preflop: the
action starts with the player on the straddler's left (for the button straddle, the small blind) and
goes round to the straddler, who may check or raise when nobody raised. The straddle is a
forced bet like a blind (RULES.md s.2): it is the bet to call preflop, in full, even when its
poster is all-in for less, and any part of it nobody matched goes back to its owner. A
heads-up hand has no straddle (the button already posts the small blind).
"""

from __future__ import annotations

from enum import StrEnum

Seat = int

STRADDLE_MULTIPLE = 2  # a straddle is twice the big blind


class Straddle(StrEnum):
    UTG = "utg"
    BUTTON = "button"


def straddle_seat(kind: Straddle | None, order: tuple[Seat, ...], button: Seat) -> Seat | None:
    """The seat that straddles, or None (no straddle, or heads-up). ``order`` is the hand's
    seats clockwise from the small blind (the button's left)."""
    if kind is None or len(order) < 3:
        return None
    return order[2] if kind is Straddle.UTG else button


def straddle_amount(big_blind: int) -> int:
    return STRADDLE_MULTIPLE * big_blind
