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

Kept by need: a caller that names the viewer (``owner``: a hand's views name the hand and the
seat) keeps that viewer's current pills alone, since a viewer's next state (a card dealt, a
redraw) never asks for the last one's again; ``forget`` drops a finished hand's. The bound,
``CACHE_SIZE``, is for callers that name nobody (docs/decisions.md, "mem13").
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

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
from boardroom.rules.spec import Category, Construction, Variant

NOT_YET = "not yet"
NO_HAND = "none"
CACHE_SIZE = 8192  # viewers' pills kept at most, oldest first out: about 1 KB each


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
              allocation: Mapping[str, Sequence[Card]] | None = None, *,
              owner: Hashable | None = None) -> tuple[Pill, ...]:
    """The pills of a viewer holding ``hole`` who sees ``boards`` and the other ``seen`` cards
    (shown or up cards of other hands). ``owner`` names the viewer (any hashable, e.g. a hand
    and a seat): its pills of an earlier state are then dropped as this one's are kept."""
    request = _Request(
        id(variant), tuple(hole),
        tuple((name, tuple(cards)) for name, cards in boards.items()), frozenset(seen),
        None if allocation is None else tuple(
            (name, tuple(cards)) for name, cards in allocation.items()),
        variant=variant)
    with _LOCK:
        found = _KEPT.pop(request, None)
        if found is not None:
            _KEPT[request] = found  # the newest now
            _COUNTS[0] += 1
            if owner is not None:
                _own(owner, request)
            return found
        _COUNTS[1] += 1
    made = _computed(request)
    with _LOCK:
        _KEPT[request] = made
        if owner is not None:
            _own(owner, request)
        while len(_KEPT) > CACHE_SIZE:
            del _KEPT[next(iter(_KEPT))]
    return made


def forget(owners: Iterable[Hashable]) -> None:
    """Drop the pills kept for ``owners`` (a finished hand's viewers): never asked for again
    (one asked for again, for a late view, is computed again, the same)."""
    with _LOCK:
        for owner in owners:
            request = _OWNED.pop(owner, None)
            if request is not None:
                _KEPT.pop(request, None)


def clear_caches() -> None:
    """Forget every cached pill and board table (benchmarks time the first view of a state)."""
    with _LOCK:
        _KEPT.clear()
        _OWNED.clear()
        _COUNTS[:] = [0, 0]
    clear_holdings()


class CacheInfo(NamedTuple):
    """The pill cache's hits and misses since it was last cleared, and its size."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    owners: int


def cache_info() -> CacheInfo:
    """Hits and misses of the pill cache (tests count them), its bound, its entries and the
    viewers it keeps pills for."""
    with _LOCK:
        return CacheInfo(_COUNTS[0], _COUNTS[1], CACHE_SIZE, len(_KEPT), len(_OWNED))


@dataclass(frozen=True, slots=True)
class _Request:
    """What a viewer's pills depend on, with the objects to compute them from (not compared)."""

    game: int  # the variant's identity: the request holds the variant, so it is never reused
    hole: tuple[Card, ...]
    boards: tuple[tuple[str, tuple[Card, ...]], ...]
    seen: frozenset[Card]
    committed: tuple[tuple[str, tuple[Card, ...]], ...] | None
    variant: Variant = field(compare=False, hash=False)


# The kept pills, oldest first, and each owner's current request; hits and misses. Under
# ``_LOCK``: views are built in threads too.
_LOCK = threading.Lock()
_KEPT: dict[_Request, tuple[Pill, ...]] = {}
_OWNED: dict[Hashable, _Request] = {}
_COUNTS = [0, 0]


def _own(owner: Hashable, request: _Request) -> None:
    """``owner``'s pills are ``request``'s now: its earlier state's go (held by ``_LOCK``)."""
    earlier = _OWNED.pop(owner, None)
    if earlier is not None and earlier != request:
        _KEPT.pop(earlier, None)
    _OWNED[owner] = request  # the newest now
    if len(_OWNED) > CACHE_SIZE:  # owners never forgotten (a room closed in a hand)
        oldest = next(iter(_OWNED))
        _KEPT.pop(_OWNED.pop(oldest), None)


def _computed(request: _Request) -> tuple[Pill, ...]:
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
