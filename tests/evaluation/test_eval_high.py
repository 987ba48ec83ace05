"""High hands: every five-card hand against phevaluator and eval7, best-of and Omaha hands
against a brute force over the five-card ranking and phevaluator, scalar against batch."""

from __future__ import annotations

import itertools
import random
import warnings

import numpy as np
import numpy.typing as npt
import pytest
from phevaluator import _pheval

from boardroom.evaluation import _tables, batch, scalar

with warnings.catch_warnings():
    # eval7 builds a pyparsing grammar at import time with names pyparsing now deprecates.
    warnings.simplefilter("ignore")
    import eval7

RANKS = "23456789TJQKA"
EVAL7_CARDS = [eval7.Card(r + s) for r in RANKS for s in "cdhs"]


@pytest.fixture(scope="module")
def all_five() -> npt.NDArray[np.int8]:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                       dtype=np.int8)
    return flat.reshape(-1, 5)


def test_all_five_card_hands_match_phevaluator(all_five: npt.NDArray[np.int8]) -> None:
    assert len(all_five) == 2_598_960
    ours = batch.high5(all_five).astype(np.int64)
    columns = [all_five[:, i].tolist() for i in range(5)]
    theirs = np.fromiter(map(_pheval.evaluate_5cards, *columns), dtype=np.int64)
    mismatches = np.flatnonzero(ours != 7463 - theirs)
    assert len(mismatches) == 0, all_five[mismatches[:5]]
    assert len(np.unique(ours)) == 7462


def test_all_five_card_hands_ordered_as_eval7(all_five: npt.NDArray[np.int8]) -> None:
    ours = batch.high5(all_five).astype(np.int64)
    cards = EVAL7_CARDS
    theirs = np.fromiter(
        (eval7.evaluate([cards[a], cards[b], cards[c], cards[d], cards[e]])
         for a, b, c, d, e in all_five.tolist()),
        dtype=np.int64, count=len(all_five))
    # The same equivalence classes, in the same order: our strength determines eval7's value
    # and the mapping is strictly increasing.
    pairs = np.unique(np.stack([ours, theirs], axis=1), axis=0)
    assert len(pairs) == len(np.unique(ours)) == len(np.unique(theirs)) == 7462
    assert (np.diff(pairs[:, 0]) > 0).all()
    assert (np.diff(pairs[:, 1]) > 0).all()


def test_scalar_five_card_matches_batch_on_a_sample(all_five: npt.NDArray[np.int8]) -> None:
    rows = all_five[::97]
    expected = batch.high5(rows)
    assert [scalar.high5_strength(row) for row in rows.tolist()] == expected.tolist()


def brute_force(cards: list[int]) -> int:
    """Best of every 5-card subset under phevaluator's five-card ranking."""
    return 7463 - min(_pheval.evaluate_5cards(*five) for five in itertools.combinations(cards, 5))


def brute_force_omaha(hole: list[int], board: list[int]) -> int:
    return 7463 - min(_pheval.evaluate_5cards(*pair, *triple)
                      for pair in itertools.combinations(hole, 2)
                      for triple in itertools.combinations(board, 3))


def _deal(rng: random.Random, count: int, n: int) -> list[list[int]]:
    return [rng.sample(range(52), n) for _ in range(count)]


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 12, 15])
def test_best_of_matches_brute_force_and_batch(n: int) -> None:
    hands = _deal(random.Random(n), 300 if n <= 9 else 60, n)
    expected = [brute_force(h) for h in hands]
    assert [scalar.high_strength(h) for h in hands] == expected
    assert batch.high(np.array(hands)).tolist() == expected


def test_seven_cards_match_phevaluator() -> None:
    hands = np.array(_deal(random.Random(7), 50_000, 7))
    expected = [7463 - _pheval.evaluate_7cards(*h) for h in hands.tolist()]
    assert batch.high7(hands).tolist() == expected
    assert [scalar.high7_strength(h) for h in hands.tolist()] == expected


def test_six_cards_match_phevaluator() -> None:
    hands = _deal(random.Random(6), 20_000, 6)
    expected = [7463 - _pheval.evaluate_6cards(*h) for h in hands]
    assert [scalar.high_strength(h) for h in hands] == expected
    assert batch.high(np.array(hands)).tolist() == expected


def test_omaha_four_hole_cards_match_phevaluator() -> None:
    deals = np.array(_deal(random.Random(4), 30_000, 9))
    hole, board = deals[:, :4], deals[:, 4:]
    expected = [7463 - _pheval.evaluate_omaha_cards(*b, *h)
                for h, b in zip(hole.tolist(), board.tolist(), strict=True)]
    assert batch.omaha_high(hole, board).tolist() == expected
    assert [scalar.omaha_high_strength(h, b)
            for h, b in zip(hole.tolist(), board.tolist(), strict=True)] == expected


@pytest.mark.parametrize(("hole_count", "board_count"),
                         [(4, 5), (5, 5), (6, 5), (15, 5), (4, 3), (6, 4), (2, 5)])
def test_omaha_matches_brute_force(hole_count: int, board_count: int) -> None:
    # phevaluator's PLO5/PLO6 evaluators are not compiled into the installed wheel (only
    # evaluate_omaha_cards for 4 hole cards), so 5, 6 and 15 hole cards use the brute force.
    rng = random.Random(hole_count * 10 + board_count)
    deals = _deal(rng, 150 if hole_count < 15 else 25, hole_count + board_count)
    hole = [d[:hole_count] for d in deals]
    board = [d[hole_count:] for d in deals]
    expected = [brute_force_omaha(h, b) for h, b in zip(hole, board, strict=True)]
    assert batch.omaha_high(np.array(hole), np.array(board)).tolist() == expected
    assert [scalar.omaha_high_strength(h, b)
            for h, b in zip(hole, board, strict=True)] == expected


def test_omaha_flushes_need_two_suited_hole_cards() -> None:
    # Four hearts on board and one heart in hand is no flush in Omaha.
    hole = [[48, 1, 5, 9]]  # Ac 2d 3d 4d
    board = [[50, 46, 42, 38, 2]]  # Ah Kh Qh Jh 2h
    value = batch.omaha_high(np.array(hole), np.array(board))[0]
    assert _tables.tables().high_class[int(value)][0] != _tables.FLUSH
    assert value == scalar.omaha_high_strength(hole[0], board[0]) == brute_force_omaha(
        hole[0], board[0])


def test_rank_keys_have_distinct_sums() -> None:
    for keys, counts in ((_tables.RANK_KEYS_5, (5,)), (_tables.RANK_KEYS_7, (5, 6, 7))):
        for n in counts:
            sums = [sum(keys[r] for r in combo)
                    for combo in itertools.combinations_with_replacement(range(13), n)
                    if max(combo.count(r) for r in combo) <= 4]
            assert len(sums) == len(set(sums))
