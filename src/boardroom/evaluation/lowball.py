"""Value-only evaluators of the draw and stud lowballs (docs/rules.md): deuce-to-seven,
A-5 with pairs (razz) and Badugi. Like ``scalar``, plain Python with no object per call; a
module of its own so that its tables are built only by a process that deals these games.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from boardroom.evaluation import _tables as tb
from boardroom.evaluation.scalar import KEY5, KEY5_BIASED, RANK_BIT

_L = tb.lowball_tables()
D7_HIGH5: Final = _L.d7_high5.data
D7_FLUSH5: Final = _L.d7_flush5.data
A5_5: Final = _L.a5_5.data
_A5_6: Final = _L.a5_many[6]
_A5_7: Final = _L.a5_many[7]
BADUGI_MASK: Final = _L.badugi_mask.data


def deuce_seven_strength(
    cards: Sequence[int], *, _kb: tuple[int, ...] = KEY5_BIASED, _k: tuple[int, ...] = KEY5,
    _high: memoryview = D7_HIGH5, _flush: memoryview = D7_FLUSH5,
) -> int:
    """The deuce-to-seven lowball strength of exactly 5 cards (1 to 7462, 7462 = 7-5-4-3-2)."""
    a, b, c, d, e = cards
    k: int = _kb[a] + _k[b] + _k[c] + _k[d] + _k[e]
    if k & 0x8888:
        return _flush[k >> 16]
    return _high[k >> 16]


def deuce_seven_best(cards: Sequence[int]) -> int:
    """The best deuce-to-seven low of 5 or more cards (any 5 of them)."""
    if len(cards) == 5:
        return deuce_seven_strength(cards)
    return max(deuce_seven_strength(five) for five in combinations(cards, 5))


def a5_low_strength(
    cards: Sequence[int], *, _r5: tuple[int, ...] = tb.RANK_KEYS_5,
    _r7: tuple[int, ...] = tb.RANK_KEYS_7, _five: memoryview = A5_5,
    _six: dict[int, int] = _A5_6, _seven: dict[int, int] = _A5_7,
) -> int:
    """The best A-5 low with pairs counting (razz) of 5, 6 or 7 cards (1 to 6175,
    6175 = 5-4-3-2-A); straights and flushes do not count, so only ranks matter."""
    if len(cards) == 5:
        a, b, c, d, e = cards
        return _five[_r5[a >> 2] + _r5[b >> 2] + _r5[c >> 2] + _r5[d >> 2] + _r5[e >> 2]]
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        return _seven[_r7[a >> 2] + _r7[b >> 2] + _r7[c >> 2] + _r7[d >> 2] + _r7[e >> 2]
                      + _r7[f >> 2] + _r7[g >> 2]]
    if len(cards) == 6:
        return _six[sum(_r7[card >> 2] for card in cards)]
    return max(a5_low_strength(five) for five in combinations(cards, 5))


# For n cards (0 to 4), their subsets by size, largest first: a larger badugi beats a smaller.
_BADUGI_SUBSETS: Final = tuple(
    tuple(tuple(combinations(range(n), size)) for size in range(n, 0, -1)) for n in range(5))


def badugi_strength(cards: Sequence[int], *, _mask: memoryview = BADUGI_MASK,
                    _bit: tuple[int, ...] = RANK_BIT) -> int:
    """The best badugi of 1 to 4 cards, or of more by their best 4 (1 to 1092, 1092 =
    4-3-2-A): the most cards of distinct ranks and distinct suits, then the lowest, ace low."""
    count = len(cards)
    if count > 4:
        return max(badugi_strength(four) for four in combinations(cards, 4))
    for subsets in _BADUGI_SUBSETS[count]:
        best = 0
        for subset in subsets:
            ranks = suits = 0
            for i in subset:
                ranks |= _bit[cards[i]]
                suits |= 1 << (cards[i] & 3)
            if ranks.bit_count() == len(subset) == suits.bit_count() and _mask[ranks] > best:
                best = _mask[ranks]
        if best:
            return best
    return 0
