"""The lookup tables every evaluator shares, built with numpy when the package is first used.

Everything here is derived from first principles (no oracle): the 7,462 high-hand classes are
listed best first, and each table maps a rank key sum or a rank mask to a strength. Building
all of them takes a few tens of milliseconds, so nothing is cached on disk; the large table of
the 7-card batch path (15.6 MB) is built only when a batch 7-card evaluation first needs it.

Key sums: each rank has an integer key chosen so that the sums over any multiset of exactly 5
(``RANK_KEYS_5``) or of exactly 5, 6 or 7 ranks (``RANK_KEYS_7``), at most four of a rank, are
distinct (``RANK_KEYS_5`` are the greedy minimal keys; both sets are checked when built).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from boardroom.cards import RANKS

IntArray = npt.NDArray[np.int64]

RANK_KEYS_5: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
RANK_KEYS_7: Final = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
SUM5_SIZE: Final = 4 * RANK_KEYS_5[12] + RANK_KEYS_5[11] + 1  # 360,919
SUM7_SIZE: Final = 4 * RANK_KEYS_7[12] + 3 * RANK_KEYS_7[11] + 1  # 7,825,760

# Categories of the high ranking, worst to best.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
HIGH_CLASS_COUNT: Final = 7462
ESG_LOW_CLASS_COUNT: Final = 1278
LOW8_CLASS_COUNT: Final = 56
THREE_CARD_CLASS_COUNT: Final = 741
TWO_CARD_CLASS_COUNT: Final = 91
DEUCE_SEVEN_CLASS_COUNT: Final = 7462  # as many as high: the wheel is a plain ace-high hand
A5_LOW_CLASS_COUNT: Final = 6175  # 1287 unpaired, 2860 pairs, 858 two pairs, 858 trips, 312
BADUGI_CLASS_COUNT: Final = 1092  # 715 four-card + 286 three-card + 78 two-card + 13 one-card

# Three-card categories, worst to best.
T_HIGH_CARD, T_PAIR, T_FLUSH, T_STRAIGHT, T_STRAIGHT_FLUSH, T_TRIPS, T_ROYAL = range(7)

ACE = 12
WHEEL = (3, 2, 1, 0, 12)


def straight_ranks(top: int) -> tuple[int, ...]:
    """The ranks of the five-card straight with this top rank, highest first (3 is the wheel)."""
    return WHEEL if top == 3 else tuple(range(top, top - 5, -1))


STRAIGHT_MASKS: Final = tuple(
    (top, sum(1 << r for r in straight_ranks(top))) for top in range(ACE, 2, -1)
)
_STRAIGHT_SETS: Final = frozenset(frozenset(straight_ranks(top)) for top in range(ACE, 2, -1))


def straight_top(mask: int) -> int:
    """The top rank of the best five-card straight in a 13-bit rank mask, or -1."""
    for top, need in STRAIGHT_MASKS:
        if mask & need == need:
            return top
    return -1


def _is_straight5(ranks: tuple[int, ...]) -> bool:
    return frozenset(ranks) in _STRAIGHT_SETS


def high_classes(*, wheel: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """All 7,462 five-card high classes, best first, as (category, ranks in display order).

    ``wheel=False`` is the ace-always-high order of deuce-to-seven lowball: A-5-4-3-2 is no
    straight but an ace-high hand (so there are 9 straights and 1,278 unpaired hands)."""
    desc = range(ACE, -1, -1)
    classes: list[tuple[int, tuple[int, ...]]] = []
    tops = range(ACE, 2 if wheel else 3, -1)
    classes += [(STRAIGHT_FLUSH, straight_ranks(top)) for top in tops]
    classes += [(QUADS, (q,) * 4 + (k,)) for q in desc for k in desc if k != q]
    classes += [(FULL_HOUSE, (t,) * 3 + (p,) * 2) for t in desc for p in desc if p != t]
    no_straight = [c for c in itertools.combinations(desc, 5)
                   if not _is_straight5(c) or (not wheel and set(c) == set(WHEEL))]
    classes += [(FLUSH, c) for c in no_straight]
    classes += [(STRAIGHT, straight_ranks(top)) for top in tops]
    for t in desc:
        classes += [(TRIPS, (t,) * 3 + k) for k in itertools.combinations(
            [r for r in desc if r != t], 2)]
    for hi, lo in itertools.combinations(desc, 2):
        classes += [(TWO_PAIR, (hi, hi, lo, lo, k)) for k in desc if k not in (hi, lo)]
    for p in desc:
        classes += [(PAIR, (p, p, *k)) for k in itertools.combinations(
            [r for r in desc if r != p], 3)]
    classes += [(HIGH_CARD, c) for c in no_straight]
    assert len(classes) == HIGH_CLASS_COUNT
    return classes


def esg_low_classes() -> list[tuple[int, ...]]:
    """The 1,278 qualifying ESG lows, best (7-5-4-3-2) first, ranks highest first, ace high."""
    lows = [c for c in itertools.combinations(range(ACE + 1), 5)
            if not _is_straight5(c) or set(c) == set(WHEEL)]
    ranked = sorted(tuple(sorted(c, reverse=True)) for c in lows)
    assert len(ranked) == ESG_LOW_CLASS_COUNT
    return ranked


def low8_classes() -> list[tuple[int, ...]]:
    """The 56 eight-or-better lows, best (5-4-3-2-A) first, as low ranks (A=1 .. 8) high first."""
    ranked = sorted(tuple(sorted(c, reverse=True)) for c in itertools.combinations(range(1, 9), 5))
    assert len(ranked) == LOW8_CLASS_COUNT
    return ranked


def a5_low_classes() -> list[tuple[int, tuple[int, ...]]]:
    """The 6,175 A-5 lows with pairs counting (razz), worst (K-K-K-K-Q) first, as (category,
    card ranks in display order): straights and flushes do not count, the ace is low, and the
    hand is read as a high hand in ace-low order, the lowest high hand winning."""
    # Ace-low order, highest first: K, Q, ..., 2, A (card ranks; the ace is card rank 12).
    desc = (*range(ACE - 1, -1, -1), ACE)
    classes: list[tuple[int, tuple[int, ...]]] = []
    classes += [(QUADS, (q,) * 4 + (k,)) for q in desc for k in desc if k != q]
    classes += [(FULL_HOUSE, (t,) * 3 + (p,) * 2) for t in desc for p in desc if p != t]
    for t in desc:
        classes += [(TRIPS, (t,) * 3 + k) for k in itertools.combinations(
            [r for r in desc if r != t], 2)]
    for hi, lo in itertools.combinations(desc, 2):
        classes += [(TWO_PAIR, (hi, hi, lo, lo, k)) for k in desc if k not in (hi, lo)]
    for p in desc:
        classes += [(PAIR, (p, p, *k)) for k in itertools.combinations(
            [r for r in desc if r != p], 3)]
    classes += [(HIGH_CARD, c) for c in itertools.combinations(desc, 5)]
    assert len(classes) == A5_LOW_CLASS_COUNT
    return classes


def badugi_classes() -> list[tuple[int, ...]]:
    """The 1,092 badugi classes, worst (a lone king) first, as card ranks highest first in
    ace-low order: more cards beat fewer, then the lower highest card, and so on down."""
    desc = (*range(ACE - 1, -1, -1), ACE)
    classes: list[tuple[int, ...]] = []
    for size in (1, 2, 3, 4):
        classes += list(itertools.combinations(desc, size))
    assert len(classes) == BADUGI_CLASS_COUNT
    return classes


def three_card_classes() -> list[tuple[int, tuple[int, ...]]]:
    """All 742 three-card classes, best first, as (category, ranks highest first)."""
    desc = range(ACE, -1, -1)

    def straight3(top: int) -> tuple[int, ...]:
        return (1, 0, ACE) if top == 1 else (top, top - 1, top - 2)

    straight_sets = {frozenset(straight3(top)) for top in range(ACE, 0, -1)}
    distinct = [c for c in itertools.combinations(desc, 3) if frozenset(c) not in straight_sets]
    classes: list[tuple[int, tuple[int, ...]]] = [(T_ROYAL, (ACE, ACE - 1, ACE - 2))]
    classes += [(T_TRIPS, (t,) * 3) for t in desc]
    classes += [(T_STRAIGHT_FLUSH, straight3(top)) for top in range(ACE - 1, 0, -1)]
    classes += [(T_STRAIGHT, straight3(top)) for top in range(ACE, 0, -1)]
    classes += [(T_FLUSH, c) for c in distinct]
    classes += [(T_PAIR, (p, p, k)) for p in desc for k in desc if k != p]
    classes += [(T_HIGH_CARD, c) for c in distinct]
    assert len(classes) == THREE_CARD_CLASS_COUNT
    return classes


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table of the scalar and batch paths (values are strengths, 0 = none)."""

    # High: 5-card rank key sums (RANK_KEYS_5) to the non-flush / flush strength.
    high5: list[int]
    flush5: list[int]
    high5_np: npt.NDArray[np.int16]
    flush5_np: npt.NDArray[np.int16]
    # High: 6- and 7-card rank key sums (RANK_KEYS_7) to the best non-flush strength.
    high6: dict[int, int]
    high7: dict[int, int]
    high7_sums: npt.NDArray[np.int64]
    high7_values: npt.NDArray[np.int64]
    # Best flush or straight flush among the ranks of a 13-bit mask (5+ bits), else 0.
    flush_mask: list[int]
    flush_mask_np: npt.NDArray[np.int16]
    # strength -> (category, ranks in display order)
    high_class: list[tuple[int, tuple[int, ...]]]
    # ESG low: 13-bit mask -> strength of that exact 5-rank low (0 if not 5 ranks / straight)
    esg_mask: list[int]
    # ESG low: 13-bit mask -> best qualifying 5-subset (ignoring suits) and its strength
    esg_best_mask: list[int]
    esg_best: list[int]
    esg_best_np: npt.NDArray[np.int16]
    esg_best_mask_np: npt.NDArray[np.int32]
    esg_order: list[int]  # qualifying 5-rank masks, best first
    esg_class: list[tuple[int, ...]]  # strength -> ranks highest first
    # LOW8 on 9-bit "low masks" (bit 0 = ace, bit 7 = eight, bit 8 = invalid marker):
    low8_mask: list[int]  # exact 5 low ranks -> strength
    low8_best: list[int]  # any mask -> strength of its 5 lowest ranks (0 if < 5)
    low8_mask_np: npt.NDArray[np.int16]
    low8_best_np: npt.NDArray[np.int16]
    low8_class: list[tuple[int, ...]]  # strength -> low ranks (A=1 .. 8) highest first
    # Three-card: index ((hi * 13 + mid) * 13 + lo) * 2 + suited -> strength
    three: list[int]
    three_class: list[tuple[int, tuple[int, ...]]]


def _multisets(n: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``n`` ranks with at most four of a rank, one sorted row each."""
    combos = itertools.combinations_with_replacement(range(13), n)
    flat = np.fromiter(itertools.chain.from_iterable(combos), dtype=np.int64)
    rows = flat.reshape(-1, n)
    five_alike = np.zeros(len(rows), dtype=bool)
    for i in range(n - 4):
        five_alike |= rows[:, i] == rows[:, i + 4]
    return rows[~five_alike]


def best_of_multisets(n: int, five: npt.NDArray[np.int16]) -> tuple[IntArray, IntArray]:
    """For every multiset of ``n`` ranks: its RANK_KEYS_7 sum and the best ``five`` value
    (a table on RANK_KEYS_5 sums) of its 5-subsets, by brute force."""
    keys5 = np.asarray(RANK_KEYS_5, dtype=np.int64)
    keys7 = np.asarray(RANK_KEYS_7, dtype=np.int64)
    rows = _multisets(n)
    k5 = keys5[rows]
    total = k5.sum(axis=1)
    # Each 5-subset is the whole minus the n - 5 ranks left out.
    left_out = np.array(list(itertools.combinations(range(n), n - 5)), dtype=np.int64)
    fives = total[:, None] - k5[:, left_out].sum(axis=2)
    values = five[fives].max(axis=1).astype(np.int64)
    return keys7[rows].sum(axis=1), values


@functools.cache
def tables() -> Tables:
    """Build every table once per process."""
    classes = high_classes()
    high5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    flush5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    flush_mask = np.zeros(1 << 13, dtype=np.int16)
    high_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (HIGH_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(classes):
        strength = HIGH_CLASS_COUNT - position
        high_class[strength] = (category, ranks)
        key = sum(RANK_KEYS_5[r] for r in ranks)
        if category in (STRAIGHT_FLUSH, FLUSH):
            flush5[key] = strength
            flush_mask[sum(1 << r for r in ranks)] = strength
        else:
            assert high5[key] == 0
            high5[key] = strength

    # Best flush of any mask: the best 5-bit sub-mask, one bit removed at a time.
    masks = np.arange(1 << 13, dtype=np.int64)
    for _ in range(8):
        for b in range(13):
            has = (masks >> b) & 1 == 1
            flush_mask[has] = np.maximum(flush_mask[has], flush_mask[masks[has] ^ (1 << b)])

    # Best non-flush value of every 5-, 6- and 7-rank multiset, brute force over 5-subsets.
    by_count = {n: best_of_multisets(n, high5) for n in (6, 7)}

    # ESG low on rank masks.
    esg_class_list = esg_low_classes()
    esg_mask = np.zeros(1 << 13, dtype=np.int16)
    esg_class: list[tuple[int, ...]] = [()] * (ESG_LOW_CLASS_COUNT + 1)
    esg_order: list[int] = []
    for position, ranks in enumerate(esg_class_list):
        strength = ESG_LOW_CLASS_COUNT - position
        mask = sum(1 << r for r in ranks)
        esg_mask[mask] = strength
        esg_class[strength] = ranks
        esg_order.append(mask)
    esg_best = esg_mask.copy()
    esg_best_mask = np.where(esg_mask > 0, masks, 0).astype(np.int32)
    for _ in range(8):
        for b in range(13):
            has = np.flatnonzero((masks >> b) & 1 == 1)
            sub = masks[has] ^ (1 << b)
            better = esg_best[sub] > esg_best[has]
            esg_best[has[better]] = esg_best[sub[better]]
            esg_best_mask[has[better]] = esg_best_mask[sub[better]]

    # LOW8 on 9-bit low masks.
    low8_class_list = low8_classes()
    low8_mask = np.zeros(1 << 9, dtype=np.int16)
    low8_class: list[tuple[int, ...]] = [()] * (LOW8_CLASS_COUNT + 1)
    for position, low_ranks in enumerate(low8_class_list):
        strength = LOW8_CLASS_COUNT - position
        low8_mask[sum(1 << (r - 1) for r in low_ranks)] = strength
        low8_class[strength] = low_ranks
    low8_best = np.zeros(1 << 9, dtype=np.int16)
    for mask in range(1 << 8):
        bits = [b for b in range(8) if mask >> b & 1][:5]
        if len(bits) == 5:
            low8_best[mask] = low8_mask[sum(1 << b for b in bits)]

    # Three-card hands.
    three = [0] * (13 * 13 * 13 * 2)
    three_list = three_card_classes()
    three_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (THREE_CARD_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(three_list):
        strength = THREE_CARD_CLASS_COUNT - position
        three_class[strength] = (category, ranks)
        hi, mid, lo = sorted(ranks, reverse=True)
        index = ((hi * 13 + mid) * 13 + lo) * 2
        suited = category in (T_ROYAL, T_STRAIGHT_FLUSH, T_FLUSH)
        three[index + suited] = strength
        if category in (T_TRIPS, T_PAIR):
            three[index + 1] = strength  # never suited; filled so the table is total

    return Tables(
        high5=high5.tolist(),
        flush5=flush5.tolist(),
        high5_np=high5,
        flush5_np=flush5,
        high6=dict(zip(by_count[6][0].tolist(), by_count[6][1].tolist(), strict=True)),
        high7=dict(zip(by_count[7][0].tolist(), by_count[7][1].tolist(), strict=True)),
        high7_sums=by_count[7][0],
        high7_values=by_count[7][1],
        flush_mask=flush_mask.tolist(),
        flush_mask_np=flush_mask,
        high_class=high_class,
        esg_mask=esg_mask.tolist(),
        esg_best_mask=esg_best_mask.tolist(),
        esg_best=esg_best.tolist(),
        esg_best_np=esg_best,
        esg_best_mask_np=esg_best_mask,
        esg_order=esg_order,
        esg_class=esg_class,
        low8_mask=low8_mask.tolist(),
        low8_best=low8_best.tolist(),
        low8_mask_np=low8_mask,
        low8_best_np=low8_best,
        low8_class=low8_class,
        three=three,
        three_class=three_class,
    )


@dataclass(frozen=True, slots=True)
class LowballTables:
    """The tables of the draw and stud lowballs, built on first use (a few tens of ms) so
    that a process which never deals them does not pay for them."""

    # Deuce-to-seven lowball: 5-card rank key sums (RANK_KEYS_5) to the strength of the
    # non-flush / flush hand; strength -> (category, ranks in display order).
    d7_high5: npt.NDArray[np.int16]
    d7_flush5: npt.NDArray[np.int16]
    d7_class: list[tuple[int, tuple[int, ...]]]
    # A-5 low with pairs (razz): 5-card rank key sums to the strength; the best 5 of every
    # 6- and 7-rank multiset by RANK_KEYS_7 sum; strength -> (category, ranks).
    a5_5: npt.NDArray[np.int16]
    a5_many: dict[int, dict[int, int]]  # 6 or 7 -> key sum -> strength
    a5_sorted: dict[int, tuple[IntArray, npt.NDArray[np.int16]]]  # the same, sorted by sum
    a5_class: list[tuple[int, tuple[int, ...]]]
    # Badugi: 13-bit card-rank mask of a rainbow, unpaired hand -> strength; strength -> ranks.
    badugi_mask: npt.NDArray[np.int16]
    badugi_class: list[tuple[int, ...]]


@functools.cache
def lowball_tables() -> LowballTables:
    """Build the lowball tables once per process."""
    # Deuce-to-seven lowball: the ace-high order of high hands, reversed.
    d7_high5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    d7_flush5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    d7_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (DEUCE_SEVEN_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(high_classes(wheel=False)):
        strength = position + 1
        d7_class[strength] = (category, ranks)
        target = d7_flush5 if category in (STRAIGHT_FLUSH, FLUSH) else d7_high5
        target[sum(RANK_KEYS_5[r] for r in ranks)] = strength

    # A-5 low with pairs: one table of 5-rank multisets, the best 5 of 6 and 7 brute force.
    a5_5 = np.zeros(SUM5_SIZE, dtype=np.int16)
    a5_class: list[tuple[int, tuple[int, ...]]] = [(-1, ())] * (A5_LOW_CLASS_COUNT + 1)
    for position, (category, ranks) in enumerate(a5_low_classes()):
        strength = position + 1
        a5_class[strength] = (category, ranks)
        a5_5[sum(RANK_KEYS_5[r] for r in ranks)] = strength
    a5_many: dict[int, dict[int, int]] = {}
    a5_sorted: dict[int, tuple[IntArray, npt.NDArray[np.int16]]] = {}
    for n in (6, 7):  # (the key sums are distinct within one count, not across counts)
        sums, values = best_of_multisets(n, a5_5)
        a5_many[n] = dict(zip(sums.tolist(), values.tolist(), strict=True))
        order = np.argsort(sums)
        a5_sorted[n] = (sums[order], values[order].astype(np.int16))

    # Badugi on card-rank masks.
    badugi_mask = np.zeros(1 << 13, dtype=np.int16)
    badugi_class: list[tuple[int, ...]] = [()] * (BADUGI_CLASS_COUNT + 1)
    for position, ranks in enumerate(badugi_classes()):
        badugi_mask[sum(1 << r for r in ranks)] = position + 1
        badugi_class[position + 1] = ranks

    return LowballTables(
        d7_high5=d7_high5,
        d7_flush5=d7_flush5,
        d7_class=d7_class,
        a5_5=a5_5,
        a5_many=a5_many,
        a5_sorted=a5_sorted,
        a5_class=a5_class,
        badugi_mask=badugi_mask,
        badugi_class=badugi_class,
    )


@functools.cache
def high7_table() -> npt.NDArray[np.int16]:
    """7-card rank key sums (RANK_KEYS_7) to the best non-flush strength, a direct table."""
    table = np.zeros(SUM7_SIZE, dtype=np.int16)
    built = tables()
    table[built.high7_sums] = built.high7_values
    return table


def rank_name(rank: int) -> str:
    return RANKS[rank]
