"""Hand-strength pills and the NUTS badge (RULES.md section 3, "What a player sees").

For a viewer and every category: the viewer's best hand right now from the cards they can see
(their own hand, the boards shown so far), or "not yet" before the category's board (Tilt: its
tilted card, the diagonal's third tilted card) is visible. NUTS: no holding of an opponent made
only of cards this viewer cannot see beats it in that category now (a tie is still the nuts);
future cards and redraws are ignored. Holdings follow the category: 2 unseen cards for an Omaha,
Tilt or Hold'em board and the diagonal, 5 for a private hand, 4 for the Tree, and 2 or 3 for the
Allocators' Hand.

Exact and computed once per change: a viewer's pills depend only on their cards, the boards,
the other cards they see and their revealed allocation, so they are cached on exactly those (a
bet changes none of them, so every view after it reuses them). A board category's hand and NUTS
both come from the board's table of every holding (``boardroom.evaluation.nuts.holdings``),
built once per board state for all viewers.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from boardroom.cards import Card
from boardroom.evaluation import (
    ALL_CARDS,
    HOLDING_CONSTRUCTIONS,
    HandValue,
    Holdings,
    card_mask,
    holdings,
    is_nuts,
)
from boardroom.evaluation.nuts import clear_cache as clear_holdings
from boardroom.rules.scoring import category_hand, is_scorable, tilted_cards
from boardroom.rules.spec import Board, Category, Construction, Variant

NOT_YET = "not yet"
NO_HAND = "none"
CACHE_SIZE = 8192  # viewers' pills kept: about 1 KB each


@dataclass(frozen=True, slots=True)
class Pill:
    """One category's pill: ``text`` reads like ``"A: Flush, ace high"`` or ``"Lo: none"``."""

    category: str
    ready: bool  # False: "not yet" (the category's board or tilted card is not visible)
    description: str  # the hand, "none" (no qualifying low) or "not yet"
    nuts: bool

    @property
    def text(self) -> str:
        return f"{self.category}: {self.description}"


def pills_for(variant: Variant, hole: Sequence[Card], boards: Mapping[str, Sequence[Card]],
              seen: Iterable[Card] = (),
              allocation: Mapping[str, Sequence[Card]] | None = None) -> tuple[Pill, ...]:
    """The pills of a viewer holding ``hole`` who sees ``boards`` and the other ``seen`` cards
    (shown or up cards of other hands)."""
    return _cached_pills(_Request(
        variant.categories, variant.boards, tuple(hole),
        tuple((name, tuple(cards)) for name, cards in boards.items()), frozenset(seen),
        None if allocation is None else tuple(
            (name, tuple(cards)) for name, cards in allocation.items()),
        variant=variant))


def clear_caches() -> None:
    """Forget every cached pill and board table (benchmarks time the first view of a state)."""
    _cached_pills.cache_clear()
    clear_holdings()


def cache_info() -> functools._CacheInfo:
    """Hits and misses of the pill cache (tests count them)."""
    return _cached_pills.cache_info()


@dataclass(frozen=True, slots=True)
class _Request:
    """What a viewer's pills depend on, with the objects to compute them from (not compared)."""

    categories: tuple[Category, ...]
    board_specs: tuple[Board, ...]
    hole: tuple[Card, ...]
    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    seen: frozenset[Card]
    committed: tuple[tuple[str, tuple[Card, ...]], ...] | None
    variant: Variant = field(compare=False, hash=False)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _cached_pills(request: _Request) -> tuple[Pill, ...]:
    boards = dict(request.boards)
    visible = set(request.hole) | request.seen
    for cards in boards.values():
        visible.update(cards)
    allocation = None if request.committed is None else dict(request.committed)
    masks = (card_mask(request.hole), ALL_CARDS & ~card_mask(visible))  # held, unseen
    return tuple(_pill(request.variant, category, request.hole, boards, visible, allocation,
                       masks)
                 for category in request.variant.categories)


def _pill(variant: Variant, category: Category, hole: Sequence[Card],
          boards: Mapping[str, Sequence[Card]], visible: set[Card],
          allocation: Mapping[str, Sequence[Card]] | None, masks: tuple[int, int]) -> Pill:
    if len(hole) < _cards_needed(category) or not is_scorable(variant, category, boards):
        return Pill(category.name, False, NOT_YET, False)
    committed = allocation.get(category.name) if allocation is not None else None
    table: Holdings | None = None
    if category.construction in HOLDING_CONSTRUCTIONS:
        board, tilted = _category_board(variant, category, boards)
        table = holdings(category.construction, tuple(board), category.ranking, tilted)
    value: HandValue | None
    if table is not None and committed is None:
        # The best hand of any two of the viewer's cards, read from the board's shared table.
        value = table.best(masks[0])
    else:
        value = category_hand(variant, category, hole, boards, allocation)
    if value is None:
        return Pill(category.name, True, NO_HAND, False)
    if table is not None:
        nuts = not table.beaten(value.strength, masks[1])
    else:
        nuts = category_is_nuts(variant, category, value, boards, visible)
    return Pill(category.name, True, value.description, nuts)


def _cards_needed(category: Category) -> int:
    """Hole cards a category needs before it has a hand (stud's private hands: five, a
    badugi: four)."""
    if category.construction is Construction.HOLE_ONLY:
        return category.ranking.card_count
    if category.construction is Construction.TREE:
        return 4
    return max(2, category.allocated)


def _category_board(variant: Variant, category: Category, boards: Mapping[str, Sequence[Card]],
                    ) -> tuple[Sequence[Card], Card | None]:
    """The cards a category's holdings play with, and its tilted card (Tilt boards)."""
    construction = category.construction
    if construction is Construction.TILT_DIAGONAL:
        return tilted_cards(variant, boards), None
    if category.board is None:
        return (), None
    board = boards[category.board]
    position = variant.board(category.board).tilted
    if construction is Construction.TILT_BOARD and position is not None:
        return board, board[position - 1]
    return board, None


def category_is_nuts(variant: Variant, category: Category, value: HandValue,
                     boards: Mapping[str, Sequence[Card]], visible: set[Card]) -> bool:
    """Whether no holding of unseen cards beats ``value`` in ``category`` now."""
    board, tilted = _category_board(variant, category, boards)
    return is_nuts(value, category.construction, board, seen=visible, tilted=tilted)
