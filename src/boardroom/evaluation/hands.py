"""One hand under one ranking: ``evaluate`` (exactly 5, 3 or 2 cards) and ``best_of`` (more)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from boardroom.evaluation import _tables as tb
from boardroom.evaluation import scalar, small
from boardroom.evaluation.values import (
    EvaluationError,
    HandValue,
    Ranking,
    check_cards,
    check_count,
    describe,
    two_card_ranks,
)

_FLUSH_CATEGORIES = (tb.STRAIGHT_FLUSH, tb.FLUSH)
_SUITED_THREE = (tb.T_ROYAL, tb.T_STRAIGHT_FLUSH, tb.T_FLUSH)


def evaluate(ranking: Ranking, cards: Sequence[int]) -> HandValue | None:
    """The value of exactly 5 cards (3 for ``THREE_CARD``, 2 for ``TWO_CARD``).

    ``None`` when a low ranking does not qualify.
    """
    hand = check_cards(cards)
    check_count(hand, ranking.card_count, f"a {ranking.value} hand")
    return value_of(ranking, hand)


def best_of(ranking: Ranking, cards: Sequence[int]) -> HandValue | None:
    """The best 5 (3, 2) of any number of cards; ``None`` when no low qualifies."""
    pool = check_cards(cards)
    check_count(pool, range(ranking.card_count, 53), f"best {ranking.value} hand")
    return best_value(ranking, pool)


def value_of(ranking: Ranking, hand: tuple[int, ...]) -> HandValue | None:
    """The value of a checked hand of exactly ``ranking.card_count`` cards."""
    if ranking is Ranking.HIGH:
        return high_value(scalar.high5_strength(hand), hand)
    if ranking is Ranking.ESG_LOW:
        return make_value(ranking, scalar.esg_low_strength(hand), hand)
    if ranking is Ranking.LOW8:
        return make_value(ranking, scalar.low8_strength(hand), hand)
    if ranking is Ranking.THREE_CARD:
        return make_value(ranking, scalar.three_card_strength(hand), hand)
    if ranking is Ranking.TWO_CARD:
        return make_value(ranking, scalar.two_card_strength(hand), hand)
    return make_value(ranking, best_strength(ranking, hand), hand)


def best_value(ranking: Ranking, pool: tuple[int, ...]) -> HandValue | None:
    """The best hand of a checked pool of at least ``ranking.card_count`` cards."""
    return make_value(ranking, best_strength(ranking, pool), pool)


def best_strength(ranking: Ranking, pool: Sequence[int]) -> int:
    """The strength of the best hand of a checked pool (``0``: no qualifying low)."""
    if ranking is Ranking.HIGH:
        return scalar.high_strength(pool)
    if ranking is Ranking.ESG_LOW:
        return scalar.esg_low_strength(pool)
    if ranking is Ranking.LOW8:
        return scalar.low8_strength(pool)
    if ranking is Ranking.THREE_CARD:
        return small.best_three_card(pool)
    if ranking is Ranking.TWO_CARD:
        return small.best_two_card(pool)
    if len(pool) > 7:
        return _best_by_classes(ranking, pool)
    deuce_seven, a5_low, badugi = _LOWBALL or _lowball()
    if ranking is Ranking.DEUCE_SEVEN:
        return deuce_seven(pool)
    if ranking is Ranking.A5_LOW:
        return a5_low(pool)
    return badugi(pool)


Best = Callable[[Sequence[int]], int]
# The lowball evaluators, imported on first use (their tables are built then): an import in
# ``best_strength`` itself would cost an import look-up at every lowball showdown.
_LOWBALL: list[Best] = []


def _lowball() -> list[Best]:
    from boardroom.evaluation import lowball

    _LOWBALL[:] = [lowball.deuce_seven_best, lowball.a5_low_strength, lowball.badugi_strength]
    return _LOWBALL


def _best_by_classes(ranking: Ranking, pool: Sequence[int]) -> int:
    """The best lowball hand of many cards (the NUTS of unseen cards): the first class, best
    first, that the cards make. The best classes need few and common cards, so the search ends
    at once in play; it is exact for any pool."""
    for strength in range(ranking.class_count, 0, -1):
        try:
            pick_cards(ranking, strength, pool)
        except EvaluationError:
            continue
        return strength
    return 0  # pragma: no cover - five cards always make some hand


def high_value(strength: int, pool: Sequence[int]) -> HandValue:
    """The high ``HandValue`` of a strength made from cards of ``pool``."""
    value = make_value(Ranking.HIGH, strength, pool)
    assert value is not None
    return value


def make_value(ranking: Ranking, strength: int, pool: Sequence[int]) -> HandValue | None:
    """The ``HandValue`` of a strength known to be made from cards of ``pool``; ``None`` for 0."""
    if strength == 0:
        return None
    return HandValue(ranking, strength, pick_cards(ranking, strength, pool),
                     describe(ranking, strength))


def pick_cards(ranking: Ranking, strength: int, pool: Sequence[int]) -> tuple[int, ...]:
    """The cards of ``pool`` that make ``strength``, in the order a player reads them."""
    tables = tb.tables()
    suited: bool | None = False  # True: one suit; False: not all one suit; None: any
    if ranking is Ranking.HIGH:
        category, ranks = tables.high_class[strength]
        suited = True if category in _FLUSH_CATEGORIES else None
        if category in (tb.STRAIGHT, tb.HIGH_CARD):
            suited = False
    elif ranking is Ranking.ESG_LOW:
        ranks = tables.esg_class[strength]
    elif ranking is Ranking.LOW8:
        ranks = tuple(tb.ACE if r == 1 else r - 2 for r in tables.low8_class[strength])
        suited = None
    elif ranking is Ranking.DEUCE_SEVEN:
        category, ranks = tb.lowball_tables().d7_class[strength]
        suited = True if category in _FLUSH_CATEGORIES else None
        if category in (tb.STRAIGHT, tb.HIGH_CARD):
            suited = False
    elif ranking is Ranking.A5_LOW:
        ranks = tb.lowball_tables().a5_class[strength][1]
        suited = None
    elif ranking is Ranking.BADUGI:
        return _pick_rainbow(pool, tb.lowball_tables().badugi_class[strength])
    elif ranking is Ranking.THREE_CARD:
        category, ranks = tables.three_class[strength]
        suited = category in _SUITED_THREE
        if category in (tb.T_TRIPS, tb.T_PAIR):
            suited = None
    else:
        high, low = two_card_ranks(strength)
        ranks = (high, low)
        suited = None
    picked = _pick(pool, ranks, suited)
    if picked is None:
        raise EvaluationError(f"no cards of {list(pool)} make the {ranking.value} strength "
                              f"{strength}")  # an internal inconsistency, never expected
    return picked


def _pick(pool: Sequence[int], ranks: tuple[int, ...], suited: bool | None,
          ) -> tuple[int, ...] | None:
    by_rank: dict[int, list[int]] = {}
    for card in sorted(pool, reverse=True):
        by_rank.setdefault(card >> 2, []).append(card)
    if suited:
        for suit in (3, 2, 1, 0):
            if all(rank * 4 + suit in pool for rank in ranks):
                return tuple(rank * 4 + suit for rank in ranks)
        return None
    used: dict[int, int] = {}
    picked: list[int] = []
    for rank in ranks:
        options = by_rank.get(rank, [])
        index = used.get(rank, 0)
        if index >= len(options):
            return None
        picked.append(options[index])
        used[rank] = index + 1
    if suited is False and len({card & 3 for card in picked}) == 1:
        # Trade one card for another of its rank in a different suit.
        for position, card in enumerate(picked):
            others = [c for c in by_rank[card >> 2] if c & 3 != card & 3]
            if others:
                picked[position] = others[0]
                break
        else:
            return None
    return tuple(picked)


def _pick_rainbow(pool: Sequence[int], ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Cards of ``pool`` with these ranks, one each, all of different suits (a badugi)."""
    options = [[card for card in pool if card >> 2 == rank] for rank in ranks]
    for picked in itertools.product(*options):
        if len({card & 3 for card in picked}) == len(picked):
            return tuple(picked)
    raise EvaluationError(f"no cards of {list(pool)} make the badugi "
                          f"{'-'.join(str(r) for r in ranks)}")  # never expected
