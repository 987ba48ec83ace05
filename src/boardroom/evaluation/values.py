"""Rankings, hand values, their descriptions and the checks every public evaluator makes."""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from boardroom.cards import DECK_SIZE, RANK_NAMES, RANK_PLURALS, RANKS, format_card
from boardroom.evaluation import _tables as tb


class Ranking(enum.Enum):
    """How hands of one category compare (RULES.md section 3 and 4)."""

    HIGH = "high"
    ESG_LOW = "esg-low"
    LOW8 = "low8"
    THREE_CARD = "three-card"
    TWO_CARD = "two-card"
    DEUCE_SEVEN = "deuce-seven"  # 2-7 lowball: pairs, straights, flushes count; ace high
    A5_LOW = "a5-low"  # razz: A-5 low, pairs count, straights and flushes do not, ace low
    BADUGI = "badugi"  # four cards of distinct ranks and suits, lowest wins, ace low

    def __hash__(self) -> int:
        """``Enum.__hash__``'s own value, written here so that mypyc's build of this module
        computes it natively: a ranking keys the caches asked at every showdown."""
        return hash(self._name_)

    @property
    def card_count(self) -> int:
        """The number of cards in one hand of this ranking (a badugi may use fewer)."""
        return {Ranking.THREE_CARD: 3, Ranking.TWO_CARD: 2, Ranking.BADUGI: 4}.get(self, 5)

    @property
    def is_low(self) -> bool:
        """True for the rankings where the lowest hand wins."""
        return self in _LOWS

    @property
    def class_count(self) -> int:
        """The number of distinct strengths (the best hand has this strength)."""
        return _CLASS_COUNTS[self]


_CLASS_COUNTS = {
    Ranking.HIGH: tb.HIGH_CLASS_COUNT,
    Ranking.ESG_LOW: tb.ESG_LOW_CLASS_COUNT,
    Ranking.LOW8: tb.LOW8_CLASS_COUNT,
    Ranking.THREE_CARD: tb.THREE_CARD_CLASS_COUNT,
    Ranking.TWO_CARD: tb.TWO_CARD_CLASS_COUNT,
    Ranking.DEUCE_SEVEN: tb.DEUCE_SEVEN_CLASS_COUNT,
    Ranking.A5_LOW: tb.A5_LOW_CLASS_COUNT,
    Ranking.BADUGI: tb.BADUGI_CLASS_COUNT,
}
_LOWS = frozenset({Ranking.ESG_LOW, Ranking.LOW8, Ranking.DEUCE_SEVEN, Ranking.A5_LOW,
                   Ranking.BADUGI})


class EvaluationError(ValueError):
    """Cards that cannot be evaluated as asked: a wrong count, a duplicate, a card not in play."""


@dataclass(frozen=True, order=False)
class HandValue:
    """A hand under one ranking: its strength (higher is better, comparable only within the
    ranking), the cards that make it, in the order a player reads them, and a description."""

    ranking: Ranking
    strength: int
    cards: tuple[int, ...]
    description: str

    # Frozen and made of immutable values: a copy is the value itself. Said outright because
    # mypyc's build of this class cannot be rebuilt field by field as copy does by default.
    def __copy__(self) -> HandValue:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> HandValue:
        return self

    def beats(self, other: HandValue) -> bool:
        """True when this hand is strictly better than ``other`` of the same ranking."""
        _same_ranking(self, other)
        return self.strength > other.strength

    def ties(self, other: HandValue) -> bool:
        """True when the two hands are worth exactly the same (suits never break ties)."""
        _same_ranking(self, other)
        return self.strength == other.strength


def _same_ranking(a: HandValue, b: HandValue) -> None:
    if a.ranking is not b.ranking:
        raise EvaluationError(f"cannot compare a {a.ranking.value} hand with a "
                              f"{b.ranking.value} hand")


def check_cards(cards: Sequence[int], what: str = "cards") -> tuple[int, ...]:
    """The cards as a tuple of card numbers, or ``EvaluationError`` naming the bad one."""
    result = tuple(cards)
    seen: set[int] = set()
    for card in result:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
            raise EvaluationError(f"{what}: {card!r} is not a card number (0 to 51)")
        if card in seen:
            raise EvaluationError(f"{what}: card {format_card(card)} appears more than once")
        seen.add(card)
    return result


def check_disjoint(first: Sequence[int], second: Sequence[int], what: str) -> None:
    """``EvaluationError`` if a card is in both groups (e.g. a hole card also on the board)."""
    common = set(first) & set(second)
    if common:
        raise EvaluationError(f"{what}: card {format_card(min(common))} appears more than once")


def check_count(cards: Sequence[int], expected: int | range, what: str) -> None:
    """``EvaluationError`` if the number of cards is not ``expected``."""
    count = len(cards)
    if isinstance(expected, int):
        if count != expected:
            raise EvaluationError(f"{what}: expected exactly {expected} cards, got {count}")
    elif count not in expected:
        upper = f" to {expected[-1]}" if expected[-1] < DECK_SIZE else " or more"
        raise EvaluationError(f"{what}: expected {expected[0]}{upper} cards, got {count}")


def _plural(rank: int) -> str:
    return RANK_PLURALS[rank]


DESCRIBED = 1024  # descriptions kept


# Asked at every showdown and pill; a description takes about a microsecond to write, so the
# cache holds the recent ones only: unbounded, it held every class met (5,065 after 100 s of
# 100 ESG tables, about 1.2 MB, and growing with play).
@functools.lru_cache(maxsize=DESCRIBED)
def describe(ranking: Ranking, strength: int) -> str:
    """The human description of a strength, e.g. ``'Full house, kings full of nines'``."""
    tables = tb.tables()
    if not 1 <= strength <= ranking.class_count:
        raise EvaluationError(f"{strength} is not a {ranking.value} strength")
    if ranking is Ranking.HIGH:
        category, ranks = tables.high_class[strength]
        return _describe_high(category, ranks)
    if ranking is Ranking.ESG_LOW:
        return "Low " + "-".join(RANKS[r] for r in tables.esg_class[strength])
    if ranking is Ranking.LOW8:
        return "Low " + "-".join("A" if r == 1 else str(r) for r in tables.low8_class[strength])
    if ranking is Ranking.THREE_CARD:
        category, ranks = tables.three_class[strength]
        return _describe_three(category, ranks)
    if ranking is Ranking.DEUCE_SEVEN:
        category, ranks = tb.lowball_tables().d7_class[strength]
        return _describe_low(category, ranks)
    if ranking is Ranking.A5_LOW:
        category, ranks = tb.lowball_tables().a5_class[strength]
        return _describe_low(category, ranks)
    if ranking is Ranking.BADUGI:
        return _describe_badugi(tb.lowball_tables().badugi_class[strength])
    high, low = two_card_ranks(strength)
    if high == low:
        return f"Pair of {_plural(high)}"
    return f"{RANK_NAMES[high].capitalize()}-{RANK_NAMES[low]}"


def _describe_high(category: int, ranks: tuple[int, ...]) -> str:
    top = ranks[0]
    if category == tb.STRAIGHT_FLUSH:
        return "Royal flush" if top == tb.ACE else f"Straight flush, {RANK_NAMES[top]} high"
    if category == tb.QUADS:
        return f"Four of a kind, {_plural(top)}"
    if category == tb.FULL_HOUSE:
        return f"Full house, {_plural(top)} full of {_plural(ranks[3])}"
    if category == tb.FLUSH:
        return f"Flush, {RANK_NAMES[top]} high"
    if category == tb.STRAIGHT:
        return f"Straight, {RANK_NAMES[top]} high"
    if category == tb.TRIPS:
        return f"Three of a kind, {_plural(top)}"
    if category == tb.TWO_PAIR:
        return f"Two pair, {_plural(top)} and {_plural(ranks[2])}"
    if category == tb.PAIR:
        return f"Pair of {_plural(top)}"
    return f"High card, {RANK_NAMES[top]}"


def _low_rank(rank: int) -> str:
    return "A" if rank == tb.ACE else RANKS[rank]


def _describe_low(category: int, ranks: tuple[int, ...]) -> str:
    """A lowball hand: ``'8-6-4-3-2 low'`` when unpaired and no straight or flush (read from
    the top, as "an eight-six low"), else the high hand it is (``'Pair of nines'``)."""
    if category == tb.HIGH_CARD:
        return "-".join(_low_rank(r) for r in ranks) + " low"
    return _describe_high(category, ranks)


_BADUGI_SIZES = {4: "Badugi", 3: "Three-card", 2: "Two-card", 1: "One-card"}


def _describe_badugi(ranks: tuple[int, ...]) -> str:
    """``'Badugi 8-6-4-A'``, ``'Number 1 badugi (4-3-2-A)'`` for the best, or
    ``'Three-card 7-4-2'`` for a hand of fewer suits and ranks."""
    text = "-".join(_low_rank(r) for r in ranks)
    if ranks == (2, 1, 0, tb.ACE):
        return f"Number 1 badugi ({text})"
    return f"{_BADUGI_SIZES[len(ranks)]} {text}"


def _describe_three(category: int, ranks: tuple[int, ...]) -> str:
    top = ranks[0]
    if category == tb.T_ROYAL:
        return "Royal"
    if category == tb.T_TRIPS:
        return f"Trips, {_plural(top)}"
    if category == tb.T_STRAIGHT_FLUSH:
        return f"Straight flush, {RANK_NAMES[top]} high"
    if category == tb.T_STRAIGHT:
        return f"Straight, {RANK_NAMES[top]} high"
    if category == tb.T_FLUSH:
        return f"Flush, {RANK_NAMES[top]} high"
    if category == tb.T_PAIR:
        return f"Pair of {_plural(top)}"
    return f"High card, {RANK_NAMES[top]}"


def two_card_ranks(strength: int) -> tuple[int, int]:
    """The (high, low) ranks of a two-card strength (a pair has high == low)."""
    if strength > 78:
        rank = strength - 79
        return rank, rank
    index = strength - 1
    high = 1
    while (high + 1) * high // 2 <= index:
        high += 1
    return high, index - high * (high - 1) // 2
