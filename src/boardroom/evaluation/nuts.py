"""The nuts: the best hand any holding of cards a viewer cannot see can make (RULES.md section 3,
"What a player sees"). Future cards and redraws are ignored.

A holding is made only of unseen cards: the 52 cards minus everything the viewer sees (their
own hole cards, every visible board card, any shown card). Its size follows the construction:
2 unseen cards for an Omaha, Tilt or Hold'em board and the Tilt diagonal, 5 for a private hand,
4 for the Tree (with the Christmas card), 2 or 3 for an Allocator's Hand.

Exact, and cheap because the work is shared. A board construction's answer depends only on the
board and on which cards may be held, so ``holdings`` evaluates, once per board state with the
numpy batch paths, every 2-card holding of cards off the board (at most C(49, 2) = 1,176) and
sorts them best first; that table is cached and answers every viewer: their own best hand
(the best holding of two of their cards) and their NUTS badge (is any holding of two unseen
cards ahead of them?) are each one vectorised scan. A table is kept only while its board may
be asked about again: inside ``one_round`` (a round of every connected viewer's views after a
change) until the round ends, since the pills it gives are kept by seat; otherwise building the
table of a board drops the table of the board it grew from (the turn's drops the flop's: a
board only grows), ``forget`` drops the tables of a hand's boards once it is over, and at
most ``TABLE_CACHE_SIZE`` are kept (least recently used) for callers that never forget.
Private hands need no enumeration: any 5 unseen cards are a holding, so the nuts is the best
hand of all unseen cards, and likewise the Allocators' 2- and 3-card Hands (counted by rank,
``small``). The Tree walks the 7,462 high classes from the best down and returns the first one
that the Christmas card and 4 unseen cards can make.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations
from typing import TYPE_CHECKING

from boardroom.evaluation import _tables as tb
from boardroom.evaluation import scalar
from boardroom.evaluation.construction import Construction
from boardroom.evaluation.hands import best_strength, best_value, high_value, make_value
from boardroom.evaluation.values import (
    EvaluationError,
    HandValue,
    Ranking,
    check_cards,
    check_count,
    check_disjoint,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_RANKINGS = {
    Construction.OMAHA: (Ranking.HIGH, Ranking.LOW8),
    # LOW8, A5_LOW: stud; DEUCE_SEVEN, BADUGI: the draw
    Construction.HOLE_ONLY: (Ranking.HIGH, Ranking.ESG_LOW, Ranking.LOW8, Ranking.A5_LOW,
                             Ranking.DEUCE_SEVEN, Ranking.BADUGI),
    Construction.ALLOCATED: (Ranking.THREE_CARD, Ranking.TWO_CARD),
}
_BOARD_SIZES = {
    Construction.OMAHA: range(3, 6),
    Construction.TILT_BOARD: range(3, 6),
    Construction.TILT_DIAGONAL: range(3, 5),
    Construction.HOLDEM: range(3, 6),
    Construction.HOLE_ONLY: range(1),
    Construction.ALLOCATED: range(1),
    Construction.TREE: range(1, 2),
}
HOLDING_CONSTRUCTIONS = frozenset({Construction.OMAHA, Construction.TILT_BOARD,
                                   Construction.TILT_DIAGONAL, Construction.HOLDEM})
"""The constructions whose holdings are two cards played with a board (``holdings``)."""

TABLE_CACHE_SIZE = 2048  # boards kept at most (two per ESG table at once); a table: ~6 KB


def nuts(construction: Construction, board: Sequence[int] = (), *, seen: Iterable[int] = (),
         ranking: Ranking = Ranking.HIGH, tilted: int | None = None) -> HandValue | None:
    """The best hand any holding of unseen cards makes in this category right now.

    ``board`` is the category's public cards (see ``Construction``); ``seen`` is every card the
    viewer sees (the board's cards may be repeated there). ``None`` when no holding makes a
    qualifying low, or when there are too few unseen cards for a holding.
    """
    board_cards, seen_cards = _check(construction, board, seen, ranking, tilted)
    if construction in HOLDING_CONSTRUCTIONS:
        table = holdings(construction, board_cards, ranking, tilted)
        return table.best(_unseen_mask(seen_cards))
    unseen = tuple(card for card in range(52) if card not in seen_cards)
    if construction is Construction.TREE:
        return _tree_nuts(board_cards[0], unseen)
    size = ranking.card_count
    return best_value(ranking, unseen) if len(unseen) >= size else None


def is_nuts(value: HandValue, construction: Construction, board: Sequence[int] = (), *,
            seen: Iterable[int] = (), tilted: int | None = None) -> bool:
    """True when no holding of unseen cards beats ``value`` (a tie is still the nuts).

    ``value`` is the viewer's hand in the category; its ranking is the category's ranking.
    """
    board_cards, seen_cards = _check(construction, board, seen, value.ranking, tilted)
    if construction in HOLDING_CONSTRUCTIONS:
        table = holdings(construction, board_cards, value.ranking, tilted)
        return not table.beaten(value.strength, _unseen_mask(seen_cards))
    unseen = tuple(card for card in range(52) if card not in seen_cards)
    if construction is Construction.TREE:
        best = _tree_nuts(board_cards[0], unseen)
        return best is None or value.strength >= best.strength
    size = value.ranking.card_count
    return len(unseen) < size or value.strength >= best_strength(value.ranking, unseen)


def best_holding(construction: Construction, board: Sequence[int], cards: Sequence[int], *,
                 ranking: Ranking = Ranking.HIGH, tilted: int | None = None) -> HandValue | None:
    """The best hand any two of ``cards`` make with this board, from the board's cached table.

    The same hand as ``omaha``, ``tilt_board`` and ``tilt_diagonal`` give for a hand of
    ``cards``, and for ``HOLDEM`` the best Hold'em hand of any two of them (a pill before the
    allocation). ``None``: no qualifying low.
    """
    if construction not in HOLDING_CONSTRUCTIONS:
        raise EvaluationError(f"{_a_hand(construction)} is not two cards with a board")
    board_cards, _ = _check(construction, board, (), ranking, tilted)
    hand = check_cards(cards, "hole cards")
    check_count(hand, range(2, 53), "hole cards")
    check_disjoint(hand, board_cards, f"hole cards and {construction.value} board")
    return holdings(construction, board_cards, ranking, tilted).best(card_mask(hand))


def _a_hand(construction: Construction) -> str:
    """``'an omaha hand'``, ``'a tree hand'``: the start of an error message."""
    article = "an" if construction.value[0] in "aeiou" else "a"
    return f"{article} {construction.value} hand"


def _check(construction: Construction, board: Sequence[int], seen: Iterable[int],
           ranking: Ranking, tilted: int | None) -> tuple[tuple[int, ...], set[int]]:
    """The checked board and every card the viewer sees (the board's included)."""
    allowed = _RANKINGS.get(construction, (Ranking.HIGH,))
    if ranking not in allowed:
        raise EvaluationError(f"{_a_hand(construction)} is ranked "
                              f"{' or '.join(r.value for r in allowed)}, not {ranking.value}")
    board_cards = check_cards(board, f"{construction.value} board")
    check_count(board_cards, _BOARD_SIZES[construction], f"{construction.value} board")
    if construction is Construction.TILT_BOARD:
        if tilted is None or tilted not in board_cards:
            raise EvaluationError(f"the tilted card {tilted!r} is not on the board")
    elif tilted is not None:
        raise EvaluationError(f"{_a_hand(construction)} has no tilted card")
    seen_cards = set(check_cards(tuple(seen), "seen cards"))
    seen_cards.update(board_cards)
    return board_cards, seen_cards


ALL_CARDS = (1 << 52) - 1  # every card as a 52-bit mask


def card_mask(cards: Iterable[int]) -> int:
    """The cards as a 52-bit mask, bit ``card`` set (what a ``Holdings`` table is scanned
    with; ``ALL_CARDS & ~mask`` is every other card)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _unseen_mask(seen: Iterable[int]) -> int:
    """The cards not in ``seen`` as a 52-bit mask."""
    return ALL_CARDS & ~card_mask(seen)



class Holdings:
    """Every 2-card holding of cards off one board with its hand there, best first.

    Built with numpy as the batch evaluator is: the holdings' key sums (or low masks) broadcast
    against the board's allowed triples (Omaha, Tilt: exactly 3 of the board; the Tilt board's
    triples hold its tilted card; Hold'em, any mix: also either card with 4 of the board, and the
    board alone) and looked up in the 5-card tables. Each holding keeps its best triple, so a
    hand is read back with the cards that make it. Five bytes a holding (about 6 KB a table):
    its strength negated (int16), its two cards (uint8 each) and its triple (int8).
    """

    __slots__ = ("board", "construction", "first", "negated", "ranking", "second", "triple",
                 "triples")

    def __init__(self, construction: Construction, board: tuple[int, ...], ranking: Ranking,
                 tilted: int | None) -> None:
        import numpy as np
        self.construction = construction
        self.board = board
        self.ranking = ranking
        off = np.array([card for card in range(52) if card not in board], dtype=np.intp)
        i, j = _pair_indices(len(off))
        first, second = off[i], off[j]
        if construction is Construction.HOLDEM:
            self.triples: tuple[tuple[int, ...], ...] = (board,)  # any mix: read from all 7
            strengths = _holdem_values(first, second, board).max(axis=1).astype(np.int32)
            chosen = np.zeros(len(first), dtype=np.intp)
        else:
            triples = list(combinations(board, 3))
            if construction is Construction.TILT_BOARD:
                triples = [t for t in triples if tilted in t]
            self.triples = tuple(triples)
            values = (_low8_values(first, second, triples) if ranking is Ranking.LOW8
                      else _high_values(first, second, triples))
            chosen = values.argmax(axis=1)
            strengths = values[np.arange(len(first)), chosen].astype(np.int32)
        order = np.argsort(-strengths, kind="stable")
        self.negated = (-strengths[order]).astype(np.int16)  # ascending: best first
        self.first = first[order].astype(np.uint8)  # the holding's two cards
        self.second = second[order].astype(np.uint8)
        self.triple = chosen[order].astype(np.int8)
        for column in (self.negated, self.first, self.second, self.triple):
            column.flags.writeable = False  # shared by every viewer through the cache

    def __len__(self) -> int:
        return len(self.negated)

    @property
    def nbytes(self) -> int:
        """The bytes of the table's columns."""
        return sum(column.nbytes for column in (self.negated, self.first, self.second,
                                                self.triple))

    def _held(self, mask: int, end: int | None = None) -> npt.NDArray[np.bool_]:
        """For each holding (the first ``end``), whether both its cards are in ``mask``."""
        import numpy as np
        bits = np.uint64(mask)
        both = np.right_shift(bits, self.first[:end], dtype=np.uint64)
        both &= np.right_shift(bits, self.second[:end], dtype=np.uint64)
        held: npt.NDArray[np.bool_] = (both & np.uint64(1)).astype(np.bool_)
        return held

    def best(self, mask: int) -> HandValue | None:
        """The best hand of a holding of two cards of ``mask`` (a ``card_mask``; cards on the
        board never count); ``None`` when there is none or no low qualifies."""
        held = self._held(mask)
        index = int(held.argmax())
        if not held[index]:
            return None
        strength = -int(self.negated[index])
        first, second = int(self.first[index]), int(self.second[index])
        made = (max(first, second), min(first, second),
                *self.triples[int(self.triple[index])])
        if self.construction is Construction.HOLDEM:
            return high_value(strength, made)
        return make_value(self.ranking, strength, made)

    def beaten(self, strength: int, mask: int) -> bool:
        """Whether a holding of two cards of ``mask`` makes a hand better than ``strength``."""
        better = int(self.negated.searchsorted(self.negated.dtype.type(-strength), side="left"))
        if not better:
            return False
        return bool(self._held(mask, better).any())


_TableKey = tuple[Construction, tuple[int, ...], Ranking, int | None]
_tables: OrderedDict[_TableKey, Holdings] = OrderedDict()  # least recently used first
_tables_lock = threading.Lock()  # equity and tests may evaluate from other threads
_table_counts = {"built": 0, "hits": 0}


def holdings(construction: Construction, board: tuple[int, ...], ranking: Ranking,
             tilted: int | None) -> Holdings:
    """The holdings table of a checked board (and tilted card, for a Tilt board), built once per
    board state and kept while it may be asked about (see the module's text). Scan it with
    ``best`` and ``beaten`` and a ``card_mask``."""
    key: _TableKey = (construction, board, ranking, tilted)
    asked: set[_TableKey] | None = getattr(_round, "keys", None)
    if asked is not None:
        asked.add(key)
    with _tables_lock:
        table = _tables.get(key)
        if table is not None:
            _tables.move_to_end(key)
            _table_counts["hits"] += 1
            return table
    table = Holdings(construction, board, ranking, tilted)
    with _tables_lock:
        _table_counts["built"] += 1
        _tables[key] = table
        _tables.move_to_end(key)
        # The board this one grew from is not asked about again (a board only grows).
        _tables.pop((construction, board[:-1], ranking, tilted), None)
        while len(_tables) > TABLE_CACHE_SIZE:
            _tables.popitem(last=False)
    return table


_round = threading.local()  # the keys asked for in this thread's ``one_round``, if open


@contextmanager
def one_round() -> Iterator[None]:
    """Drop, when it ends, every table asked for inside: a server's round of views after a
    change (``engine.view.views_for``) builds each board's table once for all its viewers, and
    the pills it gives are kept by seat, so nothing asks for the table again until a seat's
    cards or the board change, when it is built again (about 70 us a board; about 6 KB a
    board is not held for a whole street). Nested rounds drop their tables when the outermost
    ends; rounds in other threads keep their own."""
    outer: set[_TableKey] | None = getattr(_round, "keys", None)
    keys: set[_TableKey] = set()
    _round.keys = keys
    try:
        yield
    finally:
        _round.keys = outer
        if outer is not None:
            outer.update(keys)
        else:
            with _tables_lock:
                for key in keys:
                    _tables.pop(key, None)


def forget(boards: Iterable[Sequence[int]]) -> int:
    """Drop every kept table of one of ``boards`` or of a start of one (a finished hand's
    boards, each in the order it was dealt: nobody asks about them again, and one asked about
    again is built again); returns how many were dropped. Another table's board of the same
    cards dealt in another order is kept."""
    starts = {tuple(board[:count]) for board in boards for count in range(1, len(board) + 1)}
    with _tables_lock:
        dead = [key for key in _tables if key[1] in starts]
        for key in dead:
            del _tables[key]
    return len(dead)


def cache_info() -> dict[str, int]:
    """The tables kept (``size``), built and found kept (``hits``) so far (tests count them)."""
    with _tables_lock:
        return {"size": len(_tables), **_table_counts}


def clear_cache() -> None:
    """Forget every holdings table and the counts (benchmarks measure the first view after a
    change)."""
    with _tables_lock:
        _tables.clear()
        _table_counts.update(built=0, hits=0)


@functools.cache
def _pair_indices(count: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The index pairs (i < j) of ``count`` cards."""
    import numpy as np
    i, j = np.triu_indices(count, 1)
    return i.astype(np.intp), j.astype(np.intp)


@functools.cache
def _key5() -> npt.NDArray[np.int64]:
    import numpy as np

    return np.asarray(scalar.KEY5, dtype=np.int64)


@functools.cache
def _low_bit() -> npt.NDArray[np.int32]:
    import numpy as np

    return np.asarray(scalar.LOW_BIT, dtype=np.int32)


def _high_values(first: npt.NDArray[np.intp], second: npt.NDArray[np.intp],
                 triples: Sequence[tuple[int, ...]]) -> npt.NDArray[np.int16]:
    """High strengths of every (holding, triple): rows are holdings, columns triples."""
    import numpy as np
    pair_keys = _key5()[first] + _key5()[second]
    triple_keys = np.array([scalar.KEY5_BIASED[x] + scalar.KEY5[y] + scalar.KEY5[z]
                            for x, y, z in triples], dtype=np.int64)
    return _high_lookup(pair_keys[:, None] + triple_keys[None, :])


def _holdem_values(first: npt.NDArray[np.intp], second: npt.NDArray[np.intp],
                   board: tuple[int, ...]) -> npt.NDArray[np.int16]:
    """Hold'em high strengths (any mix) of every holding, as the best of its 5-card hands:
    both cards and 3 of the board, either card and 4 of the board, the board alone."""
    import numpy as np
    columns = [_high_values(first, second, list(combinations(board, 3)))]
    if len(board) >= 4:
        quad_keys = np.array([scalar.KEY5_BIASED[a] + scalar.KEY5[b] + scalar.KEY5[c]
                              + scalar.KEY5[d] for a, b, c, d in combinations(board, 4)],
                             dtype=np.int64)
        columns += [_high_lookup(_key5()[single][:, None] + quad_keys[None, :])
                    for single in (first, second)]
    values = np.concatenate(columns, axis=1)
    if len(board) == 5:
        np.maximum(values, scalar.high5_strength(board), out=values)
    return values


def _high_lookup(sums: npt.NDArray[np.int64]) -> npt.NDArray[np.int16]:
    """High strengths of 5-card key sums (one biased key each)."""
    tables = tb.arrays()
    rank_sums = sums >> 16
    values: npt.NDArray[np.int16] = tables.high5[rank_sums]
    flushes = (sums & 0x8888) != 0
    values[flushes] = tables.flush5[rank_sums[flushes]]
    return values


def _low8_values(first: npt.NDArray[np.intp], second: npt.NDArray[np.intp],
                 triples: Sequence[tuple[int, ...]]) -> npt.NDArray[np.int16]:
    """Eight-or-better strengths (0: no low) of every (holding, triple)."""
    import numpy as np
    a, b = _low_bit()[first], _low_bit()[second]
    pair_masks = np.where((a != 0) & (b != 0) & (a != b), a | b, scalar.LOW8_INVALID)
    triple_masks = np.array([scalar.low_mask(t) for t in triples], dtype=np.int32)
    values: npt.NDArray[np.int16] = tb.arrays().low8_mask[
        pair_masks[:, None] | triple_masks[None, :]]
    return values


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
