"""The allocation phase of the Allocator games (RULES.md section 3): checking a player's commit,
and the deterministic optimiser behind both "suggest" and the allocation given on a timeout.

A commit maps every category to distinct cards of the player's own hand, as many as the
category's ``allocated`` count (2/2/2, or 2/2/3); the rest are discarded unseen. Errors never
name a card: a commit is private until every player has committed.

The optimiser scores an allocation by how often each category's hand beats a random holding:
for a Hold'em board, the share of all 2-card holdings of the other cards that it beats on that
board (ties count half); for the Hand, the share of all 2- or 3-card hands. It maximises the sum,
i.e. the expected points against one random opponent, and breaks ties by the first allocation in
card order, so the same cards always get the same answer. Every subset of the hand is valued
once with the numpy batch evaluator, then disjoint subsets are combined with array operations
(15 cards into 2/2/3 take a few tens of milliseconds).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from boardroom.cards import Card, parse_cards
from boardroom.evaluation import Ranking
from boardroom.rules.spec import Category, Construction, Variant

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# numpy and the batch evaluator are imported where a search runs: checking an allocation and
# replaying a history need neither (``boardroom replay`` starts without numpy).

Allocation = dict[str, tuple[Card, ...]]
"""Category name -> the cards committed to it."""

_SCALE = 1 << 20  # scores are integers: the share beaten, times 2 * _SCALE
_TOP = 64  # combinations tried first for each subset of the last category


class AllocationError(ValueError):
    """A commit that breaks RULES.md's allocation rule; the message names no card."""


def allocation_cards(value: Sequence[Card] | str) -> tuple[Card, ...]:
    """Cards of one category's commit, as card numbers or notation (``'AsKd'``)."""
    if isinstance(value, str):
        return parse_cards(value, allow_duplicates=True)
    return tuple(value)


def check_allocation(variant: Variant, hole: Sequence[Card],
                     allocation: Mapping[str, Sequence[Card] | str]) -> Allocation:
    """The commit as an ``Allocation``, or ``AllocationError`` saying what is wrong."""
    sizes = variant.allocation_sizes
    if not sizes:
        raise AllocationError(f"{variant.name} has no allocation phase")
    unknown = [name for name in allocation if name not in sizes]
    if unknown:
        raise AllocationError(f"{variant.name} has no category {unknown[0]!r} to allocate to "
                              f"(categories: {', '.join(sizes)})")
    missing = [name for name in sizes if name not in allocation]
    if missing:
        raise AllocationError(f"the allocation has no cards for {', '.join(missing)}; "
                              f"commit {_sizes_text(sizes)}")
    result: Allocation = {}
    used: set[Card] = set()
    own = set(hole)
    for name, size in sizes.items():
        try:
            cards = allocation_cards(allocation[name])
        except ValueError:
            raise AllocationError(f"the cards for {name} are not readable card notation"
                                  ) from None
        if len(cards) != size:
            raise AllocationError(f"{name} takes {size} cards, not {len(cards)}; "
                                  f"commit {_sizes_text(sizes)}")
        if any(card not in own for card in cards):
            raise AllocationError(f"a card allocated to {name} is not in your hand")
        if used.intersection(cards) or len(set(cards)) != len(cards):
            raise AllocationError(f"a card allocated to {name} is allocated twice; every "
                                  f"allocated card must be a different card of your hand")
        used.update(cards)
        result[name] = tuple(cards)
    return result


def _sizes_text(sizes: Mapping[str, int]) -> str:
    return " / ".join(f"{size} for {name}" for name, size in sizes.items())


# -- the optimiser ------------------------------------------------------------------------


@functools.cache
def _hand_table(ranking: Ranking, size: int) -> npt.NDArray[np.int16]:
    """Strengths of every ``size``-card hand of the deck, sorted (the field for the Hand)."""
    import numpy as np

    from boardroom.evaluation import batch
    rows = np.array(list(combinations(range(52), size)), dtype=np.intp)
    values = batch.two_card(rows) if ranking is Ranking.TWO_CARD else batch.three_card(rows)
    return np.sort(values)


@functools.lru_cache(maxsize=256)
def _board_field(board: tuple[Card, ...]) -> npt.NDArray[np.int16]:
    """Strengths of every 2-card holding of the cards off ``board`` on it, sorted (cached: every
    seat of a hand allocates against the same boards)."""
    import numpy as np

    from boardroom.evaluation import batch
    others = [card for card in range(52) if card not in board]
    pairs = np.array(list(combinations(others, 2)), dtype=np.intp)
    rows = np.concatenate([pairs, np.broadcast_to(np.asarray(board, dtype=np.intp),
                                                   (len(pairs), len(board)))], axis=1)
    return np.sort(batch.high(rows))


def _share(field: npt.NDArray[np.int16], values: npt.NDArray[np.int16]) -> npt.NDArray[np.int64]:
    """Twice the share of ``field`` each value beats (a tie counts half), as scaled integers."""
    import numpy as np
    below = np.searchsorted(field, values, side="left").astype(np.int64)
    upto = np.searchsorted(field, values, side="right").astype(np.int64)
    return (below + upto) * _SCALE // len(field)


def _category_scores(category: Category, hole: tuple[Card, ...], board: tuple[Card, ...],
                     subsets: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    import numpy as np

    from boardroom.evaluation import batch
    cards = np.asarray(hole, dtype=np.intp)[subsets]
    if category.construction is Construction.HOLDEM:
        if len(board) < 3:
            return np.zeros(len(subsets), dtype=np.int64)
        rows = np.concatenate([cards, np.broadcast_to(np.asarray(board, dtype=np.intp),
                                                       (len(cards), len(board)))], axis=1)
        return _share(_board_field(tuple(sorted(board))), batch.high(rows))
    values = batch.two_card(cards) if category.ranking is Ranking.TWO_CARD else (
        batch.three_card(cards))
    return _share(_hand_table(category.ranking, category.allocated), values)


def best_allocation(variant: Variant, hole: Sequence[Card],
                    boards: Mapping[str, Sequence[Card]]) -> Allocation:
    """The allocation with the most expected points against a random holding (see above)."""
    import numpy as np
    categories = [c for c in variant.categories if c.allocated]
    if not categories:
        raise AllocationError(f"{variant.name} has no allocation phase")
    cards = tuple(sorted(hole, reverse=True))
    needed = sum(c.allocated for c in categories)
    if len(cards) < needed:
        raise AllocationError(f"an allocation needs {needed} cards, the hand has {len(cards)}")
    bit = 1 << np.arange(len(cards), dtype=np.int64)
    parts: list[tuple[npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    for category in categories:
        subsets = np.array(list(combinations(range(len(cards)), category.allocated)),
                           dtype=np.intp)
        board = tuple(boards.get(category.board, ())) if category.board else ()
        parts.append((subsets, bit[subsets].sum(axis=1),
                      _category_scores(category, cards, board, subsets)))
    # Combine all categories but the last one by one; each row keeps the chosen subset index
    # per category.
    choice = np.arange(len(parts[0][0]), dtype=np.intp)[:, None]
    masks, scores = parts[0][1], parts[0][2]
    for _, sub_masks, sub_scores in parts[1:-1]:
        ok = (masks[:, None] & sub_masks[None, :]) == 0
        rows, cols = np.nonzero(ok)
        choice = np.concatenate([choice[rows], cols[:, None]], axis=1)
        masks = masks[rows] | sub_masks[cols]
        scores = scores[rows] + sub_scores[cols]
    # The last category: for each of its subsets, the best disjoint combination so far, found
    # among the best few combinations first (almost always there), else among all of them.
    _, last_masks, last_scores = parts[-1]
    order = np.argsort(-scores, kind="stable")
    top = order[:_TOP]
    ok = (masks[top][None, :] & last_masks[:, None]) == 0
    found = ok.any(axis=1)
    partner = top[ok.argmax(axis=1)]
    for row in np.flatnonzero(~found):
        fits = np.flatnonzero((masks[order] & last_masks[row]) == 0)
        partner[row] = order[fits[0]] if len(fits) else -1
    totals = np.where(partner >= 0, scores[partner] + last_scores, -1)
    last = int(np.argmax(totals))
    picks = [*choice[partner[last]].tolist(), last]
    return {category.name: tuple(cards[i] for i in parts[k][0][picks[k]])
            for k, category in enumerate(categories)}


def allocation_score(variant: Variant, allocation: Mapping[str, Sequence[Card]],
                     boards: Mapping[str, Sequence[Card]]) -> int:
    """The optimiser's score of one allocation (what ``best_allocation`` maximises)."""
    import numpy as np
    total = 0
    for category in variant.categories:
        if not category.allocated:
            continue
        cards = tuple(allocation[category.name])
        board = tuple(boards.get(category.board, ())) if category.board else ()
        subsets = np.arange(len(cards), dtype=np.intp)[None, :]
        total += int(_category_scores(category, cards, board, subsets)[0])
    return total
