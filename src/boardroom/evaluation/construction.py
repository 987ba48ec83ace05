"""How a category builds a hand from a player's cards (RULES.md section 3): the one list the
evaluators, the rule book's variants and the nuts all name."""

from __future__ import annotations

import enum


class Construction(enum.Enum):
    """A hand's construction, and so what the ``board`` of ``nuts`` means."""

    OMAHA = "omaha"  # exactly 2 hole + 3 of the category's board (3 to 5 cards); HIGH or LOW8
    TILT_BOARD = "tilt-board"  # Omaha with the board's tilted card forced in (``tilted=``)
    TILT_DIAGONAL = "tilt-diagonal"  # exactly 2 hole + 3 of the 3 or 4 visible tilted cards
    HOLE_ONLY = "hole-only"  # best 5 of the player's own cards (private hands, stud); no board
    TREE = "tree"  # exactly 4 hole + the Christmas card (the board is that card alone)
    HOLDEM = "holdem"  # best 5 of two cards + the board, any mix: Texas Hold'em's two hole
    # cards, or the 2 allocated cards of an Allocator board
    ALLOCATED = "allocated"  # exactly the allocated cards as they are (2- or 3-card Hand)
