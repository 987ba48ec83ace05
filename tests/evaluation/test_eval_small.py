"""The 3-card (Allocator Redraw) and 2-card (Allocator) hands against independent brute-force
definitions over every hand (RULES.md section 3)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from boardroom.cards import parse_cards
from boardroom.evaluation import Ranking, batch, best_of, evaluate, scalar, small


def three_card_key(cards: tuple[int, ...]) -> tuple[int, ...]:
    """A sortable key written from the rule: category first, then ranks (ace = 14)."""
    ranks = sorted((c // 4 + 2 for c in cards), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    trips = ranks[0] == ranks[2]
    if set(ranks) == {14, 2, 3}:
        straight_top = 3
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        straight_top = ranks[0]
    else:
        straight_top = 0
    if suited and ranks == [14, 13, 12]:
        return (7,)
    if trips:
        return (6, ranks[0])
    if suited and straight_top:
        return (5, straight_top)
    if straight_top:
        return (4, straight_top)
    if suited:
        return (3, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return (2, pair, kicker)
    return (1, *ranks)


def two_card_key(cards: tuple[int, ...]) -> tuple[int, ...]:
    high, low = sorted((c // 4 for c in cards), reverse=True)
    return (1 if high == low else 0, high, low)


@pytest.mark.parametrize(("size", "key", "score", "vector"), [
    (3, three_card_key, scalar.three_card_strength, batch.three_card),
    (2, two_card_key, scalar.two_card_strength, batch.two_card),
])
def test_every_hand_matches_the_brute_force_order(size, key, score, vector) -> None:  # type: ignore[no-untyped-def]
    hands = list(itertools.combinations(range(52), size))
    ours = [score(hand) for hand in hands]
    keys = [key(hand) for hand in hands]
    # Same equivalence classes in the same order.
    classes = sorted(set(zip(keys, ours, strict=True)))
    assert len(classes) == len(set(keys)) == len(set(ours))
    assert [s for _, s in classes] == sorted(s for _, s in classes)
    assert vector(np.array(hands)).tolist() == ours
    assert min(ours) == 1
    assert max(ours) == (741 if size == 3 else 91)


@pytest.mark.parametrize(("better", "worse"), [
    ("As Ks Qs", "Ah Ad Ac"),  # Royal over trips
    ("2c 2d 2h", "Jh Qh Kh"),  # trips over a straight flush
    ("Ah 2h 3h", "Ac Kd Qh"),  # a straight flush over any straight
    ("2c 3d 4h", "Ac 2d 3h"),  # A-2-3 is the lowest straight
    ("Ac 2d 3h", "Kc Qc 9c"),  # ... but still a straight, above every flush
    ("5c 3c 2c", "Ac Ad Kh"),  # a flush over a pair
    ("2c 2d 3h", "Ac Kd Jh"),  # a pair over a high card
    ("Ac Kd 2h", "Qc Jd 9h"),  # K-A-2 is no straight, only an ace-high hand
])
def test_three_card_edge_cases(better: str, worse: str) -> None:
    a = evaluate(Ranking.THREE_CARD, parse_cards(better))
    b = evaluate(Ranking.THREE_CARD, parse_cards(worse))
    assert a is not None
    assert b is not None
    assert a.beats(b)


@pytest.mark.parametrize(("text", "description"), [
    ("As Ks Qs", "Royal"),
    ("Qs Qd Qh", "Trips, queens"),
    ("7h 6h 5h", "Straight flush, seven high"),
    ("Ac 2d 3h", "Straight, three high"),
    ("Kc 9c 2c", "Flush, king high"),
    ("9c 9d 2c", "Pair of nines"),
    ("Ac Kd 2h", "High card, ace"),
])
def test_three_card_descriptions(text: str, description: str) -> None:
    value = evaluate(Ranking.THREE_CARD, parse_cards(text))
    assert value is not None
    assert value.description == description


def test_two_card_edge_cases_and_descriptions() -> None:
    aces = evaluate(Ranking.TWO_CARD, parse_cards("As Ad"))
    deuces = evaluate(Ranking.TWO_CARD, parse_cards("2s 2d"))
    ace_king = evaluate(Ranking.TWO_CARD, parse_cards("As Kd"))
    ace_king_suited = evaluate(Ranking.TWO_CARD, parse_cards("Ad Kd"))
    three_two = evaluate(Ranking.TWO_CARD, parse_cards("3s 2d"))
    assert aces is not None
    assert deuces is not None
    assert ace_king is not None
    assert ace_king_suited is not None
    assert three_two is not None
    assert (aces.strength, deuces.strength, ace_king.strength, three_two.strength) == (
        91, 79, 78, 1)
    assert ace_king.ties(ace_king_suited)
    assert aces.description == "Pair of aces"
    assert ace_king.description == "Ace-king"
    assert three_two.description == "Three-two"


def test_best_of_small_hands_picks_the_best_subset() -> None:
    cards = parse_cards("As Kd 2c 2h 9s 3s")
    two = best_of(Ranking.TWO_CARD, cards)
    three = best_of(Ranking.THREE_CARD, cards)
    assert two is not None
    assert three is not None
    assert two.description == "Pair of twos"
    # A-2-3 (a straight) beats the spade flush A-9-3.
    assert three.description == "Straight, three high"
    assert {c >> 2 for c in three.cards} == {12, 0, 1}


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=2, max_size=24, unique=True),
       suits=st.integers(1, 4))
def test_the_best_small_hand_of_many_cards_is_the_best_subset(cards: list[int],
                                                             suits: int) -> None:
    """Rank counting (``small``) against every subset, on few suits too (runs, flushes)."""
    cards = sorted({card - card % 4 + card % 4 % suits for card in cards})
    assume(len(cards) >= 2)
    assert small.best_two_card(cards) == max(
        scalar.two_card_strength(pair) for pair in itertools.combinations(cards, 2))
    if len(cards) >= 3:
        assert small.best_three_card(cards) == max(
            scalar.three_card_strength(three) for three in itertools.combinations(cards, 3))
    # A pill reads the best hand back with its cards (the cards of the pool that make it).
    value = best_of(Ranking.THREE_CARD, cards) if len(cards) >= 3 else None
    if value is not None:
        assert set(value.cards) <= set(cards)
        assert scalar.three_card_strength(value.cards) == value.strength
