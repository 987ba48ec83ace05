"""The ESG low (deuce-to-seven order on unpaired, non-straight, non-flush hands, ace high) and
the A-5 eight-or-better low, against PokerKit and an independent definition."""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np
import numpy.typing as npt
import pytest
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand, StandardLowHand

from boardroom.cards import format_cards, parse_cards
from boardroom.evaluation import Ranking, batch, best_of, evaluate, omaha, scalar


@pytest.fixture(scope="module")
def all_five() -> npt.NDArray[np.int8]:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
                       dtype=np.int8)
    return flat.reshape(-1, 5)


def _esg_qualifies(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    """RULES.md section 3, written independently: five ranks, not one suit, not five in a
    row with the ace always high (A-K-Q-J-T is a straight, A-5-4-3-2 is not)."""
    ranks = np.sort(hands.astype(np.int64) >> 2, axis=1)
    suits = hands & 3
    distinct = (np.diff(ranks, axis=1) > 0).all(axis=1)
    straight = distinct & (ranks[:, 4] - ranks[:, 0] == 4)
    one_suit = (suits == suits[:, :1]).all(axis=1)
    return distinct & ~straight & ~one_suit


def test_esg_low_rejects_exactly_pairs_straights_and_flushes(
        all_five: npt.NDArray[np.int8]) -> None:
    strengths = batch.esg_low(all_five)
    assert ((strengths > 0) == _esg_qualifies(all_five)).all()
    assert len(np.unique(strengths[strengths > 0])) == 1278
    sample = all_five[::31]
    assert [scalar.esg_low_strength(h) for h in sample.tolist()] == strengths[::31].tolist()


def test_esg_low_orders_every_low_as_pokerkit_deuce_to_seven() -> None:
    hands = []
    for ranks in itertools.combinations(range(13), 5):
        cards = tuple(rank * 4 + (i == 0) for i, rank in enumerate(ranks))  # not one suit
        value = evaluate(Ranking.ESG_LOW, cards)
        if value is None:
            continue
        hands.append((StandardLowHand(format_cards(cards).replace(" ", "")), value.strength))
    assert len(hands) == 1278
    hands.sort(key=lambda pair: pair[0])  # PokerKit: greater is stronger
    strengths = [strength for _, strength in hands]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == len(strengths)


@pytest.mark.parametrize(("text", "description"), [
    ("7c 5d 4h 3s 2c", "Low 7-5-4-3-2"),
    ("As 5d 4h 3s 2c", "Low A-5-4-3-2"),
    ("Kc 5d 4h 3s 2c", "Low K-5-4-3-2"),
])
def test_esg_low_descriptions(text: str, description: str) -> None:
    value = evaluate(Ranking.ESG_LOW, parse_cards(text))
    assert value is not None
    assert value.description == description


def test_esg_low_ace_is_high() -> None:
    wheel = evaluate(Ranking.ESG_LOW, parse_cards("As 5d 4h 3s 2c"))
    king = evaluate(Ranking.ESG_LOW, parse_cards("Kc Qd Jh Ts 8c"))
    six = evaluate(Ranking.ESG_LOW, parse_cards("As 6d 4h 3s 2c"))
    assert wheel is not None
    assert king is not None
    assert six is not None
    assert king.strength > wheel.strength > six.strength
    assert evaluate(Ranking.ESG_LOW, parse_cards("As Kd Qh Js Tc")) is None
    assert evaluate(Ranking.ESG_LOW, parse_cards("6s 5d 4h 3s 2c")) is None
    assert evaluate(Ranking.ESG_LOW, parse_cards("7s 5s 4s 3s 2s")) is None
    assert evaluate(Ranking.ESG_LOW, parse_cards("7s 7d 4s 3s 2s")) is None


def test_esg_low_best_of_avoids_a_forced_flush() -> None:
    # 7-5-4-3-2 exists only in spades, so the best low takes the eight instead of the seven.
    value = best_of(Ranking.ESG_LOW, parse_cards("7s 5s 4s 3s 2s 8d"))
    assert value is not None
    assert value.description == "Low 8-5-4-3-2"


@functools.cache
def _esg5(cards: tuple[int, ...]) -> int:
    value = evaluate(Ranking.ESG_LOW, cards)
    return 0 if value is None else value.strength


@pytest.mark.parametrize("n", [6, 7, 9, 15])
def test_esg_low_best_of_matches_brute_force(n: int) -> None:
    rng = random.Random(n)
    deck = list(range(52))
    for _ in range(150 if n < 15 else 30):
        # Crowd the low ranks and one suit so that forced flushes and straights occur.
        cards = rng.sample(deck[:32], n) if rng.random() < 0.5 else rng.sample(deck, n)
        if rng.random() < 0.3:
            cards = [c - (c & 3) for c in rng.sample(range(0, 52, 4), min(n, 13))]
            cards = cards[:5] + [c for c in rng.sample(deck, n) if c not in cards][: n - 5]
        expected = max(_esg5(tuple(sorted(five))) for five in itertools.combinations(cards, 5))
        assert scalar.esg_low_strength(cards) == expected, format_cards(cards)
        assert batch.esg_low(np.array([cards]))[0] == expected
        value = best_of(Ranking.ESG_LOW, cards)
        assert (0 if value is None else value.strength) == expected
        if value is not None:
            assert _esg5(tuple(sorted(value.cards))) == expected


def test_low8_matches_pokerkit_on_every_rank_multiset() -> None:
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        used: dict[int, int] = {}
        cards = []
        for rank in ranks:
            cards.append(rank * 4 + used.get(rank, 0))
            used[rank] = used.get(rank, 0) + 1
        text = format_cards(cards).replace(" ", "")
        ours = evaluate(Ranking.LOW8, cards)
        theirs = EightOrBetterLowHand.from_game_or_none(text)
        assert (ours is None) == (theirs is None), text
        if ours is not None:
            hands.append((theirs, ours.strength))
    assert len({strength for _, strength in hands}) == 56
    hands.sort(key=lambda pair: pair[0])
    strengths = [strength for _, strength in hands]
    assert strengths == sorted(strengths)
    # Equal PokerKit hands have equal strengths and only those.
    for (hand_a, a), (hand_b, b) in itertools.pairwise(hands):
        assert (a == b) == (not hand_a < hand_b)


def test_low8_scalar_and_batch_agree(all_five: npt.NDArray[np.int8]) -> None:
    sample = all_five[::29]
    expected = [scalar.low8_strength(h) for h in sample.tolist()]
    assert batch.low8_5(sample).tolist() == expected
    assert batch.low8(sample).tolist() == expected
    assert evaluate(Ranking.LOW8, parse_cards("5c 4d 3h 2s Ac")) is not None


@pytest.mark.parametrize(("text", "description"), [
    ("5c 4d 3h 2s Ac", "Low 5-4-3-2-A"),
    ("8c 5d 4h 2s Ac", "Low 8-5-4-2-A"),
    ("8c 7d 6h 5s 4c", "Low 8-7-6-5-4"),
])
def test_low8_descriptions(text: str, description: str) -> None:
    value = evaluate(Ranking.LOW8, parse_cards(text))
    assert value is not None
    assert value.description == description


def test_low8_ignores_straights_and_flushes_and_needs_eight_or_better() -> None:
    wheel = evaluate(Ranking.LOW8, parse_cards("5c 4c 3c 2c Ac"))
    assert wheel is not None
    assert wheel.strength == 56
    assert evaluate(Ranking.LOW8, parse_cards("9c 5d 4h 2s Ac")) is None
    assert evaluate(Ranking.LOW8, parse_cards("5c 5d 4h 2s Ac")) is None


@pytest.mark.parametrize("hole_count", [4, 5, 6])
def test_omaha_low8_matches_pokerkit(hole_count: int) -> None:
    rng = random.Random(hole_count)
    for _ in range(120):
        deck = rng.sample(range(52), hole_count + 5) if rng.random() < 0.5 else rng.sample(
            [c for c in range(52) if c >> 2 <= 6 or c >> 2 == 12], hole_count + 5)
        hole, board = deck[:hole_count], deck[hole_count:]
        ours = omaha(hole, board, Ranking.LOW8)
        theirs = OmahaEightOrBetterLowHand.from_game_or_none(
            format_cards(hole).replace(" ", ""), format_cards(board).replace(" ", ""))
        assert (ours is None) == (theirs is None)
        expected = 0
        if theirs is not None:
            their_cards = parse_cards("".join(repr(card) for card in theirs.cards))
            their_value = evaluate(Ranking.LOW8, their_cards)
            assert their_value is not None
            expected = their_value.strength
        assert (0 if ours is None else ours.strength) == expected
        assert scalar.omaha_low8_strength(hole, board) == expected
        assert batch.omaha_low8(np.array([hole]), np.array([board]))[0] == expected
