"""The nuts (RULES.md section 3, "What a player sees"): no holding of unseen cards beats it,
some holding makes it, and a Balance river's pills stay cheap."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.cards import parse_cards
from boardroom.evaluation import (
    HOLDING_CONSTRUCTIONS,
    Construction,
    EvaluationError,
    HandValue,
    Ranking,
    best_holding,
    evaluate,
    holdem,
    hole_only,
    is_nuts,
    nuts,
    omaha,
    tilt_board,
    tilt_diagonal,
    tree,
)

SETTINGS = settings(max_examples=40, deadline=None)
EXHAUSTIVE_EXAMPLES = 150


def _strength(value: HandValue | None) -> int:
    return 0 if value is None else value.strength


def _holding_value(construction: Construction, holding: list[int], board: list[int],
                   ranking: Ranking, tilted: int | None) -> int:
    if construction is Construction.OMAHA:
        return _strength(omaha(holding, board, ranking))
    if construction is Construction.TILT_BOARD:
        assert tilted is not None
        return tilt_board(holding, board, tilted).strength
    if construction is Construction.TILT_DIAGONAL:
        return tilt_diagonal(holding, board).strength
    if construction is Construction.HOLDEM:
        return holdem(holding, board).strength
    if construction is Construction.TREE:
        return tree(holding, board[0]).strength
    return _strength(hole_only(holding, ranking))


SIZES = {Construction.HOLE_ONLY: 5, Construction.TREE: 4}
BOARDS = {Construction.HOLE_ONLY: (0, 0), Construction.TREE: (1, 1),
          Construction.TILT_DIAGONAL: (3, 4)}
CASES = [(Construction.OMAHA, Ranking.HIGH), (Construction.OMAHA, Ranking.LOW8),
         (Construction.TILT_BOARD, Ranking.HIGH), (Construction.TILT_DIAGONAL, Ranking.HIGH),
         (Construction.HOLDEM, Ranking.HIGH), (Construction.HOLE_ONLY, Ranking.HIGH),
         (Construction.HOLE_ONLY, Ranking.ESG_LOW), (Construction.TREE, Ranking.HIGH)]


@SETTINGS
@given(deck=st.permutations(list(range(52))), case=st.sampled_from(CASES),
       board_count=st.integers(3, 5), seen_count=st.integers(0, 30), seed=st.integers(0, 9))
def test_no_sampled_holding_beats_the_nuts_and_the_nuts_is_made(
        deck: list[int], case: tuple[Construction, Ranking], board_count: int, seen_count: int,
        seed: int) -> None:
    construction, ranking = case
    low, high = BOARDS.get(construction, (3, 5))
    board_count = min(max(board_count, low), high)
    board = deck[:board_count]
    seen = deck[board_count:board_count + seen_count]
    unseen = deck[board_count + seen_count:]
    tilted = board[seed % board_count] if construction is Construction.TILT_BOARD else None
    best = nuts(construction, board, seen=seen, ranking=ranking, tilted=tilted)
    size = SIZES.get(construction, 2)
    # The nuts is made by a holding of unseen cards.
    if best is not None:
        holding = _made_by(construction, best.cards, board, unseen, size)
        assert _holding_value(construction, holding, board, ranking, tilted) == best.strength
        assert is_nuts(best, construction, board, seen=seen, tilted=tilted)
    # No sampled holding beats it.
    rng = random.Random(seed)
    for _ in range(25):
        holding = rng.sample(unseen, size)
        value = _holding_value(construction, holding, board, ranking, tilted)
        assert value <= _strength(best)


def _made_by(construction: Construction, cards: Sequence[int], board: list[int],
             unseen: list[int], size: int) -> list[int]:
    """The holding of unseen cards that makes the nuts ``cards``: their cards off the board,
    which in Hold'em (any mix of hole and board cards) may be a single card, completed with
    other unseen cards."""
    holding = [card for card in cards if card not in board]
    assert set(holding) <= set(unseen)
    if construction is Construction.HOLDEM:
        assert 1 <= len(holding) <= size
        holding += [card for card in unseen if card not in holding][:size - len(holding)]
    assert len(holding) == size
    return holding


def test_holdem_nuts_may_take_one_hole_card() -> None:
    board = parse_cards("Ah Kh Qh Jh")
    best = nuts(Construction.HOLDEM, board, seen=[], ranking=Ranking.HIGH)
    assert best is not None
    assert best.description == "Royal flush"
    unseen = [c for c in range(52) if c not in set(board)]
    assert [c for c in best.cards if c not in board] == list(parse_cards("Th"))
    holding = _made_by(Construction.HOLDEM, best.cards, board, unseen, 2)
    assert holdem(holding, board).strength == best.strength


def test_omaha_nuts_against_every_holding() -> None:
    board = parse_cards("Qh Jh 7h 4s 2c")
    seen = parse_cards("Ah Kd 3c 3d")
    unseen = [c for c in range(52) if c not in set(board) | set(seen)]
    for ranking in (Ranking.HIGH, Ranking.LOW8):
        expected = max(_strength(omaha(pair, board, ranking))
                       for pair in itertools.combinations(unseen, 2))
        assert _strength(nuts(Construction.OMAHA, board, seen=seen, ranking=ranking)) == expected


@pytest.mark.parametrize("construction", [Construction.TREE, Construction.HOLE_ONLY])
def test_private_nuts_against_every_holding(construction: Construction) -> None:
    rng = random.Random(5)
    for _ in range(3):
        deck = rng.sample(range(52), 52)
        board = deck[:1] if construction is Construction.TREE else []
        seen, unseen = deck[len(board):36], deck[36:]
        size = SIZES[construction]
        rankings = [Ranking.HIGH] if construction is Construction.TREE else [
            Ranking.HIGH, Ranking.ESG_LOW]
        for ranking in rankings:
            expected = max(_holding_value(construction, list(h), board, ranking, None)
                           for h in itertools.combinations(unseen, size))
            best = nuts(construction, board, seen=seen, ranking=ranking)
            assert _strength(best) == expected


def test_nuts_examples() -> None:
    board = parse_cards("Qh Jh Th 4s 5s")
    best = nuts(Construction.OMAHA, board, seen=parse_cards("2c 3d 4d 7c"))
    assert best is not None
    assert best.description == "Royal flush"
    blocked = nuts(Construction.OMAHA, board, seen=parse_cards("Ah 3d 4d 7c"))
    assert blocked is not None
    assert blocked.description == "Straight flush, king high"
    low = nuts(Construction.HOLE_ONLY, seen=parse_cards("7c 7d 7h 7s"), ranking=Ranking.ESG_LOW)
    assert low is not None
    assert low.description == "Low 8-5-4-3-2"
    viewer = omaha(parse_cards("Kh 9h 3d 4d"), board)
    assert viewer is not None
    assert viewer.description == "Straight flush, king high"
    # The viewer holds the king of hearts: nobody can hold the royal flush.
    assert is_nuts(viewer, Construction.OMAHA, board, seen=parse_cards("Kh 9h 3d 4d"))
    lower = omaha(parse_cards("9h 8h 3d 4d"), board)
    assert lower is not None
    assert lower.description == "Straight flush, queen high"
    assert not is_nuts(lower, Construction.OMAHA, board, seen=parse_cards("9h 8h 3d 4d"))
    # Seeing the ace of hearts rules out the royal, and holding the nine rules out K-high.
    assert is_nuts(lower, Construction.OMAHA, board, seen=parse_cards("9h 8h 3d 4d Ah"))


def test_nuts_errors() -> None:
    board = parse_cards("Qh Jh Th")
    with pytest.raises(EvaluationError, match="tilted card"):
        nuts(Construction.TILT_BOARD, board, tilted=parse_cards("2c")[0])
    with pytest.raises(EvaluationError, match="esg-low"):
        nuts(Construction.OMAHA, board, ranking=Ranking.ESG_LOW)
    with pytest.raises(EvaluationError, match="board"):
        nuts(Construction.TREE, board)
    with pytest.raises(EvaluationError, match="appears more than once"):
        nuts(Construction.OMAHA, board, seen=[0, 0])



def test_the_rules_and_the_evaluators_name_one_construction() -> None:
    from boardroom.rules import Construction as RulesConstruction

    assert RulesConstruction is Construction
    with pytest.raises(EvaluationError, match="an allocated hand is ranked three-card or two"):
        nuts(Construction.ALLOCATED, seen=parse_cards("2c 3d"))
    with pytest.raises(EvaluationError, match="a tree hand is not two cards with a board"):
        best_holding(Construction.TREE, parse_cards("2c"), parse_cards("3d 4d 5d 6d"))
    with pytest.raises(EvaluationError, match="hole cards and omaha board: card 2c"):
        best_holding(Construction.OMAHA, parse_cards("2c 3c 4c"), parse_cards("2c 5d"))


# -- exhaustive: every holding of unseen cards, every construction and ranking ------------------

EXHAUSTIVE = [*CASES, (Construction.OMAHA, Ranking.LOW8), (Construction.HOLE_ONLY, Ranking.LOW8),
              (Construction.ALLOCATED, Ranking.THREE_CARD),
              (Construction.ALLOCATED, Ranking.TWO_CARD)]
# Unseen cards at most, so that every holding can be enumerated (C(16, 5) = 4,368).
MOST_UNSEEN = {Construction.HOLE_ONLY: 16, Construction.TREE: 20, Construction.ALLOCATED: 30}


def _holding_strength(construction: Construction, holding: Sequence[int], board: list[int],
                      ranking: Ranking, tilted: int | None) -> int:
    if construction is Construction.ALLOCATED:
        return _strength(evaluate(ranking, holding))
    if construction is Construction.HOLE_ONLY:
        return _strength(evaluate(ranking, holding))
    return _holding_value(construction, list(holding), board, ranking, tilted)


@settings(max_examples=EXHAUSTIVE_EXAMPLES, deadline=None)
@given(deck=st.permutations(list(range(52))), case=st.sampled_from(EXHAUSTIVE),
       board_count=st.integers(3, 5), hole_count=st.integers(2, 16),
       seen_count=st.integers(0, 40), pick=st.integers(0, 4))
def test_nuts_is_nuts_and_best_holding_equal_brute_force(
        deck: list[int], case: tuple[Construction, Ranking], board_count: int, hole_count: int,
        seen_count: int, pick: int) -> None:
    """Exact against every holding: the nuts, the NUTS badge of the viewer's hand (ties are the
    nuts) and, for the board constructions, the viewer's best two-card holding."""
    construction, ranking = case
    low, high = BOARDS.get(construction, (3, 5))
    if construction is Construction.ALLOCATED:
        low = high = 0
    board_count = min(max(board_count, low), high)
    size = SIZES.get(construction, ranking.card_count if construction is Construction.ALLOCATED
                     else 2)
    hole_count = max(hole_count, size)
    board = deck[:board_count]
    hole = deck[board_count:board_count + hole_count]
    rest = deck[board_count + hole_count:]
    most = MOST_UNSEEN.get(construction, len(rest))
    seen_count = max(seen_count, len(rest) - most)
    others, unseen = rest[:seen_count], rest[seen_count:]
    seen = hole + others
    tilted = board[pick % board_count] if construction is Construction.TILT_BOARD else None
    strengths = [_holding_strength(construction, holding, board, ranking, tilted)
                 for holding in itertools.combinations(unseen, size)]
    best = max(strengths, default=0)
    assert _strength(nuts(construction, board, seen=seen, ranking=ranking, tilted=tilted)) == best
    mine = [_holding_strength(construction, holding, board, ranking, tilted)
            for holding in itertools.combinations(hole, size)]
    if construction in HOLDING_CONSTRUCTIONS:
        value = best_holding(construction, board, hole, ranking=ranking, tilted=tilted)
        assert _strength(value) == max(mine)
    if max(mine) == 0:
        return
    # The viewer's best hand, then hands just above and below the nuts: ties are the nuts.
    for strength in {max(mine), best, best - 1, best + 1}:
        if not 1 <= strength <= ranking.class_count:
            continue
        value = HandValue(ranking, strength, (), "")
        expected = strength >= best
        assert is_nuts(value, construction, board, seen=seen, tilted=tilted) == expected
