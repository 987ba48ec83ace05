"""Category strengths of many finished hands at once: the bots' estimates and all-in equity.

Every function takes complete boards (the estimate deals the missing cards first) and returns
one ``int`` strength per row with the encoding of ``boardroom.evaluation`` (0: no qualifying
low). The constructions follow RULES.md s.3 through the evaluation layer's batch path; two are
estimates and say so: the Allocator games value each category as if the player's best cards
could serve every category at once (as the pills do before allocation), and the Tree of a hand
of more than ``_TREE_EXACT`` cards is the best 5 of the hand and the Christmas card unless the
caller asks for ``exact`` strengths (all-in equity does).
"""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardroom.evaluation import Ranking, batch
from boardroom.evaluation import _tables as tb
from boardroom.rules.spec import Category, Construction, Variant

Rows = npt.NDArray[np.intp]
Strengths = npt.NDArray[np.int32]

_TREE_EXACT = 10
_RANKS = np.arange(13, dtype=np.intp)
# Suits for a synthetic 5-card hand that is never a flush and never repeats a card of a rank.
_SYNTHETIC_SUITS = np.array([0, 1, 2, 3, 0], dtype=np.intp)


@functools.cache
def _subsets(n: int, k: int) -> Rows:
    return np.array(list(combinations(range(n), k)), dtype=np.intp)


@functools.cache
def _straight_tops() -> npt.NDArray[np.intp]:
    return np.array([tb.straight_top(mask) for mask in range(1 << 13)], dtype=np.intp)


@functools.cache
def _straight_ranks() -> npt.NDArray[np.intp]:
    return np.array([tb.straight_ranks(top) if top >= 3 else (0,) * 5 for top in range(13)],
                    dtype=np.intp)


def _top(mask: npt.NDArray[np.bool_], k: int) -> Rows:
    """The ``k`` highest ranks where ``mask`` holds, highest first (-1 when too few)."""
    values = np.where(mask, _RANKS, -1)
    return -np.sort(-values, axis=1)[:, :k]


def _highest(mask: npt.NDArray[np.bool_]) -> Rows:
    return _top(mask, 1)[:, 0]


def private_high(cards: Rows) -> Strengths:
    """High strength of the best 5 of any number (5 or more) of cards per row.

    The same answer as ``batch.high``, without visiting every 7-card subset: the best
    non-flush hand follows from the rank counts (as ``scalar.best_high_ranks`` does one hand at
    a time), and the best flush or straight flush from each suit's rank mask.
    """
    n = cards.shape[1]
    if n <= 7:
        return batch.high(cards).astype(np.int32)
    ranks = cards >> 2
    counts = np.zeros((len(cards), 13), dtype=np.int8)
    rows = np.arange(len(cards))[:, None]
    np.add.at(counts, (np.broadcast_to(rows, ranks.shape), ranks), 1)
    present = counts > 0
    quad = _highest(counts >= 4)
    trip = _highest(counts >= 3)
    pair1 = _highest(counts >= 2)
    pair2 = _highest((counts >= 2) & (pair1[:, None] != _RANKS))
    full_other = _highest((counts >= 2) & (trip[:, None] != _RANKS))
    mask = (present.astype(np.int64) << _RANKS).sum(axis=1)
    top = _straight_tops()[mask]
    rank_rows = np.select(
        [(quad >= 0)[:, None], ((trip >= 0) & (full_other >= 0))[:, None], (top >= 0)[:, None],
         (trip >= 0)[:, None], (pair2 >= 0)[:, None], (pair1 >= 0)[:, None]],
        [
            np.column_stack([quad, quad, quad, quad,
                             _top(present & (quad[:, None] != _RANKS), 1)]),
            np.column_stack([trip, trip, trip, full_other, full_other]),
            _straight_ranks()[np.maximum(top, 0)],
            np.column_stack([trip, trip, trip, _top(present & (trip[:, None] != _RANKS), 2)]),
            np.column_stack([pair1, pair1, pair2, pair2, _top(
                present & (pair1[:, None] != _RANKS) & (pair2[:, None] != _RANKS), 1)]),
            np.column_stack([pair1, pair1, _top(present & (pair1[:, None] != _RANKS), 3)]),
        ],
        default=_top(present, 5),
    )
    synthetic = np.maximum(rank_rows, 0) * 4 + _SYNTHETIC_SUITS
    best = batch.high5(synthetic).astype(np.int32)
    flush_table = tb.arrays().flush_mask
    bits = (1 << ranks).astype(np.int64)
    suits = cards & 3
    for suit in range(4):
        suit_mask = np.where(suits == suit, bits, 0).sum(axis=1)
        np.maximum(best, flush_table[suit_mask], out=best)
    return best


def _best_of_subsets(cards: Rows, size: int, score: object) -> Strengths:
    """The best ``score`` over every ``size``-card subset of each row, in one batch call."""
    subsets = _subsets(cards.shape[1], size)
    picked = cards[:, subsets].reshape(-1, size)
    values = score(picked)  # type: ignore[operator]
    table: Strengths = np.asarray(values, dtype=np.int32).reshape(len(cards), len(subsets))
    best: Strengths = table.max(axis=1).astype(np.int32)
    return best


def _holdem(hole: Rows, board: Rows) -> Strengths:
    pairs = _subsets(hole.shape[1], 2)
    held = hole[:, pairs]  # (N, P, 2)
    shared = np.broadcast_to(board[:, None, :], (len(hole), len(pairs), board.shape[1]))
    rows = np.concatenate([held, shared], axis=2).reshape(-1, 2 + board.shape[1])
    table: Strengths = batch.high(rows).astype(np.int32).reshape(len(hole), len(pairs))
    best: Strengths = table.max(axis=1).astype(np.int32)
    return best


def _tree(hole: Rows, card: Rows, exact: bool) -> Strengths:
    if hole.shape[1] > _TREE_EXACT and not exact:
        return private_high(np.concatenate([hole, card], axis=1))
    fours = _subsets(hole.shape[1], 4)
    held = hole[:, fours]
    christmas = np.broadcast_to(card[:, None, :], (len(hole), len(fours), 1))
    rows = np.concatenate([held, christmas], axis=2).reshape(-1, 5)
    table: Strengths = batch.high5(rows).astype(np.int32).reshape(len(hole), len(fours))
    best: Strengths = table.max(axis=1).astype(np.int32)
    return best


def _tilt_board(hole: Rows, board: Rows, tilted: int) -> Strengths:
    others = [i for i in range(board.shape[1]) if i != tilted]
    best = np.zeros(len(hole), dtype=np.int32)
    for a, b in combinations(others, 2):
        np.maximum(best, batch.omaha_high(hole, board[:, [tilted, a, b]]), out=best)
    return best


def category_strengths(variant: Variant, category: Category, hole: Rows,
                       boards: dict[str, Rows], *, exact: bool = False) -> Strengths:
    """Each row's strength in ``category`` with complete boards (see the module docstring)."""
    construction = category.construction
    ranking = category.ranking
    if construction is Construction.OMAHA:
        board = boards[str(category.board)]
        if ranking is Ranking.LOW8:
            return batch.omaha_low8(hole, board).astype(np.int32)
        return batch.omaha_high(hole, board).astype(np.int32)
    if construction is Construction.TILT_BOARD:
        position = variant.board(str(category.board)).tilted or 1
        return _tilt_board(hole, boards[str(category.board)], position - 1)
    if construction is Construction.TILT_DIAGONAL:
        diagonal = np.column_stack([boards[b.name][:, b.tilted - 1] for b in variant.boards
                                    if b.tilted is not None])
        return batch.omaha_high(hole, diagonal).astype(np.int32)
    if construction is Construction.HOLE_ONLY:
        if ranking is Ranking.ESG_LOW:
            return batch.esg_low(hole).astype(np.int32)
        if ranking is Ranking.LOW8:
            return batch.low8(hole).astype(np.int32)
        if ranking is Ranking.A5_LOW:
            return _best_of_subsets(hole, 7, batch.a5_low) if hole.shape[1] > 7 else (
                batch.a5_low(hole).astype(np.int32))
        if ranking is Ranking.DEUCE_SEVEN:
            return _best_of_subsets(hole, 5, batch.deuce_seven)
        if ranking is Ranking.BADUGI:
            return _best_of_subsets(hole, 4, batch.badugi)
        return private_high(hole)
    if construction is Construction.TREE:
        return _tree(hole, boards[str(category.board)], exact)
    if construction is Construction.HOLDEM:
        return _holdem(hole, boards[str(category.board)])
    if ranking is Ranking.TWO_CARD:
        return _best_of_subsets(hole, 2, batch.two_card)
    return _best_of_subsets(hole, 3, batch.three_card)
