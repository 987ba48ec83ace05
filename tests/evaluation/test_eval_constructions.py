"""Hand constructions (RULES.md section 3): properties with hypothesis, and the error cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.cards import parse_cards
from boardroom.evaluation import (
    EvaluationError,
    HandValue,
    Ranking,
    batch,
    best_of,
    evaluate,
    holdem,
    hole_only,
    omaha,
    tilt_board,
    tilt_diagonal,
    tree,
)

SETTINGS = settings(max_examples=60, deadline=None)
decks = st.permutations(list(range(52)))


def _strength(value: HandValue | None) -> int:
    return 0 if value is None else value.strength


def _best_five(ranking: Ranking, fives: itertools.chain[tuple[int, ...]] | list[tuple[int, ...]],
               ) -> int:
    return max((_strength(evaluate(ranking, five)) for five in fives), default=0)


def _omaha_fives(hole: list[int], board: list[int], must: int | None = None,
                 ) -> list[tuple[int, ...]]:
    return [pair + triple for pair in itertools.combinations(hole, 2)
            for triple in itertools.combinations(board, 3) if must is None or must in triple]


@SETTINGS
@given(deck=decks, hole_count=st.integers(2, 15), board_count=st.integers(3, 5),
       ranking=st.sampled_from([Ranking.HIGH, Ranking.LOW8]))
def test_omaha_uses_exactly_two_hole_and_three_board_cards(
        deck: list[int], hole_count: int, board_count: int, ranking: Ranking) -> None:
    hole, board = deck[:hole_count], deck[hole_count:hole_count + board_count]
    value = omaha(hole, board, ranking)
    assert _strength(value) == _best_five(ranking, _omaha_fives(hole, board))
    if value is not None:
        assert len(set(value.cards) & set(hole)) == 2
        assert len(set(value.cards) & set(board)) == 3
        assert _strength(evaluate(ranking, value.cards)) == value.strength
    one_row = (np.array([hole]), np.array([board]))
    vector = batch.omaha_high if ranking is Ranking.HIGH else batch.omaha_low8
    assert vector(*one_row)[0] == _strength(value)


@SETTINGS
@given(deck=decks, hole_count=st.integers(2, 10), board_count=st.integers(3, 5),
       tilted_index=st.integers(0, 4))
def test_tilt_board_always_uses_the_tilted_card(
        deck: list[int], hole_count: int, board_count: int, tilted_index: int) -> None:
    hole, board = deck[:hole_count], deck[hole_count:hole_count + board_count]
    tilted = board[tilted_index % board_count]
    value = tilt_board(hole, board, tilted)
    assert tilted in value.cards
    assert len(set(value.cards) & set(hole)) == 2
    assert value.strength == _best_five(Ranking.HIGH, _omaha_fives(hole, board, tilted))


@SETTINGS
@given(deck=decks, hole_count=st.integers(2, 14), tilted_count=st.integers(3, 4))
def test_tilt_diagonal_is_two_hole_cards_and_three_tilted_cards(
        deck: list[int], hole_count: int, tilted_count: int) -> None:
    hole, tilted = deck[:hole_count], deck[hole_count:hole_count + tilted_count]
    value = tilt_diagonal(hole, tilted)
    assert len(set(value.cards) & set(hole)) == 2
    assert len(set(value.cards) & set(tilted)) == 3
    assert value.strength == _best_five(Ranking.HIGH, _omaha_fives(hole, tilted))


@SETTINGS
@given(deck=decks, hole_count=st.integers(4, 12))
def test_tree_is_four_hole_cards_and_the_christmas_card(deck: list[int], hole_count: int) -> None:
    hole, christmas = deck[:hole_count], deck[hole_count]
    value = tree(hole, christmas)
    assert christmas in value.cards
    assert len(set(value.cards) & set(hole)) == 4
    fives = [(*four, christmas) for four in itertools.combinations(hole, 4)]
    assert value.strength == _best_five(Ranking.HIGH, fives)


@SETTINGS
@given(deck=decks, board_count=st.integers(3, 5))
def test_holdem_is_the_best_five_of_all_seven(deck: list[int], board_count: int) -> None:
    two, board = deck[:2], deck[2:2 + board_count]
    value = holdem(two, board)
    assert set(value.cards) <= set(two) | set(board)
    assert value.strength == _best_five(Ranking.HIGH, list(itertools.combinations(two + board, 5)))
    assert value.strength == batch.high(np.array([two + board]))[0]


@SETTINGS
@given(deck=decks, hole_count=st.integers(5, 15),
       ranking=st.sampled_from([Ranking.HIGH, Ranking.ESG_LOW]))
def test_hole_only_is_the_best_five_of_every_hole_card(
        deck: list[int], hole_count: int, ranking: Ranking) -> None:
    hole = deck[:hole_count]
    value = hole_only(hole, ranking)
    assert _strength(value) == _strength(best_of(ranking, hole))
    if hole_count <= 9:
        assert _strength(value) == _best_five(ranking, list(itertools.combinations(hole, 5)))
    if value is not None:
        assert set(value.cards) <= set(hole)
        assert _strength(evaluate(ranking, value.cards)) == value.strength


@pytest.mark.parametrize(("text", "description"), [
    ("As Ks Qs Js Ts", "Royal flush"),
    ("9h 8h 7h 6h 5h", "Straight flush, nine high"),
    ("Kc Kd Kh Ks 2c", "Four of a kind, kings"),
    ("Kc Kd Kh 9s 9c", "Full house, kings full of nines"),
    ("Ac 9c 7c 4c 2c", "Flush, ace high"),
    ("5c 4d 3h 2s Ac", "Straight, five high"),
    ("7c 7d 7h Ks 2c", "Three of a kind, sevens"),
    ("Kc Kd 9h 9s 2c", "Two pair, kings and nines"),
    ("Ac Ad 9h 7s 2c", "Pair of aces"),
    ("Ac Jd 9h 7s 2c", "High card, ace"),
])
def test_high_descriptions_and_card_order(text: str, description: str) -> None:
    cards = parse_cards(text)
    value = evaluate(Ranking.HIGH, cards)
    assert value is not None
    assert value.description == description
    # Each example is written in reading order (groups first, highest first).
    assert set(value.cards) == set(cards)
    assert [c >> 2 for c in value.cards] == [c >> 2 for c in cards]


def test_suits_never_break_ties() -> None:
    a = evaluate(Ranking.HIGH, parse_cards("Ac Kd 9h 7s 2c"))
    b = evaluate(Ranking.HIGH, parse_cards("As Kh 9d 7c 2d"))
    assert a is not None
    assert b is not None
    assert a.ties(b)
    assert not a.beats(b)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: evaluate(Ranking.HIGH, parse_cards("As Ks Qs Js")), "exactly 5"),
    (lambda: evaluate(Ranking.THREE_CARD, parse_cards("As Ks")), "exactly 3"),
    (lambda: evaluate(Ranking.HIGH, [51, 51, 1, 2, 3]), "As appears more than once"),
    (lambda: evaluate(Ranking.HIGH, [52, 0, 1, 2, 3]), "52 is not a card"),
    (lambda: best_of(Ranking.HIGH, parse_cards("As Ks")), "5 or more"),
    (lambda: omaha(parse_cards("As"), parse_cards("2c 3c 4c")), "hole cards"),
    (lambda: omaha(parse_cards("As Ks"), parse_cards("2c 3c")), "board"),
    (lambda: omaha(parse_cards("As Ks"), parse_cards("2c 3c 4c 5c 6c 7c")), "board"),
    (lambda: omaha(parse_cards("As Ks"), parse_cards("As 3c 4c")), "As appears more than once"),
    (lambda: omaha(parse_cards("As Ks"), parse_cards("2c 3c 4c"), Ranking.ESG_LOW), "esg-low"),
    (lambda: tilt_board(parse_cards("As Ks"), parse_cards("2c 3c 4c"), parse_cards("5c")[0]),
     "tilted card 5c is not on the board"),
    (lambda: tilt_diagonal(parse_cards("As Ks"), parse_cards("2c 3c")), "tilted cards"),
    (lambda: tree(parse_cards("As Ks Qs"), parse_cards("2c")[0]), "hole cards"),
    (lambda: tree(parse_cards("As Ks Qs Js"), parse_cards("As")[0]), "As appears more"),
    (lambda: holdem(parse_cards("As Ks Qs"), parse_cards("2c 3c 4c")), "exactly 2"),
    (lambda: hole_only(parse_cards("As Ks Qs Js")), "hole cards"),
    (lambda: hole_only(parse_cards("As Ks Qs Js Ts"), Ranking.LOW8), "low8"),
    (lambda: batch.high5(np.zeros((3, 4), dtype=np.int8)), "4 cards per row"),
    (lambda: batch.high7(np.full((3, 7), 60)), "0 to 51"),
    (lambda: batch.omaha_high(np.zeros((2, 4), dtype=int), np.zeros((3, 5), dtype=int)),
     "row counts"),
])
def test_clear_errors(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EvaluationError, match=message):
        call()


def test_evaluation_error_is_a_value_error() -> None:
    assert issubclass(EvaluationError, ValueError)
