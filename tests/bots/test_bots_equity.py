"""The bots' Monte Carlo pot share: only the seat's view, points scoring, redraws to come."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from boardroom.bots.equity import (
    _shares,
    draws_done_and_left,
    future_redraws,
    live_opponents,
    pot_share,
)
from boardroom.cards import parse_cards
from boardroom.engine import Hand, ScriptedCards, Stakes
from boardroom.engine.view import HandView, view_for
from boardroom.rules import find_variant

BLINDS = Stakes(small_blind=1, big_blind=2)


def _river_plo(hole: str, other: str, board: str) -> Hand:
    hand = Hand(find_variant("plo"), BLINDS, [100, 100], 0, cards=ScriptedCards(
        hole={0: parse_cards(hole), 1: parse_cards(other)},
        boards={"A": parse_cards(board)}))
    while hand.street is not None and hand.street.name != "river":
        if hand.can_check():
            hand.check()
        else:
            hand.call()
    return hand


def test_the_nuts_on_the_river_wins_the_whole_pot() -> None:
    hand = _river_plo("As Ks 2c 3d", "7h 7d 8c 9c", "Qs Js Ts 4h 5d")
    assert pot_share(view_for(hand, 0), 300, np.random.default_rng(1)) == 1.0


def test_a_dead_hand_on_the_river_wins_nothing() -> None:
    # Seat 1's best is queen high: almost every random holding beats it.
    hand = _river_plo("As Ks 2c 3d", "2h 3c 6c 8d", "Qs Js Ts 4h 5d")
    share = pot_share(view_for(hand, 1), 300, np.random.default_rng(1))
    assert 0.0 <= share < 0.1


def test_the_estimate_reads_only_the_view() -> None:
    """Two hands that differ only in the opponent's hidden cards give the same estimate."""
    first = _river_plo("As Ks 2c 3d", "7h 7d 8c 9c", "Qs Js Ts 4h 5d")
    second = _river_plo("As Ks 2c 3d", "6h 6d 8h 9h", "Qs Js Ts 4h 5d")
    view_a, view_b = view_for(first, 1), view_for(second, 1)
    assert view_a.seats[0].cards == view_b.seats[0].cards == (None,) * 4
    own_a = pot_share(replace(view_a, seats=(view_a.seats[0], view_b.seats[1])), 200,
                      np.random.default_rng(5))
    own_b = pot_share(view_b, 200, np.random.default_rng(5))
    assert own_a == own_b


def test_the_same_seed_gives_the_same_estimate() -> None:
    hand = Hand(find_variant("esg"), BLINDS, [200] * 4, 0, rng=random.Random(2))
    view = view_for(hand, hand.actor or 0)
    one = pot_share(view, 100, np.random.default_rng(9))
    two = pot_share(view, 100, np.random.default_rng(9))
    assert one == two
    assert 0.0 <= one <= 1.0


def test_points_scoring_counts_categories_not_one_board() -> None:
    """ESG heads-up: winning board A and the private Hand takes the pot despite losing B."""
    variant = find_variant("esg")
    a = np.array([parse_cards("Jh Th 2h 5s 6s")])
    b = np.array([parse_cards("7c 8c 9d Td Jc")])
    me = np.array([parse_cards("Ah Ad Ac As Kh Qh")])  # ace flush on A, quad aces
    other = np.array([parse_cards("2c 3c 4c 5c 6h Kd")])  # club flush on B
    assert _shares(variant, [me, other], {"A": a, "B": b}).tolist() == [1.0]
    assert _shares(variant, [other, me], {"A": a, "B": b}).tolist() == [0.0]


def test_equal_points_split_the_pot() -> None:
    variant = find_variant("bomb")
    a = np.array([parse_cards("Ah Kh Qh 2c 3d")])
    b = np.array([parse_cards("As Ks Qs 4c 5d")])
    me = np.array([parse_cards("Jh Th 9c 8c")])  # royal on A only
    other = np.array([parse_cards("Js Ts 9d 8d")])  # royal on B only
    assert _shares(variant, [me, other], {"A": a, "B": b}).tolist() == [0.5]


def test_hi_lo_halves_and_scoops() -> None:
    variant = find_variant("omaha-hilo")
    board = np.array([parse_cards("2c 4d 6h Ks Qs")])
    low = np.array([parse_cards("Ac 3d 9h 9s")])  # the nut low, a weak high
    high = np.array([parse_cards("Kc Kd Jh Js")])  # trip kings, no low
    assert _shares(variant, [low, high], {"A": board}).tolist() == [0.5]
    no_low_board = np.array([parse_cards("Tc Jd Qh Ks 8s")])
    assert _shares(variant, [low, high], {"A": no_low_board}).tolist() == [0.0]


def _view_at(variant_id: str, players: int, street: str, seed: int = 3) -> HandView:
    variant = find_variant(variant_id)
    hand = Hand(variant, BLINDS, [500] * players, 0, rng=random.Random(seed))
    while hand.street is not None and hand.street.name != street:
        if hand.can_check():
            hand.check()
        else:
            hand.call()
    return view_for(hand, hand.actor if hand.actor is not None else 0)


@pytest.mark.parametrize(("players", "street", "expected"), [
    # RULES.md s.7: 6 players in ESG leave a stub of 6: 1 card each at the flop, 0 after.
    (6, "preflop", 1),
    # Heads-up: 52 - 12 - 10 = 30 cards: 3, 3 and 3 more, all before the river.
    (2, "preflop", 9),
    (2, "flop", 6),
    (2, "river", 0),
])
def test_future_redraws_follow_the_public_pool(players: int, street: str, expected: int) -> None:
    view = _view_at("esg", players, street)
    assert future_redraws(find_variant("esg"), view) == expected


def test_live_opponents_skip_folded_seats() -> None:
    hand = Hand(find_variant("plo"), BLINDS, [100] * 3, 0, rng=random.Random(1))
    hand.fold()  # the button, first to act three-handed
    view = view_for(hand, hand.actor or 0)
    assert 0 not in live_opponents(view)
    assert len(live_opponents(view)) == 1


@pytest.mark.parametrize(("game", "street", "expected"), [
    ("27-triple-draw", "predraw", (0, 3)), ("27-triple-draw", "first draw", (1, 2)),
    ("27-triple-draw", "third draw", (3, 0)), ("badugi", "second draw", (2, 1)),
    ("27-single-draw", "predraw", (0, 1)), ("27-single-draw", "draw", (1, 0)),
    ("holdem", "river", (0, 0)),
])
def test_draws_done_and_left_follow_the_streets(game: str, street: str,
                                                expected: tuple[int, int]) -> None:
    variant = find_variant(game)
    names = [s.name for s in variant.streets]
    hand = Hand(variant, BLINDS, [100, 100], 0, rng=random.Random(1))
    assert street in names
    view = replace(view_for(hand, 0), street=street)
    assert draws_done_and_left(variant, view) == expected


def _badugi_river(mine: str) -> HandView:
    """Heads-up badugi at the last betting round, both standing pat on every draw."""
    other = "Kc Kd Ks Kh"
    hand = Hand(find_variant("badugi"), BLINDS, [100, 100], 0, cards=ScriptedCards(
        hole={0: parse_cards(other), 1: parse_cards(mine)}, boards={}))
    while hand.legal_actions() is not None and hand.street is not None and not (
            hand.street.name == hand.variant.streets[-1].name and not hand.is_drawing):
        if hand.is_drawing:
            hand.stand_pat()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    return view_for(hand, 1)


def test_an_opponent_who_drew_three_times_is_not_a_random_hand() -> None:
    """On badugi's last betting round, a three-card hand (A-2-3) beats a random four-card
    hand about nine times in ten, but not a player who has drawn three times: the estimate
    gives the opponent one more card to choose from per draw, and the share falls."""
    view = _badugi_river("Ac 2d 3h 3s")
    share = pot_share(view, 2000, np.random.default_rng(3))
    assert share < 0.75
    badugi = pot_share(_badugi_river("Ac 2d 3h 4s"), 2000, np.random.default_rng(3))
    assert badugi > 0.95
