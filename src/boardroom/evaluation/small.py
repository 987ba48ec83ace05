"""The best 3-card (Allocator Redraw) and 2-card (Allocator) hand of any number of cards.

No enumeration of combinations: the cards are counted by rank and by suit, a handful of
candidate hands is built (at most one per category and per suit), and the best candidate is
the best hand. Why the best hand is always among them (RULES.md section 3's order, Royal >
Trips > Straight flush > Straight > Flush > Pair > High card):

- Royal, trips, straight flush: each suit's best run of three (A-K-Q down to A-2-3) and the
  highest rank held three times are candidates.
- Straight: the highest run of ranks held in any suits is; if its cards happen to share a suit
  it is a straight flush or a Royal, better still.
- Flush: only the best hand when no suit holds a run, so each suit's top three ranks are a flush
  and the best flush is among them.
- Pair: the highest rank held twice with the highest other rank. High card: the three highest
  ranks (were they a run or one suit, a better candidate exists).

Every candidate is a hand the cards make, so the best candidate is exactly the best hand. Two
cards: pair beats no pair, so the highest pair and the two highest ranks suffice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from boardroom.evaluation import scalar

_ACE = 12
# Runs of three ranks, best first: A-K-Q (the Royal when suited), K-Q-J, ..., 4-3-2, A-2-3.
_RUNS: Final = (*((top, top - 1, top - 2) for top in range(_ACE, 1, -1)), (1, 0, _ACE))
_RUN_MASKS: Final = tuple((ranks, sum(1 << r for r in ranks)) for ranks in _RUNS)


def _top_ranks(mask: int, count: int) -> tuple[int, ...]:
    """The ``count`` highest ranks of a 13-bit rank mask, highest first."""
    ranks: list[int] = []
    while mask and len(ranks) < count:
        top = mask.bit_length() - 1
        ranks.append(top)
        mask &= ~(1 << top)
    return tuple(ranks)


def best_three_card(cards: Sequence[int]) -> int:
    """The strength of the best 3 of 3 or more cards."""
    by_rank: list[list[int]] = [[] for _ in range(13)]
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        by_rank[card >> 2].append(card)
        suit_masks[card & 3] |= 1 << (card >> 2)
    held = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    candidates: list[tuple[int, ...]] = []
    for suit, mask in enumerate(suit_masks):
        if mask.bit_count() < 3:
            continue
        for ranks, need in _RUN_MASKS:
            if mask & need == need:
                candidates.append(tuple(rank * 4 + suit for rank in ranks))
                break
        candidates.append(tuple(rank * 4 + suit for rank in _top_ranks(mask, 3)))
    for ranks, need in _RUN_MASKS:
        if held & need == need:
            candidates.append(tuple(by_rank[rank][0] for rank in ranks))
            break
    pairs = [rank for rank in range(_ACE, -1, -1) if len(by_rank[rank]) >= 2]
    trips = [rank for rank in pairs if len(by_rank[rank]) >= 3]
    if trips:
        candidates.append(tuple(by_rank[trips[0]][:3]))
    if pairs:
        kickers = _top_ranks(held & ~(1 << pairs[0]), 1)
        if kickers:
            candidates.append((*by_rank[pairs[0]][:2], by_rank[kickers[0]][0]))
    tops = _top_ranks(held, 3)
    if len(tops) == 3:
        candidates.append(tuple(by_rank[rank][0] for rank in tops))
    return max(scalar.three_card_strength(hand) for hand in candidates)


def best_two_card(cards: Sequence[int]) -> int:
    """The strength of the best 2 of 2 or more cards."""
    by_rank: list[list[int]] = [[] for _ in range(13)]
    for card in cards:
        by_rank[card >> 2].append(card)
    candidates: list[tuple[int, ...]] = []
    pairs = [rank for rank in range(_ACE, -1, -1) if len(by_rank[rank]) >= 2]
    if pairs:
        candidates.append(tuple(by_rank[pairs[0]][:2]))
    tops = [rank for rank in range(_ACE, -1, -1) if by_rank[rank]][:2]
    if len(tops) == 2:
        candidates.append((by_rank[tops[0]][0], by_rank[tops[1]][0]))
    return max(scalar.two_card_strength(hand) for hand in candidates)
