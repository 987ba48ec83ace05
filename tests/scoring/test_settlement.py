"""Pot settlement by points and by hi-lo halves (RULES.md sections 3, 4 and 7)."""

from __future__ import annotations

from fractions import Fraction

from boardroom.engine.showdown import Pot, settle_pots, split_chips
from boardroom.evaluation import HandValue, Ranking
from boardroom.rules import Split


def hand(strength: int, ranking: Ranking = Ranking.HIGH) -> HandValue:
    return HandValue(ranking=ranking, strength=strength, cards=(), description=f"{strength}")


def test_worked_example_side_pot_scored_without_the_all_in_player() -> None:
    # RULES.md s.7: P1 all-in for less; A to P1, B to P2, Hand tied by P2 and P3.
    p1, p2, p3 = 1, 2, 3
    hands = {
        p1: {"A": hand(900), "B": hand(100), "Hand": hand(50)},
        p2: {"A": hand(300), "B": hand(800), "Hand": hand(700)},
        p3: {"A": hand(500), "B": hand(200), "Hand": hand(700)},
    }
    main, side = settle_pots(
        [Pot(30, (p1, p2, p3)), Pot(20, (p2, p3))], hands, ["A", "B", "Hand"], Split.POINTS,
        order=[p1, p2, p3],
    )
    assert main.points == {p1: 1, p2: Fraction(3, 2), p3: Fraction(1, 2)}
    assert main.winners == (p2,)
    assert main.shares == {p2: 30}
    assert [c.winners for c in side.categories] == [(p3,), (p2,), (p2, p3)]
    assert side.points == {p2: Fraction(3, 2), p3: Fraction(3, 2)}
    assert side.shares == {p2: 10, p3: 10}


def test_odd_chips_go_clockwise_from_the_button_one_at_a_time() -> None:
    # Button at seat 4: the order is 5, 0, 1, ...; seats 1, 3, 5 tie for 11 chips.
    order = [5, 0, 1, 2, 3, 4]
    assert split_chips(11, [3, 1, 5], order) == {5: 4, 1: 4, 3: 3}
    assert split_chips(10, [3, 1, 5], order) == {5: 4, 1: 3, 3: 3}


def test_equal_points_split_the_pot_with_the_odd_chip_from_the_button() -> None:
    hands = {0: {"A": hand(5), "B": hand(1)}, 1: {"A": hand(1), "B": hand(5)}}
    (result,) = settle_pots([Pot(7, (0, 1))], hands, ["A", "B"], Split.POINTS, order=[1, 0])
    assert result.points == {0: 1, 1: 1}
    assert result.shares == {1: 4, 0: 3}
    assert sum(result.shares.values()) == 7


def test_void_category_gives_no_point() -> None:
    low = Ranking.ESG_LOW
    hands = {0: {"A": hand(5), "Hand": None}, 1: {"A": hand(1), "Hand": None}}
    (result,) = settle_pots([Pot(10, (0, 1))], hands, ["A", "Hand"], Split.POINTS, order=[0, 1])
    assert result.categories[1].is_void
    assert result.points == {0: 1, 1: 0}
    assert result.shares == {0: 10}
    assert hand(3, low).ranking is low


def test_hi_lo_odd_chip_to_the_high_half() -> None:
    hands = {0: {"High": hand(9), "Low": hand(1, Ranking.LOW8)},
             1: {"High": hand(2), "Low": hand(8, Ranking.LOW8)}}
    (result,) = settle_pots([Pot(11, (0, 1))], hands, ["High", "Low"], Split.HI_LO, order=[1, 0])
    assert result.shares == {1: 5, 0: 6}
    assert result.fractions == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_hi_lo_without_a_low_the_high_scoops() -> None:
    hands = {0: {"High": hand(9), "Low": None}, 1: {"High": hand(2), "Low": None}}
    (result,) = settle_pots([Pot(11, (0, 1))], hands, ["High", "Low"], Split.HI_LO, order=[0, 1])
    assert result.shares == {0: 11}


def test_hi_lo_quartered() -> None:
    # Seat 0 wins the high alone and ties the low with seat 1: 3/4 against 1/4.
    hands = {0: {"High": hand(9), "Low": hand(5, Ranking.LOW8)},
             1: {"High": hand(2), "Low": hand(5, Ranking.LOW8)}}
    (result,) = settle_pots([Pot(40, (0, 1))], hands, ["High", "Low"], Split.HI_LO, order=[0, 1])
    assert result.shares == {0: 30, 1: 10}
    assert result.fractions == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert result.points == {0: Fraction(3, 2), 1: Fraction(1, 2)}


def test_a_pot_with_one_eligible_seat_goes_to_it_unscored() -> None:
    hands = {0: {"A": hand(1)}, 1: {"A": hand(9)}}
    (result,) = settle_pots([Pot(25, (0,))], hands, ["A"], Split.POINTS, order=[0, 1])
    assert result.shares == {0: 25}
    assert result.categories == ()
