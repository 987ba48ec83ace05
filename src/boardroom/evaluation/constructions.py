"""How each category builds a hand from hole and board cards (RULES.md section 3 and 4)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from boardroom.cards import format_card
from boardroom.evaluation import scalar
from boardroom.evaluation.hands import best_value, high_value, make_value
from boardroom.evaluation.values import (
    EvaluationError,
    HandValue,
    Ranking,
    check_cards,
    check_count,
    check_disjoint,
)


def _hole_and_board(hole: Sequence[int], board: Sequence[int], board_sizes: range,
                    board_name: str = "board") -> tuple[tuple[int, ...], tuple[int, ...]]:
    hole_cards = check_cards(hole, "hole cards")
    board_cards = check_cards(board, board_name)
    check_count(hole_cards, range(2, 53), "hole cards")
    check_count(board_cards, board_sizes, board_name)
    check_disjoint(hole_cards, board_cards, "hole cards and " + board_name)
    return hole_cards, board_cards


def omaha(hole: Sequence[int], board: Sequence[int],
          ranking: Ranking = Ranking.HIGH) -> HandValue | None:
    """Exactly 2 hole cards + exactly 3 board cards (board of 3, 4 or 5), high or A-5 low.

    ``None`` when the eight-or-better low does not qualify.
    """
    hole_cards, board_cards = _hole_and_board(hole, board, range(3, 6))
    return _omaha(hole_cards, list(combinations(board_cards, 3)), ranking)


def _omaha(hole: tuple[int, ...], triples: Sequence[tuple[int, ...]],
           ranking: Ranking) -> HandValue | None:
    if ranking is Ranking.HIGH:
        return _omaha_high(hole, triples)
    if ranking is Ranking.LOW8:
        return _omaha_low8(hole, triples)
    raise EvaluationError(f"an Omaha hand is ranked high or low8, not {ranking.value}")


def _omaha_high(hole: tuple[int, ...], triples: Sequence[tuple[int, ...]]) -> HandValue:
    key5, biased = scalar.KEY5, scalar.KEY5_BIASED
    pairs = list(combinations(hole, 2))
    pair_keys = [key5[a] + key5[b] for a, b in pairs]
    triple_keys = [biased[x] + key5[y] + key5[z] for x, y, z in triples]
    high5, flush5 = scalar.HIGH5, scalar.FLUSH5
    best, best_pair, best_triple = 0, 0, 0
    for i, p in enumerate(pair_keys):
        for j, t in enumerate(triple_keys):
            k = p + t
            v = flush5[k >> 16] if k & 0x8888 else high5[k >> 16]
            if v > best:
                best, best_pair, best_triple = v, i, j
    return high_value(best, pairs[best_pair] + triples[best_triple])


def _omaha_low8(hole: tuple[int, ...], triples: Sequence[tuple[int, ...]]) -> HandValue | None:
    best, best_cards = 0, hole[:0]
    low_table = scalar.LOW8_TABLE
    pairs = [(scalar.low_mask(pair), pair) for pair in combinations(hole, 2)]
    masks = [(scalar.low_mask(triple), triple) for triple in triples]
    for p, pair in pairs:
        if p == scalar.LOW8_INVALID:
            continue
        for t, triple in masks:
            v = low_table[p | t]
            if v > best:
                best, best_cards = v, pair + triple
    return make_value(Ranking.LOW8, best, best_cards)


def tilt_board(hole: Sequence[int], board: Sequence[int], tilted: int) -> HandValue:
    """Omaha high on a Tilt board, with the board's tilted card among the 3 board cards."""
    hole_cards, board_cards = _hole_and_board(hole, board, range(3, 6))
    if tilted not in board_cards:
        raise EvaluationError(f"the tilted card {_name(tilted)} is not on the board")
    triples = [t for t in combinations(board_cards, 3) if tilted in t]
    return _omaha_high(hole_cards, triples)


def _name(card: object) -> str:
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return format_card(card)
    return repr(card)


def tilt_diagonal(hole: Sequence[int], tilted_cards: Sequence[int]) -> HandValue:
    """Exactly 2 hole cards + any 3 of the 3 or 4 visible tilted cards (A5, B4, C3, D1)."""
    hole_cards, tilted = _hole_and_board(hole, tilted_cards, range(3, 5), "tilted cards")
    return _omaha_high(hole_cards, list(combinations(tilted, 3)))


def hole_only(hole: Sequence[int], ranking: Ranking = Ranking.HIGH) -> HandValue | None:
    """The best 5 of all hole cards, high or ESG low (``None``: no qualifying low)."""
    if ranking not in (Ranking.HIGH, Ranking.ESG_LOW):
        raise EvaluationError(f"a private hand is ranked high or esg-low, not {ranking.value}")
    cards = check_cards(hole, "hole cards")
    check_count(cards, range(5, 53), "hole cards")
    return best_value(ranking, cards)


def tree(hole: Sequence[int], christmas_card: int) -> HandValue:
    """Exactly 4 hole cards + the Christmas card, high (XMAS's Tree)."""
    cards = check_cards(hole, "hole cards")
    check_count(cards, range(4, 53), "hole cards")
    (christmas,) = check_cards([christmas_card], "the Christmas card")
    check_disjoint(cards, (christmas,), "hole cards and the Christmas card")
    best, best_four = 0, cards[:4]
    score = scalar.high5_strength
    for four in combinations(cards, 4):
        v = score((christmas, *four))
        if v > best:
            best, best_four = v, four
    return high_value(best, (*best_four, christmas))


def holdem(two: Sequence[int], board: Sequence[int]) -> HandValue:
    """The best 5 of the 2 allocated cards and the board (3 to 5 cards), any mix."""
    cards = check_cards(two, "allocated cards")
    check_count(cards, 2, "allocated cards")
    board_cards = check_cards(board, "board")
    check_count(board_cards, range(3, 6), "board")
    check_disjoint(cards, board_cards, "allocated cards and board")
    value = best_value(Ranking.HIGH, cards + board_cards)
    assert value is not None
    return value
