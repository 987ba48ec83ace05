"""Many hands at once with numpy: the same strengths as the scalar path, by whole columns.

Every function takes integer arrays of card numbers, one hand per row (shape ``(N, k)``), and
returns an ``int16`` array of ``N`` strengths with the encoding of ``boardroom.evaluation``;
``0`` means "no qualifying low". Rows are not checked for duplicate cards (the caller deals
them); card numbers outside 0..51 and wrong shapes raise ``EvaluationError``.

The work runs over chunks of rows, transposed so that each card position is one contiguous
column: a hand's key sum is a few column additions, and an Omaha hand is the broadcast sum of
its hole-pair sums and its board-triple sums, looked up in one table and reduced by ``max``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardroom.evaluation import _tables as tb
from boardroom.evaluation import scalar
from boardroom.evaluation.values import EvaluationError

Cards = npt.ArrayLike
Strengths = npt.NDArray[np.int16]
_I64 = npt.NDArray[np.int64]

_CHUNK = 1 << 14
_CARD = np.arange(52, dtype=np.int64)
_PACKED5 = (np.asarray(tb.RANK_KEYS_5, dtype=np.int64)[_CARD >> 2] << 16) | (1 << 4 * (_CARD & 3))
_PACKED7 = (np.asarray(tb.RANK_KEYS_7, dtype=np.int64)[_CARD >> 2] << 16) | (1 << 4 * (_CARD & 3))
_RANK5 = np.asarray(tb.RANK_KEYS_5, dtype=np.intp)[_CARD >> 2]
_RANK_BIT = (1 << (_CARD >> 2)).astype(np.int32)
_SUIT = (_CARD & 3).astype(np.int8)
_LOW_BIT = np.asarray(scalar.LOW_BIT, dtype=np.int32)
# Omaha flush screening: 5-bit suit counters; bit 4 of a field is set once biased counts
# reach 16, i.e. 2+ hole cards (bias 14) and 3+ board cards (bias 13) of one suit.
_SUIT5 = (1 << 5 * (_CARD & 3)).astype(np.int64)
_FIELDS = 1 + (1 << 5) + (1 << 10) + (1 << 15)
_TOP_BITS = 16 * _FIELDS
# Omaha flush per combination: 2-bit field per suit, 1 from a suited pair, 1 from a
# one-suit triple; the field's high bit is set only when both are of that suit.
_SUIT2 = (1 << 2 * (_CARD & 3)).astype(np.int32)


def _rows(cards: Cards, width: int | range, what: str) -> npt.NDArray[np.integer]:
    array = np.asarray(cards)
    if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
        raise EvaluationError(f"{what}: expected a 2-D integer array of card numbers, "
                              f"got shape {array.shape} of {array.dtype}")
    count = array.shape[1]
    if (count != width) if isinstance(width, int) else (count not in width):
        raise EvaluationError(f"{what}: {count} cards per row is not allowed here")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise EvaluationError(f"{what}: card numbers must be 0 to 51")
    return array


def _columns(array: npt.NDArray[np.integer]) -> npt.NDArray[np.intp]:
    return np.ascontiguousarray(array.T, dtype=np.intp)


def high5(cards: Cards) -> Strengths:
    """High strengths of 5-card hands, shape (N, 5)."""
    array = _rows(cards, 5, "high5")
    out = np.empty(len(array), dtype=np.int16)
    tables = tb.arrays()
    high, flush = tables.high5, tables.flush5
    for start in range(0, len(array), _CHUNK):
        k = _PACKED5[array[start:start + _CHUNK]]
        s = k[:, 0] + k[:, 1]
        s += k[:, 2]
        s += k[:, 3]
        s += k[:, 4]
        flushes = np.flatnonzero((s + 0x3333) & 0x8888)
        r = s >> 16
        v = high[r]
        v[flushes] = flush[r[flushes]]
        out[start:start + _CHUNK] = v
    return out


def high7(cards: Cards) -> Strengths:
    """High strengths of the best 5 of 7 cards, shape (N, 7)."""
    array = _rows(cards, 7, "high7")
    out = np.empty(len(array), dtype=np.int16)
    table = tb.arrays().high7
    flush_mask = tb.arrays().flush_mask
    for start in range(0, len(array), _CHUNK):
        chunk = array[start:start + _CHUNK]
        k = _PACKED7[chunk]
        s = k[:, 0] + k[:, 1]
        for i in range(2, 7):
            s += k[:, i]
        bits = (s + 0x3333) & 0x8888
        v = table[s >> 16]
        flushes = np.flatnonzero(bits)
        if len(flushes):
            fb = bits[flushes]
            suit = (fb >= 0x80).astype(np.int8) + (fb >= 0x800) + (fb >= 0x8000)
            sub = chunk[flushes]
            in_suit = np.where(_SUIT[sub] == suit[:, None], _RANK_BIT[sub], 0)
            mask = np.bitwise_or.reduce(in_suit, axis=1)
            v[flushes] = np.maximum(v[flushes], flush_mask[mask])
        out[start:start + _CHUNK] = v
    return out


@functools.cache
def _subsets(n: int, k: int) -> npt.NDArray[np.intp]:
    return np.array(list(combinations(range(n), k)), dtype=np.intp)


def high(cards: Cards) -> Strengths:
    """High strengths of the best 5 of any number (5 or more) of cards, shape (N, k)."""
    array = _rows(cards, range(5, 53), "high")
    n = array.shape[1]
    if n == 5:
        return high5(array)
    if n == 7:
        return high7(array)
    size = 7 if n > 7 else 5
    best = np.zeros(len(array), dtype=np.int16)
    score = high7 if size == 7 else high5
    for subset in _subsets(n, size):
        np.maximum(best, score(array[:, subset]), out=best)
    return best


def omaha_high(hole: Cards, board: Cards) -> Strengths:
    """Omaha high: exactly 2 of the hole cards (N, h >= 2) + 3 of the board (N, 3 to 5)."""
    holes = _rows(hole, range(2, 53), "omaha_high hole")
    boards = _rows(board, range(3, 6), "omaha_high board")
    if len(holes) != len(boards):
        raise EvaluationError("omaha_high: hole and board arrays have different row counts")
    tables = tb.arrays()
    high, flush = tables.high5, tables.flush5
    pairs = list(combinations(range(holes.shape[1]), 2))
    triples = list(combinations(range(boards.shape[1]), 3))
    out = np.empty(len(holes), dtype=np.int16)
    chunk = max(256, (1 << 18) // (len(pairs) * len(triples)))
    for start in range(0, len(holes), chunk):
        ht = _columns(holes[start:start + chunk])
        bt = _columns(boards[start:start + chunk])
        n = ht.shape[1]
        hk = _RANK5[ht]
        bk = _RANK5[bt]
        ts = np.empty((len(triples), n), dtype=np.intp)
        for j, (x, y, z) in enumerate(triples):
            np.add(bk[x], bk[y], out=ts[j])
            ts[j] += bk[z]
        sums = np.empty((len(pairs), len(triples), n), dtype=np.intp)
        for i, (x, y) in enumerate(pairs):
            np.add(ts, hk[x] + hk[y], out=sums[i])
        flat = sums.reshape(-1, n)
        v = high.take(flat).max(axis=0)
        # Flushes: only rows with 2+ hole cards and 3+ board cards of one suit.
        hole_suits = _SUIT5[ht].sum(axis=0) + 14 * _FIELDS
        board_suits = _SUIT5[bt].sum(axis=0) + 13 * _FIELDS
        maybe = np.flatnonzero(hole_suits & board_suits & _TOP_BITS)
        if len(maybe):
            v[maybe] = np.maximum(v[maybe], _omaha_flushes(
                ht[:, maybe], bt[:, maybe], sums[:, :, maybe], pairs, triples, flush))
        out[start:start + chunk] = v
    return out


def _omaha_flushes(ht: npt.NDArray[np.intp], bt: npt.NDArray[np.intp], sums: _I64,
                   pairs: Sequence[tuple[int, ...]], triples: Sequence[tuple[int, ...]],
                   flush: Strengths) -> Strengths:
    hc = _SUIT2[ht]
    bc = _SUIT2[bt]
    m = ht.shape[1]
    triple_codes = np.empty((len(triples), m), dtype=np.int32)
    for j, (x, y, z) in enumerate(triples):
        one_suit = (bc[x] == bc[y]) & (bc[y] == bc[z])
        triple_codes[j] = np.where(one_suit, bc[x], 0)
    best = np.zeros(m, dtype=np.int16)
    for i, (x, y) in enumerate(pairs):
        pair_code = np.where(hc[x] == hc[y], hc[x], 0)
        both = (triple_codes + pair_code) & 0xAA
        values = np.where(both != 0, flush.take(sums[i]), 0).max(axis=0)
        np.maximum(best, values, out=best)
    return best


def _or_columns(table: npt.NDArray[np.int32], array: npt.NDArray[np.integer],
                ) -> npt.NDArray[np.int32]:
    bits: npt.NDArray[np.int32] = table[array]
    mask = bits[:, 0].copy()
    for i in range(1, bits.shape[1]):
        mask |= bits[:, i]
    return mask


def esg_low(cards: Cards) -> Strengths:
    """ESG low strengths of the best 5 of any number (5 or more) of cards, 0 = no low."""
    array = _rows(cards, range(5, 53), "esg_low")
    tables = tb.arrays()
    out = np.empty(len(array), dtype=np.int16)
    for start in range(0, len(array), _CHUNK):
        chunk = array[start:start + _CHUNK]
        ranks = _or_columns(_RANK_BIT, chunk)
        best = tables.esg_best_mask[ranks]
        v = tables.esg_best[ranks]
        suits = _SUIT[chunk]
        if chunk.shape[1] == 5:
            v[(suits == suits[:, :1]).all(axis=1)] = 0
        else:
            bits = _RANK_BIT[chunk]
            per_suit = [np.bitwise_or.reduce(np.where(suits == s, bits, 0), axis=1)
                        for s in range(4)]
            forced = np.zeros(len(chunk), dtype=bool)
            for s in range(4):
                others = _other_suits(per_suit, s)
                forced |= ((per_suit[s] & best) == best) & ((others & best) == 0)
            forced &= best != 0
            for row in np.flatnonzero(forced):
                v[row] = scalar.esg_low_strength(chunk[row].tolist())
        out[start:start + _CHUNK] = v
    return out


def _other_suits(per_suit: list[npt.NDArray[np.int32]], s: int) -> npt.NDArray[np.int32]:
    """The ranks held in any suit but ``s``."""
    result = np.zeros_like(per_suit[0])
    for t in range(4):
        if t != s:
            result |= per_suit[t]
    return result


def low8(cards: Cards) -> Strengths:
    """Eight-or-better low strengths of the best 5 of 5 or more cards, 0 = no low."""
    array = _rows(cards, range(5, 53), "low8")
    return tb.arrays().low8_best[_or_columns(_LOW_BIT, array)]


def low8_5(cards: Cards) -> Strengths:
    """Eight-or-better low strengths of 5-card hands, 0 = no low."""
    return low8(_rows(cards, 5, "low8_5"))


def _low_masks(columns: npt.NDArray[np.intp], groups: Sequence[tuple[int, ...]],
               ) -> npt.NDArray[np.int32]:
    bits = _LOW_BIT[columns]
    masks = np.empty((len(groups), columns.shape[1]), dtype=np.int32)
    for j, group in enumerate(groups):
        mask = np.zeros(columns.shape[1], dtype=np.int32)
        valid = np.ones(columns.shape[1], dtype=bool)
        for position in group:
            valid &= (bits[position] != 0) & ((mask & bits[position]) == 0)
            mask |= bits[position]
        masks[j] = np.where(valid, mask, scalar.LOW8_INVALID)
    return masks


def omaha_low8(hole: Cards, board: Cards) -> Strengths:
    """Omaha eight-or-better low: exactly 2 hole + 3 board cards, 0 = no low."""
    holes = _rows(hole, range(2, 53), "omaha_low8 hole")
    boards = _rows(board, range(3, 6), "omaha_low8 board")
    if len(holes) != len(boards):
        raise EvaluationError("omaha_low8: hole and board arrays have different row counts")
    table = tb.arrays().low8_mask
    pairs = list(combinations(range(holes.shape[1]), 2))
    triples = list(combinations(range(boards.shape[1]), 3))
    out = np.empty(len(holes), dtype=np.int16)
    chunk = 4096
    for start in range(0, len(holes), chunk):
        pm = _low_masks(_columns(holes[start:start + chunk]), pairs)
        tm = _low_masks(_columns(boards[start:start + chunk]), triples)
        combined = pm[:, None, :] | tm[None, :, :]
        out[start:start + chunk] = table[combined].reshape(-1, pm.shape[1]).max(axis=0)
    return out


def three_card(cards: Cards) -> Strengths:
    """Three-card (Allocator Redraw) strengths, shape (N, 3)."""
    array = _rows(cards, 3, "three_card").astype(np.intp)
    ranks = np.sort(array >> 2, axis=1)
    suits = array & 3
    suited = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    index = ((ranks[:, 2] * 13 + ranks[:, 1]) * 13 + ranks[:, 0]) * 2 + suited
    strengths: Strengths = tb.arrays().three[index]
    return strengths


def two_card(cards: Cards) -> Strengths:
    """Two-card (Allocator) strengths, shape (N, 2)."""
    array = _rows(cards, 2, "two_card").astype(np.intp)
    hi = np.maximum(array[:, 0], array[:, 1]) >> 2
    lo = np.minimum(array[:, 0], array[:, 1]) >> 2
    values = np.where(hi == lo, 79 + hi, hi * (hi - 1) // 2 + lo + 1)
    return values.astype(np.int16)


def deuce_seven(cards: Cards) -> Strengths:
    """Deuce-to-seven lowball strengths of 5-card hands, shape (N, 5) (7462 = 7-5-4-3-2)."""
    array = _rows(cards, 5, "deuce_seven")
    tables = tb.lowball_tables()
    high, flush = tables.d7_high5, tables.d7_flush5
    out = np.empty(len(array), dtype=np.int16)
    for start in range(0, len(array), _CHUNK):
        k = _PACKED5[array[start:start + _CHUNK]]
        s = k.sum(axis=1)
        r = s >> 16
        out[start:start + _CHUNK] = np.where((s + 0x3333) & 0x8888, flush[r], high[r])
    return out


def a5_low(cards: Cards) -> Strengths:
    """A-5 low with pairs counting (razz) of the best 5 of 5, 6 or 7 cards, shape (N, 5..7)."""
    array = _rows(cards, range(5, 8), "a5_low")
    tables = tb.lowball_tables()
    if array.shape[1] == 5:
        sums = np.asarray(tb.RANK_KEYS_5, dtype=np.intp)[array >> 2].sum(axis=1)
        strengths: Strengths = tables.a5_5[sums]
        return strengths
    sums = np.asarray(tb.RANK_KEYS_7, dtype=np.int64)[array >> 2].sum(axis=1)
    keys, values = tables.a5_sorted[array.shape[1]]
    found: Strengths = values[np.searchsorted(keys, sums)]
    return found


def badugi(cards: Cards) -> Strengths:
    """Badugi strengths of 4-card hands, shape (N, 4) (1092 = 4-3-2-A)."""
    array = _rows(cards, 4, "badugi").astype(np.intp)
    table = tb.lowball_tables().badugi_mask
    ranks = _RANK_BIT[array]
    suits = (1 << (array & 3)).astype(np.int32)
    best = np.zeros(len(array), dtype=np.int16)
    for size in (4, 3, 2, 1):
        for subset in combinations(range(4), size):
            rank_mask = np.bitwise_or.reduce(ranks[:, subset], axis=1)
            suit_mask = np.bitwise_or.reduce(suits[:, subset], axis=1)
            valid = (np.bitwise_count(rank_mask) == size) & (np.bitwise_count(suit_mask) == size)
            np.maximum(best, np.where(valid, table[rank_mask], 0), out=best)
    return best
