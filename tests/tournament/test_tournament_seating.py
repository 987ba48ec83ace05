"""The dead button, who waits, and where a moved player sits (TDA), on scripted tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardroom.tournament.seating import (
    Positions,
    hands_until_big_blind,
    next_positions,
    seat_draw,
    worst_seat,
)

RNG = random.Random(0)


def test_a_busted_big_blind_leaves_a_dead_small_blind() -> None:
    last = Positions(0, 1, 2, False, (0, 1, 2, 3, 4, 5))
    positions = next_positions(last, {0, 1, 3, 4, 5}, set(), 6, RNG)
    assert (positions.button, positions.small_blind, positions.big_blind) == (1, 2, 3)
    assert positions.small_blind_dead
    # The engine's button is seat 1 (just before the big blind) and nobody posts a small blind.
    assert positions.engine_seating() == ((0, 1, 3, 4, 5), 1, True)


def test_a_busted_small_blind_leaves_the_button_on_an_empty_seat() -> None:
    last = Positions(0, 1, 2, False, (0, 1, 2, 3, 4, 5))
    positions = next_positions(last, {0, 2, 3, 4, 5}, set(), 6, RNG)
    assert (positions.button, positions.small_blind, positions.big_blind) == (1, 2, 3)
    assert not positions.small_blind_dead
    # The dead button's seat is empty: seat 0 acts last, as the button would.
    assert positions.engine_seating() == ((0, 2, 3, 4, 5), 0, False)


def test_a_new_player_between_the_button_and_the_small_blind_waits() -> None:
    last = Positions(0, 2, 4, False, (0, 2, 4, 6))
    positions = next_positions(last, {0, 2, 3, 4, 6}, {3}, 9, RNG)
    assert (positions.button, positions.small_blind, positions.big_blind) == (2, 4, 6)
    assert positions.waiting == (3,)
    assert 3 not in positions.dealt
    # Next hand the button has passed: seat 3 is dealt in.
    after = next_positions(positions, {0, 2, 3, 4, 6}, set(positions.waiting), 9, RNG)
    assert 3 in after.dealt


def test_a_new_player_right_after_the_big_blind_posts_the_big_blind_at_once() -> None:
    last = Positions(0, 2, 4, False, (0, 2, 4, 6))
    positions = next_positions(last, {0, 2, 4, 5, 6}, {5}, 9, RNG)
    assert positions.big_blind == 5


def test_heads_up_the_button_posts_the_small_blind_and_nobody_has_the_big_blind_twice() -> None:
    last = Positions(0, 1, 2, False, (0, 1, 2))
    positions = next_positions(last, {0, 1}, set(), 6, RNG)  # the big blind busted
    assert (positions.button, positions.small_blind, positions.big_blind) == (1, 1, 0)
    assert positions.engine_seating() == ((0, 1), 1, False)
    again = next_positions(positions, {0, 1}, set(), 6, RNG)
    assert (again.button, again.big_blind) == (0, 1)


@given(st.integers(0, 2**32), st.integers(3, 10))
def test_the_big_blind_moves_to_the_next_player_every_hand_whoever_busts(seed: int,
                                                                         size: int) -> None:
    rng = random.Random(seed)
    occupied = set(range(size))
    positions = next_positions(None, occupied, set(), size, rng)
    while len(occupied) > 2:
        gone = rng.choice(sorted(occupied))
        occupied.discard(gone)
        previous = positions
        positions = next_positions(previous, occupied, set(), size, rng)
        expected = next(s for s in ((previous.big_blind + k) % size for k in range(1, size + 1))
                        if s in occupied)
        assert positions.big_blind == expected
        if len(occupied) > 2:
            assert positions.small_blind == previous.big_blind
            assert positions.button == previous.small_blind
            assert positions.small_blind_dead == (previous.big_blind not in occupied)


def test_the_worst_seat_is_the_next_big_blind_and_never_the_small_blind() -> None:
    last = Positions(0, 1, 2, False, (0, 1, 2, 5))
    assert worst_seat(last, {0, 1, 2, 5}, 6, RNG) == 3  # seat 3 would post the next big blind
    # The last big blind busted: its seat is the small blind's next hand, so not there.
    assert worst_seat(last, {0, 1, 4}, 6, RNG) == 3
    last = Positions(0, 1, 2, False, (0, 1, 2, 3))
    seat = worst_seat(last, {0, 1, 2, 3}, 6, RNG)
    assert seat == 4
    assert hands_until_big_blind(last, {0, 1, 2, 3}, seat, 6) == 1


def test_worst_seat_needs_an_empty_seat() -> None:
    with pytest.raises(ValueError, match="no empty seat"):
        worst_seat(None, set(range(6)), 6, RNG)


@given(st.integers(2, 200), st.integers(2, 10), st.integers(0, 2**32))
def test_the_seat_draw_fills_tables_within_one_player(players: int, size: int,
                                                      seed: int) -> None:
    tables = -(-players // size)
    draw = seat_draw([f"p{k}" for k in range(players)], tables, size, random.Random(seed))
    counts = [len(t) for t in draw]
    assert max(counts) - min(counts) <= 1
    assert sorted(p for t in draw for _, p in t) == sorted(f"p{k}" for k in range(players))
    assert all(len({s for s, _ in t}) == len(t) and all(0 <= s < size for s, _ in t)
               for t in draw)


def test_a_moved_player_is_never_seated_on_the_next_button() -> None:
    # The case the property test found: the last small blind (seat 3) busted, so seat 3 has the
    # button next hand; seat 4 sits between that button and the small blind (seat 5, the last
    # big blind's, empty too). Seated on seat 3 a moved player would take the button without
    # posting a big blind; on seat 4 they wait for the button to pass, the big blind ahead.
    last = Positions(2, 3, 5, False, (0, 1, 2, 3, 5))
    occupied = {0, 1, 2}
    seat = worst_seat(last, occupied, 6, RNG)
    assert seat == 4
    first = next_positions(last, occupied | {seat}, {seat}, 6, RNG, movers={seat})
    assert seat in first.waiting
    after = next_positions(first, occupied | {seat}, set(first.waiting), 6, RNG,
                           movers={seat})
    assert seat in after.dealt
    assert seat not in (after.button, after.small_blind)


def test_a_moved_player_on_the_button_or_the_small_blind_seat_waits_for_the_big_blind() -> None:
    # A full table whose small and big blinds both busted: the next button's and the next small
    # blind's seats are the only empty ones. The worst seat is the button's (never the small
    # blind's), and a player moved there is not dealt the button: they wait until it passes.
    last = Positions(0, 1, 2, False, (0, 1, 2, 3, 4, 5))
    occupied = {0, 3, 4, 5}
    seat = worst_seat(last, occupied, 6, RNG)
    assert seat == 1
    positions, seats, newcomers = last, occupied | {seat}, {seat}
    posted = False
    for _ in range(6):
        positions = next_positions(positions, seats, newcomers, 6, RNG, movers={seat})
        newcomers = set(positions.waiting)
        if seat in positions.dealt:
            assert seat not in (positions.button, positions.small_blind) or posted
            posted = posted or positions.big_blind == seat
    assert posted
    # On the small blind's seat (the only empty one) a moved player waits too.
    positions = next_positions(last, {0, 2, 3, 4, 5}, {2}, 6, RNG, movers={2})
    assert positions.small_blind == 2
    assert positions.small_blind_dead
    assert 2 in positions.waiting


def test_when_too_few_could_be_dealt_the_new_player_is_dealt_before_the_mover() -> None:
    # The second case the property test found: 4-max, the last hand's small (2) and big blind
    # (0) busted; seat 3's player came from a broken table, between the next button (2) and the
    # dead small blind (0), and a mover sits on the button's seat. Both waiting would leave one
    # player: the newcomer is dealt in first (heads-up with seat 1), the mover still waits, and
    # then posts the big blind.
    last = Positions(1, 2, 0, False, (0, 1, 2))
    positions = next_positions(last, {1, 2, 3}, {2, 3}, 4, RNG, movers={2})
    assert positions.waiting == (2,)
    assert positions.dealt == (1, 3)
    after = next_positions(positions, {1, 2, 3}, set(positions.waiting), 4, RNG, movers={2})
    assert after.big_blind == 2
