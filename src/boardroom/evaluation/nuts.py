"""The nuts: the best hand any holding of cards a viewer cannot see can make (RULES.md section 3,
"What a player sees"). Future cards and redraws are ignored.

A holding is made only of unseen cards: the 52 cards minus everything the viewer sees (their
own hole cards, every visible board card, any shown card). Its size follows the construction:
2 unseen cards for an Omaha, Tilt or Hold'em board and the Tilt diagonal, 5 for a private hand,
4 for the Tree (with the Christmas card).

Board constructions enumerate every unseen pair with numpy (at most C(50, 2) x 10 five-card
sums). Private hands need no enumeration: any 5 unseen cards are a holding, so the nuts is the
best hand of all unseen cards. The Tree walks the 7,462 high classes from the best down and
returns the first one that the Christmas card and 4 unseen cards can make.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardroom.evaluation import _tables as tb
from boardroom.evaluation import batch, scalar
from boardroom.evaluation.construction import Construction
from boardroom.evaluation.hands import best_value, high_value, make_value
from boardroom.evaluation.values import (
    EvaluationError,
    HandValue,
    Ranking,
    check_cards,
    check_count,
)

_RANKINGS = {
    Construction.OMAHA: (Ranking.HIGH, Ranking.LOW8),
    Construction.HOLE_ONLY: (Ranking.HIGH, Ranking.ESG_LOW),
}
_BOARD_SIZES = {
    Construction.OMAHA: range(3, 6),
    Construction.TILT_BOARD: range(3, 6),
    Construction.TILT_DIAGONAL: range(3, 5),
    Construction.HOLDEM: range(3, 6),
    Construction.HOLE_ONLY: range(1),
    Construction.TREE: range(1, 2),
}


def nuts(construction: Construction, board: Sequence[int] = (), *, seen: Iterable[int] = (),
         ranking: Ranking = Ranking.HIGH, tilted: int | None = None) -> HandValue | None:
    """The best hand any holding of unseen cards makes in this category right now.

    ``board`` is the category's public cards (see ``Construction``); ``seen`` is every card the
    viewer sees (the board's cards may be repeated there). ``None`` when no holding makes a
    qualifying low, or when there are too few unseen cards for a holding.
    """
    board_cards, unseen = _check(construction, board, seen, ranking, tilted)
    if construction is Construction.HOLE_ONLY:
        return best_value(ranking, unseen) if len(unseen) >= 5 else None
    if construction is Construction.TREE:
        return _tree_nuts(board_cards[0], unseen)
    if len(unseen) < 2:
        return None
    if construction is Construction.HOLDEM:
        return _holdem_nuts(board_cards, unseen)
    triples = list(combinations(board_cards, 3))
    if construction is Construction.TILT_BOARD:
        triples = [t for t in triples if tilted in t]
    if ranking is Ranking.LOW8:
        return _omaha_low8_nuts(triples, unseen)
    return _omaha_high_nuts(triples, unseen)


def is_nuts(value: HandValue, construction: Construction, board: Sequence[int] = (), *,
            seen: Iterable[int] = (), tilted: int | None = None) -> bool:
    """True when no holding of unseen cards beats ``value`` (a tie is still the nuts).

    ``value`` is the viewer's hand in the category; its ranking is the category's ranking.
    """
    best = nuts(construction, board, seen=seen, ranking=value.ranking, tilted=tilted)
    return best is None or value.strength >= best.strength


def _check(construction: Construction, board: Sequence[int], seen: Iterable[int],
           ranking: Ranking, tilted: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if construction is Construction.ALLOCATED:
        raise EvaluationError("an allocated hand has no board: its nuts are the best of the "
                              "unseen cards (best_value)")
    allowed = _RANKINGS.get(construction, (Ranking.HIGH,))
    if ranking not in allowed:
        raise EvaluationError(f"a {construction.value} hand is ranked "
                              f"{' or '.join(r.value for r in allowed)}, not {ranking.value}")
    board_cards = check_cards(board, f"{construction.value} board")
    check_count(board_cards, _BOARD_SIZES[construction], f"{construction.value} board")
    if construction is Construction.TILT_BOARD:
        if tilted is None or tilted not in board_cards:
            raise EvaluationError(f"the tilted card {tilted!r} is not on the board")
    elif tilted is not None:
        raise EvaluationError(f"a {construction.value} hand has no tilted card")
    seen_cards = set(check_cards(tuple(seen), "seen cards")) | set(board_cards)
    unseen = tuple(card for card in range(52) if card not in seen_cards)
    return board_cards, unseen


def _pairs(unseen: tuple[int, ...]) -> npt.NDArray[np.intp]:
    cards = np.asarray(unseen, dtype=np.intp)
    first, second = np.triu_indices(len(cards), 1)
    return np.stack([cards[first], cards[second]], axis=1)


def _omaha_high_nuts(triples: Sequence[tuple[int, ...]], unseen: tuple[int, ...]) -> HandValue:
    pairs = _pairs(unseen)
    key5 = np.asarray(scalar.KEY5, dtype=np.int64)
    pair_keys = key5[pairs[:, 0]] + key5[pairs[:, 1]]
    triple_keys = np.array([scalar.KEY5_BIASED[x] + scalar.KEY5[y] + scalar.KEY5[z]
                            for x, y, z in triples], dtype=np.int64)
    sums = pair_keys[:, None] + triple_keys[None, :]
    tables = tb.tables()
    rank_sums = sums >> 16
    values = np.where(sums & 0x8888, tables.flush5_np[rank_sums], tables.high5_np[rank_sums])
    i, j = (int(x) for x in np.unravel_index(int(values.argmax()), values.shape))
    cards = (*pairs[i].tolist(), *triples[j])
    return high_value(int(values[i, j]), cards)


def _omaha_low8_nuts(triples: Sequence[tuple[int, ...]], unseen: tuple[int, ...],
                     ) -> HandValue | None:
    pairs = _pairs(unseen)
    low = np.asarray(scalar.LOW_BIT, dtype=np.int32)
    a, b = low[pairs[:, 0]], low[pairs[:, 1]]
    pair_masks = np.where((a != 0) & (b != 0) & (a != b), a | b, scalar.LOW8_INVALID)
    triple_masks = np.array([scalar.low_mask(t) for t in triples], dtype=np.int32)
    values = tb.tables().low8_mask_np[pair_masks[:, None] | triple_masks[None, :]]
    i, j = (int(x) for x in np.unravel_index(int(values.argmax()), values.shape))
    return make_value(Ranking.LOW8, int(values[i, j]), (*pairs[i].tolist(), *triples[j]))


def _holdem_nuts(board: tuple[int, ...], unseen: tuple[int, ...]) -> HandValue:
    pairs = _pairs(unseen)
    hands = np.concatenate([pairs, np.broadcast_to(np.asarray(board), (len(pairs), len(board)))],
                           axis=1)
    values = batch.high(hands)
    best = int(values.argmax())
    return high_value(int(values[best]), tuple(hands[best].tolist()))


@functools.cache
def _classes_with_rank(rank: int) -> tuple[tuple[int, bool, tuple[int, ...]], ...]:
    """High classes holding ``rank``, best first: (strength, one suit?, the other 4 ranks)."""
    result = []
    for strength in range(tb.HIGH_CLASS_COUNT, 0, -1):
        category, ranks = tb.tables().high_class[strength]
        if rank in ranks:
            others = list(ranks)
            others.remove(rank)
            result.append((strength, category in (tb.STRAIGHT_FLUSH, tb.FLUSH), tuple(others)))
    return tuple(result)


def _tree_nuts(christmas: int, unseen: tuple[int, ...]) -> HandValue | None:
    if len(unseen) < 4:
        return None
    counts = [0] * 13
    suit_ranks = 0
    for card in unseen:
        counts[card >> 2] += 1
        if card & 3 == christmas & 3:
            suit_ranks |= 1 << (card >> 2)
    for strength, one_suit, others in _classes_with_rank(christmas >> 2):
        if one_suit:
            if all(suit_ranks >> r & 1 for r in others):
                return high_value(strength, (christmas, *(r * 4 + (christmas & 3) for r in others)))
        elif all(counts[r] >= others.count(r) for r in set(others)):
            # A one-suit realisation would be a better class, found earlier: some other
            # choice of suits makes exactly this class.
            candidates = [card for card in unseen if card >> 2 in others]
            for four in combinations(candidates, 4):
                if scalar.high5_strength((christmas, *four)) == strength:
                    return high_value(strength, (christmas, *four))
    raise AssertionError("some Tree hand always exists with 4 unseen cards")
