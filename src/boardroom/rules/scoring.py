"""A player's hand in each scoring category, from the category's construction (RULES.md s.3).

This is where a variant's data meets the evaluators: one function dispatches on the category's
``Construction``, so a new variant needs no new code here unless it brings a new construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from boardroom.cards import Card
from boardroom.evaluation import (
    HandValue,
    best_of,
    evaluate,
    holdem,
    omaha,
    tilt_board,
    tilt_diagonal,
    tree,
)
from boardroom.rules.spec import Category, Construction, SpecError, Variant

Boards = Mapping[str, Sequence[Card]]
"""The cards of each board shown so far, by board name."""

_MIN_BOARD = {Construction.OMAHA: 3, Construction.HOLDEM: 3}


def tilted_cards(variant: Variant, boards: Boards) -> list[Card]:
    """The tilted cards visible so far, in board order (A5, B4, C3, D1 in Tilt)."""
    return [
        boards[board.name][board.tilted - 1]
        for board in variant.boards
        if board.tilted is not None and len(boards.get(board.name, ())) >= board.tilted
    ]


def is_scorable(variant: Variant, category: Category, boards: Boards) -> bool:
    """Whether the category has a hand yet: its board (or tilted cards) visible enough."""
    construction = category.construction
    if construction is Construction.TILT_DIAGONAL:
        return len(tilted_cards(variant, boards)) >= 3
    if category.board is None:
        return True
    shown = len(boards.get(category.board, ()))
    if construction is Construction.TILT_BOARD:
        tilted = variant.board(category.board).tilted
        return tilted is not None and shown >= max(tilted, 3)
    return shown >= _MIN_BOARD.get(construction, 1)


def category_hand(
    variant: Variant,
    category: Category,
    hole: Sequence[Card],
    boards: Boards,
    allocation: Mapping[str, Sequence[Card]] | None = None,
) -> HandValue | None:
    """The player's best hand in ``category``; None before it is scorable or when none qualifies.

    ``hole`` is every card the player holds (redraws included). In the Allocator games,
    ``allocation`` maps each category to the cards committed to it; without one (before the
    allocation phase) the hand is the best any choice of cards could make, as a pill shows it.
    """
    if not is_scorable(variant, category, boards):
        return None
    construction = category.construction
    board = list(boards[category.board]) if category.board is not None else []
    committed = allocation.get(category.name) if allocation is not None else None
    if committed is not None and len(committed) != category.allocated:
        raise SpecError(f"category {category.name} takes {category.allocated} allocated cards, "
                        f"not {len(committed)}")
    match construction:
        case Construction.OMAHA:
            return omaha(hole, board, category.ranking)
        case Construction.TILT_BOARD:
            position = variant.board(str(category.board)).tilted or 0  # checked by the spec
            return tilt_board(hole, board, board[position - 1])
        case Construction.TILT_DIAGONAL:
            return tilt_diagonal(hole, tilted_cards(variant, boards))
        case Construction.HOLE_ONLY:
            return best_of(category.ranking, hole)
        case Construction.TREE:
            return tree(hole, board[0])
        case Construction.HOLDEM:
            if committed is not None:
                return holdem(committed, board)
            return _best_holdem(hole, board)
        case Construction.ALLOCATED:
            if committed is not None:
                return evaluate(category.ranking, committed)
            return best_of(category.ranking, hole)
    raise SpecError(f"unknown construction {construction}")  # pragma: no cover


def _best_holdem(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Before allocation: the best Hold'em hand any two of the player's cards make."""
    best: HandValue | None = None
    for i in range(len(hole)):
        for j in range(i + 1, len(hole)):
            value = holdem((hole[i], hole[j]), board)
            if best is None or value.strength > best.strength:
                best = value
    if best is None:
        raise SpecError("a Hold'em board needs two hole cards")
    return best
