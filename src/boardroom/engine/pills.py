"""Hand-strength pills and the NUTS badge (RULES.md section 3, "What a player sees").

For a viewer and every category: the viewer's best hand right now from the cards they can see
(their own hand, the boards shown so far), or "not yet" before the category's board (Tilt: its
tilted card, the diagonal's third tilted card) is visible. NUTS: no holding of an opponent made
only of cards this viewer cannot see beats it in that category now (a tie is still the nuts);
future cards and redraws are ignored. Holdings follow the category: 2 unseen cards for an Omaha,
Tilt or Hold'em board and the diagonal, 5 for a private hand, 4 for the Tree, and 2 or 3 for the
Allocators' Hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from boardroom.cards import Card
from boardroom.evaluation import HandValue, best_of, is_nuts
from boardroom.rules.scoring import category_hand, is_scorable, tilted_cards
from boardroom.rules.spec import Category, Construction, Variant

NOT_YET = "not yet"
NO_HAND = "none"


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
    visible = set(hole) | set(seen)
    for cards in boards.values():
        visible.update(cards)
    return tuple(_pill(variant, category, hole, boards, visible, allocation)
                 for category in variant.categories)


def _pill(variant: Variant, category: Category, hole: Sequence[Card],
          boards: Mapping[str, Sequence[Card]], visible: set[Card],
          allocation: Mapping[str, Sequence[Card]] | None) -> Pill:
    if len(hole) < _cards_needed(category) or not is_scorable(variant, category, boards):
        return Pill(category.name, False, NOT_YET, False)
    value = category_hand(variant, category, hole, boards, allocation)
    if value is None:
        return Pill(category.name, True, NO_HAND, False)
    return Pill(category.name, True, value.description,
                category_is_nuts(variant, category, value, boards, visible))


def _cards_needed(category: Category) -> int:
    """Hole cards a category needs before it has a hand (stud's private hands: five)."""
    if category.construction is Construction.HOLE_ONLY:
        return 5
    if category.construction is Construction.TREE:
        return 4
    return max(2, category.allocated)


def category_is_nuts(variant: Variant, category: Category, value: HandValue,
                     boards: Mapping[str, Sequence[Card]], visible: set[Card]) -> bool:
    """Whether no holding of unseen cards beats ``value`` in ``category`` now."""
    construction = category.construction
    if construction in (Construction.ALLOCATED, Construction.HOLE_ONLY):
        # Any ``size`` unseen cards are a holding: the nuts is the best hand of all of them.
        size = category.allocated or 5
        unseen = [card for card in range(52) if card not in visible]
        if len(unseen) < size:
            return True
        best = best_of(category.ranking, unseen)
        return best is None or value.strength >= best.strength
    board: Sequence[Card] = ()
    tilted: Card | None = None
    if construction is Construction.TILT_DIAGONAL:
        board = tilted_cards(variant, boards)
    elif category.board is not None:
        board = boards[category.board]
        position = variant.board(category.board).tilted
        if construction is Construction.TILT_BOARD and position is not None:
            tilted = board[position - 1]
    return is_nuts(value, construction, board, seen=visible, tilted=tilted)
