"""Value-only evaluators for one hand at a time: plain Python, no objects made per call.

Each function takes card numbers and returns the strength (``0`` = no qualifying low). They do
not check their input: the public functions of ``boardroom.evaluation`` do, then call these.

High hands: every card has a packed key ``rank_key << 16 | 1 << 4 * suit``. One addition per
card sums the rank keys (which identify the rank multiset) and counts every suit in a 4-bit
field. The first card's key carries a bias of 3 per field, so a field reaches 8 (its top bit)
exactly when its suit has 5 or more cards: ``key & 0x8888`` flags a flush.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from boardroom.evaluation import _tables as tb

_T = tb.tables()
_FLUSH_BIAS: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_FLUSH_SUIT: Final = {0x8: 0, 0x80: 1, 0x800: 2, 0x8000: 3}

KEY5: Final = tuple((tb.RANK_KEYS_5[c >> 2] << 16) | (1 << 4 * (c & 3)) for c in range(52))
KEY5_BIASED: Final = tuple(k + _FLUSH_BIAS for k in KEY5)
KEY7: Final = tuple((tb.RANK_KEYS_7[c >> 2] << 16) | (1 << 4 * (c & 3)) for c in range(52))
KEY7_BIASED: Final = tuple(k + _FLUSH_BIAS for k in KEY7)
RANK_BIT: Final = tuple(1 << (c >> 2) for c in range(52))
# Eight-or-better: ace = bit 0, deuce = bit 1 .. eight = bit 7; nine and up have no low bit.
LOW_BIT: Final = tuple(
    (1 << ((c >> 2) + 1) % 13) if (c >> 2) <= 6 or (c >> 2) == tb.ACE else 0 for c in range(52)
)
LOW8_INVALID: Final = 0x100

HIGH5: Final = _T.high5
FLUSH5: Final = _T.flush5
_HIGH6: Final = _T.high6
_HIGH7: Final = _T.high7
_FLUSH_MASK: Final = _T.flush_mask
_ESG_MASK: Final = _T.esg_mask
_ESG_BEST: Final = _T.esg_best
_ESG_BEST_MASK: Final = _T.esg_best_mask
LOW8_TABLE: Final = _T.low8_mask
_LOW8_BEST: Final = _T.low8_best
_THREE: Final = _T.three


# The hot functions bind their tables as keyword-only defaults: a local lookup is the
# fastest in CPython. Callers never pass them.


def high5_strength(
    cards: Sequence[int], *, _kb: tuple[int, ...] = KEY5_BIASED, _k: tuple[int, ...] = KEY5,
    _high: memoryview = HIGH5, _flush: memoryview = FLUSH5,
) -> int:
    """The high strength of exactly 5 cards (1 to 7462)."""
    a, b, c, d, e = cards
    k: int = _kb[a] + _k[b] + _k[c] + _k[d] + _k[e]
    if k & 0x8888:
        return _flush[k >> 16]
    return _high[k >> 16]


def high7_strength(
    cards: Sequence[int], *, _kb: tuple[int, ...] = KEY7_BIASED, _k: tuple[int, ...] = KEY7,
    _high: memoryview = _HIGH7,
) -> int:
    """The high strength of the best 5 of exactly 7 cards."""
    a, b, c, d, e, f, g = cards
    k: int = _kb[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _k[g]
    if k & 0x8888:
        return _flush_or(cards, k, _high[k >> 16])
    return _high[k >> 16]


def high6_strength(cards: Sequence[int]) -> int:
    """The high strength of the best 5 of exactly 6 cards."""
    a, b, c, d, e, f = cards
    k = KEY7_BIASED[a] + KEY7[b] + KEY7[c] + KEY7[d] + KEY7[e] + KEY7[f]
    if k & _FLUSH_BITS:
        return _flush_or(cards, k, _HIGH6[k >> 16])
    return _HIGH6[k >> 16]


def _flush_or(cards: Sequence[int], key: int, non_flush: int) -> int:
    suit = _FLUSH_SUIT[key & _FLUSH_BITS]
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= RANK_BIT[card]
    return max(_FLUSH_MASK[mask], non_flush)


def high_strength(cards: Sequence[int]) -> int:
    """The high strength of the best 5 of any number (5 or more) of cards."""
    n = len(cards)
    if n == 7:
        return high7_strength(cards)
    if n == 5:
        return high5_strength(cards)
    if n == 6:
        return high6_strength(cards)
    return _high_many(cards)


def best_high_ranks(counts: Sequence[int]) -> tuple[int, ...]:
    """The ranks of the best non-flush five-card hand from per-rank card counts."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    if quads:
        q = quads[0]
        return (q,) * 4 + tuple(r for r in present if r != q)[:1]
    trips = [r for r in present if counts[r] >= 3]
    pairs = [r for r in present if counts[r] >= 2]
    if trips:
        t = trips[0]
        others = [r for r in pairs if r != t]
        if others:
            return (t,) * 3 + (others[0],) * 2
    top = tb.straight_top(sum(1 << r for r in present))
    if top >= 0:
        return tb.straight_ranks(top)
    if trips:
        t = trips[0]
        return (t,) * 3 + tuple(r for r in present if r != t)[:2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return (hi, hi, lo, lo, *tuple(r for r in present if r not in (hi, lo))[:1])
    if pairs:
        p = pairs[0]
        return (p, p, *tuple(r for r in present if r != p)[:3])
    return tuple(present[:5])


def _high_many(cards: Sequence[int]) -> int:
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        counts[card >> 2] += 1
        suit_masks[card & 3] |= RANK_BIT[card]
    ranks = best_high_ranks(counts)
    non_flush = HIGH5[sum(tb.RANK_KEYS_5[r] for r in ranks)]
    return max(non_flush, *(_FLUSH_MASK[m] for m in suit_masks))


def omaha_high_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best high strength of exactly 2 of ``hole`` and exactly 3 of ``board``."""
    pairs = [KEY5[a] + KEY5[b] for a, b in combinations(hole, 2)]
    triples = [KEY5_BIASED[x] + KEY5[y] + KEY5[z] for x, y, z in combinations(board, 3)]
    best = 0
    high5 = HIGH5
    flush5 = FLUSH5
    for p in pairs:
        for t in triples:
            k = p + t
            v = flush5[k >> 16] if k & _FLUSH_BITS else high5[k >> 16]
            if v > best:
                best = v
    return best


def esg_low_strength(cards: Sequence[int]) -> int:
    """The best ESG low of any number (5 or more) of cards, 0 if none qualifies."""
    mask = 0
    for card in cards:
        mask |= RANK_BIT[card]
    best = _ESG_BEST_MASK[mask]
    if not best:
        return 0
    if _forced_monochrome(cards, best):
        chosen = esg_low_ranks(cards)
        return _ESG_MASK[chosen] if chosen else 0
    return _ESG_BEST[mask]


def _forced_monochrome(cards: Sequence[int], rank_mask: int) -> bool:
    """True when the only cards of these five ranks are five cards of one suit."""
    chosen = [card for card in cards if RANK_BIT[card] & rank_mask]
    return len(chosen) == 5 and len({card & 3 for card in chosen}) == 1


def esg_low_ranks(cards: Sequence[int]) -> int:
    """The rank mask of the best qualifying ESG low of the cards, 0 if none."""
    mask = 0
    for card in cards:
        mask |= RANK_BIT[card]
    best = _ESG_BEST_MASK[mask]
    if not best or not _forced_monochrome(cards, best):
        return best
    for candidate in _T.esg_order:
        if candidate & mask == candidate and not _forced_monochrome(cards, candidate):
            return candidate
    return 0


def low8_strength(cards: Sequence[int]) -> int:
    """The best eight-or-better low of any number (5 or more) of cards, 0 if none."""
    mask = 0
    for card in cards:
        mask |= LOW_BIT[card]
    return _LOW8_BEST[mask]


def low_mask(cards: Sequence[int]) -> int:
    """The low mask of cards of distinct low ranks, or ``LOW8_INVALID`` if any is not."""
    mask = 0
    for card in cards:
        bit = LOW_BIT[card]
        if not bit or mask & bit:
            return LOW8_INVALID
        mask |= bit
    return mask


def omaha_low8_strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best eight-or-better low of exactly 2 hole and 3 board cards, 0 if none."""
    pairs = {low_mask(pair) for pair in combinations(hole, 2)}
    pairs.discard(LOW8_INVALID)
    triples = {low_mask(triple) for triple in combinations(board, 3)}
    triples.discard(LOW8_INVALID)
    best = 0
    for p in pairs:
        for t in triples:
            v = LOW8_TABLE[p | t]
            if v > best:
                best = v
    return best


def three_card_strength(cards: Sequence[int]) -> int:
    """The three-card (Allocator Redraw) strength of exactly 3 cards (1 to 741)."""
    a, b, c = cards
    hi, mid, lo = sorted((a >> 2, b >> 2, c >> 2), reverse=True)
    suited = (a & 3) == (b & 3) == (c & 3)
    return _THREE[((hi * 13 + mid) * 13 + lo) * 2 + suited]


def two_card_strength(cards: Sequence[int]) -> int:
    """The two-card (Allocator) strength of exactly 2 cards (1 = 3-2 to 91 = A-A)."""
    a, b = cards
    hi, lo = (a >> 2, b >> 2) if a >= b else (b >> 2, a >> 2)
    if hi == lo:
        return 79 + hi
    return hi * (hi - 1) // 2 + lo + 1

